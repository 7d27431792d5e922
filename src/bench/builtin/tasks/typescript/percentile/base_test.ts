declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = percentile;
  assert.deepEqual(candidate([15, 20, 35, 40, 50], 40),20);
  assert.deepEqual(candidate([4, 1, 3, 2], 50),2);
  assert.deepEqual(candidate([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90),9);
  assert.deepEqual(candidate([3, 1, 2], 0),1);
  assert.deepEqual(candidate([3, 1, 2], 100),3);
}

test();
