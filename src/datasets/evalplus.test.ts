import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { IoSuite, Task } from '../core/task.js';
import { loadDataset } from './index.js';
import { Fixtures, realFile } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

const io = (task: Task | undefined, name: string): IoSuite => {
  const suite = task?.suites.find((s) => s.name === name);
  assert.ok(suite?.kind === 'io', `io suite ${name}`);
  return suite;
};

// Written as text: the inputs hold Python's 1.0, NaN and Infinity, which JSON.stringify cannot write.
const HUMANEVAL_PLUS_LINE =
  '{"task_id": "HumanEval/32", "prompt": "def find_zero(xs: list):\\n", "entry_point": "find_zero", ' +
  '"canonical_solution": "    return 0.0\\n", "test": "def check(c): pass", "contract": "", ' +
  '"base_input": [[[1.0, 2.0]], [[-6, 11, -6, 1]]], "atol": 1e-06, "plus_input": [[[NaN, Infinity]], [[-Infinity, 1.0]]]}';
const OTHER_LINE = HUMANEVAL_PLUS_LINE.replaceAll('HumanEval/32', 'HumanEval/2').replaceAll(
  'find_zero',
  'truncate_number',
);

for (const name of ['he+.jsonl', 'he+.jsonl.gz']) {
  test(`HumanEval+ from ${name}: raw inputs, atol, find_zero oracle`, async () => {
    const dataset = await loadDataset(await files.write(name, [HUMANEVAL_PLUS_LINE, OTHER_LINE]));
    assert.equal(dataset.name, 'humaneval+');
    assert.equal(dataset.format, 'humaneval+');
    const [zero, other] = dataset.tasks;
    assert.equal(zero?.id, 'HumanEval/32');
    assert.equal(zero?.reference, 'def find_zero(xs: list):\n    return 0.0\n');
    assert.equal(zero?.completionPrefix, 'def find_zero(xs: list):\n');
    assert.deepEqual(io(zero, 'base'), {
      kind: 'io',
      name: 'base',
      entry: 'find_zero',
      inputsJson: '[[[1.0, 2.0]], [[-6, 11, -6, 1]]]',
      atol: 1e-6,
      oracle: 'find_zero',
    });
    assert.equal(io(zero, 'plus').inputsJson, '[[[NaN, Infinity]], [[-Infinity, 1.0]]]');
    assert.equal(io(other, 'base').oracle, undefined);
    assert.deepEqual(
      zero?.suites.map((s) => s.name),
      ['base', 'plus'],
    );
  });
}

const mbpp = (id: number, entry: string, plus = '[[[1, 2]]]') =>
  `{"task_id": "Mbpp/${id}", "prompt": "\\"\\"\\"\\nWrite it.\\n\\"\\"\\"\\n", "entry_point": "${entry}", ` +
  `"canonical_solution": "\\ndef ${entry}(a):\\n  return a\\n", "base_input": [[[1.0]]], "atol": 0, "plus_input": ${plus}, ` +
  `"contract": "", "assertion": "\\nassert ${entry}([1]) == [1]\\n"}`;

for (const name of ['mbpp+.jsonl', 'mbpp+.jsonl.gz']) {
  test(`MBPP+ from ${name}: adapters, oracles, empty {} inputs`, async () => {
    const lines = [
      mbpp(2, 'similar_elements'),
      mbpp(3, 'is_not_prime'),
      mbpp(793, 'last', '{}'),
      mbpp(581, 'surface_Area'),
    ];
    const dataset = await loadDataset(await files.write(name, lines));
    assert.equal(dataset.name, 'mbpp+');
    assert.equal(dataset.format, 'mbpp+');
    const [similar, prime, last, surface] = dataset.tasks;
    assert.equal(similar?.reference, '"""\nWrite it.\n"""\n\ndef similar_elements(a):\n  return a\n');
    assert.deepEqual(io(similar, 'base'), {
      kind: 'io',
      name: 'base',
      entry: 'similar_elements',
      inputsJson: '[[[1.0]]]',
      atol: 0,
      oracle: 'set_eq',
      inputAdapter: 'mbpp:2',
    });
    assert.equal(io(prime, 'plus').oracle, undefined);
    assert.equal(io(prime, 'plus').inputAdapter, 'mbpp:3');
    assert.equal(io(last, 'plus').inputsJson, '[]');
    assert.equal(io(surface, 'plus').oracle, 'surface_area');
    assert.equal(dataset.aliases?.get('MBPP/2'), 'Mbpp/2');
  });
}

test('EvalPlus errors: inputs that are not arrays, bad MBPP+ ids', async () => {
  const notArray = await files.write('na.jsonl', [
    HUMANEVAL_PLUS_LINE.replace('"plus_input": [[[NaN', '"plus_input": 3, "x": [[[NaN'),
  ]);
  await assert.rejects(
    loadDataset(notArray),
    /na\.jsonl:1: invalid HumanEval\+ record "HumanEval\/32": plus_input: must be a JSON array/,
  );
  const badValue = await files.write('bv.jsonl', [HUMANEVAL_PLUS_LINE.replace('[[[NaN,', '[[[nan,')]);
  await assert.rejects(loadDataset(badValue), /bv\.jsonl:1: malformed JSON line/);
  const badId = await files.write('id.jsonl', [mbpp(2, 'f').replace('Mbpp/2', 'MBPP-2')]);
  await assert.rejects(loadDataset(badId), /id\.jsonl:1: MBPP\+ task_id "MBPP-2" is not of the form "Mbpp\/<number>"/);
});

const plus = realFile('evalplus/HumanEvalPlus-v0.1.10.jsonl.gz');
test('real HumanEval+: 164 tasks, inputs kept as Python wrote them', { skip: plus.skip }, async () => {
  const dataset = await loadDataset(plus.path);
  assert.equal(dataset.tasks.length, 164);
  const byId = new Map(dataset.tasks.map((t) => [t.id, t]));
  assert.equal(io(byId.get('HumanEval/2'), 'base').inputsJson, '[[3.5], [1.33], [123.456]]');
  assert.ok(io(byId.get('HumanEval/2'), 'plus').inputsJson.includes('[1.0]'));
  assert.equal(io(byId.get('HumanEval/32'), 'plus').oracle, 'find_zero');
  assert.equal(dataset.tasks.filter((t) => io(t, 'base').oracle).length, 1);
  assert.equal(dataset.tasks.filter((t) => (io(t, 'base').atol ?? 0) > 0).length, 3);
  for (const task of dataset.tasks) assert.ok(Array.isArray(JSON.parse(io(task, 'plus').inputsJson)));
});

const mini = realFile('evalplus/HumanEvalPlus-Mini-v0.1.10.jsonl.gz');
test('real HumanEval+ Mini (no "test" field): 164 tasks', { skip: mini.skip }, async () => {
  const dataset = await loadDataset(mini.path);
  assert.equal(dataset.name, 'humaneval+');
  assert.equal(dataset.tasks.length, 164);
});

const mbppPlus = realFile('evalplus/MbppPlus-v0.2.0.jsonl.gz');
test('real MBPP+: 378 tasks, adapters and oracles', { skip: mbppPlus.skip }, async () => {
  const dataset = await loadDataset(mbppPlus.path);
  assert.equal(dataset.tasks.length, 378);
  const byId = new Map(dataset.tasks.map((t) => [t.id, t]));
  for (const task of dataset.tasks) assert.equal(io(task, 'base').inputAdapter, `mbpp:${task.id.slice(5)}`);
  assert.equal(io(byId.get('Mbpp/793'), 'plus').inputsJson, '[]');
  assert.match(io(byId.get('Mbpp/404'), 'plus').inputsJson, /\[-Infinity, Infinity\]/);
  const oracles = Object.fromEntries(
    dataset.tasks.filter((t) => io(t, 'base').oracle).map((t) => [t.entryPoint, io(t, 'base').oracle]),
  );
  assert.deepEqual(oracles, {
    similar_elements: 'set_eq',
    find_char_long: 'set_eq',
    common_in_nested_lists: 'set_eq',
    extract_singly: 'set_eq',
    larg_nnum: 'set_eq',
    find_dissimilar: 'set_eq',
    Diff: 'set_eq',
    check_str: 'output_not_none',
    text_match_three: 'output_not_none',
    text_starta_endb: 'output_not_none',
    surface_Area: 'surface_area',
    digit_distance_nums: 'digit_distance',
  });
});
