function isValidIPv4(s) {
  const m = s.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  return m.slice(1).every((p) => Number(p) <= 255 && (p === '0' || p[0] !== '0'));
}
