const assert = require('node:assert');

function test() {
  let candidate = summarizeRanges;
  assert.deepEqual(candidate([0, 1, 2, 4, 5, 7]),["0->2", "4->5", "7"]);
  assert.deepEqual(candidate([0, 2, 3, 4, 6, 8, 9]),["0", "2->4", "6", "8->9"]);
  assert.deepEqual(candidate([]),[]);
  assert.deepEqual(candidate([-3, -2, -1]),["-3->-1"]);
}

test();
