import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Task } from '../core/task.js';
import { loadDataset, type Dataset } from './index.js';
import { Fixtures, realFile } from './testing.js';
import { loadLabelledSamples, loadSamples } from './samples.js';

const files = new Fixtures();
after(() => files.cleanup());

const task = (id: string, prefix: string): Task => ({
  id,
  language: 'python',
  prompt: prefix,
  entryPoint: 'f',
  completionPrefix: prefix,
  knownWrong: [],
  suites: [],
  source: 'test',
});

const DATASET: Dataset = {
  name: 'toy',
  format: 'humaneval',
  tasks: [task('T/0', 'def f():\n'), task('T/1', 'def g():\n')],
  aliases: new Map([['t_zero', 'T/0']]),
};

for (const name of ['s.jsonl', 's.jsonl.gz']) {
  test(`completion vs solution, numbering per task (${name})`, async () => {
    const path = await files.write(name, [
      { task_id: 'T/0', completion: '    return 1\n' },
      { task_id: 'T/1', solution: 'def g():\n    return 2\n' },
      '',
      { task_id: 'T/0', solution: 'def f():\n    return 3\n', completion: 'ignored' },
      { task_id: 't_zero', completion: '' },
    ]);
    const { candidates, warnings } = await loadSamples(path, DATASET);
    assert.deepEqual(warnings, [
      "read 1 task id of the samples as toy's (t_zero → T/0); results use the dataset's ids",
    ]);
    assert.deepEqual(candidates, [
      { taskId: 'T/0', index: 0, program: 'def f():\n    return 1\n' },
      { taskId: 'T/1', index: 0, program: 'def g():\n    return 2\n' },
      { taskId: 'T/0', index: 1, program: 'def f():\n    return 3\n' },
      { taskId: 'T/0', index: 2, program: 'def f():\n' },
    ]);
  });
}

test('unknown task ids are skipped with one warning that counts them', async () => {
  const path = await files.write('unknown.jsonl', [
    { task_id: 'X/1', solution: 'a' },
    { task_id: 'T/1', solution: 'b' },
    { task_id: 'X/1', solution: 'c' },
    { task_id: 'X/2', completion: 'd' },
  ]);
  const { candidates, warnings } = await loadSamples(path, DATASET);
  assert.deepEqual(candidates, [{ taskId: 'T/1', index: 0, program: 'b' }]);
  assert.deepEqual(warnings, ['skipped 3 samples for 2 task ids not in toy: X/1, X/2']);
});

test('malformed lines and lines without a program are errors naming the line', async () => {
  const malformed = await files.write('malformed.jsonl', [
    { task_id: 'T/0', solution: 'a' },
    '',
    '{"task_id": "T/0", "solution": ',
  ]);
  await assert.rejects(loadSamples(malformed, DATASET), /malformed\.jsonl:3: malformed JSON line/);
  const empty = await files.write('noprogram.jsonl', [
    { task_id: 'T/0', solution: 'a' },
    { task_id: 'T/1', answer: 'x' },
  ]);
  await assert.rejects(
    loadSamples(empty, DATASET),
    /noprogram\.jsonl:2: sample for "T\/1" has no program: expected "solution" \(a whole program\) or "completion" \(appended to the prompt\); fields: task_id, answer/,
  );
  const wrongType = await files.write('type.jsonl', [{ task_id: 'T/0', solution: 3 }]);
  await assert.rejects(loadSamples(wrongType, DATASET), /type\.jsonl:1: invalid sample: solution: .*expected string/);
  const noId = await files.write('noid.jsonl', [{ solution: 'x' }]);
  await assert.rejects(loadSamples(noId, DATASET), /noid\.jsonl:1: invalid sample: task_id/);
});

const normalized = (
  taskId: string,
  code: string,
  form: 'body' | 'full',
  passed: unknown,
  suite: string,
  model = 'm1',
) => ({
  source: 'mapcoder',
  task_id: taskId,
  model,
  method: 'CoT',
  test_suite: suite,
  run: 'r',
  sample_index: 0,
  code,
  code_form: form,
  passed,
});

test('normalized llm-samples records: code_form, labels, filters; index is the position in the file, filtered or not', async () => {
  const path = await files.write('norm.jsonl.gz', [
    normalized('T/0', '    return 1\n', 'body', true, 'HumanEval-ET extended tests'),
    normalized('T/0', 'def f():\n    return 2\n', 'full', 'False', 'original hidden tests (field test)'),
    normalized('T/1', 'def g():\n    return 3\n', 'full', 'True', 'original hidden tests (field test)', 'gpt-4'),
    normalized('MBPP/9', 'x', 'full', false, 'original hidden tests (field test)'),
  ]);
  const plain = await loadSamples(path, DATASET);
  assert.deepEqual(
    plain.candidates.map((c) => [c.taskId, c.index, c.program]),
    [
      ['T/0', 0, 'def f():\n    return 1\n'],
      ['T/0', 1, 'def f():\n    return 2\n'],
      ['T/1', 0, 'def g():\n    return 3\n'],
    ],
  );
  assert.equal(plain.warnings.length, 1);

  const original = await loadLabelledSamples(path, DATASET, { testSuite: 'original' });
  assert.deepEqual(
    original.candidates.map((c) => [c.taskId, c.index]),
    [
      ['T/0', 1],
      ['T/1', 0],
    ],
  );
  assert.deepEqual(original.labels, [
    {
      passed: false,
      source: 'mapcoder',
      model: 'm1',
      method: 'CoT',
      testSuite: 'original hidden tests (field test)',
      run: 'r',
    },
    {
      passed: true,
      source: 'mapcoder',
      model: 'gpt-4',
      method: 'CoT',
      testSuite: 'original hidden tests (field test)',
      run: 'r',
    },
  ]);
  assert.deepEqual(original.warnings, ['skipped 1 sample for 1 task id not in toy: MBPP/9']);

  const all = await loadLabelledSamples(path, DATASET);
  assert.deepEqual(
    all.labels.map((l) => l.passed),
    [true, false, true],
  );
  const byPredicate = await loadLabelledSamples(path, DATASET, (label, taskId) => label.passed && taskId === 'T/0');
  assert.equal(byPredicate.candidates.length, 1);
  const byModel = await loadLabelledSamples(path, DATASET, { model: 'GPT', testSuite: 'ORIGINAL' });
  assert.deepEqual(
    byModel.candidates.map((c) => c.taskId),
    ['T/1'],
  );

  const none = await loadLabelledSamples(path, DATASET, { testSuite: 'nothing like it' });
  assert.equal(none.candidates.length, 0);
  assert.match(
    none.warnings.join('\n'),
    /no sample of 4 matches the filter \{"testSuite":"nothing like it"\}; values seen: .*testSuite: "HumanEval-ET extended tests"/,
  );
});

test('labelled samples need a label on every line', async () => {
  const path = await files.write('nolabel.jsonl', [
    { task_id: 'T/0', solution: 'a', passed: true },
    { task_id: 'T/0', solution: 'b' },
  ]);
  await assert.rejects(loadLabelledSamples(path, DATASET), /nolabel\.jsonl:2: sample has no label: expected "passed"/);
  const bad = await files.write('badlabel.jsonl', [{ task_id: 'T/0', solution: 'a', passed: 'yes' }]);
  await assert.rejects(loadLabelledSamples(bad, DATASET), /badlabel\.jsonl:1: invalid label fields: passed/);
  const solved = await files.write('solved.jsonl', [{ task_id: 'T/0', solution: 'a', is_solved: false }]);
  assert.deepEqual((await loadLabelledSamples(solved, DATASET)).labels, [{ passed: false }]);
});

test('MultiPL-E samples resolve by either id', async () => {
  const data = await files.write('mple.jsonl', [
    {
      name: 'HumanEval_23_strlen',
      language: 'js',
      prompt: 'function strlen(string) {\n',
      tests: 'test();',
    },
  ]);
  const dataset = await loadDataset(data);
  const samples = await files.write('mple-samples.jsonl', [
    { task_id: 'HumanEval_23_strlen', completion: '  return string.length;\n}\n' },
    { task_id: 'HumanEval/23', completion: '  return 0;\n}\n' },
  ]);
  const { candidates, warnings } = await loadSamples(samples, dataset);
  assert.deepEqual(warnings, [
    "read 1 task id of the samples as humaneval-js's (HumanEval_23_strlen → HumanEval/23); results use the dataset's ids",
  ]);
  assert.deepEqual(candidates, [
    { taskId: 'HumanEval/23', index: 0, program: 'function strlen(string) {\n  return string.length;\n}\n' },
    { taskId: 'HumanEval/23', index: 1, program: 'function strlen(string) {\n  return 0;\n}\n' },
  ]);
});

const humaneval = realFile('humaneval/HumanEval.jsonl.gz');
const completions = realFile(
  'llm-samples/mapcoder/final-results/ChatGPT/HumanEvalPlus/ChatGPT-Reflexion-10-Python3-0-1.jsonl.gz',
);
const solutions = realFile('llm-samples/mapcoder/final-results/ChatGPT/HumanEvalPlus/ChatGPT-CoT-Python3-0-1.jsonl.gz');
const labelled = realFile('llm-samples/samples_normalized.jsonl.gz');

test(
  'real EvalPlus sample files (completion and solution)',
  { skip: humaneval.skip || completions.skip || solutions.skip },
  async () => {
    const dataset = await loadDataset(humaneval.path);
    const prompts = new Map(dataset.tasks.map((t) => [t.id, t.prompt]));
    const byCompletion = await loadSamples(completions.path, dataset);
    assert.equal(byCompletion.candidates.length, 164);
    assert.deepEqual(byCompletion.warnings, []);
    for (const c of byCompletion.candidates) assert.ok(c.program.startsWith(prompts.get(c.taskId)!) && c.index === 0);
    const bySolution = await loadSamples(solutions.path, dataset);
    assert.equal(bySolution.candidates.length, 164);
    assert.ok(bySolution.candidates.some((c) => !c.program.startsWith(prompts.get(c.taskId)!)));
  },
);

test('real normalized samples against HumanEval and MBPP+', { skip: humaneval.skip || labelled.skip }, async () => {
  const dataset = await loadDataset(humaneval.path);
  const original = await loadLabelledSamples(labelled.path, dataset, { testSuite: 'original' });
  assert.ok(original.candidates.length > 1000);
  assert.equal(original.labels.length, original.candidates.length);
  assert.ok(original.labels.every((l) => l.testSuite?.startsWith('original')));
  assert.ok(original.labels.some((l) => l.passed) && original.labels.some((l) => !l.passed));
  assert.match(original.warnings.join('\n'), /task ids not in humaneval: MBPP\//);
  const mbpp = realFile('evalplus/MbppPlus-v0.2.0.jsonl.gz');
  if (mbpp.skip) return;
  const mbppPlus = await loadLabelledSamples(labelled.path, await loadDataset(mbpp.path));
  assert.ok(mbppPlus.candidates.length > 1000, 'MBPP/N ids resolve to Mbpp/N');
  assert.ok(mbppPlus.candidates.every((c) => c.taskId.startsWith('Mbpp/')));
});
