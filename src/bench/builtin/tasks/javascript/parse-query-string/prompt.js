//Parse a URL query string into an object. A leading "?" is optional; pairs
// are separated by "&" and empty pairs are skipped. A pair without "=" has the
// value "". Keys and values are percent-decoded and "+" means a space. The
// value is everything after the first "=". A key that appears more than once
// maps to an array of its values in order.
// >>> parseQuery("?a=1&b=hello+world")
// {"a": "1", "b": "hello world"}
// >>> parseQuery("t=1&t=2&flag")
// {"t": ["1", "2"], "flag": ""}
function parseQuery(qs){
