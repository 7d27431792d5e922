/**
 * repair (PGS + SPADA) through the real model code and the feedback it sends, on
 * crucible/testing's in-memory model and runtime. One test also runs end to end on the real
 * sandbox (bwrap) and a fake OpenAI-compatible server over loopback HTTP: "end to end: repair
 * ..." below, the strategy tests' end-to-end check.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { pickMinimal, renderFeedback, tokenCount, type FailureFact } from '../src/feedback/index.js';
import type { Model } from '../src/models/index.js';
import { Store, formatRunTree } from '../src/store/index.js';
import {
  extractProgram,
  prepareCodeChecks,
  solveTask,
  validateModelTests,
  verifyProgram,
} from '../src/strategies/index.js';
import { inMemoryHarness } from '../src/testing/index.js';
import { depthStrict, depthTask } from './plain-task-support.js';
import { Harness } from '../src/domains/code/harness.js';
import {
  builtin,
  depthCounting,
  fenced,
  scriptedInMemoryModel,
  scriptedModel,
  standInRuntime,
  type MemoryScript,
} from './strategies-support.js';

let harness: Harness;
before(() => {
  harness = inMemoryHarness(standInRuntime());
});
after(() => harness.close());

const brackets = builtin('builtin/py/balanced-brackets');

/** A scripted model and what it was asked, in memory or behind a fake server. */
interface Scripted {
  readonly model: Model;
  requestCount(): number;
  /** Whether the request asked for structured output. */
  structured(index: number): boolean;
  lastUserMessages(): string[];
}

const inMemory = async (script: MemoryScript): Promise<Scripted> => {
  const model = scriptedInMemoryModel(script);
  return {
    model,
    requestCount: () => model.requests.length,
    structured: (i) => model.requests[i]!.responseFormat !== undefined,
    lastUserMessages: () => model.lastUserMessages(),
  };
};

async function repairFeedsBackTheCounterexample(
  scripted: (script: MemoryScript) => Promise<Scripted>,
  judge: Harness,
): Promise<void> {
  const f = await scripted({
    // SPADA tests: one right, one the reference disagrees with (dropped), one not a literal (dropped).
    structured: [
      JSON.stringify({
        tests: [
          { input: '"()[]"', output: 'True' },
          { input: '"(]"', output: 'True' },
          { input: 'oops(', output: 'False' },
        ],
      }),
    ],
    programs: [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))],
  });
  const { result } = await solveTask({
    task: brackets.task,
    strategy: 'repair',
    model: f.model,
    harness: judge,
    budget: { modelCalls: 10 },
    seed: 7,
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, brackets.program('pair-removal'));
  assert.equal(result.attempts, 2);
  assert.equal(f.requestCount(), 3, 'tests, attempt 1, attempt 2: no request after the verified program');
  assert.ok(f.structured(0), 'the tests are asked for as structured output');
  const second = f.lastUserMessages()[2]!;
  // The program ignores unclosed brackets: the smallest input that shows it is one "(".
  assert.match(second, /Input: is_balanced\(\["\("\]\)|Input: is_balanced\("\("\)/);
  assert.match(second, /smallest input/);
  assert.match(second, /Expected: False/);
  assert.match(second, /Your program returned: True/);
  assert.equal(result.usage.calls, 3);
  assert.ok(result.usage.tokens > 0);
}

test('repair: the second prompt carries the minimal counterexample, and the run stops once verified', () =>
  repairFeedsBackTheCounterexample(inMemory, harness));

test('end to end: repair on the real sandbox and a fake OpenAI-compatible server feeds back the same counterexample', async () => {
  const sandboxed = new Harness({ workers: 1 });
  const servers: Array<{ close(): Promise<void> }> = [];
  try {
    await repairFeedsBackTheCounterexample(async (script) => {
      const f = await scriptedModel({
        ...(script.structured ? { structured: script.structured as string[] } : {}),
        ...(script.programs ? { programs: script.programs as string[] } : {}),
      });
      servers.push(f);
      return {
        model: await f.model({ cache: 'off' }),
        requestCount: () => f.server.requests.length,
        structured: (i) => Boolean(f.server.requests[i]!.body.response_format),
        lastUserMessages: () => f.lastUserMessages(),
      };
    }, sandboxed);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await sandboxed.close();
  }
});

test('repair: a spent call budget stops the loop with "abstained: budget spent"', async () => {
  const model = scriptedInMemoryModel({
    programs: [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))],
  });
  const { result } = await solveTask({
    task: brackets.task,
    strategy: 'repair',
    model,
    harness,
    budget: { modelCalls: 1 },
    seed: 7,
    options: { modelTests: false },
  });
  assert.equal(result.status, 'abstained');
  assert.match(result.reason, /^budget spent: 1 of 1 model calls/);
  assert.equal(result.program, undefined);
  assert.equal(result.bestAttempt, brackets.program('ignores-unclosed'));
  assert.equal(model.requests.length, 1);
});

test('repair records a tree in the store: feedback under the verdict it explains, the next prompt under the feedback', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-store-'));
  const store = new Store(join(dir, 'crucible.db'));
  const model = scriptedInMemoryModel({
    programs: [fenced(brackets.program('ignores-unclosed')), fenced(brackets.program('pair-removal'))],
  });
  try {
    const { result, runId } = await solveTask({
      task: brackets.task,
      strategy: 'repair',
      model,
      harness,
      budget: { modelCalls: 4 },
      seed: 7,
      store,
      options: { modelTests: false },
    });
    assert.equal(result.status, 'verified');
    const { run, events } = store.getRun(runId!)!;
    assert.equal(run.status, 'verified');
    assert.equal(run.usage!.modelCalls, 2);
    const byId = new Map(events.map((e) => [e.id, e]));
    const feedback = events.find((e) => e.kind === 'feedback')!;
    assert.equal(byId.get(feedback.parentId!)!.kind, 'verdict');
    const secondPrompt = events.filter((e) => e.kind === 'prompt')[1]!;
    assert.equal(secondPrompt.parentId, feedback.id);
    const tree = formatRunTree(run, events);
    assert.match(tree, /feedback \[feedback 1\]/);
    assert.match(tree, /decision \[result\]  answer: passes all/);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SPADA: model tests that contradict the examples or a property are dropped without a reference', async () => {
  const view = await prepareCodeChecks(harness, brackets.task, { audience: 'solver', seed: 1, oracle: false });
  const { kept, dropped } = await validateModelTests(harness, view, [
    { argsText: '"([]{})"', outputText: 'True' },
    { argsText: '"abc"', outputText: 'False' }, // breaks "text without brackets is balanced"
    { argsText: '"{[}]"', outputText: 'True' }, // wrong, but nothing visible contradicts it
  ]);
  assert.deepEqual(
    kept.map((t) => t.argsText),
    ['"([]{})"', '"{[}]"'],
  );
  assert.equal(dropped.length, 1);
  assert.match(dropped[0]!.why, /property/);
});

test('PGS: the fact fed back has the fewest input tokens of the pool (ties: shorter, then earlier)', () => {
  const fact = fc.record({
    input: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null)),
    check: fc.constantFrom('example 1', 'property: p'),
  });
  fc.assert(
    fc.property(fc.array(fact, { minLength: 1, maxLength: 12 }), (pool) => {
      const facts: FailureFact[] = pool.map((p) => ({ ...p, expected: null, actual: null, message: 'm' }));
      const chosen = pickMinimal(facts)!;
      const cost = (f: FailureFact) => (f.input === null ? -1 : tokenCount(f.input));
      assert.equal(cost(chosen), Math.min(...facts.map(cost)));
      assert.equal(
        pickMinimal([...facts].reverse())!.input,
        chosen.input,
        'the choice does not depend on the order, only ties do',
      );
    }),
  );
});

test('code extraction: a fenced whole function, or a body appended to the prompt', () => {
  const task = brackets.task;
  const whole = extractProgram(task, 'text\n```python\ndef is_balanced(s: str) -> bool:\n    return True\n```\nmore');
  assert.equal(whole!.form, 'function');
  assert.match(whole!.program, /^def is_balanced/m);
  const body = extractProgram(task, '```\nreturn True\n```');
  assert.equal(body!.form, 'body');
  assert.ok(body!.program.startsWith(task.prompt));
  assert.match(body!.program, /\n    return True\n$/);
  assert.equal(extractProgram(task, '   '), undefined);
});

test('repair on a task without a contract: a right program that differs from the reference only on inputs unlike the examples is verified, and the feedback names the inferred domain', async () => {
  // First a wrong program (counts the opening parentheses), then the right one that refuses other characters.
  const model = scriptedInMemoryModel({ programs: [fenced(depthCounting), fenced(depthStrict)] });
  const { result } = await solveTask({
    task: depthTask,
    strategy: 'repair',
    model,
    harness,
    budget: { modelCalls: 5 },
    seed: 7,
    options: { modelTests: false },
  });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.attempts, 2);
  // The feedback says where the failing input came from.
  assert.match(
    model.lastUserMessages()[1]!,
    /a generated input like the prompt's examples \(the task states no contract\)/,
  );
  const view = await prepareCodeChecks(harness, depthTask, { audience: 'solver', seed: 7 });
  assert.match(
    view.description,
    /generated inputs against the reference \(like the prompt's examples: the task states no contract\)/,
  );
});

test('a failing example is fed back as the call the prompt shows', async () => {
  const checks = await prepareCodeChecks(harness, depthTask, { audience: 'solver', seed: 7, probes: 0 });
  const report = await verifyProgram(harness, checks, depthTask.prompt + '    return 0\n');
  const example = report.failures.find((f) => f.check === 'example 1')!;
  assert.equal(renderFeedback(example, 'depth').split('\n')[1], 'Input: depth("(()) ()")');
  // Parses, loads and runs; fails the public examples; no hidden tests (vacuous: its weight goes to the others).
  assert.equal(report.reward.reward, 0.75);
});
