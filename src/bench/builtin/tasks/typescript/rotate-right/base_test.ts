declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = rotateRight;
  assert.deepEqual(candidate([1, 2, 3, 4, 5], 2),[4, 5, 1, 2, 3]);
  assert.deepEqual(candidate([1, 2, 3, 4, 5], 0),[1, 2, 3, 4, 5]);
  assert.deepEqual(candidate([1, 2, 3], 1),[3, 1, 2]);
  assert.deepEqual(candidate([7, 8], 2),[7, 8]);
}

test();
