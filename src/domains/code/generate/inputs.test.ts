import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Task } from '../../../core/task.js';
import { findPromptExamples, readLiterals, readLiteralsAsync } from './examples.js';
import { generateInputs, inputSpace } from './inputs.js';
import { mutateValue } from './mutate.js';
import { seededRandom } from '../../../core/random.js';
import type { ValueType } from './types.js';

const task: Task = {
  id: 't',
  language: 'python',
  prompt:
    'from typing import List\n\ndef f(words: List[str], k: int, scale: float) -> List[str]:\n    """\n    >>> f(["a", "bb"], 1, 2.0)\n    [\'a\']\n    """\n',
  entryPoint: 'f',
  completionPrefix: '',
  knownWrong: [],
  suites: [],
  source: 'test',
};

function conforms(value: unknown, type: ValueType): boolean {
  switch (type.kind) {
    case 'int':
      // Integers past 2^53 are wire-tagged, their digits kept exactly.
      return (
        Number.isInteger(value) ||
        (typeof value === 'object' && value !== null && (value as { $t?: string }).$t === 'int')
      );
    case 'float':
      return typeof value === 'number';
    case 'str':
      return typeof value === 'string';
    case 'list':
      return Array.isArray(value) && value.every((v) => conforms(v, type.item));
    default:
      return true;
  }
}

test('the same seed gives the same inputs; another seed gives others', () => {
  const space = inputSpace(task, ['[["a", "bb"], 1, 2.0]']);
  const a = generateInputs(space, { seed: 7, count: 60 });
  const b = generateInputs(space, { seed: 7, count: 60 });
  const c = generateInputs(space, { seed: 8, count: 60 });
  assert.deepEqual(a.texts, b.texts);
  assert.notDeepEqual(a.texts, c.texts);
  assert.equal(a.texts.length, 60);
  assert.equal(new Set(a.texts).size, 60, 'no duplicates');
  assert.ok(!a.texts.includes('[["a","bb"],1,2.0]'), 'the example itself is not repeated');
});

test('every generated input has the signature types, floats written as floats', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
      const space = inputSpace(task, ['[["a", "bb"], 1, 2.0]']);
      const { args, texts } = generateInputs(space, { seed, count: 20 });
      args.forEach((a, i) => {
        assert.ok(
          conforms(a[0], space.types[0]!) && conforms(a[1], space.types[1]!) && conforms(a[2], space.types[2]!),
          JSON.stringify(a),
        );
        assert.match(
          texts[i]!,
          /,(-?\d+\.\d+|-?\d+(\.\d+)?e[+-]?\d+)\]$/,
          'the float argument is written with a decimal point',
        );
      });
    }),
    { numRuns: 25 },
  );
});

test('mutation keeps the type of what it changes', () => {
  const random = seededRandom(1);
  const context = { random, alphabet: 'ab', fragments: ['x'] };
  const type: ValueType = { kind: 'list', item: { kind: 'list', item: { kind: 'int' } } };
  let value: unknown = [[1, 2], [3]];
  for (let i = 0; i < 300; i++) {
    value = mutateValue(value, type, context);
    assert.ok(conforms(value, type), JSON.stringify(value));
  }
});

test('a precondition decides what is kept and what is mutated further', () => {
  const space = inputSpace(task, ['[["a", "bb"], 1, 2.0]']);
  const { args } = generateInputs(space, {
    seed: 3,
    count: 40,
    accept: (a) => (a[1] as number) >= 0 && (a[0] as string[]).length > 0,
  });
  assert.ok(args.length > 0);
  assert.ok(args.every((a) => (a[1] as number) >= 0 && (a[0] as string[]).length > 0));
});

test('prompt examples: doctests, arrows and equalities; the signature line is not an example', () => {
  const prompt = [
    'def f(a: int, b: str) -> bool:',
    '    """',
    '    >>> f(1, "x)")',
    '    True',
    "    f(2, 'y') ==> False",
    '    For example: f(3, "z") == True.',
    '    """',
  ].join('\n');
  assert.deepEqual(findPromptExamples(prompt, 'f', 'python'), [
    { argsText: '1, "x)"', outputText: 'True' },
    { argsText: "2, 'y'", outputText: 'False' },
    { argsText: '3, "z"', outputText: 'True' },
  ]);
});

test('calls without a readable output still give arguments (MBPP writes assert set(f(a, b)) == ...)', async () => {
  const { findPromptCallArguments } = await import('./examples.js');
  const prompt =
    '"""\nWrite a function to find the shared elements.\nassert set(similar_elements((3, 4, 5, 6),(5, 7, 4, 10))) == set((4, 5))\n"""\n';
  assert.deepEqual(findPromptCallArguments(prompt, 'similar_elements'), ['(3, 4, 5, 6),(5, 7, 4, 10)']);
  assert.deepEqual(findPromptExamples(prompt, 'similar_elements', 'python'), []);
});

test('the long-lived literal reader agrees with a fresh interpreter, also on concurrent and hostile requests', async () => {
  const texts = [
    '[1, 2.0, "a"]',
    '(1,)',
    "{'k': {1, 2}}",
    '[True, None]',
    'f(1)',
    '['.repeat(100_000),
    '9'.repeat(5000),
    '[-0.0, 1e400]',
  ];
  const fresh = readLiterals(
    'python',
    texts.map((t) => `${t} `),
  ); // other texts: the memo must not answer for the reader
  const [first, second] = await Promise.all([
    readLiteralsAsync('python', texts),
    readLiteralsAsync('python', ['[3]', 'x']),
  ]);
  assert.deepEqual(first, fresh);
  assert.equal(first![0], '[1,2.0,"a"]');
  assert.equal(first![4], undefined, 'a call is not a literal');
  assert.equal(first![5], undefined, 'nesting too deep to read');
  assert.deepEqual(second, ['[3]', undefined]);
});
