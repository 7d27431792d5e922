declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = matMul;
  assert.deepEqual(candidate([[1, 2], [3, 4]], [[5, 6], [7, 8]]),[[19, 22], [43, 50]]);
  assert.deepEqual(candidate([[1, 0], [0, 1]], [[4, 1], [2, 2]]),[[4, 1], [2, 2]]);
  assert.deepEqual(candidate([[2]], [[3]]),[[6]]);
  assert.deepEqual(candidate([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),[[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
}

test();
