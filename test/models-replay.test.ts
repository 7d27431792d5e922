/** The replay model: recorded solutions served by task, through the production Model layer and strategies. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadDataset } from '../src/datasets/index.js';
import { loadSamples } from '../src/datasets/samples.js';
import type { Task } from '../src/core/task.js';
import { EMPTY_CONFIG } from '../src/models/config.js';
import {
  createModel,
  ModelCallError,
  ModelConfigError,
  parseReplaySource,
  parseSpec,
  type Model,
} from '../src/models/index.js';
import { extractProgram } from '../src/domains/code/extract.js';
import { prepareCodeChecks, solveTask } from '../src/strategies/index.js';
import { finalAnswerMessages, solveMessages } from '../src/strategies/prompts.js';
import { z } from 'zod';
import { Harness } from '../src/domains/code/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-replay-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const ADD_PROMPT =
  'def add(a: int, b: int) -> int:\n    """Return the sum of a and b.\n    >>> add(2, 3)\n    5\n    >>> add(1, -1)\n    0\n    """\n';
const MAX_PROMPT =
  'from typing import List\n\n\ndef biggest(xs: List[int]) -> int:\n    """The largest element of a non-empty list.\n    >>> biggest([1, 5, 2])\n    5\n    """\n';
const EMPTY_PROMPT = 'def nothing() -> int:\n    """Return 0.\n    >>> nothing()\n    0\n    """\n';
const dataset = join(dir, 'tiny.jsonl');
writeFileSync(
  dataset,
  [
    {
      task_id: 'Tiny/0',
      prompt: ADD_PROMPT,
      entry_point: 'add',
      canonical_solution: '    return a + b\n',
      test: 'def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-4, 1) == -3\n    assert candidate(10, 10) == 20\n',
    },
    {
      task_id: 'Tiny/1',
      prompt: MAX_PROMPT,
      entry_point: 'biggest',
      canonical_solution: '    return max(xs)\n',
      test: 'def check(candidate):\n    assert candidate([1, 5, 2]) == 5\n    assert candidate([-3, -1]) == -1\n',
    },
    {
      task_id: 'Tiny/2',
      prompt: EMPTY_PROMPT,
      entry_point: 'nothing',
      canonical_solution: '    return 0\n',
      test: 'def check(candidate):\n    assert candidate() == 0\n',
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n',
);

// EvalPlus convention: `completion` (a body) and `solution` (a whole program, here without the prompt's import).
const evalplusSamples = join(dir, 'samples.jsonl');
const WRONG_ADD = '    return a - b\n';
const RIGHT_ADD = '    return a + b\n';
const ODD_ADD = 'def add(a, b):\n    return a + b if b >= 0 else 0\n';
const BIGGEST = 'def biggest(xs: List[int]) -> int:\n    return sorted(xs)[-1]\n';
writeFileSync(
  evalplusSamples,
  [
    { task_id: 'Tiny/0', completion: WRONG_ADD },
    { task_id: 'Tiny/1', solution: BIGGEST },
    { task_id: 'Tiny/0', solution: ODD_ADD },
    { task_id: 'Tiny/0', completion: RIGHT_ADD },
    { task_id: 'Tiny/0', completion: RIGHT_ADD },
    { task_id: 'Elsewhere/9', completion: '    pass\n' },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n',
);

// llm-samples' normalized records, labelled, with two test suites.
const labelledSamples = join(dir, 'labelled.jsonl');
writeFileSync(
  labelledSamples,
  [
    {
      task_id: 'Tiny/0',
      code: RIGHT_ADD,
      code_form: 'body',
      passed: true,
      test_suite: 'original hidden tests',
      model: 'gpt-4',
    },
    {
      task_id: 'Tiny/0',
      code: WRONG_ADD,
      code_form: 'body',
      passed: false,
      test_suite: 'extended tests',
      model: 'gpt-4',
    },
    {
      task_id: 'Tiny/0',
      code: 'def add(a, b):\n    return b + a\n',
      code_form: 'full',
      passed: true,
      test_suite: 'original hidden tests',
      model: 'gpt-3.5',
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n',
);

const spec = (samples: string, query = '') => `replay:${samples}?dataset=${dataset}${query}`;
const open = (text: string) =>
  createModel(text, { config: EMPTY_CONFIG, env: {}, cacheDir: join(dir, 'cache-should-stay-empty') });

let tasks: Task[];
before(async () => {
  tasks = (await loadDataset(dataset)).tasks;
});
const task = (id: string) => tasks.find((t) => t.id === id)!;

test('the spec: samples file, dataset and label filters; the dataset is required', () => {
  const parsed = parseSpec(spec(labelledSamples, '&test_suite=original&model=gpt-4'));
  assert.equal(parsed?.kind, 'replay');
  assert.deepEqual(parseReplaySource(parsed!.modelId), {
    samples: labelledSamples,
    dataset,
    filter: { testSuite: 'original', model: 'gpt-4' },
  });
  assert.throws(
    () => parseReplaySource(evalplusSamples),
    (e: unknown) => e instanceof ModelConfigError && /name the dataset the samples belong to/.test(e.message),
  );
  assert.throws(() => parseReplaySource(`${evalplusSamples}?dataset=x&temperature=1`), /unknown option "temperature"/);
});

test("each call returns the task's next recorded solutions in file order, fenced, wrapping round; free and instant", async () => {
  const model = await open(spec(evalplusSamples));
  try {
    assert.equal(model.kind, 'replay');
    assert.equal(model.capabilities.nativeN, true);
    const add = task('Tiny/0');
    const expected = (await loadSamples(evalplusSamples, await loadDataset(dataset))).candidates
      .filter((c) => c.taskId === 'Tiny/0')
      .map((c) => c.program);
    assert.equal(expected.length, 4);
    const first = await model.generate({ messages: solveMessages(add), n: 3, label: 'sample' });
    assert.equal(first.completions.length, 3);
    assert.equal(first.calls.length, 1, 'n completions in one call');
    for (const [i, c] of first.completions.entries()) {
      assert.match(c.text, /^```python\n[\s\S]*\n```\n$/);
      // What a strategy reads out of the reply is the program `eval --samples` would judge.
      assert.equal(extractProgram(add, c.text)?.program.trimEnd(), expected[i]!.trimEnd());
    }
    assert.ok(extractProgram(add, first.completions[0]!.text)!.program.includes('return a - b'));
    const second = await model.generate({ messages: solveMessages(add), n: 2 });
    assert.deepEqual(
      second.completions.map((c) => extractProgram(add, c.text)!.program.trimEnd()),
      [expected[3]!.trimEnd(), expected[0]!.trimEnd()],
      'the 4th, then round again to the 1st',
    );
    // Another task has its own cursor; the prompt's import is added to a whole-program solution.
    const other = await model.generate({ messages: solveMessages(task('Tiny/1')), n: 1 });
    assert.equal(
      extractProgram(task('Tiny/1'), other.completions[0]!.text)!.program,
      `from typing import List\n${BIGGEST}`,
    );
    assert.equal(first.costUsd, 0);
    assert.ok(first.usage.inputTokens > 20 && first.usage.outputTokens > 10, JSON.stringify(first.usage));
    assert.equal(first.calls[0]!.cached, false);
    assert.deepEqual(model.totals(), {
      calls: 3,
      cachedCalls: 0,
      inputTokens: model.totals().inputTokens,
      cachedInputTokens: 0,
      outputTokens: model.totals().outputTokens,
      costUsd: 0,
    });
  } finally {
    await model.close();
  }
});

test('labelled records: the filters keep only the matching ones', async () => {
  const model = await open(spec(labelledSamples, '&test_suite=original'));
  try {
    const reply = await model.generate({ messages: solveMessages(task('Tiny/0')), n: 3 });
    const programs = reply.completions.map((c) => extractProgram(task('Tiny/0'), c.text)!.program);
    assert.ok(programs[0]!.includes('return a + b'));
    assert.ok(programs[1]!.includes('return b + a'));
    assert.ok(programs[2]!.includes('return a + b'), 'two records match; the third completion wraps round');
    assert.ok(!programs.some((p) => p.includes('a - b')), 'the extended-tests record is filtered out');
  } finally {
    await model.close();
  }
});

test('a prompt of no task is an error; a task without recordings gets empty replies; the entry point names a task whose prompt was reworded', async () => {
  const model = await open(spec(evalplusSamples));
  try {
    await assert.rejects(
      model.generate({ messages: [{ role: 'user', content: 'Write a poem about sandboxes.' }] }),
      (e: unknown) => e instanceof ModelCallError && /quotes no prompt of the replay's dataset/.test(e.message),
    );
    const none = await model.generate({ messages: solveMessages(task('Tiny/2')), n: 2 });
    assert.deepEqual(
      none.completions.map((c) => c.text),
      ['', ''],
    );
    const reworded: Task = { ...task('Tiny/1'), prompt: 'def biggest(xs):\n    """Largest."""\n' };
    const found = await model.generate({ messages: solveMessages(reworded) });
    assert.ok(found.completions[0]!.text.includes('sorted(xs)[-1]'));
  } finally {
    await model.close();
  }
});

test('structured requests: a `code` schema gets {"code": program}; any other schema gets {} and no solution is used', async () => {
  const model = await open(spec(evalplusSamples));
  try {
    const add = task('Tiny/0');
    const tests = await model.generate({
      messages: solveMessages(add),
      output: { schema: z.object({ tests: z.array(z.object({ input: z.string(), output: z.string() })) }) },
    });
    assert.ok(tests.completions[0]!.outputError, 'nothing recorded for it');
    const code = await model.generate({
      messages: finalAnswerMessages(add, 'draft'),
      output: { schema: z.object({ code: z.string() }) },
    });
    assert.equal(code.completions[0]!.outputError, undefined);
    assert.ok(
      String((code.completions[0]!.value as { code: string }).code).includes('return a - b'),
      'the first solution: the tests request took none',
    );
  } finally {
    await model.close();
  }
});

test('best-of-n over replayed solutions picks the program the others agree with, and sample takes the first that passes', async () => {
  const harness = new Harness({ workers: 1 });
  let model: Model | undefined;
  try {
    model = await open(spec(evalplusSamples));
    const add = task('Tiny/0');
    // As `eval --model` does: no reference as an oracle, so only the examples and agreement decide.
    // WRONG_ADD fails the prompt's examples; ODD_ADD (2nd) passes them but disagrees with the two right ones when b < 0.
    const view = await prepareCodeChecks(harness, add, { audience: 'solver', seed: 5, oracle: false });
    const { result } = await solveTask({
      task: add,
      strategy: 'best-of-n',
      model,
      harness,
      budget: {},
      seed: 5,
      options: { samples: 4 },
      view,
    });
    assert.equal(result.status, 'verified', result.reason);
    assert.ok(result.program?.includes('return a + b\n') && !result.program.includes('b >= 0'), result.program);
    assert.equal(result.attempts, 4);
    assert.equal(result.usage.calls, 1);
    assert.equal(result.usage.costUsd, 0);
    // The cursor is back at the 1st solution. With the reference as an oracle, `sample` rejects
    // WRONG_ADD (an example) and ODD_ADD (a generated input), and answers with the 3rd.
    const again = await solveTask({
      task: add,
      strategy: 'sample',
      model,
      harness,
      budget: {},
      seed: 5,
      options: { samples: 3 },
    });
    assert.equal(again.result.status, 'verified', again.result.reason);
    assert.equal(again.result.attempts, 3);
    assert.ok(again.result.program?.includes('return a + b\n'));
  } finally {
    await model?.close();
    await harness.close();
  }
});
