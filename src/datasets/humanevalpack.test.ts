import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { EXAMPLE_SUITE, loadDataset } from './index.js';
import { Fixtures, realFile } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

const python = {
  task_id: 'Python/0',
  prompt: 'def add(a, b):\n    """Add."""\n',
  declaration: 'def add(a, b):\n',
  canonical_solution: '    return a + b\n',
  buggy_solution: '    return a - b\n',
  bug_type: 'operator misuse',
  test: '\n\ndef check(add):\n    assert add(1, 2) == 3\n\ncheck(add)',
  example_test: 'def check(add):\n    assert add(0, 0) == 0\ncheck(add)\n',
  entry_point: 'add',
};
const js = {
  ...python,
  task_id: 'JavaScript/0',
  prompt: '/* Add. */\nconst add = (a, b) => {\n',
  declaration: '\nconst add = (a, b) => {\n',
  canonical_solution: '  return a + b;\n}\n',
  buggy_solution: '  return a - b;\n}\n',
  test: 'const testAdd = () => {\n  console.assert(add(1, 2) === 3)\n}\ntestAdd()\n',
  example_test: '',
};

test('HumanEvalPack Python (.jsonl)', async () => {
  const dataset = await loadDataset(await files.write('py.jsonl', [python]));
  assert.equal(dataset.name, 'humanevalpack-python');
  assert.equal(dataset.format, 'humanevalpack');
  assert.deepEqual(dataset.tasks[0], {
    id: 'Python/0',
    language: 'python',
    prompt: python.prompt,
    entryPoint: 'add',
    completionPrefix: python.prompt,
    reference: python.prompt + python.canonical_solution,
    knownWrong: [{ label: 'buggy', program: python.prompt + python.buggy_solution }],
    suites: [{ kind: 'script', name: 'base', code: python.test }],
    source: 'humanevalpack',
  });
  assert.deepEqual(dataset.publicTests?.get('Python/0'), {
    kind: 'script',
    name: EXAMPLE_SUITE,
    code: python.example_test,
  });
  assert.equal(dataset.aliases?.get('HumanEval/0'), 'Python/0');
});

test('HumanEvalPack JavaScript (.jsonl.gz)', async () => {
  const dataset = await loadDataset(await files.write('js.jsonl.gz', [js]));
  assert.equal(dataset.name, 'humanevalpack-js');
  const task = dataset.tasks[0]!;
  assert.equal(task.language, 'javascript');
  assert.equal(task.reference, '/* Add. */\nconst add = (a, b) => {\n  return a + b;\n}\n');
  assert.equal(dataset.publicTests, undefined, 'an empty example_test gives no public test');
});

test('HumanEvalPack: unsupported languages are named', async () => {
  const go = await files.write('go.jsonl', [{ ...python, task_id: 'Go/0' }]);
  await assert.rejects(
    loadDataset(go),
    /go\.jsonl:1: invalid HumanEvalPack record "Go\/0": task_id: unsupported language \(supported: Python, JavaScript\)/,
  );
});

for (const [file, language, name] of [
  ['humanevalpack-python.jsonl.gz', 'python', 'Python'],
  ['humanevalpack-js.jsonl.gz', 'javascript', 'JavaScript'],
] as const) {
  const real = realFile(`humanevalpack/${file}`);
  test(`real ${file}: 164 tasks with a buggy solution each`, { skip: real.skip }, async () => {
    const dataset = await loadDataset(real.path);
    assert.equal(dataset.tasks.length, 164);
    assert.deepEqual(
      dataset.tasks.map((t) => t.id),
      Array.from({ length: 164 }, (_, i) => `${name}/${i}`),
    );
    for (const task of dataset.tasks) {
      assert.equal(task.language, language);
      assert.equal(task.knownWrong.length, 1);
      assert.notEqual(task.knownWrong[0]!.program, task.reference);
    }
    assert.equal(dataset.publicTests?.size, 158);
  });
}
