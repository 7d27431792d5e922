const assert = require('node:assert');

function test() {
  let candidate = median;
  assert.deepEqual(candidate([3, 1, 2]),2);
  assert.deepEqual(candidate([4, 1, 3, 2]),2.5);
  assert.deepEqual(candidate([5]),5);
  assert.deepEqual(candidate([7, 7, 1]),7);
  assert.deepEqual(candidate([]),null);
}

test();
