const assert = require('node:assert');

function test() {
  let candidate = isSubsequence;
  assert.deepEqual(candidate("ace", "abcde"),true);
  assert.deepEqual(candidate("axc", "ahbgdc"),false);
  assert.deepEqual(candidate("", "abc"),true);
  assert.deepEqual(candidate("abc", "abc"),true);
  assert.deepEqual(candidate("abcd", "abc"),false);
  assert.deepEqual(candidate("b".repeat(20000), "ab".repeat(100000)),true);
}

test();
