declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = parseCsvLine;
  assert.deepEqual(candidate("a,b,c"),["a", "b", "c"]);
  assert.deepEqual(candidate('"x, y",z'),["x, y", "z"]);
  assert.deepEqual(candidate("one"),["one"]);
  assert.deepEqual(candidate(","),["", ""]);
  assert.deepEqual(candidate('"quoted",plain'),["quoted", "plain"]);
}

test();
