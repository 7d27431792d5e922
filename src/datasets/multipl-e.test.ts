import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadDataset } from './index.js';
import { lastFunctionName, multipleTaskId } from './multipl-e.js';
import { Fixtures, realFile } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

const record = (language: string, extra: object = {}) => ({
  name: 'HumanEval_23_strlen',
  language,
  prompt: '//Return length of given string\n// function notThis(x)\nfunction strlen(string: string): number {\n',
  doctests: 'transform',
  tests:
    'const assert = require(\'node:assert\');\nfunction test() {\n  let candidate = strlen;\n  assert.deepEqual(candidate(""),0);\n}\ntest();',
  stop_tokens: ['\nfunction '],
  ...extra,
});

for (const [language, expected, file] of [
  ['js', 'javascript', 'js.jsonl'],
  ['ts', 'typescript', 'ts.jsonl.gz'],
] as const) {
  test(`MultiPL-E ${language} from ${file}`, async () => {
    const dataset = await loadDataset(await files.write(file, [record(language, { task_id: 'HumanEval_23_strlen' })]));
    assert.equal(dataset.format, 'multipl-e');
    assert.equal(dataset.name, `humaneval-${language}`);
    const r = record(language);
    assert.deepEqual(dataset.tasks[0], {
      id: 'HumanEval/23',
      language: expected,
      prompt: r.prompt,
      entryPoint: 'strlen',
      completionPrefix: r.prompt,
      knownWrong: [],
      suites: [{ kind: 'script', name: 'base', code: r.tests }],
      source: 'multipl-e',
    });
    assert.equal(dataset.aliases?.get('HumanEval_23_strlen'), 'HumanEval/23');
  });
}

test('MultiPL-E helpers and errors', async () => {
  assert.equal(multipleTaskId('HumanEval_0_has_close_elements'), 'HumanEval/0');
  assert.equal(multipleTaskId('mbpp_3_is_not_prime'), 'Mbpp/3');
  assert.equal(multipleTaskId('other'), 'other');
  assert.equal(lastFunctionName('function a(x) {}\nfunction  b<T>(x: T): T {\n'), 'b');
  assert.equal(lastFunctionName('const f = () => 1;'), undefined);
  const py = await files.write('py.jsonl', [record('py')]);
  await assert.rejects(
    loadDataset(py),
    /py\.jsonl:1: invalid MultiPL-E record "HumanEval_23_strlen": language: unsupported language \(supported: js, ts\)/,
  );
  const noFn = await files.write('nofn.jsonl', [{ ...record('js'), prompt: '// nothing\n' }]);
  await assert.rejects(loadDataset(noFn), /nofn\.jsonl:1: .*no "function NAME\(" in its prompt/);
});

for (const [language, count, missing] of [
  ['js', 161, [32, 38, 50]],
  ['ts', 159, [32, 38, 50, 137, 148]],
] as const) {
  const real = realFile(`multipl-e-humaneval/humaneval-${language}.jsonl.gz`);
  test(`real MultiPL-E humaneval-${language}: ${count} tasks`, { skip: real.skip }, async () => {
    const dataset = await loadDataset(real.path);
    assert.equal(dataset.tasks.length, count);
    const ids = new Set(dataset.tasks.map((t) => t.id));
    assert.deepEqual(
      Array.from({ length: 164 }, (_, i) => i).filter((i) => !ids.has(`HumanEval/${i}`)),
      missing,
    );
    for (const task of dataset.tasks) {
      const suite = task.suites[0]!;
      assert.ok(suite.kind === 'script' && suite.code.includes(`let candidate = ${task.entryPoint};`), task.id);
      assert.equal(task.reference, undefined);
    }
  });
}
