/** Selection and abstention through the sandboxed harness, and the select/calibrate commands. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import type { Candidate, Task } from '../src/core/task.js';
import { codePack } from '../src/domains/code/index.js';
import { selectForTask } from '../src/select/select.js';
import { Harness } from '../src/domains/code/harness.js';

const run = promisify(execFile);
const harness = new Harness({ workers: 2 });
after(() => harness.close());

const PROMPT =
  'def second_largest(xs: list[int]) -> int:\n    """The second largest distinct value, or -1 if there is none.\n    >>> second_largest([3, 1, 4])\n    3\n    >>> second_largest([2, 2])\n    -1\n    """\n';
const RIGHT = [
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 1 else -1\n',
  '    top = second = None\n    for x in set(xs):\n        if top is None or x > top:\n            top, second = x, top\n        elif second is None or x > second:\n            second = x\n    return -1 if second is None else second\n',
  '    d = sorted(set(xs), reverse=True)\n    return -1 if len(d) < 2 else d[1]\n',
];
const WRONG = [
  '    d = sorted(xs)\n    return d[-2] if len(d) > 1 else -1\n', // duplicates: [2, 2] -> 2 (fails an example)
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 1 and d[0] >= 0 else -1\n', // negatives: passes both examples
];

const task: Task = {
  id: 'sel/second',
  language: 'python',
  prompt: PROMPT,
  entryPoint: 'second_largest',
  completionPrefix: PROMPT,
  knownWrong: [],
  suites: [],
  source: 'test',
};

test('selection picks a right program, groups the right ones together and shows an input that splits them', async () => {
  const programs = [WRONG[1]!, RIGHT[0]!, WRONG[0]!, RIGHT[1]!, RIGHT[2]!];
  const candidates: Candidate[] = programs.map((body, index) => ({ taskId: task.id, index, program: PROMPT + body }));
  const s = await selectForTask(codePack(harness), task, candidates, { seed: 9 });
  assert.ok([1, 3, 4].includes(s.selectedIndex!), `selected #${s.selectedIndex}: ${s.why}`);
  assert.deepEqual(s.clusters[0], [1, 3, 4]);
  assert.equal(s.publicExamples, 2);
  assert.equal(s.candidates[2]!.publicPassed, 1, 'the duplicate bug fails one prompt example');
  assert.ok(s.disagreements.length > 0);
  const split = s.disagreements[0]!;
  assert.ok(
    split.groups.length >= 2 && split.groups.some((g) => g.candidates.includes(0) && !g.candidates.includes(1)),
    JSON.stringify(split),
  );
  assert.ok(s.confidence > 0 && s.confidence <= 1);
  const again = await selectForTask(codePack(harness), task, candidates, { seed: 9 });
  assert.equal(again.selectedIndex, s.selectedIndex, 'the same seed replays the same selection');
  assert.equal(again.confidence, s.confidence);
});

test('crucible calibrate writes a threshold and crucible select answers or abstains with reasons, as JSON', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'crucible-select-'));
  // Two tasks in HumanEval's format: hidden tests (check) for calibration; select never reads them.
  const check =
    'def check(candidate):\n    assert candidate([3, 1, 4]) == 3\n    assert candidate([2, 2]) == -1\n    assert candidate([-5, -2, -9]) == -5\n';
  const rows = [0, 1].map((i) => ({
    task_id: `T/${i}`,
    prompt: PROMPT,
    canonical_solution: RIGHT[0],
    test: check,
    entry_point: 'second_largest',
  }));
  await writeFile(join(dir, 'tasks.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const samples = [
    ...[RIGHT[0], RIGHT[1], WRONG[1]].map((completion) => ({ task_id: 'T/0', completion })),
    ...[WRONG[1], WRONG[0], WRONG[1]].map((completion) => ({ task_id: 'T/1', completion })),
  ];
  await writeFile(join(dir, 'samples.jsonl'), samples.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args, '--workers', '1'], { cwd: process.cwd() });
  const calibrated = await cli(
    'calibrate',
    '--dataset',
    join(dir, 'tasks.jsonl'),
    '--samples',
    join(dir, 'samples.jsonl'),
    '--alpha',
    '0.5',
    '--delta',
    '0.2',
    '--out',
    join(dir, 't.json'),
    '--seed',
    '5',
  );
  assert.match(calibrated.stdout, /calibrated on 2 tasks \(the selected program is right on 1\)/);
  const threshold = JSON.parse(await readFile(join(dir, 't.json'), 'utf8'));
  assert.equal(threshold.kind, 'crucible-threshold');
  assert.equal(threshold.calibration.length, 2);

  const selected = await cli(
    'select',
    '--dataset',
    join(dir, 'tasks.jsonl'),
    '--samples',
    join(dir, 'samples.jsonl'),
    '--threshold',
    join(dir, 't.json'),
    '--seed',
    '5',
    '--json',
    join(dir, 's.json'),
  );
  assert.match(selected.stderr, /seed 5 \(replay with --seed 5\)/);
  const doc = JSON.parse(await readFile(join(dir, 's.json'), 'utf8'));
  assert.equal(doc.summary.answered + doc.summary.abstained, 2);
  for (const t of doc.tasks) {
    assert.ok(['answer', 'abstain'].includes(t.decision));
    assert.equal(typeof t.confidence, 'number');
    assert.ok(Number.isInteger(t.selected_index));
    if (t.decision === 'abstain') assert.match(t.reason, /threshold|α/);
  }
  const t0 = doc.tasks.find((t: { task_id: string }) => t.task_id === 'T/0');
  assert.ok([0, 1].includes(t0.selected_index), 'a right program is picked for T/0');
  if (threshold.threshold !== null)
    assert.equal(t0.decision, t0.confidence >= threshold.threshold ? 'answer' : 'abstain');

  await assert.rejects(
    cli(
      'select',
      '--dataset',
      join(dir, 'tasks.jsonl'),
      '--samples',
      join(dir, 'samples.jsonl'),
      '--threshold',
      join(dir, 'samples.jsonl'),
    ),
    /not a threshold file|cannot read the threshold file/,
  );
});

test('properties rank candidates: one that breaks a property is not picked over one that keeps them all', async () => {
  const { builtinTasks } = await import('../src/bench/builtin/index.js');
  const { task, candidates } = builtinTasks.find((b) => b.task.id === 'builtin/py/run-length-encode')!;
  const all: Candidate[] = candidates.map((c, index) => ({ taskId: task.id, index, program: c.program }));
  // The wrong one first, so that order alone would pick it.
  const order = [all[1]!, all[0]!];
  const s = await selectForTask(codePack(harness), task, order, { seed: 2 });
  assert.equal(s.selectedIndex, 0, s.why);
  assert.equal(s.candidates.find((c) => c.index === 1)!.breaksProperty, true);
  assert.equal(s.candidates.find((c) => c.index === 0)!.breaksProperty, false);
  assert.match(s.why, /keeps all 1 properties/);
});
