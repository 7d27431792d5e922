import assert from 'node:assert/strict';
import { test } from 'node:test';
import { meanPassAtK, passAtK, reportableKs } from './pass-at-k.js';

/** Direct binomial formula, exact for small n. */
function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

test('pass@k matches 1 - C(n-c,k)/C(n,k) on known values', () => {
  assert.equal(passAtK(10, 0, 1), 0);
  assert.equal(passAtK(10, 10, 5), 1);
  assert.ok(Math.abs(passAtK(10, 3, 1) - 0.3) < 1e-12);
  // n=5, c=2, k=2: 1 - C(3,2)/C(5,2) = 1 - 3/10
  assert.ok(Math.abs(passAtK(5, 2, 2) - 0.7) < 1e-12);
  // n=200, c=13, k=10: HumanEval paper-scale numbers
  const expected = 1 - binomial(187, 10) / binomial(200, 10);
  assert.ok(Math.abs(passAtK(200, 13, 10) - expected) < 1e-9);
  for (let n = 1; n <= 12; n++)
    for (let c = 0; c <= n; c++)
      for (let k = 1; k <= n; k++) {
        const exact = n - c < k ? 1 : 1 - binomial(n - c, k) / binomial(n, k);
        assert.ok(Math.abs(passAtK(n, c, k) - exact) < 1e-9, `n=${n} c=${c} k=${k}`);
      }
});

test('pass@k rejects impossible arguments with a message', () => {
  assert.throws(() => passAtK(3, 4, 1), /0 ≤ c ≤ n/);
  assert.throws(() => passAtK(3, 1, 5), /at least 5 samples/);
});

test('reportable ks are those every task allows; the mean averages tasks', () => {
  assert.deepEqual(reportableKs([1, 30]), [1]);
  assert.deepEqual(reportableKs([25, 30]), [1, 2, 5, 10, 20]);
  assert.deepEqual(reportableKs([]), []);
  assert.ok(
    Math.abs(
      meanPassAtK(
        [
          [2, 1],
          [2, 2],
        ],
        1,
      ) - 0.75,
    ) < 1e-12,
  );
});
