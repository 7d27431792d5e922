/** sample and best-of-n through the real model code on crucible/testing's in-memory model and runtime. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Threshold } from '../src/select/abstain.js';
import { CONFIDENCE_SCORE } from '../src/select/select.js';
import { prepareCodeChecks, solveTask } from '../src/strategies/index.js';
import { inMemoryHarness, type InMemoryRuntime } from '../src/testing/index.js';
import type { Harness } from '../src/domains/code/harness.js';
import { builtin, fenced, scriptedInMemoryModel, standInRuntime } from './strategies-support.js';

let runtime: InMemoryRuntime;
let harness: Harness;
before(() => {
  runtime = standInRuntime();
  harness = inMemoryHarness(runtime);
});
after(() => harness.close());

const lru = builtin('builtin/py/lru-misses');

test('sample: the first of n samples that passes the visible checks is the answer', async () => {
  // fifo-not-lru fails an example; capacity-zero-crash passes them but not the generated inputs (the reference is the oracle).
  const model = scriptedInMemoryModel({
    programs: [
      fenced(lru.program('fifo-not-lru')),
      fenced(lru.program('capacity-zero-crash')),
      fenced(lru.reference),
      'no code here',
    ],
  });
  const { result } = await solveTask({
    task: lru.task,
    strategy: 'sample',
    model,
    harness,
    budget: { modelCalls: 2 },
    seed: 3,
    options: { samples: 4 },
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, lru.reference);
  assert.equal(result.attempts, 3, 'judged in order, stopping at the first that passes');
  assert.equal(model.requests.length, 1);
  assert.equal(model.requests[0]!.n, 4, 'one request for n samples');
});

test('sample: when none passes, it abstains and says which check the best one fails', async () => {
  const model = scriptedInMemoryModel({
    programs: [fenced(lru.program('fifo-not-lru')), fenced(lru.program('capacity-zero-crash'))],
  });
  const { result } = await solveTask({
    task: lru.task,
    strategy: 'sample',
    model,
    harness,
    budget: {},
    seed: 3,
    options: { samples: 2 },
  });
  assert.equal(result.status, 'abstained');
  assert.match(result.reason, /none of 2 samples passes the visible checks; the best one fails a generated input/);
  assert.equal(result.bestAttempt, lru.program('capacity-zero-crash'));
});

test('best-of-n: picks the right program among scripted candidates', async () => {
  const model = scriptedInMemoryModel({
    programs: [fenced(lru.program('capacity-zero-crash')), fenced(lru.program('fifo-not-lru')), fenced(lru.reference)],
  });
  const { result } = await solveTask({
    task: lru.task,
    strategy: 'best-of-n',
    model,
    harness,
    budget: {},
    seed: 3,
    options: { samples: 3 },
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, lru.reference);
  assert.equal(result.attempts, 3);
});

test('best-of-n: with a calibrated threshold it abstains when candidates that pass the examples disagree', async () => {
  const brackets = builtin('builtin/py/balanced-brackets');
  // Without the reference as oracle, both pass every visible check, but they disagree on unclosed brackets.
  const view = await prepareCodeChecks(harness, brackets.task, { audience: 'solver', seed: 5, oracle: false });
  const threshold: Threshold = {
    kind: 'crucible-threshold',
    version: 1,
    threshold: 0.95,
    alpha: 0.1,
    delta: 0.1,
    calibrationTasks: 50,
    answered: 40,
    wrong: 2,
    errorBound: 0.09,
    score: CONFIDENCE_SCORE,
  };
  const programs = [fenced(brackets.program('pair-removal')), fenced(brackets.program('ignores-unclosed'))];
  const model = scriptedInMemoryModel({ programs: [...programs, ...programs.slice(0, 1), ...programs.slice(0, 1)] });
  const split = await solveTask({
    task: brackets.task,
    strategy: 'best-of-n',
    model,
    harness,
    budget: {},
    seed: 5,
    view,
    options: { samples: 2, threshold },
  });
  assert.equal(split.result.status, 'abstained');
  assert.match(split.result.reason, /below the calibrated threshold 0\.950/);
  assert.equal(split.result.program, undefined);
  // Two candidates that behave the same reach the threshold: the same strategy answers.
  const agree = await solveTask({
    task: brackets.task,
    strategy: 'best-of-n',
    model,
    harness,
    budget: {},
    seed: 5,
    view,
    options: { samples: 2, threshold },
  });
  assert.equal(agree.result.status, 'verified', agree.result.reason);
});

test('a token budget stops repair after the call that spent it', async () => {
  const model = scriptedInMemoryModel({ programs: [fenced(lru.program('fifo-not-lru')), fenced(lru.reference)] });
  const { result } = await solveTask({
    task: lru.task,
    strategy: 'repair',
    model,
    harness,
    budget: { tokens: 10 },
    seed: 3,
    options: { modelTests: false },
  });
  assert.equal(result.status, 'abstained');
  assert.match(result.reason, /^budget spent: \d+ of 10 tokens/);
  assert.equal(model.requests.length, 1);
  assert.equal(result.attempts, 1, 'the program already paid for is still judged');
});

test('the wall-time budget cancels a model call in flight', async () => {
  const model = scriptedInMemoryModel({ programs: [{ text: fenced(lru.reference), delayMs: 60_000 }] });
  const { result } = await solveTask({
    task: lru.task,
    strategy: 'sample',
    model,
    harness,
    budget: { wallSeconds: 1 },
    seed: 3,
    options: { samples: 1 },
  });
  assert.equal(result.status, 'abstained');
  assert.match(result.reason, /^budget spent: .* seconds of wall time/);
  assert.equal(result.attempts, 0);
});

test('a task with nothing to check against gives an unverified answer, said as such', async () => {
  const task = {
    ...lru.task,
    id: 'bare',
    prompt: 'def double(x):\n    """Twice x."""\n',
    completionPrefix: 'def double(x):\n    """Twice x."""\n',
    entryPoint: 'double',
    suites: [],
    knownWrong: [],
  };
  delete (task as { reference?: string }).reference;
  delete (task as { properties?: unknown }).properties;
  delete (task as { precondition?: unknown }).precondition;
  runtime.add({ match: `${task.prompt}    return 2 * x\n`, functions: { double: (x: number) => 2 * x } });
  const model = scriptedInMemoryModel({ programs: ['```python\n    return 2 * x\n```'] });
  const { result } = await solveTask({
    task,
    strategy: 'sample',
    model,
    harness,
    budget: {},
    seed: 3,
    options: { samples: 1 },
  });
  assert.equal(result.status, 'unverified');
  assert.match(result.reason, /nothing to check the program against/);
  assert.equal(result.program, `${task.prompt}    return 2 * x\n`, 'a body is appended to the prompt');
});
