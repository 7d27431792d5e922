import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { batchGroupAdvantages, groupAdvantages } from './group-advantage.js';
import type { GrpoOptions } from './schemas.js';

const close = (actual: readonly number[], expected: readonly number[], tol = 1e-12) => {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) <= tol, `[${i}] ${a} vs ${expected[i]} (±${tol})`));
};

// Rewards on a 1/8 grid: sums are exact, and a non-degenerate group has std ≥ ~0.02.
const gridReward = fc.integer({ min: -800, max: 800 }).map((k) => k / 8);
const gridGroup = fc.array(gridReward, { minLength: 1, maxLength: 32 });
const options: fc.Arbitrary<GrpoOptions> = fc.record(
  {
    std: fc.constantFrom('sample' as const, 'population' as const),
    scaleByStd: fc.boolean(),
    epsilon: fc.constantFrom(0, 1e-8, 1e-6),
  },
  { requiredKeys: [] },
);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

test('worked example: one success in four (hand-computed)', () => {
  // mean 0.25; centred [0.75, −0.25 ×3]; Σd² = 0.75
  // sample std = √(0.75/3) = 0.5          → [1.5, −0.5, −0.5, −0.5]
  close(groupAdvantages([1, 0, 0, 0], { epsilon: 0 }), [1.5, -0.5, -0.5, -0.5]);
  // population std = √(0.75/4) = √3/4     → [√3, −1/√3, −1/√3, −1/√3]
  close(groupAdvantages([1, 0, 0, 0], { std: 'population', epsilon: 0 }), [
    Math.sqrt(3),
    -1 / Math.sqrt(3),
    -1 / Math.sqrt(3),
    -1 / Math.sqrt(3),
  ]);
  // Dr. GRPO: no std division                → [0.75, −0.25, −0.25, −0.25]
  close(groupAdvantages([1, 0, 0, 0], { scaleByStd: false }), [0.75, -0.25, -0.25, -0.25]);
  // default ε = 1e-6 with the sample std:  0.75 / 0.500001
  close(groupAdvantages([1, 0, 0, 0]), [0.75 / 0.500001, -0.25 / 0.500001, -0.25 / 0.500001, -0.25 / 0.500001]);
});

test('batch: groups by key, output in input order (hand-computed)', () => {
  // group a = [1, 0]: sample std √0.5, advantages ±0.5/√0.5 = ±√0.5; group b has one rollout → 0
  const out = batchGroupAdvantages(
    [
      { group: 'a', reward: 1 },
      { group: 'b', reward: 0.5 },
      { group: 'a', reward: 0 },
    ],
    { epsilon: 0 },
  );
  close(out, [Math.SQRT1_2, 0, -Math.SQRT1_2]);
});

test('degenerate groups give exact zeros, never NaN', () => {
  assert.deepEqual(groupAdvantages([0.1, 0.1, 0.1]), [0, 0, 0]);
  assert.deepEqual(groupAdvantages([0.7]), [0]);
  assert.deepEqual(groupAdvantages([0.7], { std: 'population', epsilon: 0 }), [0]);
  assert.deepEqual(groupAdvantages([5, 5], { scaleByStd: false }), [0, 0]);
  assert.deepEqual(groupAdvantages([0, 5e-324], { epsilon: 0 }).map(Number.isFinite), [true, true]);
});

test('clear errors for empty groups, NaN rewards and bad options', () => {
  assert.throws(() => groupAdvantages([]), { name: 'BadRequestError', message: /group is empty/ });
  assert.throws(() => groupAdvantages([1, Number.NaN]), {
    name: 'BadRequestError',
    message: /rewards\[1\] must be a finite number/,
  });
  assert.throws(() => groupAdvantages([1, Infinity]), { name: 'BadRequestError' });
  assert.throws(() => groupAdvantages([1, 0], { epsilon: -1 }), { name: 'BadRequestError', message: /epsilon/ });
  assert.throws(() => batchGroupAdvantages([]), { name: 'BadRequestError', message: /rollouts is empty/ });
  assert.throws(
    () =>
      batchGroupAdvantages([
        { group: 'a', reward: 1 },
        { group: 'a', reward: Number.NaN },
      ]),
    /rollouts\[1\]\.reward/,
  );
});

test('property: advantages sum to ~0 in every group', () => {
  fc.assert(
    fc.property(gridGroup, options, (rewards, opts) => {
      assert.ok(Math.abs(sum(groupAdvantages(rewards, opts))) <= 1e-9 * rewards.length * 100);
    }),
  );
});

test('property: adding a constant to every reward changes nothing', () => {
  fc.assert(
    fc.property(gridGroup, gridReward, options, (rewards, c, opts) => {
      close(
        groupAdvantages(
          rewards.map((r) => r + c),
          opts,
        ),
        groupAdvantages(rewards, opts),
        1e-9,
      );
    }),
  );
});

test('property: scaling rewards by c > 0 leaves std-normalised advantages unchanged (ε = 0), scales Dr. GRPO ones by c', () => {
  const c = fc.double({ min: 1e-3, max: 1e3, noNaN: true });
  fc.assert(
    fc.property(gridGroup, c, fc.constantFrom('sample' as const, 'population' as const), (rewards, k, std) => {
      close(
        groupAdvantages(
          rewards.map((r) => r * k),
          { std, epsilon: 0 },
        ),
        groupAdvantages(rewards, { std, epsilon: 0 }),
        1e-9,
      );
      const plain = groupAdvantages(rewards, { scaleByStd: false });
      close(
        groupAdvantages(
          rewards.map((r) => r * k),
          { scaleByStd: false },
        ),
        plain.map((a) => a * k),
        1e-9 * k * 100,
      );
    }),
  );
  // With ε > 0 the invariance holds up to O(ε/std): pass-rate rewards, c in [0.5, 2].
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(0, 0.25, 0.5, 0.75, 1), { minLength: 2, maxLength: 16 }),
      fc.double({ min: 0.5, max: 2, noNaN: true }),
      (rewards, k) => {
        close(groupAdvantages(rewards.map((r) => r * k)), groupAdvantages(rewards), 1e-4);
      },
    ),
  );
});

test('property: any finite rewards give finite advantages; equal rewards give zeros', () => {
  // Up to 1e300: Dr. GRPO's r − mean is up to 2·max|r| and must stay representable.
  const anyReward = fc.double({ min: -1e300, max: 1e300, noNaN: true });
  fc.assert(
    fc.property(fc.array(anyReward, { minLength: 1, maxLength: 24 }), options, (rewards, opts) => {
      assert.ok(groupAdvantages(rewards, opts).every(Number.isFinite));
    }),
  );
  fc.assert(
    fc.property(anyReward, fc.integer({ min: 1, max: 32 }), options, (r, n, opts) => {
      assert.ok(groupAdvantages(new Array<number>(n).fill(r), opts).every((a) => a === 0));
    }),
  );
});

test('property: a batch equals its groups computed separately, in any interleaving', () => {
  const batch = fc.array(fc.record({ group: fc.constantFrom('p', 'q', 'r'), reward: gridReward }), {
    minLength: 1,
    maxLength: 40,
  });
  fc.assert(
    fc.property(batch, options, (rollouts, opts) => {
      const out = batchGroupAdvantages(rollouts, opts);
      for (const g of ['p', 'q', 'r']) {
        const idx = rollouts.flatMap((r, i) => (r.group === g ? [i] : []));
        if (idx.length === 0) continue;
        close(
          idx.map((i) => out[i]!),
          groupAdvantages(
            idx.map((i) => rollouts[i]!.reward),
            opts,
          ),
          0,
        );
      }
    }),
  );
});
