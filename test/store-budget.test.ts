/** Budgets: parsing `--budget`, and the tracker's arithmetic against a clock the test controls. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BudgetTracker, describeExhaustion, exhaustion, fits, NO_USAGE, parseBudget } from '../src/core/budget.js';

test('--budget text: units and errors', () => {
  assert.deepEqual(parseBudget('calls=20,tokens=50k,cost=$0.5,wall=2min,sandbox=90s'), {
    modelCalls: 20,
    tokens: 50_000,
    costUsd: 0.5,
    wallSeconds: 120,
    sandboxSeconds: 90,
  });
  assert.deepEqual(parseBudget('tokens=1.5m, wall=1h'), { tokens: 1_500_000, wallSeconds: 3600 });
  assert.throws(() => parseBudget('calls=0'), /too_small|>0|greater/i);
  assert.throws(() => parseBudget('steps=3'), /not understood/);
  assert.throws(() => parseBudget('calls=3s'), /does not fit/);
});

test('the tracker reports the first resource that runs out, wall time from its clock', () => {
  let now = 1_000;
  const tracker = new BudgetTracker({ modelCalls: 3, tokens: 1000, wallSeconds: 10, sandboxSeconds: 5 }, () => now);
  tracker.recordModelCall(400, 0.01);
  tracker.recordModelCall(500, null);
  assert.equal(tracker.exhausted(), null);
  assert.equal(tracker.fits({ modelCalls: 1, tokens: 100 }), true);
  assert.equal(tracker.fits({ modelCalls: 1, tokens: 101 }), false);
  assert.deepEqual(tracker.remaining(), { modelCalls: 1, tokens: 100, wallSeconds: 10, sandboxSeconds: 5 });
  now += 4_000;
  tracker.recordSandbox(5);
  const spent = tracker.exhausted();
  assert.deepEqual(spent, { resource: 'sandboxSeconds', limit: 5, used: 5 });
  assert.equal(describeExhaustion(spent!), 'budget spent: 5 of 5 sandbox seconds');
  assert.equal(tracker.usage().wallSeconds, 4);
  assert.equal(tracker.usage().costUsd, 0.01);
  now += 7_000;
  assert.equal(
    new BudgetTracker({ wallSeconds: 10 }, () => now).exhausted(),
    null,
    'a new tracker starts its own clock',
  );
});

test('no limit means unbounded; the order of checks is calls, tokens, cost, wall, sandbox', () => {
  assert.equal(exhaustion({}, { ...NO_USAGE, tokens: 1e12 }), null);
  assert.equal(
    exhaustion({ tokens: 10, modelCalls: 1 }, { ...NO_USAGE, tokens: 10, modelCalls: 1 })!.resource,
    'modelCalls',
  );
  assert.equal(fits({ costUsd: 1 }, NO_USAGE, { costUsd: 1 }), true);
  assert.equal(fits({ costUsd: 1 }, NO_USAGE, { costUsd: 1.01 }), false);
});
