const assert = require('node:assert');

function test() {
  let candidate = daysBetween;
  assert.deepEqual(candidate("2024-01-01", "2024-03-01"),60);
  assert.deepEqual(candidate("2023-12-25", "2024-01-01"),7);
  assert.deepEqual(candidate("2024-03-10", "2024-03-01"),-9);
  assert.deepEqual(candidate("2023-01-01", "2024-01-01"),365);
  assert.deepEqual(candidate("2022-06-15", "2022-06-15"),0);
}

test();
