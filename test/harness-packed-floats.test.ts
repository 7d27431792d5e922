/**
 * Long float lists cross between Python processes packed as doubles (wire tag f64): a
 * right answer still passes, a wrong one still fails at the right input, and the values
 * Crucible reads back (properties, behaviour) are the numbers the program returned.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Task } from '../src/core/task.js';
import { decodeWire } from '../src/core/wire-values.js';
import { Harness } from '../src/domains/code/harness.js';
import { observe } from '../src/domains/code/probe.js';

const harness = new Harness({ workers: 1 });
after(() => harness.close());

const PROMPT = 'def halves(n: int) -> list:\n    """[1, 3] then i / 2 for i below n."""\n';
const task: Task = {
  id: 'packed/halves',
  language: 'python',
  prompt: PROMPT,
  entryPoint: 'halves',
  completionPrefix: PROMPT,
  reference: PROMPT + '    return [1, 3] + [i / 2 for i in range(n)]\n',
  knownWrong: [],
  suites: [{ kind: 'io', name: 'base', entry: 'halves', inputsJson: '[[5], [300], [5000]]' }],
  source: 'test',
};

test('a right program that computes the list differently passes every input', async () => {
  const verdict = await harness.judge(
    task,
    PROMPT + '    out = [1, 3]\n    for i in range(n):\n        out.append(i * 0.5)\n    return out\n',
  );
  assert.equal(verdict.status, 'pass', JSON.stringify(verdict.firstFailure));
  assert.equal(verdict.suites[0]!.passed, 3);
});

test('one wrong float in a long list fails at that input, with both values shown', async () => {
  const verdict = await harness.judge(
    task,
    PROMPT +
      '    out = [1, 3] + [i / 2 for i in range(n)]\n    if n > 1000:\n        out[-1] += 1e-3\n    return out\n',
  );
  assert.equal(verdict.status, 'fail');
  assert.equal(verdict.suites[0]!.failedAt, 2);
  assert.match(verdict.firstFailure!.expected!, /^\[1, 3, 0\.0, 0\.5/);
  assert.match(verdict.firstFailure!.actual!, /^\[1, 3, 0\.0, 0\.5/);
});

test('ints in place of the same floats still count as equal (EvalPlus compares with ==)', async () => {
  const verdict = await harness.judge(
    task,
    PROMPT + '    return [1, 3] + [i // 2 if i % 2 == 0 else i / 2 for i in range(n)]\n',
  );
  assert.equal(verdict.status, 'pass', JSON.stringify(verdict.firstFailure));
});

test('recorded outputs decode to the numbers the program returned', async () => {
  const observations = await observe(harness, task, task.reference!, ['[5]', '[300]'], { limit: 5 });
  const [short, long] = observations.map((o) => (o.kind === 'value' ? decodeWire(JSON.parse(o.json)) : o));
  assert.deepEqual(short, [1, 3, 0, 0.5, 1, 1.5, 2]);
  const values = long as number[];
  assert.equal(values.length, 302);
  assert.deepEqual(values.slice(0, 4), [1, 3, 0, 0.5]);
  assert.equal(values[301], 149.5);
});

test('the Python encoding and the TypeScript decoding agree on special values', () => {
  const script = [
    'import json, sys',
    `sys.path.insert(0, ${JSON.stringify(join(import.meta.dirname, '../src/runtimes/python'))})`,
    'import wire',
    'xs = [float("nan"), float("inf"), -0.0, 5e-324, 1.7976931348623157e308, 7] + [0.1] * 300',
    'print(wire.dumps(wire.encode(xs)))',
  ].join('\n');
  const encoded = JSON.parse(execFileSync('python3', ['-c', script], { encoding: 'utf8' }));
  assert.equal(encoded.$t, 'f64');
  assert.deepEqual(encoded.ints, [5]);
  const values = decodeWire(encoded) as number[];
  assert.ok(Number.isNaN(values[0]));
  assert.deepEqual(values.slice(1, 7), [Infinity, -0, 5e-324, 1.7976931348623157e308, 7, 0.1]);
  assert.ok(Object.is(values[2], -0));
  assert.equal(values.length, 306);
});
