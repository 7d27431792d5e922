/** /submit's code extraction (SandboxFusion's order), and that a hostile completion cannot stall it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractCode } from '../src/server/sandbox-fusion.js';

test('a block in the language wins, then an untagged one, then the first; an unclosed fence; the text itself', () => {
  const text = 'x\n```js\nf()\n```\n```\nuntagged\n```\n```python\nprint(1)\n```\n';
  assert.deepEqual(extractCode(text, 'python'), { code: 'print(1)\n', type: 'fenced' });
  assert.deepEqual(extractCode(text, 'cpp'), { code: 'untagged\n', type: 'fenced' });
  assert.deepEqual(extractCode('```js\nf()\n```', 'python'), { code: 'f()\n', type: 'fenced' });
  assert.deepEqual(extractCode('Here:\n```python\nprint(2)', 'python'), {
    code: 'print(2)',
    type: 'incomplete_fenced',
  });
  assert.deepEqual(extractCode('print(3)', 'python'), { code: 'print(3)', type: 'heuristic' });
  // SandboxFusion reads the tag right after the fence: "``` python" is untagged.
  assert.deepEqual(extractCode('``` python\na\n```\n```js\nb\n```', 'python'), { code: 'a\n', type: 'fenced' });
});

test(
  'a megabyte of fences without a newline is extracted at once (the regular expression backtracked for hours)',
  { timeout: 30_000 },
  () => {
    assert.equal(extractCode('```'.repeat(350_000), 'python').type, 'heuristic');
  },
);
