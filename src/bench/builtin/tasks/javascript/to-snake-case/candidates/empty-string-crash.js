function toSnakeCase(name) {
  let out = name[0].toLowerCase();
  for (let i = 1; i < name.length; i++) {
    const c = name[i];
    const prev = name[i - 1];
    const next = name[i + 1] || '';
    const upper = c >= 'A' && c <= 'Z';
    if (upper && (/[a-z0-9]/.test(prev) || (/[A-Z]/.test(prev) && /[a-z]/.test(next)))) out += '_';
    out += c.toLowerCase();
  }
  return out;
}
