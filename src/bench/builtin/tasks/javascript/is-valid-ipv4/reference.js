//Return true if s is a dotted-decimal IPv4 address: exactly four parts
// separated by dots, each a decimal number from 0 to 255 written with digits
// only and without leading zeros ("0" itself is fine).
// >>> isValidIPv4("192.168.1.1")
// true
// >>> isValidIPv4("192.168.01.1")
// false
function isValidIPv4(s){
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}
