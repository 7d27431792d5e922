import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fences } from './fences.js';

test('fences: closed blocks in order with their info line, then an unclosed last one', () => {
  const text = 'intro\n```python\nprint(1)\n```\nmiddle\n``` js extra\nf()\n```\n```\ncut off';
  assert.deepEqual(fences(text), [
    { info: 'python', code: 'print(1)\n', closed: true },
    { info: ' js extra', code: 'f()\n', closed: true },
    { info: '', code: 'cut off', closed: false },
  ]);
  assert.deepEqual(fences('no fence here'), []);
  assert.deepEqual(fences('```python'), [], 'an opening needs its newline');
});

test(
  'fences: a megabyte of openings without a newline is scanned once (it backtracked for hours)',
  { timeout: 30_000 },
  () => {
    assert.deepEqual(fences('```'.repeat(350_000)), []);
    assert.equal(fences('```x\n' + '```'.repeat(350_000)).length, 1);
  },
);
