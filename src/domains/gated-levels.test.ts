import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { STATUSES } from '../core/verdict.js';
import { gatedReward } from '../rl/gated-reward.js';
import { gatedLevels, type JudgedUnit } from './gated-levels.js';

const loadsOnce = { loaded: 1, of: 1 };

test('the levels, by their definition', () => {
  const units: JudgedUnit[] = [
    { status: 'pass', passed: 1, total: 1, public: true },
    // Timed out after two of five hidden tests: those two ran, the other three did not.
    { status: 'timeout', passed: 2, total: 5, public: false },
    // Failed: every test ran, one passed.
    { status: 'fail', passed: 1, total: 3, public: false },
  ];
  assert.deepEqual(gatedLevels({ parses: true, loads: loadsOnce, units }), {
    parses: 1,
    loads: 1,
    runs: { passed: 1 + 2 + 3, total: 9 },
    publicTests: { passed: 1, total: 1 },
    hidden: { passed: 3, total: 8 },
  });
  // Without public tests the level is vacuous: it gates nothing and carries no weight.
  assert.equal(gatedLevels({ parses: true, loads: loadsOnce, units: units.slice(1) }).publicTests, 'vacuous');
  // A stdin program loads once per test.
  assert.deepEqual(gatedLevels({ parses: true, loads: { loaded: 2, of: 3 }, units }).loads, { passed: 2, total: 3 });
  // Once it does not parse or load, the later levels are 0.
  assert.deepEqual(gatedLevels({ parses: false, loads: { loaded: 0, of: 1 }, units: [] }), {
    parses: 0,
    loads: 0,
    runs: 0,
    publicTests: 0,
    hidden: 0,
  });
  assert.deepEqual(gatedLevels({ parses: true, loads: { loaded: 0, of: 1 }, units }), {
    parses: 1,
    loads: 0,
    runs: 0,
    publicTests: 0,
    hidden: 0,
  });
  // A sandbox failure: nothing is known, and the reward is null rather than 0 or 1.
  const nv = gatedLevels({ parses: true, loads: loadsOnce, units, noVerdict: 'bwrap failed' });
  assert.deepEqual(nv.hidden, { noVerdict: 'bwrap failed' });
  assert.equal(gatedReward(nv).reward, null);
  // print(4) failing every hidden test earns exactly parses, loads and runs.
  assert.equal(
    gatedReward(
      gatedLevels({ parses: true, loads: loadsOnce, units: [{ status: 'fail', passed: 0, total: 4, public: false }] }),
    ).reward,
    0.75,
  );
});

test('passing one more test never lowers the reward', () => {
  const unit = fc
    .record({
      status: fc.constantFrom(...STATUSES.filter((s) => s !== 'no-verdict' && s !== 'pass')),
      total: fc.integer({ min: 1, max: 5 }),
      public: fc.boolean(),
    })
    .chain((u) => fc.integer({ min: 0, max: u.total - 1 }).map((passed) => ({ ...u, passed })));
  fc.assert(
    fc.property(fc.array(unit, { minLength: 1, maxLength: 6 }), fc.nat(), (units, pick) => {
      const i = pick % units.length;
      const better = units.map((u, j) =>
        j === i ? { ...u, passed: u.passed + 1, status: u.passed + 1 === u.total ? ('pass' as const) : u.status } : u,
      );
      const reward = (list: JudgedUnit[]) =>
        gatedReward(gatedLevels({ parses: true, loads: loadsOnce, units: list })).reward!;
      return reward(better) >= reward(units) - 1e-12;
    }),
  );
});
