import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  baselineVariance,
  effectiveSampleSize,
  essLearningRateScale,
  minimumVarianceBaseline,
  sequenceLogWeight,
  vcpoAdvantages,
  weightsFromLogWeights,
  type BaselineSample,
} from './vcpo.js';

const close = (a: number, b: number, tol = 1e-12, what = '') =>
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b} (±${tol})`);

test("the note's fixture: log-weights [ln 4, 0, 0] → ρ = 36/(3·18) = 2/3 → lr·√(2/3) (seeds-000.md §8)", () => {
  // w = [4, 1, 1]: Σw = 6, Σw² = 18, ESS = 36/18 = 2, ρ = 2/3
  for (const weights of [[4, 1, 1], weightsFromLogWeights([Math.log(4), 0, 0])]) {
    const scale = essLearningRateScale(weights);
    close(scale.ess, 2);
    close(scale.ratio, 2 / 3);
    close(scale.lrScale, Math.sqrt(2 / 3));
  }
  close(essLearningRateScale([4, 1, 1], { rule: 'linear' }).lrScale, 2 / 3);
  // ρ_base = 0.5: min(1, (2/3)/0.5) = 1
  assert.equal(essLearningRateScale([4, 1, 1], { baseEssRatio: 0.5 }).lrScale, 1);
  // the same weight from per-token log-probs: Σ(learner − rollout) = 2·ln 2 = ln 4
  close(sequenceLogWeight([-1, -1], [-1 - Math.LN2, -1 - Math.LN2]), Math.log(4));
});

// rewards [1, 0, 0], w = [2, 1, 1], ‖g‖ = [1, 2, 1] → W ∝ w²‖g‖² = [4, 4, 1]
const worked: BaselineSample[] = [
  { reward: 1, weight: 2, gradNorm: 1 },
  { reward: 0, weight: 1, gradNorm: 2 },
  { reward: 0, weight: 1, gradNorm: 1 },
];

test('worked example: minimum-variance baseline (hand-computed)', () => {
  // b* = (4·1 + 4·0 + 1·0)/9 = 4/9; the plain mean is 1/3
  close(minimumVarianceBaseline(worked), 4 / 9);
  // Σ W(R − b)²: at b* 4(5/9)² + 4(4/9)² + (4/9)² = 180/81 = 20/9; at 1/3: 16/9 + 4/9 + 1/9 = 21/9
  close(baselineVariance(worked, 4 / 9) / baselineVariance(worked, 1 / 3), 20 / 21);
  // weighted median: sorted (0, W4), (0, W1), (1, W4); half of 9 is reached at the second → 0
  assert.equal(minimumVarianceBaseline(worked, { aggregation: 'median' }), 0);
  // winsorized: 5% and 95% quantiles are 0 and 1, nothing is clipped → 4/9
  close(minimumVarianceBaseline(worked, { aggregation: 'winsorized' }), 4 / 9);
  // normalizeByLength: L = [1, 2, 1] → W ∝ [4, 1, 1] → b* = 4/6
  close(
    minimumVarianceBaseline(
      worked.map((s, i) => ({ ...s, length: [1, 2, 1][i]! })),
      { normalizeByLength: true },
    ),
    2 / 3,
  );
});

test('worked example: VCPO advantages for a batch (hand-computed)', () => {
  const rollouts = [
    ...worked.map((s) => ({ group: 'a', ...s })),
    { group: 'b', reward: 0.5, weight: 1, gradNorm: 3 },
    { group: 'b', reward: 0.5, weight: 4, gradNorm: 1 },
  ];
  const result = vcpoAdvantages(rollouts);
  close(result.baselines['a']!, 4 / 9);
  assert.equal(result.baselines['b'], 0.5);
  // group a: population std of [1, 0, 0] = √2/3; A = (R − 4/9)/(√2/3); group b is degenerate → 0
  const sd = Math.sqrt(2) / 3;
  [5 / 9 / sd, -4 / 9 / sd, -4 / 9 / sd, 0, 0].forEach((x, i) => close(result.advantages[i]!, x, 1e-12, `A[${i}]`));
  // without the std division: R − b*
  [5 / 9, -4 / 9, -4 / 9, 0, 0].forEach((x, i) =>
    close(vcpoAdvantages(rollouts, { normalizeByStd: false }).advantages[i]!, x, 1e-12),
  );
  // batch ESS over w = [2, 1, 1, 1, 4]: Σw = 9, Σw² = 23 → 81/23
  close(result.ess.ess, 81 / 23);
  close(result.ess.lrScale, Math.sqrt(81 / 23 / 5));
  // logWeight gives the same answer as weight
  const viaLogs = vcpoAdvantages(rollouts.map(({ weight, ...r }) => ({ ...r, logWeight: Math.log(weight) })));
  viaLogs.advantages.forEach((a, i) => close(a, result.advantages[i]!, 1e-12));
  close(viaLogs.ess.ess, 81 / 23, 1e-12);
});

test('clear errors: negative weights, NaN rewards, empty input, all-zero weights', () => {
  assert.throws(() => effectiveSampleSize([1, -0.5]), { name: 'BadRequestError', message: /weights\[1\] is negative/ });
  assert.throws(() => effectiveSampleSize([]), { name: 'BadRequestError', message: /empty/ });
  assert.throws(() => effectiveSampleSize([0, 0]), {
    name: 'BadRequestError',
    message: /all importance weights are 0/,
  });
  assert.throws(() => effectiveSampleSize([1, Number.NaN]), { name: 'BadRequestError', message: /finite/ });
  assert.throws(() => minimumVarianceBaseline([{ reward: Number.NaN, weight: 1, gradNorm: 1 }]), {
    name: 'BadRequestError',
    message: /group\[0\]\.reward/,
  });
  assert.throws(() => minimumVarianceBaseline([]), { name: 'BadRequestError', message: /empty/ });
  assert.throws(() => vcpoAdvantages([{ group: 'a', reward: 1, weight: -1, gradNorm: 1 }]), {
    name: 'BadRequestError',
    message: /rollouts\[0\]\.weight is negative/,
  });
  assert.throws(() => vcpoAdvantages([{ group: 'a', reward: 1, gradNorm: 1 }]), {
    name: 'BadRequestError',
    message: /exactly one of weight and logWeight/,
  });
  assert.throws(
    () => vcpoAdvantages([{ group: 'a', reward: 1, weight: 1, gradNorm: 1, length: 0 }], { normalizeByLength: true }),
    /length must be ≥ 1/,
  );
  assert.throws(() => essLearningRateScale([1], { baseEssRatio: 0 }), /baseEssRatio/);
  assert.throws(() => sequenceLogWeight([0], [0, 0]), /differ in length/);
});

// zero, or far enough from underflow that scaling by 1e-6 keeps it positive
const weight = fc.oneof(fc.constant(0), fc.double({ min: 1e-100, max: 1e6, noNaN: true }));
const weights = fc.array(weight, { minLength: 1, maxLength: 64 }).filter((ws) => ws.some((w) => w > 0));

test('property: 1 ≤ ESS ≤ B, ESS = B for equal weights, 1 for a single non-zero weight, scale-invariant', () => {
  fc.assert(
    fc.property(weights, fc.double({ min: 1e-6, max: 1e6, noNaN: true }), (ws, c) => {
      const ess = effectiveSampleSize(ws);
      assert.ok(ess >= 1 && ess <= ws.length);
      // the clamp only absorbs rounding: the formula itself agrees on well-scaled input
      const top = Math.max(...ws);
      const direct = ws.reduce((s, w) => s + w / top, 0) ** 2 / ws.reduce((s, w) => s + (w / top) ** 2, 0);
      close(ess, direct, 1e-9 * ws.length);
      close(effectiveSampleSize(ws.map((w) => w * c)), ess, 1e-9 * ws.length);
    }),
  );
  fc.assert(
    fc.property(fc.double({ min: 1e-300, max: 1e300, noNaN: true }), fc.integer({ min: 1, max: 256 }), (w, n) => {
      close(effectiveSampleSize(new Array<number>(n).fill(w)), n, 1e-9 * n);
      const one = new Array<number>(n).fill(0);
      one[n - 1] = w;
      assert.equal(effectiveSampleSize(one), 1);
    }),
  );
});

test('property: lr scale is in (0, 1] for both rules and any ρ_base', () => {
  fc.assert(
    fc.property(
      weights,
      fc.double({ min: 1e-3, max: 1, noNaN: true }),
      fc.constantFrom('sqrt' as const, 'linear' as const),
      (ws, base, rule) => {
        const { lrScale, ratio } = essLearningRateScale(ws, { baseEssRatio: base, rule });
        assert.ok(lrScale > 0 && lrScale <= 1, `lrScale ${lrScale}`);
        assert.ok(ratio >= 1 / ws.length - 1e-12 && ratio <= 1);
      },
    ),
  );
});

const sample = fc.record({
  reward: fc.double({ min: -10, max: 10, noNaN: true }),
  weight: fc.oneof(fc.constant(0), fc.double({ min: 1e-100, max: 100, noNaN: true })),
  gradNorm: fc.oneof(fc.constant(0), fc.double({ min: 1e-100, max: 100, noNaN: true })),
});
const group = fc.array(sample, { minLength: 1, maxLength: 32 });
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('property: b* gives no larger variance than the mean baseline (random gradient vectors)', () => {
  const vectors = fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }), {
    minLength: 1,
    maxLength: 32,
  });
  fc.assert(
    fc.property(group, vectors, (samples, gs) => {
      const n = Math.min(samples.length, gs.length);
      const rows = samples.slice(0, n).map((s, i) => ({ ...s, g: gs[i]! }));
      const withNorms = rows.map((r) => ({ reward: r.reward, weight: r.weight, gradNorm: Math.hypot(...r.g) }));
      // Σᵢ ‖wᵢ (Rᵢ − b) gᵢ‖², computed from the vectors themselves, not from the library's W
      const secondMoment = (b: number) =>
        rows.reduce((s, r) => s + r.g.reduce((t, x) => t + (r.weight * (r.reward - b) * x) ** 2, 0), 0);
      const bStar = minimumVarianceBaseline(withNorms);
      const bMean = mean(rows.map((r) => r.reward));
      assert.ok(
        secondMoment(bStar) <= secondMoment(bMean) * (1 + 1e-9) + 1e-12,
        `${secondMoment(bStar)} > ${secondMoment(bMean)}`,
      );
      assert.ok(baselineVariance(withNorms, bStar) <= baselineVariance(withNorms, bMean) * (1 + 1e-9) + 1e-300);
    }),
  );
});

test('property: b* lies in [min R, max R], equals mean R for equal Wᵢ, is scale-invariant in w and ‖g‖', () => {
  fc.assert(
    fc.property(
      group,
      fc.constantFrom('mean' as const, 'median' as const, 'winsorized' as const),
      fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
      (samples, aggregation, c) => {
        const R = samples.map((s) => s.reward);
        const b = minimumVarianceBaseline(samples, { aggregation });
        assert.ok(b >= Math.min(...R) && b <= Math.max(...R));
        const scaled = samples.map((s) => ({ ...s, weight: s.weight * c, gradNorm: s.gradNorm / Math.sqrt(c) }));
        close(minimumVarianceBaseline(scaled, { aggregation }), b, 1e-9);
      },
    ),
  );
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 32 }),
      fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
      (R, w) => {
        close(minimumVarianceBaseline(R.map((reward) => ({ reward, weight: w, gradNorm: 1 }))), mean(R), 1e-9);
      },
    ),
  );
});

test('property: VCPO advantages are finite, and exactly 0 in degenerate groups', () => {
  const rollouts = fc.array(
    fc.record({
      group: fc.constantFrom('a', 'b', 'c'),
      reward: fc.constantFrom(0, 0.5, 1),
      weight: fc.double({ min: 0.01, max: 100, noNaN: true }),
      gradNorm: fc.double({ min: 0, max: 10, noNaN: true }),
    }),
    { minLength: 1, maxLength: 40 },
  );
  fc.assert(
    fc.property(rollouts, fc.boolean(), (batch, normalizeByStd) => {
      const { advantages } = vcpoAdvantages(batch, { normalizeByStd });
      assert.ok(advantages.every(Number.isFinite));
      for (const g of ['a', 'b', 'c']) {
        const idx = batch.flatMap((r, i) => (r.group === g ? [i] : []));
        if (idx.length > 0 && idx.every((i) => batch[i]!.reward === batch[idx[0]!]!.reward))
          assert.ok(idx.every((i) => advantages[i] === 0));
      }
    }),
  );
});
