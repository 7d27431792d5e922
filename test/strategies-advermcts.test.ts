/**
 * AdverMCTS: the tree's arithmetic (P-UCB, max backups, penalties), the divergence reward, and
 * scripted runs (crucible/testing's in-memory model and runtime) whose global filter blocks a
 * planted pseudo-correct program.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { divergenceReward } from '../src/strategies/advermcts/filter.js';
import { advermcts } from '../src/strategies/advermcts/index.js';
import {
  backup,
  bestChild,
  createRoot,
  expand,
  EXPLORATION,
  penalize,
  pucb,
  value,
} from '../src/strategies/advermcts/tree.js';
import { codeSubject, prepareCodeChecks, memoryTrace } from '../src/strategies/index.js';
import { inMemoryHarness } from '../src/testing/index.js';
import type { Harness } from '../src/domains/code/harness.js';
import { builtin, fenced, scriptedInMemoryModel, standInRuntime } from './strategies-support.js';

let harness: Harness;
before(() => {
  harness = inMemoryHarness(standInRuntime());
});
after(() => harness.close());

test('divergence reward: 0 when the outputs agree, 1 when all differ, unknown outputs ignored', () => {
  assert.equal(divergenceReward(['=1', '=1', '=1']), 0);
  assert.equal(divergenceReward(['=1', undefined, '=1']), 0);
  assert.equal(divergenceReward(['=1']), 0);
  assert.equal(divergenceReward(['=1', '=2', '!ValueError']), 1);
  assert.equal(divergenceReward(['=1', '=1', '=2']), 0.5);
  fc.assert(
    fc.property(
      fc.array(fc.option(fc.constantFrom('=a', '=b', '=c', '!E'), { nil: undefined }), { maxLength: 8 }),
      (outputs) => {
        const reward = divergenceReward(outputs);
        const known = outputs.filter((o) => o !== undefined);
        assert.ok(reward >= 0 && reward <= 1);
        assert.equal(reward === 0, new Set(known).size <= 1);
      },
    ),
  );
});

const child = fc.record({
  visits: fc.nat({ max: 50 }),
  best: fc.double({ min: 0, max: 1, noNaN: true }),
  penalty: fc.constantFrom(0, 0.1, 0.2),
  prior: fc.double({ min: 0.01, max: 1, noNaN: true }),
});

test('P-UCB (c = 4): the exploration term shrinks as a child is visited more, and selection takes the highest score', () => {
  assert.equal(EXPLORATION, 4);
  fc.assert(
    fc.property(child, fc.integer({ min: 2, max: 10_000 }), (c, parentVisits) => {
      const explore = (visits: number) => pucb({ ...c, visits }, parentVisits) - value({ ...c, visits });
      assert.ok(explore(c.visits + 1) < explore(c.visits));
      assert.ok(
        Math.abs(explore(c.visits) - (4 * c.prior * Math.sqrt(Math.log(parentVisits))) / (1 + c.visits)) < 1e-9,
      );
    }),
  );
  fc.assert(
    fc.property(
      fc.array(child, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1, max: 1000 }),
      (children, parentVisits) => {
        const i = bestChild(children, parentVisits);
        const scores = children.map((c) => pucb(c, parentVisits));
        assert.equal(scores[i], Math.max(...scores));
        assert.equal(i, scores.indexOf(Math.max(...scores)), 'ties go to the first');
      },
    ),
  );
  // Same value and visits: the step the model scored higher is explored first.
  const a = { visits: 1, best: 0.5, penalty: 0, prior: 0.3 };
  assert.equal(bestChild([a, { ...a, prior: 0.7 }], 5), 1);
});

test('max backups keep the best return on every ancestor; penalties land on the node and its ancestors, not the root', () => {
  const root = createRoot();
  const [c1, c2] = expand(root, [
    { thought: 'a', score: 3 },
    { thought: 'b', score: 1 },
  ]);
  assert.equal(c1!.prior, 0.75);
  const [g1] = expand(c1!, [
    { thought: 'a1', score: 0 },
    { thought: 'a2', score: 0 },
  ]);
  assert.equal(g1!.prior, 0.5, 'all-zero scores give uniform priors');
  backup(g1!, 0.5);
  backup(g1!, 1);
  backup(c2!, 0.25);
  assert.deepEqual([root.visits, c1!.visits, g1!.visits, c2!.visits], [3, 2, 2, 1]);
  assert.deepEqual([root.best, c1!.best, c2!.best], [1, 1, 0.25]);
  penalize(g1!);
  assert.deepEqual([root.penalty, c1!.penalty, g1!.penalty, c2!.penalty], [0, 0.1, 0.1, 0]);
  assert.ok(Math.abs(value(c1!) - 0.9) < 1e-12);
});

test('a scripted run: the attacker splits the pool, the model arbitrates, and the global filter evicts and later blocks the pseudo-correct program', async () => {
  const brackets = builtin('builtin/py/balanced-brackets');
  const pseudo = brackets.program('ignores-unclosed'); // passes both examples, wrong on unclosed brackets
  const right = brackets.program('pair-removal');
  const model = scriptedInMemoryModel({
    structured: [
      JSON.stringify({
        steps: [
          { thought: 'use a stack of open brackets', score: 0.6 },
          { thought: 'remove matched pairs until none is left', score: 0.4 },
        ],
      }),
      JSON.stringify({
        steps: [
          { thought: 'at the end, the stack must be empty', score: 0.5 },
          { thought: 'reject a closing bracket on an empty stack', score: 0.5 },
        ],
      }),
      JSON.stringify({ inputs: ['"("', '"()"', 'not a literal ('] }),
      JSON.stringify({ valid: true, output: 'false' }),
    ],
    programs: [fenced(pseudo), fenced(right), fenced(pseudo)],
  });
  // No reference as oracle: only the model can say what is_balanced("(") must be.
  const view = await prepareCodeChecks(harness, brackets.task, { audience: 'solver', seed: 2, oracle: false });
  const trace = memoryTrace();
  const result = await advermcts(codeSubject(harness, brackets.task, view), {
    model,
    budget: { modelCalls: 20 },
    trace,
    seed: 2,
    options: { rollouts: 3 },
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, right);
  assert.match(result.reason, /1\/1 adversarial tests/);
  assert.equal(model.requests.length, 7, '2 expansions, 3 programs, 1 attack, 1 arbitration');
  const decisions = trace.events
    .filter((e) => e.kind === 'decision')
    .map((e) => `${(e.data as { action: string }).action}: ${(e.data as { reason: string }).reason}`);
  assert.ok(
    decisions.some((d) =>
      /^attack: .*is_balanced\("\("\) splits the pool into 2 behaviours \(divergence 1\.00\)/.test(d),
    ),
    decisions.join('\n'),
  );
  assert.ok(decisions.includes('arbitrate: the model says false'));
  assert.ok(decisions.some((d) => /^evict: fails the adversarial test/.test(d)));
  const rejections = decisions.filter((d) => d.startsWith('reject: '));
  assert.equal(rejections.length, 1);
  assert.match(rejections[0]!, /blocked by the global test filter: fails 1 adversarial test/);
  // The arbiter saw both outputs and the examples.
  const arbiter = model.lastUserMessages()[5]!;
  assert.match(arbiter, /Input: is_balanced\("\("\)/);
  assert.match(arbiter, /1\. true\n2\. false|1\. false\n2\. true/);
});

test('with a reference, the reference arbitrates: no arbiter call is made', async () => {
  const brackets = builtin('builtin/py/balanced-brackets');
  const model = scriptedInMemoryModel({
    structured: [
      JSON.stringify({ steps: [{ thought: 'use a stack', score: 1 }] }),
      JSON.stringify({ steps: [{ thought: 'check the stack is empty at the end', score: 1 }] }),
      JSON.stringify({ inputs: ['"(("'] }),
    ],
    programs: [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))],
  });
  const trace = memoryTrace();
  const result = await advermcts(codeSubject(harness, brackets.task), {
    model,
    budget: { modelCalls: 20 },
    trace,
    seed: 2,
    options: { rollouts: 2 },
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, brackets.program('pair-removal'));
  assert.equal(model.requests.length, 5, '2 expansions, 2 programs, 1 attack');
  const decisions = trace.events.filter((e) => e.kind === 'decision').map((e) => (e.data as { reason: string }).reason);
  assert.ok(decisions.includes('the reference returns false'), decisions.join('\n'));
});
