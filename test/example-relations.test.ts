/**
 * Relations every example keeps between its arguments are kept by the generated inputs:
 * where two dictionaries never give a shared key two values in the examples, a right merge
 * that lets the last one win is not flagged against a reference that keeps the first, and a
 * merge that drops a dictionary still fails. Judged through the code pack, as `eval
 * --augment` judges a sample.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Task } from '../src/core/task.js';
import { prepareCodeChecks, verifyProgram } from '../src/domains/code/index.js';
import { GENERATED_SUITE } from '../src/domains/code/differential.js';
import { exampleRelations } from '../src/domains/code/generate/example-relations.js';
import { Harness } from '../src/domains/code/harness.js';

const dict = (...entries: [unknown, unknown][]) => ({ $t: 'dict', v: entries });

test('shared dictionary keys agree where every example keeps them agreeing; elsewhere nothing is kept', () => {
  const relations = exampleRelations([[dict(['B', 'Black'], ['R', 'Red']), dict(['B', 'Black']), dict()]]);
  assert.ok(relations, 'two dictionaries, a shared key with one value');
  const { hold, restore } = relations;
  assert.equal(hold([dict(['B', 'Black']), dict(['B', 'Blue']), dict()]), false, 'a shared key with two values');
  assert.equal(hold([dict(['B', [1, 2]]), dict(['B', [1, 2]]), dict(['C', 1])]), true, 'equal values agree');
  assert.equal(hold([{ a: 1 }, { a: 2 }]), false, 'plain objects are dictionaries too');
  assert.equal(hold([dict([1, 'x']), 1, dict([1, 'y'])]), false, 'whatever lies between them');
  assert.equal(hold([dict([true, 'x']), dict([1, 'y'])]), false, 'True and 1 are one key');
  assert.equal(
    exampleRelations([[dict(['a', 1]), dict(['a', 2])]]),
    undefined,
    'an example gives a shared key two values: conflicts are part of the task',
  );
  assert.equal(exampleRelations([[dict(['a', 1]), [1, 2]]]), undefined, 'one dictionary: nothing to relate');

  // Mended, a special value given to one dictionary's keys reaches the others' shared keys.
  const mended = restore([dict(['B', ''], ['R', '']), 7, dict(['B', 'Black'], ['W', 'White']), { R: 'Red', Z: 1 }]);
  assert.deepEqual(mended, [dict(['B', ''], ['R', '']), 7, dict(['B', ''], ['W', 'White']), { R: '', Z: 1 }]);
  assert.equal(hold(mended), true);
});

const harness = new Harness();
after(() => harness.close());

const prompt = `"""
Write a function to merge three dictionaries into a single dictionary.
assert merge_three({ "R": "Red", "B": "Black", "P": "Pink" }, { "G": "Green", "W": "White" },{ "O": "Orange", "W": "White", "B": "Black" })=={'B': 'Black', 'R': 'Red', 'P': 'Pink', 'G': 'Green', 'W': 'White', 'O': 'Orange'}
"""
`;
const task: Task = {
  id: 'relations/merge',
  language: 'python',
  prompt,
  entryPoint: 'merge_three',
  completionPrefix: '',
  reference: 'import collections as ct\ndef merge_three(d1, d2, d3):\n    return dict(ct.ChainMap({}, d1, d2, d3))\n',
  contract: '\n    assert all(isinstance(d, dict) for d in (d1, d2, d3)), "invalid inputs"\n',
  knownWrong: [],
  suites: [
    {
      kind: 'io',
      name: 'base',
      entry: 'merge_three',
      // As MBPP+ gives them: dictionaries with string keys are JSON objects.
      inputsJson: JSON.stringify([
        [
          { R: 'Red', B: 'Black', P: 'Pink' },
          { G: 'Green', W: 'White' },
          { O: 'Orange', W: 'White', B: 'Black' },
        ],
      ]),
    },
  ],
  source: 'test',
};

test('a merge where the last dictionary wins is right where the examples never let a shared key differ', async () => {
  const checks = await prepareCodeChecks(harness, task, { audience: 'scorer', seed: 5 });
  assert.ok(checks.augmentation?.inputs?.args.length, checks.augmentation?.reason);
  const args = checks.augmentation.inputs.args;
  assert.ok(
    args.some((a) => a.every((d) => JSON.stringify(d) !== JSON.stringify(dict()))),
    'the generated inputs fill the dictionaries',
  );
  const { hold } = exampleRelations([[dict(), dict()]])!;
  assert.ok(args.every(hold), 'no generated input gives a shared key two values');

  const lastWins = await verifyProgram(
    harness,
    checks,
    'def merge_three(d1, d2, d3):\n    return {**d1, **d2, **d3}\n',
  );
  assert.equal(lastWins.passed, true, JSON.stringify(lastWins.verdict.suites));

  // Right on the examples, whose values are all words; wrong where a value is empty or zero.
  const dropsEmpty = await verifyProgram(
    harness,
    checks,
    'def merge_three(d1, d2, d3):\n    return {k: v for d in (d1, d2, d3) for k, v in d.items() if v}\n',
  );
  assert.equal(dropsEmpty.passed, false);
  assert.equal(dropsEmpty.verdict.suites.find((s) => s.name === GENERATED_SUITE)?.status, 'fail');

  // The next program is judged right.
  const chain = await verifyProgram(harness, checks, 'def merge_three(d1, d2, d3):\n    return {**d3, **d2, **d1}\n');
  assert.equal(chain.passed, true);
});
