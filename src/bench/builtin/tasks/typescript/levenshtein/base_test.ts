declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = levenshtein;
  assert.deepEqual(candidate("kitten", "sitting"),3);
  assert.deepEqual(candidate("flaw", "lawn"),2);
  assert.deepEqual(candidate("abc", "abc"),0);
  assert.deepEqual(candidate("", "abc"),3);
  assert.deepEqual(candidate("abc", ""),3);
}

test();
