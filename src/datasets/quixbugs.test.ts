import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadDataset } from './index.js';
import { Fixtures, realFile } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

const record = {
  name: 'gcd',
  buggy_program: 'def gcd(a, b):\n    if b == 0:\n        return a\n    return gcd(a % b, b)',
  docstring: '"""\nGreatest common divisor\n"""',
  solution: 'import math\n\ndef gcd(a, b):\n    if b == 0:\n        return a\n    return gcd(b, a % b)',
  tests: 'assert gcd(*[17, 0]) == 17\nassert gcd(*[13, 13]) == 13',
};

for (const file of ['qb.jsonl', 'qb.jsonl.gz']) {
  test(`QuixBugs from ${file}`, async () => {
    const dataset = await loadDataset(await files.write(file, [record]));
    assert.equal(dataset.name, 'quixbugs-python');
    assert.equal(dataset.format, 'quixbugs');
    assert.deepEqual(dataset.tasks[0], {
      id: 'QuixBugs/gcd',
      language: 'python',
      prompt: '"""\nGreatest common divisor\n"""\ndef gcd(a, b):\n',
      entryPoint: 'gcd',
      completionPrefix: '',
      reference: record.solution,
      knownWrong: [{ label: 'buggy', program: record.buggy_program }],
      suites: [{ kind: 'script', name: 'base', code: record.tests }],
      source: 'quixbugs',
    });
    assert.equal(dataset.aliases?.get('gcd'), 'QuixBugs/gcd');
  });
}

test('QuixBugs: a solution without the named function is an error', async () => {
  const path = await files.write('bad.jsonl', [{ ...record, solution: 'def other(a, b):\n    pass' }]);
  await assert.rejects(loadDataset(path), /bad\.jsonl:1: QuixBugs record "gcd": its solution has no "def gcd\(" line/);
});

const real = realFile('quixbugs-python/quixbugs_python.jsonl');
test('real QuixBugs: 40 tasks', { skip: real.skip }, async () => {
  const dataset = await loadDataset(real.path);
  assert.equal(dataset.tasks.length, 40);
  for (const task of dataset.tasks) assert.ok(task.prompt.includes(`def ${task.entryPoint}(`), task.id);
});
