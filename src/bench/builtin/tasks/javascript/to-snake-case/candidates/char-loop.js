function toSnakeCase(name) {
  const isUpper = (c) => c !== undefined && c >= 'A' && c <= 'Z';
  const isLower = (c) => c !== undefined && c >= 'a' && c <= 'z';
  const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (isUpper(c) && i > 0) {
      const prev = name[i - 1];
      const next = name[i + 1];
      if (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next))) out += '_';
    }
    out += c.toLowerCase();
  }
  return out;
}
