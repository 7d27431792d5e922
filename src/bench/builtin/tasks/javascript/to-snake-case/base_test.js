const assert = require('node:assert');

function test() {
  let candidate = toSnakeCase;
  assert.deepEqual(candidate("parseResponse"),"parse_response");
  assert.deepEqual(candidate("userName"),"user_name");
  assert.deepEqual(candidate("PascalCase"),"pascal_case");
  assert.deepEqual(candidate("simple"),"simple");
}

test();
