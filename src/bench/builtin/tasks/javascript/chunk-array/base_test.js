const assert = require('node:assert');

function test() {
  let candidate = chunk;
  assert.deepEqual(candidate([1, 2, 3, 4], 2),[[1, 2], [3, 4]]);
  assert.deepEqual(candidate(["a", "b", "c", "d", "e", "f"], 3),[["a", "b", "c"], ["d", "e", "f"]]);
  assert.deepEqual(candidate([1, 2, 3], 1),[[1], [2], [3]]);
  assert.deepEqual(candidate([], 3),[]);
}

test();
