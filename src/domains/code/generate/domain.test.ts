import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domainFromExamples, resemblesExamples } from './domain.js';

const domain = (examples: unknown[][]) => domainFromExamples(examples)!;

test("strings keep to the examples' characters: letters by case, everything else one by one", () => {
  const parens = domain([['( ) (( )) (( )( ))']]);
  assert.equal(resemblesExamples(parens, ['(()) ()']), true);
  assert.equal(resemblesExamples(parens, ['(!)']), false);
  assert.equal(resemblesExamples(parens, ['(a)']), false);
  const words = domain([['hello world'], ['abc']]);
  assert.equal(resemblesExamples(words, ['xyz q']), true, 'a letter class admits other letters');
  assert.equal(resemblesExamples(words, ['Xyz']), false, 'but not the other case');
  const binary = domain([['010', '110']]);
  assert.equal(resemblesExamples(binary, ['011', '101']), true);
  assert.equal(resemblesExamples(binary, ['012', '101']), false, 'digits stand for themselves');
});

test('numbers keep to the kinds the examples show: negative, zero, one, above one', () => {
  const positive = domain([[13195], [2048]]);
  assert.equal(resemblesExamples(positive, [97]), true);
  for (const n of [1, 0, -4]) assert.equal(resemblesExamples(positive, [n]), false, String(n));
  const signed = domain([[[5, -2, 0]]]);
  assert.equal(resemblesExamples(signed, [[-7, 0, 3]]), true);
  assert.equal(resemblesExamples(signed, [[1]]), false, 'no example shows 1');
});

test('kinds, sizes and equal lengths follow the examples; a position no example fills is free', () => {
  const pairs = domain([
    [
      [1, 2],
      [3, 4],
    ],
    [
      [5, 6, 7],
      [8, 9, 10],
    ],
  ]);
  assert.equal(
    resemblesExamples(pairs, [
      [2, 3],
      [4, 5],
    ]),
    true,
  );
  assert.equal(
    resemblesExamples(pairs, [
      [2, 3],
      [4, 5, 6],
    ]),
    false,
    'the examples always give equal lengths',
  );
  assert.equal(resemblesExamples(pairs, [[2], [4]]), false, 'no example is shorter than 2');
  assert.equal(resemblesExamples(pairs, ['ab', [4, 5]]), false, 'a string where the examples give lists');
  const withEmpty = domain([[[]], [[3, 4]]]);
  assert.equal(resemblesExamples(withEmpty, [[]]), true);
  assert.equal(resemblesExamples(domain([[[2, 3]]]), [[]]), false);
  assert.equal(resemblesExamples(domain([['ab']]), ['ab', 7]), true, 'a second argument no example has');
  assert.equal(domainFromExamples([]), undefined);
});

test('the description says what was inferred', () => {
  const { description } = domain([[[1, 2], 'ab']]);
  assert.match(description, /argument 1: list, at least 2 long, numbers one, above one/);
  assert.match(description, /argument 2: string, at least 2 long, of a-z/);
  assert.match(description, /arguments 1 and 2 equally long/);
});
