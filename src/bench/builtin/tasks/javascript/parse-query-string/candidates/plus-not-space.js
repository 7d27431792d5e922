function parseQuery(qs) {
  const result = {};
  if (qs.startsWith('?')) qs = qs.slice(1);
  for (const pair of qs.split('&')) {
    if (!pair) continue;
    const i = pair.indexOf('=');
    const key = decodeURIComponent(i < 0 ? pair : pair.slice(0, i));
    const value = decodeURIComponent(i < 0 ? '' : pair.slice(i + 1));
    if (key in result) result[key] = [].concat(result[key], value);
    else result[key] = value;
  }
  return result;
}
