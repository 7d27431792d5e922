import assert from 'node:assert/strict';
import { test } from 'node:test';
import { behaviourKey } from '../domains/code/observe.js';
import { agreement, clusters, divergence, plausibleInputs } from './behaviour.js';

test('floats that differ past ten significant digits behave the same; exceptions and values differ', () => {
  assert.equal(
    behaviourKey({ kind: 'value', json: '0.30000000000000004', seconds: 0 }),
    behaviourKey({ kind: 'value', json: '0.3', seconds: 0 }),
  );
  assert.notEqual(
    behaviourKey({ kind: 'value', json: '0.31', seconds: 0 }),
    behaviourKey({ kind: 'value', json: '0.3', seconds: 0 }),
  );
  assert.notEqual(
    behaviourKey({ kind: 'raised', error: 'ValueError' }),
    behaviourKey({ kind: 'value', json: 'null', seconds: 0 }),
  );
  assert.equal(behaviourKey({ kind: 'unknown', why: 'x' }), null);
});

test('divergence is 0 when all agree and 1 when all differ; clusters group identical behaviour', () => {
  const m = [
    ['=1', '=2', '=3'],
    ['=1', '=2', '=4'],
    ['=1', '=5', '=3'],
    ['=1', '=2', '=3'],
  ];
  const all = [0, 1, 2, 3];
  assert.equal(divergence(m, all, 0), 0);
  assert.equal(divergence(m, [0, 1, 2], 2), 0.5);
  assert.equal(divergence([['=1'], ['=2'], ['=3']], [0, 1, 2], 0), 1);
  assert.deepEqual(clusters(m, all, [0, 1, 2]), [[0, 3], [1], [2]]);
  assert.equal(agreement(m[0]!, m[1]!), 2 / 3);
});

test('inputs that most candidates reject are not plausible', () => {
  const m = [
    ['=1', '!ValueError'],
    ['=1', '!ValueError'],
    ['=2', '=0'],
  ];
  assert.deepEqual(plausibleInputs(m, [0, 1, 2], 2), [0]);
});

test('long outputs are compared by digest: equal outputs share a key, different ones do not, and keys stay short', () => {
  const big = (n: number) => ({
    kind: 'value' as const,
    json: JSON.stringify(Array.from({ length: 5000 }, (_, i) => i * n)),
    seconds: 0,
  });
  const a = behaviourKey(big(1))!;
  assert.equal(a, behaviourKey(big(1)));
  assert.notEqual(a, behaviourKey(big(2)));
  assert.ok(a.length <= 200);
});
