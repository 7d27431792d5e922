import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonSyntaxError, parseJsonLoose, scanTopLevel, splitJsonLine, topLevelKeys } from './raw-json.js';

const TRICKY =
  '{"s": "a ] } [ { \\" , : \\\\", "base_input": [[1.0, NaN], [Infinity, -Infinity], ["]", "\\"[{"], {"k": [2.50]}], ' +
  '"n": -1.5e3, "nested": {"a": ["}", {"b": NaN}]}, "t": true, "z": null, "plus_input": [] }';

test('raw fields keep their source text exactly', () => {
  const { raw, values, keys } = splitJsonLine(TRICKY, ['base_input', 'plus_input']);
  assert.equal(raw.base_input, '[[1.0, NaN], [Infinity, -Infinity], ["]", "\\"[{"], {"k": [2.50]}]');
  assert.equal(raw.plus_input, '[]');
  assert.deepEqual(keys, ['s', 'base_input', 'n', 'nested', 't', 'z', 'plus_input']);
  assert.equal(values.s, 'a ] } [ { " , : \\');
  assert.equal(values.n, -1500);
  assert.equal(values.t, true);
  assert.equal(values.z, null);
  assert.ok(!('base_input' in values));
  const nested = values.nested as { a: [string, { b: number }] };
  assert.equal(nested.a[0], '}');
  assert.ok(Number.isNaN(nested.a[1].b));
});

test('NaN, Infinity and -Infinity parse; 1.0 stays text when raw', () => {
  const v = parseJsonLoose('[NaN, Infinity, -Infinity, 1.0, "NaN", {"x": -Infinity}]') as unknown[];
  assert.ok(Number.isNaN(v[0]));
  assert.equal(v[1], Number.POSITIVE_INFINITY);
  assert.equal(v[2], Number.NEGATIVE_INFINITY);
  assert.equal(v[3], 1);
  assert.equal(v[4], 'NaN');
  assert.deepEqual(v[5], { x: Number.NEGATIVE_INFINITY });
  assert.equal(splitJsonLine('{"a": [1.0, 2.50e0]}', ['a']).raw.a, '[1.0, 2.50e0]');
});

test('plain lines take the fast path and agree with JSON.parse', () => {
  const line = JSON.stringify({ a: 'x"y', b: [1, { c: '\u2028' }], __proto__x: 1 });
  assert.deepEqual(splitJsonLine(line, []).values, JSON.parse(line));
  assert.deepEqual(splitJsonLine(line, ['zzz']).values, JSON.parse(line));
});

test('a "__proto__" field is an ordinary field', () => {
  const { values } = splitJsonLine('{"__proto__": {"polluted": NaN}, "a": 1}', []);
  assert.equal(Object.getPrototypeOf(values), Object.prototype);
  assert.ok(Object.hasOwn(values, '__proto__'));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('top-level scan reports spans and keys', () => {
  const text = ' { "a" : [1, "]"] , "b":"}" } ';
  const fields = scanTopLevel(text);
  assert.deepEqual(
    fields.map((f) => [f.key, text.slice(f.start, f.end)]),
    [
      ['a', '[1, "]"]'],
      ['b', '"}"'],
    ],
  );
  assert.deepEqual(topLevelKeys('{}'), []);
  assert.deepEqual(topLevelKeys('{"x\\u0041": 1}'), ['xA']);
});

test('malformed input is rejected with a position', () => {
  for (const bad of [
    '[1]',
    '{"a": [1, 2}',
    '{"a": "unterminated}',
    '{"a" 1}',
    '{"a": 1,}',
    '{"a": 1} x',
    '{"a": tru}',
    '{"a": [NaN,]}',
  ]) {
    assert.throws(() => splitJsonLine(bad, ['a']), JsonSyntaxError, bad);
  }
  assert.throws(() => splitJsonLine('{"a": nope, "b": NaN}', []), JsonSyntaxError);
  assert.throws(() => parseJsonLoose('[1, 2'), JsonSyntaxError);
});
