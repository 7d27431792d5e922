declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = groupAnagrams;
  assert.deepEqual(candidate(["eat", "tea", "tan", "ate", "nat", "bat"]),[["eat", "tea", "ate"], ["tan", "nat"], ["bat"]]);
  assert.deepEqual(candidate(["abc"]),[["abc"]]);
  assert.deepEqual(candidate([]),[]);
  assert.deepEqual(candidate(["listen", "silent", "enlist"]),[["listen", "silent", "enlist"]]);
}

test();
