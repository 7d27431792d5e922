import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { EQUAL_WEIGHTS, LEVELS, PRODUCT_WEIGHTS, gatedReward, type Level } from './gated-reward.js';
import type { GatedLevels, LevelScore } from './schemas.js';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);
const numeric = (r: ReturnType<typeof gatedReward>): number => {
  assert.notEqual(r.reward, null, 'expected a reward');
  return r.reward!;
};
const levels = (s: readonly LevelScore[]): GatedLevels =>
  Object.fromEntries(LEVELS.map((l, i) => [l, s[i]!])) as GatedLevels;

test('worked example: passes 3/4 public and 1/2 hidden tests (hand-computed)', () => {
  const r = gatedReward({
    parses: 1,
    loads: 1,
    runs: 1,
    publicTests: { passed: 3, total: 4 },
    hidden: { passed: 1, total: 2 },
  });
  // gates Πⱼ≤ₖ sⱼ = [1, 1, 1, 0.75, 0.375]; R = 0.2·(1 + 1 + 1 + 0.75 + 0.375) = 0.825
  assert.deepEqual(r.reward === null ? null : r.gates, {
    parses: 1,
    loads: 1,
    runs: 1,
    publicTests: 0.75,
    hidden: 0.375,
  });
  close(numeric(r), 0.825);
  // plain pass rate: (3 + 1)/(4 + 2)
  close(r.passRate!, 4 / 6);
  assert.equal(r.reward === null ? null : r.firstFailed, 'publicTests');
});

test('worked examples: early failures gate everything after them', () => {
  // does not parse: 0, whatever the later levels say
  assert.equal(numeric(gatedReward(levels([0, 1, 1, 1, 1]))), 0);
  // parses and loads but crashes when run: w₁ + w₂ = 0.4; the later 1s pay nothing
  close(numeric(gatedReward(levels([1, 1, 0, 1, 1]))), 0.4);
  // all levels pass: 1 (and firstFailed is null)
  const full = gatedReward(levels([1, 1, 1, 1, 1]));
  close(numeric(full), 1);
  assert.equal(full.reward === null ? 'x' : full.firstFailed, null);
  // strict product weights: R = Π sⱼ = 0.5
  close(numeric(gatedReward(levels([1, 1, 1, 0.5, 1]), PRODUCT_WEIGHTS)), 0.5);
  // weights are normalised: [1, 1, 1, 1, 1] is the equal default
  close(numeric(gatedReward(levels([1, 1, 0.5, 1, 1]), [1, 1, 1, 1, 1])), 0.2 * (1 + 1 + 0.5 + 0.5 + 0.5));
  // fractions instead of counts: the pass rate is the mean of the two test levels
  close(gatedReward(levels([1, 1, 1, 0.5, 0])).passRate!, 0.25);
});

test('no-verdict anywhere gives reward null with a reason, never 0 or 1', () => {
  const r = gatedReward(levels([1, 1, 1, 1, 'no-verdict']));
  assert.equal(r.reward, null);
  assert.equal(r.passRate, null);
  assert.match(r.reward === null ? r.reason : '', /no verdict at level 'hidden'/);
  // even when an earlier level already failed
  assert.equal(gatedReward(levels([0, 1, { noVerdict: 'worker crashed' }, 0, 0])).reward, null);
  assert.match(
    (gatedReward(levels([1, { noVerdict: 'worker crashed' }, 1, 1, 1])) as { reason: string }).reason,
    /'loads': worker crashed/,
  );
});

test('clear errors for scores outside [0, 1], impossible counts, missing levels and bad weights', () => {
  assert.throws(() => gatedReward(levels([1, 1, 1.5, 1, 1])), {
    name: 'BadRequestError',
    message: /levels\.runs must be a number in \[0, 1\]/,
  });
  assert.throws(() => gatedReward(levels([1, 1, Number.NaN, 1, 1])), { name: 'BadRequestError' });
  assert.throws(() => gatedReward(levels([1, 1, 1, { passed: 3, total: 2 }, 1])), {
    name: 'BadRequestError',
    message: /publicTests/,
  });
  assert.throws(() => gatedReward(levels([1, 1, 1, 1, { passed: 0, total: 0 }])), /vacuous/);
  assert.throws(
    () => gatedReward({ parses: 1, loads: 1, runs: 1, publicTests: 1 } as GatedLevels),
    /levels\.hidden is missing/,
  );
  assert.throws(() => gatedReward(levels([1, 1, 1, 1, 1]), [1, 1]), /5 entries/);
  assert.throws(() => gatedReward(levels([1, 1, 1, 1, 1]), [1, -1, 1, 1, 1]), /weights\[1\]/);
  assert.throws(() => gatedReward(levels([1, 1, 1, 1, 1]), [0, 0, 0, 0, 0]), /all 0/);
});

const score = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 1));
const scores = fc.array(score, { minLength: 5, maxLength: 5 });
const weights = fc.oneof(
  fc.constant(EQUAL_WEIGHTS),
  fc.constant(PRODUCT_WEIGHTS),
  fc
    .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 })
    .filter((w) => w.some((x) => x > 0)),
);
const normalised = (w: readonly number[]) => w.map((x) => x / w.reduce((a, b) => a + b, 0));

test('property: reward in [0, 1] and monotone in each level', () => {
  fc.assert(
    fc.property(scores, weights, fc.integer({ min: 0, max: 4 }), score, (s, w, k, other) => {
      const [lo, hi] = [Math.min(s[k]!, other), Math.max(s[k]!, other)];
      const at = (x: number) => numeric(gatedReward(levels(s.map((v, i) => (i === k ? x : v))), w));
      assert.ok(at(lo) >= 0 && at(hi) <= 1);
      assert.ok(at(lo) <= at(hi), `level ${LEVELS[k]}: R(${lo}) = ${at(lo)} > R(${hi}) = ${at(hi)}`);
    }),
  );
});

test('property: a level at 0 gates every later level; 0 when parses is 0; strict product 0 when any level is 0', () => {
  fc.assert(
    fc.property(scores, scores, weights, fc.integer({ min: 0, max: 4 }), (s, later, w, k) => {
      const gated = s.map((v, i) => (i === k ? 0 : v));
      const changed = gated.map((v, i) => (i > k ? later[i]! : v));
      const r = numeric(gatedReward(levels(gated), w));
      assert.equal(numeric(gatedReward(levels(changed), w)), r);
      const before = normalised(w)
        .slice(0, k)
        .reduce((a, b) => a + b, 0);
      assert.ok(r <= before + 1e-12, `R = ${r} > Σ_{i<${k}} wᵢ = ${before}`);
      if (k === 0) assert.equal(r, 0);
      assert.equal(numeric(gatedReward(levels(gated), PRODUCT_WEIGHTS)), 0);
    }),
  );
});

test('property: a no-verdict at any level gives null, whatever the other levels', () => {
  fc.assert(
    fc.property(scores, fc.integer({ min: 0, max: 4 }), weights, (s, k, w) => {
      const r = gatedReward(levels(s.map((v, i) => (i === k ? 'no-verdict' : v))), w);
      assert.equal(r.reward, null);
      assert.ok(r.reward === null && r.reason.includes(`'${LEVELS[k] as Level}'`));
    }),
  );
});

test('a vacuous level passes its gate but carries no weight; rewards are exact fractions', () => {
  const failing = { parses: 1, loads: 1, runs: 1, hidden: { passed: 0, total: 3 } } as const;
  assert.equal(gatedReward({ ...failing, publicTests: 'vacuous' }).reward, 0.75);
  assert.equal(gatedReward({ ...failing, publicTests: { passed: 0, total: 2 } }).reward, 0.6);
  const right = gatedReward({ parses: 1, loads: 1, runs: 1, publicTests: 'vacuous', hidden: { passed: 3, total: 3 } });
  assert.equal(right.reward, 1);
  assert.equal(right.firstFailed, null);
  assert.equal(right.passRate, 1);
  // Only the vacuous level carries weight: every gate is open, the reward is 1.
  assert.equal(
    gatedReward({ parses: 1, loads: 1, runs: 1, publicTests: 'vacuous', hidden: 'vacuous' }, [0, 0, 0, 1, 0]).reward,
    1,
  );
});
