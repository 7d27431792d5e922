import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Task } from '../../../core/task.js';
import { boundaryArguments, specialValues, taskConstants } from './boundary.js';
import { generateInputs, inputSpace } from './inputs.js';
import { seededRandom } from '../../../core/random.js';
import type { ValueType } from './types.js';

const INT: ValueType = { kind: 'int' };
const STR: ValueType = { kind: 'str' };
const has = (values: readonly unknown[], wanted: unknown) =>
  values.some((v) => JSON.stringify(v) === JSON.stringify(wanted));

test('constants come from comparisons and literals of the prompt and the reference', () => {
  const c = taskConstants(
    'def f(n):\n    """n is at most 37"""',
    'def f(n):\n    if n >= 12: return "big"\n    return n',
  );
  assert.ok(c.numbers.includes(12) && c.numbers.includes(37), JSON.stringify(c.numbers));
  assert.ok(c.strings.includes('big'));
  assert.equal(c.nonFinite, false);
  assert.equal(taskConstants('return math.isnan(x)').nonFinite, true);
});

test('integers reach their boundaries: ±1 around constants, 32- and 64-bit limits, Python ints past 2^53 kept exact', () => {
  const values = specialValues(INT, [5], taskConstants('if n > 12:'), seededRandom(1));
  for (const n of [0, 1, -1, 11, 12, 13, 2 ** 31 - 1, -(2 ** 31)]) assert.ok(has(values, n), String(n));
  assert.ok(has(values, { $t: 'int', v: String(2n ** 53n + 1n) }), '2^53 + 1 is tagged, not rounded');
  assert.ok(has(values, { $t: 'int', v: String(2n ** 64n) }));
});

test('floats reach halves, signed zero and tiny and huge magnitudes; NaN and infinities only where the task names them', () => {
  const plain = specialValues({ kind: 'float' }, [2.3], taskConstants(''), seededRandom(1)) as number[];
  for (const x of [0.5, 2.5, 1e-9, 1e300]) assert.ok(plain.includes(x), String(x));
  assert.ok(plain.some((x) => Object.is(x, -0)));
  assert.ok(!plain.some((x) => !Number.isFinite(x)));
  const named = specialValues({ kind: 'float' }, [2.3], taskConstants('x may be float("inf")'), seededRandom(1));
  assert.ok(named.some((x) => x === Infinity) && named.some((x) => Number.isNaN(x)));
});

test("strings change the case of the examples' letters, and run to whitespace and emptiness; tabs only where the task allows", () => {
  const values = specialValues(STR, ['abc def'], taskConstants(''), seededRandom(2)) as string[];
  for (const s of ['', ' ', '   ', '\t', 'ABC DEF', 'Abc def', 'abc   def', ' abc def ', 'fed cba'])
    assert.ok(values.includes(s), JSON.stringify(s));
  assert.ok(
    values.some((s) => s !== 'abc def' && s.toLowerCase() === 'abc def' && s !== s.toUpperCase()),
    'one letter flipped',
  );
  const narrow = specialValues(
    STR,
    ['abc def'],
    { ...taskConstants(''), wideText: false },
    seededRandom(2),
  ) as string[];
  assert.ok(!narrow.some((s) => /[\t\n]/.test(s)));
});

test('lists are empty, single, sorted, reversed, doubled and long; union items include booleans and None', () => {
  const list: ValueType = { kind: 'list', item: INT };
  const values = specialValues(list, [[3, 1, 2]], taskConstants(''), seededRandom(3)) as unknown[][];
  for (const l of [[], [1, 2, 3], [3, 2, 1], [3, 1, 2, 3, 1, 2]]) assert.ok(has(values, l), JSON.stringify(l));
  assert.ok(values.some((l) => l.length === 1));
  assert.ok(values.some((l) => l.length >= 60));
  const union: ValueType = { kind: 'list', item: { kind: 'union', options: [INT, STR] } };
  const mixed = specialValues(union, [[1, 'a']], taskConstants(''), seededRandom(3)) as unknown[][];
  assert.ok(has(mixed, [true]) && has(mixed, [false]), 'True is also an int in Python');
});

test('boundary argument lists change one argument at a time and cycle through every position', () => {
  const lists = boundaryArguments([INT, STR], [[4, 'ab']], taskConstants(''), seededRandom(4));
  assert.ok(lists.slice(0, 10).some((args) => args[1] === 'ab' && args[0] !== 4));
  assert.ok(lists.slice(0, 10).some((args) => args[0] === 4 && args[1] !== 'ab'));
});

const task: Task = {
  id: 't',
  language: 'python',
  prompt: 'def f(xs: list[int], word: str) -> int:\n    """\n    >>> f([1, 2], "ab")\n    3\n    """\n',
  entryPoint: 'f',
  completionPrefix: '',
  knownWrong: [],
  suites: [],
  source: 'test',
};

test('every prefix of the generated inputs keeps the sources in their shares, and the same seed replays them', () => {
  const space = inputSpace(task, ['[[1, 2], "ab"]']);
  const made = generateInputs(space, { seed: 9, count: 100 });
  assert.deepEqual(generateInputs(space, { seed: 9, count: 100 }).texts, made.texts);
  assert.equal(made.sources.length, made.texts.length);
  const first = made.sources.slice(0, 20);
  assert.ok(first.filter((s) => s === 'boundary').length >= 6, first.join(' '));
  assert.ok(first.filter((s) => s === 'mutation').length >= 5);
  assert.ok(first.filter((s) => s === 'arbitrary').length >= 3);
  const onlyBoundary = generateInputs(space, {
    seed: 9,
    count: 40,
    shares: { boundary: 1, mutation: 0, arbitrary: 0 },
  });
  assert.ok(onlyBoundary.sources.every((s) => s === 'boundary'));
});

test('a list seen only empty, with no hint for its items, stays empty: its items would be guesses', () => {
  const untyped: Task = { ...task, prompt: 'def g(num):\n    """\n    >>> g("AB")\n    1\n    """\n', entryPoint: 'g' };
  const space = inputSpace(untyped, ['["AB"]', '["1077E"]', '[[]]']);
  const made = generateInputs(space, { seed: 4, count: 200 });
  const lists = made.args.filter(([num]) => Array.isArray(num));
  assert.deepEqual(space.types, [
    { kind: 'union', options: [{ kind: 'str' }, { kind: 'list', item: { kind: 'any' } }] },
  ]);
  assert.ok(
    lists.every(([num]) => (num as unknown[]).length === 0),
    JSON.stringify(lists.find(([num]) => (num as unknown[]).length)),
  );
  assert.ok(
    made.args.some(([num]) => typeof num === 'string' && num.length > 0),
    'strings still vary',
  );
});
