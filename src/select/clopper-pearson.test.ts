import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { seededRandom } from '../core/random.js';
import { lowerBound, upperBound } from './clopper-pearson.js';

test('known values: 0 of 10 at δ=0.05 gives 1 - 0.05^(1/10)', () => {
  assert.ok(Math.abs(upperBound(0, 10, 0.05) - (1 - 0.05 ** 0.1)) < 1e-9);
  assert.ok(Math.abs(lowerBound(10, 10, 0.05) - 0.05 ** 0.1) < 1e-9);
  assert.equal(upperBound(10, 10, 0.05), 1);
  assert.equal(lowerBound(0, 10, 0.05), 0);
});

test('the bounds bracket the observed rate and widen as δ shrinks', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
      const k = Math.round(share * n);
      assert.ok(lowerBound(k, n, 0.1) <= k / n + 1e-12 && k / n <= upperBound(k, n, 0.1) + 1e-12);
      assert.ok(upperBound(k, n, 0.01) >= upperBound(k, n, 0.1) - 1e-12);
    }),
  );
});

test('coverage: the upper bound is below the true rate in at most about δ of trials', () => {
  const random = seededRandom(42);
  const [p, n, delta, trials] = [0.2, 60, 0.1, 2000];
  let misses = 0;
  for (let t = 0; t < trials; t++) {
    let k = 0;
    for (let i = 0; i < n; i++) if (random() < p) k++;
    if (upperBound(k, n, delta) < p) misses++;
  }
  assert.ok(misses / trials <= delta + 0.02, `${misses} of ${trials}`);
});

test('bad arguments are refused with a message', () => {
  assert.throws(() => upperBound(5, 3, 0.1), /0 ≤ k ≤ n/);
  assert.throws(() => upperBound(1, 3, 1), /δ/);
});
