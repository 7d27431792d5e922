function isValidIPv4(s) {
  const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
  return new RegExp('^' + octet + '\\.' + octet + '\\.' + octet + '\\.' + octet + '$').test(s);
}
