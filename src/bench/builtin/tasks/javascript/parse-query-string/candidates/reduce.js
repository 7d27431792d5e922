function parseQuery(qs) {
  const decode = (s) => decodeURIComponent(s.split('+').join(' '));
  return qs
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair.length > 0)
    .reduce((acc, pair) => {
      const m = /^([^=]*)(?:=(.*))?$/s.exec(pair);
      const key = decode(m[1]);
      const value = decode(m[2] === undefined ? '' : m[2]);
      if (!(key in acc)) acc[key] = value;
      else if (Array.isArray(acc[key])) acc[key].push(value);
      else acc[key] = [acc[key], value];
      return acc;
    }, {});
}
