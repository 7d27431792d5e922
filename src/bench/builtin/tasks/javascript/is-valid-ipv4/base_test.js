const assert = require('node:assert');

function test() {
  let candidate = isValidIPv4;
  assert.deepEqual(candidate("192.168.1.1"),true);
  assert.deepEqual(candidate("0.0.0.0"),true);
  assert.deepEqual(candidate("255.255.255.255"),true);
  assert.deepEqual(candidate("256.1.1.1"),false);
  assert.deepEqual(candidate("1.2.3"),false);
  assert.deepEqual(candidate("a.b.c.d"),false);
  assert.deepEqual(candidate("1.2.3.4.5"),false);
}

test();
