import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineProcess, NoMessage } from './line-process.js';
import { CANDIDATE, COMPILER, JUDGE, PROGRAM, UNTRUSTED_JUDGE } from './protocol.js';

const passing = { name: 'base', status: 'pass', passed: 1, total: 1, firstFailure: null };
const result = (suite: object) => ({ op: 'result', load: { ok: true }, suites: [suite] });

describe('replies are read by their op', () => {
  test('a reply that fits is the reply, without fields the protocol does not have', () => {
    const exited = {
      op: 'exited',
      code: 0,
      signal: null,
      outputBytes: 12,
      cpuSeconds: 0.5,
      maxRssBytes: 1024,
      tainted: false,
    };
    assert.deepEqual(CANDIDATE.read(exited), {
      op: 'exited',
      code: 0,
      signal: null,
      outputBytes: 12,
      cpuSeconds: 0.5,
      maxRssBytes: 1024,
    });
    assert.deepEqual(JUDGE.read(result(passing)), result(passing));
  });

  test('a reply that does not fit is a reason naming the worker, the op and the field', () => {
    assert.equal(
      CANDIDATE.read({ op: 'exited', code: 0, signal: null }),
      'the candidate worker wrote a malformed exited (outputBytes: Invalid input: expected number, received undefined)',
    );
    assert.match(
      String(JUDGE.read({ op: 'result', load: { ok: true }, suites: 'all passed' })),
      /^the judge wrote a malformed result \(suites: .*expected array/,
    );
    assert.match(
      String(JUDGE.read(result({ ...passing, status: 'passed' }))),
      /malformed result \(suites\.0\.status: /,
    );
    assert.match(
      String(COMPILER.read({ op: 'transpiled', code: 1, errors: [] })),
      /^the TypeScript compiler wrote a malformed transpiled \(code: /,
    );
  });

  test('a message the protocol does not have, or none at all, is a reason', () => {
    assert.equal(
      CANDIDATE.read({ op: 'result' }),
      'the candidate worker sent a message the protocol does not have (op result)',
    );
    assert.equal(PROGRAM.read([1, 2]), 'the program worker sent a message the protocol does not have (no op)');
    assert.equal(
      PROGRAM.read({ op: 'toString' }),
      'the program worker sent a message the protocol does not have (op toString)',
    );
  });

  test("a judge's own failure is its own shape, even beside a result's fields", () => {
    assert.deepEqual(JUDGE.read({ op: 'result', internalError: 'KeyError: x' }), {
      op: 'result',
      internalError: 'KeyError: x',
    });
    assert.deepEqual(JUDGE.read({ ...result(passing), internalError: 'boom' }), {
      op: 'result',
      internalError: 'boom',
    });
  });

  test("an untrusted judge's texts are capped; a trusted one's are not", () => {
    const long = {
      ...passing,
      status: 'fail',
      firstFailure: { input: null, expected: null, actual: null, message: 'x'.repeat((1 << 20) + 1) },
    };
    assert.match(String(UNTRUSTED_JUDGE.read(result(long))), /malformed result \(suites\.0\.firstFailure\.message: /);
    assert.equal(typeof JUDGE.read(result(long)), 'object');
  });

  test('recorded times must be numbers, and are kept as they are', () => {
    const times = [0.1, 0.2];
    const read = JUDGE.read(result({ ...passing, outputs: '[1,2]', times }));
    assert.ok(typeof read === 'object' && 'suites' in read && read.suites[0]?.times === times);
    assert.match(
      String(JUDGE.read(result({ ...passing, times: [0.1, 'slow'] }))),
      /suites\.0\.times: expected an array of numbers/,
    );
  });

  test("a program's fetched files keep every path, __proto__ included", () => {
    const line =
      '{"op":"result","exitCode":0,"signal":null,"stdout":"","stderr":"","truncated":false,"scratchFull":false,"timedOut":false,"wallSeconds":0.1,"report":null,"files":{"__proto__":"YQ=="}}';
    const read = PROGRAM.read(JSON.parse(line));
    assert.ok(typeof read === 'object' && read.op === 'result');
    assert.ok(Object.hasOwn(read.files, '__proto__'));
    assert.equal(read.files['__proto__'], 'YQ==');
  });
});

describe('LineProcess reads each line through its channel', () => {
  test('a line that is not JSON, or not a reply, is a malformed NoMessage; the next reply still arrives', async () => {
    const script =
      'process.stdout.write("not json\\n" + JSON.stringify({ op: "started", extra: 1 }) + "\\n" + JSON.stringify({ op: "exited" }) + "\\n" + JSON.stringify({ op: "pong" }) + "\\n")';
    const child = new LineProcess({ file: process.execPath, args: ['-e', script], env: {}, channel: CANDIDATE });
    try {
      const notJson = await child.next(10_000);
      assert.ok(notJson instanceof NoMessage && notJson.kind === 'malformed');
      assert.equal(notJson.why, 'not JSON: not json');
      assert.deepEqual(await child.next(10_000), { op: 'started' });
      const wrong = await child.next(10_000);
      assert.ok(wrong instanceof NoMessage && wrong.kind === 'malformed');
      assert.match(wrong.why, /^the candidate worker wrote a malformed exited \(code: /);
      assert.deepEqual(await child.next(10_000), { op: 'pong' });
    } finally {
      child.kill();
      await child.exited;
    }
  });
});
