//Convert a camelCase or PascalCase identifier to snake_case. Runs of capitals
// are acronyms and stay together: "parseHTTPResponse" becomes
// "parse_http_response". Underscores already present are kept.
// >>> toSnakeCase("userName")
// "user_name"
// >>> toSnakeCase("HTMLParser")
// "html_parser"
function toSnakeCase(name){
