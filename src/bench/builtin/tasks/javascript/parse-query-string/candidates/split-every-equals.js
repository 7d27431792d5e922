function parseQuery(qs) {
  const result = {};
  const decode = (s) => decodeURIComponent(s.replace(/\+/g, ' '));
  for (const pair of qs.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const [key, value = ''] = pair.split('=');
    const k = decode(key);
    const v = decode(value);
    if (k in result) result[k] = Array.isArray(result[k]) ? result[k].concat([v]) : [result[k], v];
    else result[k] = v;
  }
  return result;
}
