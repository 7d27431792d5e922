import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeArgs } from './encode.js';
import { inferType, parseKeepingFloats, parsePythonSignature, parseTypeScriptSignature, plainValue } from './types.js';

test('Python signatures: typing generics, optionals, unions, defaults and bare parameters', () => {
  const sig = parsePythonSignature(
    'from typing import List, Optional, Tuple\n\ndef f(xs: List[Tuple[int, str]], y: Optional[float] = None, z: int | str = 3, w, *args) -> Dict[str, List[int]]:\n    """doc"""\n',
    'f',
  )!;
  assert.deepEqual(
    sig.params.map((p) => p.name),
    ['xs', 'y', 'z', 'w'],
  );
  assert.deepEqual(sig.params[0]!.type, {
    kind: 'list',
    item: { kind: 'tuple', items: [{ kind: 'int' }, { kind: 'str' }] },
  });
  assert.deepEqual(sig.params[1]!.type, { kind: 'union', options: [{ kind: 'float' }, { kind: 'none' }] });
  assert.deepEqual(sig.params[2]!.type, { kind: 'union', options: [{ kind: 'int' }, { kind: 'str' }] });
  assert.deepEqual(sig.params[3]!.type, { kind: 'any' });
  assert.deepEqual(sig.returns, { kind: 'dict', key: { kind: 'str' }, value: { kind: 'list', item: { kind: 'int' } } });
  assert.equal(parsePythonSignature('def g(x): pass', 'f'), undefined);
});

test('TypeScript signatures: arrays, tuples, records and unions', () => {
  const sig = parseTypeScriptSignature(
    'function f(a: number[][], b: [string, boolean], c: Record<string, number>, d?: string | null): number[] {',
    'f',
  )!;
  assert.deepEqual(
    sig.params.map((p) => p.name),
    ['a', 'b', 'c', 'd'],
  );
  assert.deepEqual(sig.params[0]!.type, { kind: 'list', item: { kind: 'list', item: { kind: 'float' } } });
  assert.deepEqual(sig.params[1]!.type, { kind: 'tuple', items: [{ kind: 'str' }, { kind: 'bool' }] });
  assert.deepEqual(sig.params[2]!.type, { kind: 'dict', key: { kind: 'str' }, value: { kind: 'float' } });
  assert.deepEqual(sig.returns, { kind: 'list', item: { kind: 'float' } });
});

test('float literals keep their kind: 1.0 is a float, 1 an int, NaN a tagged float', () => {
  const parsed = parseKeepingFloats('[[1.0, 2], "3.5", NaN, 1e3]') as unknown[];
  assert.deepEqual(inferType(parsed[0]), { kind: 'list', item: { kind: 'float' } });
  assert.deepEqual(inferType(parsed[1]), { kind: 'str' });
  assert.deepEqual(plainValue(parsed), [[1, 2], '3.5', { $t: 'float', v: 'nan' }, 1000]);
});

test('encoding follows the type: whole floats keep a decimal point, huge ints and non-finite floats are tagged', () => {
  const types = [{ kind: 'list', item: { kind: 'float' } }, { kind: 'int' }, { kind: 'float' }] as const;
  assert.equal(
    encodeArgs([[1, 2.5], 2 ** 60, Infinity], types),
    '[[1.0,2.5],{"$t":"int","v":"1152921504606846976"},{"$t":"float","v":"inf"}]',
  );
  assert.equal(
    encodeArgs([{ $t: 'tuple', v: [1, 'a'] }], [{ kind: 'tuple', items: [{ kind: 'float' }, { kind: 'str' }] }]),
    '[{"$t":"tuple","v":[1.0,"a"]}]',
  );
});
