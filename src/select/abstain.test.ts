import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../core/random.js';
import fc from 'fast-check';
import { calibrateThreshold, candidateLevels, decide, testedLevels, ThresholdSchema } from './abstain.js';
import { upperBound } from './clopper-pearson.js';

/** Tasks whose chance of being right rises with the confidence score, as a selector's would. */
function simulate(n: number, random: () => number) {
  return Array.from({ length: n }, () => {
    const confidence = random();
    return { confidence, correct: random() < 0.3 + 0.7 * confidence };
  });
}

test('guarantee: the realised wrong share among answered tasks exceeds α in at most about δ of calibrations', () => {
  const random = seededRandom(7);
  const [alpha, delta, runs] = [0.1, 0.1, 300];
  let exceeded = 0;
  let answeredSomething = 0;
  for (let r = 0; r < runs; r++) {
    const t = calibrateThreshold(simulate(2000, random), alpha, delta, 'sim');
    if (t.threshold === null) continue;
    const fresh = simulate(5000, random).filter((i) => i.confidence >= t.threshold!);
    if (fresh.length === 0) continue;
    answeredSomething++;
    if (fresh.filter((i) => !i.correct).length / fresh.length > alpha) exceeded++;
  }
  assert.ok(answeredSomething > runs / 2, 'calibration answers tasks when it can');
  assert.ok(exceeded / runs <= delta, `${exceeded} of ${runs} calibrations broke α`);
});

test('a higher α answers at least as many tasks; all-wrong data abstains everywhere', () => {
  const items = simulate(2000, seededRandom(3));
  const strict = calibrateThreshold(items, 0.05, 0.1, 's');
  const loose = calibrateThreshold(items, 0.3, 0.1, 's');
  assert.ok(loose.answered >= strict.answered);
  assert.ok(loose.errorBound <= 0.3);
  const none = calibrateThreshold(
    items.map((i) => ({ ...i, correct: false })),
    0.1,
    0.1,
    's',
  );
  assert.equal(none.threshold, null);
  assert.equal(decide(0.99, none, '').decision, 'abstain');
});

test('decisions say why they abstain, and threshold files validate', () => {
  const t = calibrateThreshold(simulate(2000, seededRandom(5)), 0.2, 0.1, 's');
  assert.ok(t.threshold !== null);
  assert.equal(decide(t.threshold!, t, 'x').decision, 'answer');
  const below = decide(t.threshold! - 0.01, t, 'cluster of 2');
  assert.equal(below.decision, 'abstain');
  assert.match((below as { reason: string }).reason, /below the calibrated threshold .*cluster of 2/);
  assert.ok(ThresholdSchema.safeParse(JSON.parse(JSON.stringify(t))).success);
  assert.ok(!ThresholdSchema.safeParse({ ...t, alpha: 2 }).success);
});

test('property: whenever some candidate threshold certifies α, calibrate returns the smallest one', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({ confidence: fc.constantFrom(0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 1), correct: fc.boolean() }),
        { minLength: 1, maxLength: 120 },
      ),
      fc.double({ min: 0.01, max: 0.99, noNaN: true }),
      fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      (items, alpha, delta) => {
        const levels = candidateLevels(items);
        const certifies = levels.filter((tau) => {
          const answered = items.filter((i) => i.confidence >= tau);
          const wrong = answered.filter((i) => !i.correct).length;
          return upperBound(wrong, answered.length, delta / levels.length) <= alpha;
        });
        const t = calibrateThreshold(items, alpha, delta, 's');
        if (certifies.length === 0) return t.threshold === null;
        return t.threshold === certifies[0] && t.errorBound <= alpha;
      },
    ),
    { seed: 19, numRuns: 500 },
  );
});

test('a threshold past which the bound rises again is still found (the case a binary search missed)', () => {
  // τ = 0.25 answers 60 tasks with 6 wrong; τ = 0.5 answers only 6 (none wrong), whose bound
  // is far above α; τ = 0.75 answers 2. The bound is not monotone in τ.
  const items = [
    ...Array.from({ length: 54 }, (_, i) => ({ confidence: i < 4 ? 0.5 : 0.25, correct: true })),
    ...Array.from({ length: 6 }, () => ({ confidence: 0.25, correct: false })),
    ...Array.from({ length: 2 }, () => ({ confidence: 0.75, correct: true })),
    ...Array.from({ length: 30 }, () => ({ confidence: 0, correct: false })),
  ];
  const t = calibrateThreshold(items, 0.3, 0.1, 's');
  assert.equal(t.threshold, 0.25);
  assert.equal(t.answered, 62);
  assert.ok(t.errorBound <= 0.3);
});

test('the tested levels are the candidate thresholds with their figures; the chosen one is the first that certifies α', () => {
  const items = simulate(500, seededRandom(11));
  const [alpha, delta] = [0.2, 0.1];
  const levels = testedLevels(items, delta);
  assert.deepEqual(
    levels.map((l) => l.threshold),
    candidateLevels(items),
  );
  for (const level of levels) {
    const answered = items.filter((i) => i.confidence >= level.threshold);
    assert.equal(level.answered, answered.length);
    assert.equal(level.wrong, answered.filter((i) => !i.correct).length);
    assert.equal(level.errorBound, upperBound(level.wrong, level.answered, delta / levels.length));
  }
  const t = calibrateThreshold(items, alpha, delta, 's');
  const first = levels.find((l) => l.errorBound <= alpha)!;
  assert.ok(first, 'some level certifies α on this data');
  assert.deepEqual({ threshold: t.threshold, answered: t.answered, wrong: t.wrong, errorBound: t.errorBound }, first);
  // A threshold file that carries its levels and items (crucible calibrate writes them) still reads.
  const file = { ...t, seed: 1, levels, calibration: items };
  const parsed = ThresholdSchema.parse(JSON.parse(JSON.stringify(file)));
  assert.equal(parsed.threshold, t.threshold);
  assert.deepEqual(testedLevels([], delta), []);
});
