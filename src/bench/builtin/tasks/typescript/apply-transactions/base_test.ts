declare var require: any;
const assert = require('node:assert');

function test() {
  let candidate = applyTransactions;
  assert.deepEqual(candidate(100, [{kind: "withdraw", amount: 30}, {kind: "withdraw", amount: 80}, {kind: "deposit", amount: 5}]),{balance: 75, rejected: [1]});
  assert.deepEqual(candidate(0, []),{balance: 0, rejected: []});
  assert.deepEqual(candidate(0, [{kind: "deposit", amount: 50}, {kind: "withdraw", amount: 20}]),{balance: 30, rejected: []});
  assert.deepEqual(candidate(10, [{kind: "withdraw", amount: 11}, {kind: "withdraw", amount: 12}]),{balance: 10, rejected: [0, 1]});
}

test();
