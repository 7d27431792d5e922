/**
 * Harness code a candidate cannot break: a right program that rebinds built-ins for its
 * own use (Python's builtins.len, JavaScript's JSON or Array.prototype) is judged on what
 * it returns. Everything of ours that runs in the candidate's process or context after the
 * program loads must use references taken before it ran. Each test poisons every name
 * our code could reach at once, so a name any of it still looks up fails the run; then the
 * next candidates in the same worker are judged right.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Language, Task } from '../src/core/task.js';
import { Harness } from '../src/domains/code/harness.js';

const harness = new Harness({ workers: 1, time: { scriptFloorSeconds: 2, callFloorSeconds: 1 } });
after(() => harness.close());

/** scale(xs, k): a long float list (packed on the wire), a short int list, and a script suite. */
function task(language: Language, reference: string, script: string): Task {
  return {
    id: `patched/${language}`,
    language,
    prompt: '',
    entryPoint: 'scale',
    completionPrefix: '',
    knownWrong: [],
    source: 'test',
    reference,
    suites: [
      { kind: 'script', name: 'base', code: script },
      {
        kind: 'io',
        name: 'plus',
        entry: 'scale',
        inputsJson: JSON.stringify([
          [Array(300).fill(1.5), 2],
          [[1, 2], 3],
          [[], 4],
        ]),
      },
    ],
  };
}

async function expectJudged(t: Task, program: string, status: 'pass' | 'fail') {
  const verdict = await harness.judge(t, program);
  assert.equal(
    verdict.status,
    status,
    JSON.stringify(verdict.suites.map((s) => [s.name, s.status, s.firstFailure?.message])),
  );
}

describe('Python: a program that rebinds every built-in for itself', () => {
  const REFERENCE = 'def scale(xs, k):\n    return [x * k for x in xs]\n';
  const WRONG = 'def scale(xs, k):\n    return [x + k for x in xs]\n';
  const t = task('python', REFERENCE, 'assert scale([1, 2], 2) == [2, 4]\nassert scale([0.5], 4) == [2.0]\n');
  // The program's own function needs no built-in: a loop and list.append.
  const OWN = 'def scale(xs, k):\n    out = []\n    for x in xs:\n        out.append(x * k)\n    return out\n';

  test('every built-in replaced by one that raises', async () => {
    const program = [
      'import builtins',
      'def _poisoned(*args, **kwargs):',
      '    raise RuntimeError("a patched built-in was called")',
      '_set = setattr',
      'for _name in list(vars(builtins)):',
      '    if not _name.startswith("__") and _name not in ("BaseException", "Exception"):',
      '        _set(builtins, _name, _poisoned)',
      OWN,
    ].join('\n');
    await expectJudged(t, program, 'pass');
    await expectJudged(t, REFERENCE, 'pass');
    await expectJudged(t, WRONG, 'fail');
  });

  test('ordinary rebinding: len, sum, isinstance and print wrapped to count their calls', async () => {
    const program = [
      'import builtins',
      'calls = {}',
      'def _counting(name, original):',
      '    def wrapper(*args, **kwargs):',
      '        calls[name] = calls.get(name, 0) + 1',
      '        return original(*args, **kwargs)',
      '    return wrapper',
      'for _name in ("len", "sum", "isinstance", "print", "repr", "type", "str"):',
      '    setattr(builtins, _name, _counting(_name, getattr(builtins, _name)))',
      'def scale(xs, k):',
      '    return [x * k for x in xs] if len(xs) >= 0 else None',
    ].join('\n');
    await expectJudged(t, program, 'pass');
    await expectJudged(t, WRONG, 'fail');
  });
});

describe('JavaScript: a program that replaces every intrinsic for itself', () => {
  const REFERENCE = 'function scale(xs, k) { return xs.map((x) => x * k) }';
  const WRONG = 'function scale(xs, k) { return xs.map((x) => x + k) }';
  const t = task(
    'javascript',
    REFERENCE,
    "const assert = require('node:assert');\nassert.deepStrictEqual(scale([1, 2], 2), [2, 4]);\nassert.deepStrictEqual(scale([0.5], 4), [2]);\n",
  );
  const OWN =
    'function scale(xs, k) { const out = []; for (let i = 0; i < xs.length; i++) out[i] = xs[i] * k; return out }';

  test("every function and accessor of the standard objects, the prototypes and node's globals", async () => {
    const program = `
      const { ownKeys, getOwnPropertyDescriptor, defineProperty } = Reflect;
      const poisoned = function () { throw new Error('a patched intrinsic was called') };
      const targets = [globalThis, Object, Object.prototype, Array, Array.prototype, JSON, Reflect, String, String.prototype,
        Number, Number.prototype, Boolean.prototype, Symbol, Symbol.prototype, Map, Map.prototype, Set, Set.prototype,
        WeakMap.prototype, Date, Date.prototype, Function.prototype, Promise, Promise.prototype, RegExp.prototype, Math,
        BigInt, BigInt.prototype, ArrayBuffer, ArrayBuffer.prototype, Object.getPrototypeOf(Uint8Array),
        Object.getPrototypeOf(Uint8Array.prototype), Error, Error.prototype, TypeError.prototype, RangeError.prototype,
        process, process.stdout, console];
      for (let t = 0; t < targets.length; t++) {
        const keys = ownKeys(targets[t]);
        for (let i = 0; i < keys.length; i++) {
          const d = getOwnPropertyDescriptor(targets[t], keys[i]);
          if (!d.configurable || keys[i] === 'constructor' || keys[i] === 'prototype') continue;
          if (typeof d.value === 'function') defineProperty(targets[t], keys[i], { value: poisoned, writable: true, configurable: true });
          else if (d.get) defineProperty(targets[t], keys[i], { get: poisoned, set: poisoned, configurable: true });
        }
      }
      ${OWN}`;
    await expectJudged(t, program, 'pass');
    await expectJudged(t, REFERENCE, 'pass');
    await expectJudged(t, WRONG, 'fail');
  });
});
