import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadDataset } from './index.js';
import { Fixtures, realFile } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

const HUMANEVAL_RECORD = {
  task_id: 'HumanEval/0',
  prompt: 'def add(a, b):\n    """Add."""\n',
  canonical_solution: '    return a + b\n',
  test: 'def check(candidate):\n    assert candidate(1, 2) == 3\n',
  entry_point: 'add',
};

for (const name of ['he.jsonl', 'he.jsonl.gz']) {
  test(`HumanEval from ${name}`, async () => {
    const path = await files.write(name, [HUMANEVAL_RECORD, { ...HUMANEVAL_RECORD, task_id: 'HumanEval/1' }]);
    const dataset = await loadDataset(path);
    assert.equal(dataset.name, 'humaneval');
    assert.equal(dataset.format, 'humaneval');
    assert.equal(dataset.tasks.length, 2);
    assert.deepEqual(dataset.tasks[0], {
      id: 'HumanEval/0',
      language: 'python',
      prompt: HUMANEVAL_RECORD.prompt,
      entryPoint: 'add',
      completionPrefix: HUMANEVAL_RECORD.prompt,
      reference: HUMANEVAL_RECORD.prompt + HUMANEVAL_RECORD.canonical_solution,
      knownWrong: [],
      suites: [{ kind: 'script', name: 'base', code: HUMANEVAL_RECORD.test, invoke: 'check(add)' }],
      source: 'humaneval',
    });
  });
}

test('errors: malformed line, invalid field, duplicate id, unknown format, empty file', async () => {
  const malformed = await files.write('bad.jsonl', [HUMANEVAL_RECORD, '', '{"task_id": "HumanEval/1", "prompt": ']);
  await assert.rejects(loadDataset(malformed), /bad\.jsonl:3: malformed JSON line/);
  const firstBad = await files.write('bad1.jsonl', ['{"task_id": ']);
  await assert.rejects(loadDataset(firstBad), /bad1\.jsonl:1: malformed JSON line/);
  const invalid = await files.write('invalid.jsonl', [
    HUMANEVAL_RECORD,
    { ...HUMANEVAL_RECORD, task_id: 'HumanEval/1', test: 42 },
  ]);
  await assert.rejects(
    loadDataset(invalid),
    /invalid\.jsonl:2: invalid HumanEval record "HumanEval\/1": test: .*expected string/,
  );
  const missing = await files.write('missing.jsonl', [
    HUMANEVAL_RECORD,
    { ...HUMANEVAL_RECORD, entry_point: undefined, task_id: 'HumanEval/1' },
  ]);
  await assert.rejects(loadDataset(missing), /missing\.jsonl:2: .*entry_point: .*\(field missing\)/);
  const duplicate = await files.write('dup.jsonl', [HUMANEVAL_RECORD, HUMANEVAL_RECORD]);
  await assert.rejects(loadDataset(duplicate), /dup\.jsonl:2: task "HumanEval\/0" already defined on line 1/);
  const unknown = await files.write('unknown.jsonl', [{ task_id: 'HumanEval/0', completion: 'x' }]);
  await assert.rejects(loadDataset(unknown), (error: Error) => {
    assert.match(error.message, /unknown dataset format: the first record has fields \[task_id, completion\]/);
    for (const format of ['humaneval', 'humaneval+', 'mbpp+', 'multipl-e', 'humanevalpack', 'quixbugs'])
      assert.ok(error.message.includes(`${format} (`), format);
    return true;
  });
  const empty = await files.write('empty.jsonl', ['', '  ']);
  await assert.rejects(loadDataset(empty), /no records/);
});

const real = realFile('humaneval/HumanEval.jsonl.gz');
test('real HumanEval: 164 tasks', { skip: real.skip }, async () => {
  const dataset = await loadDataset(real.path);
  assert.equal(dataset.tasks.length, 164);
  assert.deepEqual(
    dataset.tasks.map((t) => t.id),
    Array.from({ length: 164 }, (_, i) => `HumanEval/${i}`),
  );
  for (const task of dataset.tasks) {
    const suite = task.suites[0];
    assert.ok(
      suite?.kind === 'script' && suite.invoke === `check(${task.entryPoint})` && suite.code.includes('def check('),
      task.id,
    );
    assert.ok(task.reference?.startsWith(task.prompt));
  }
});
