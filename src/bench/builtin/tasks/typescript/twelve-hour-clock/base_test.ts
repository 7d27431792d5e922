declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = toTwelveHour;
  assert.deepEqual(candidate("13:05"),"1:05 PM");
  assert.deepEqual(candidate("09:15"),"9:15 AM");
  assert.deepEqual(candidate("23:59"),"11:59 PM");
  assert.deepEqual(candidate("11:00"),"11:00 AM");
}

test();
