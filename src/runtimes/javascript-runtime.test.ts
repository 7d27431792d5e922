/**
 * The JavaScript and TypeScript runtimes at work: the wire encoding, script and io suites,
 * transpiling. The hostile programs (escapes, limits, faked verdicts, crashes, state left
 * behind) are the runtime contract's, run for every language: test/contracts/runtime-contract.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { createJavaScriptRuntime, createTypeScriptRuntime } from './javascript-runtime.js';
import type { Ran, TimedSuite } from './runtime.js';
import { judged } from './testing/judged.js';
import { transpile, typeCheck } from './typescript.js';

const require = createRequire(import.meta.url);
const { createWire } = require('./node/wire.cjs') as { createWire: () => Wire };
interface Wire {
  encode(x: unknown, strict: boolean, budget?: number): string;
  decode(text: string): unknown;
  Opaque: new (...args: never[]) => object;
}

const js = judged(createJavaScriptRuntime({ workers: 2 }));
const ts = judged(createTypeScriptRuntime({ workers: 1 }));
after(() => Promise.all([js.close(), ts.close()]));

const script = (code: string, limit = 5): TimedSuite => ({ kind: 'script', name: 'tests', code, limit });
const statusOf = (r: Ran) => (r.load.ok ? r.suites[0]?.status : `load-${r.load.status}`);

describe('wire encoding', () => {
  const W = createWire();
  test('JavaScript values survive a round trip', () => {
    const value = [
      undefined,
      null,
      NaN,
      Infinity,
      -Infinity,
      -0,
      2n ** 70n,
      'é\n',
      new Map([[1, 'a']]),
      new Set([1, 2]),
      new Date(0),
      { a: [1, { b: 2 }], __proto__x: 1 },
    ];
    const back = W.decode(W.encode(value, true)) as unknown[];
    assert.deepStrictEqual(back, value);
    assert.ok(Object.is(back[5], -0));
  });
  test('a key named __proto__ stays an own property', () => {
    const back = W.decode('{"$t":"object","v":[["__proto__",{"$t":"object","v":[["polluted",1]]}]]}') as Record<
      string,
      unknown
    >;
    assert.equal(Object.getPrototypeOf(back), Object.prototype);
    assert.deepEqual(Object.keys(back), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
  test('strict encoding refuses functions and class instances; results get opaque markers', () => {
    class Point {
      x = 1;
    }
    assert.throws(() => W.encode([() => 1], true));
    assert.throws(() => W.encode(new Point(), true));
    const opaque = W.decode(W.encode(new Point(), false));
    assert.ok(opaque instanceof W.Opaque);
    assert.notDeepEqual(opaque, { x: 1 });
    assert.equal(opaque == (1 as unknown), false);
  });
  test('Python data decodes to JavaScript values', () => {
    assert.deepStrictEqual(W.decode('{"$t":"dict","v":[[1,"a"],["b",2]]}'), { 1: 'a', b: 2 });
    assert.deepStrictEqual(W.decode('{"$t":"tuple","v":[1,{"$t":"float","v":"nan"}]}'), [1, NaN]);
    assert.deepStrictEqual(W.decode('{"a":[1,2]}'), { a: [1, 2] });
  });
  test('a budget stops encoding early', () => {
    assert.throws(() => W.encode('x'.repeat(1000), false, 100), /larger than 100 bytes/);
  });
});

describe('script suites', () => {
  const multiple = `const assert = require('node:assert');\n\nfunction test() {\n  let candidate = strlen;\n  assert.deepEqual(candidate(""),0);\n  assert.deepEqual(candidate("abc"),3);\n  assert.deepEqual(candidate([1, [2]]),2);\n}\n\ntest();\n`;

  test('MultiPL-E style: a right program passes, a wrong one fails with the failing call', async () => {
    const ok = await js.run({
      program: 'function strlen(string){\n  return string.length;\n}',
      suites: [script(multiple)],
    });
    assert.equal(statusOf(ok), 'pass');
    const wrong = await js.run({
      program: 'function strlen(string){\n  return string.length || 1;\n}',
      suites: [script(multiple)],
    });
    assert.equal(statusOf(wrong), 'fail');
    const f = wrong.suites[0]!.firstFailure!;
    assert.equal(f.input, '[""]');
    assert.equal(f.actual, '1');
    assert.equal(f.expected, '0');
    assert.match(f.message, /loosely deep-equal[\s\S]*line 5: assert.deepEqual\(candidate\(""\),0\);/);
  });

  test('HumanEvalPack style: console.assert failing is a failure', async () => {
    const prompt = 'const addTwo = (n) => {\n';
    const tests =
      'const testAddTwo = () => {\n  console.assert(addTwo(1) === 3)\n  console.assert(\n    addTwo(-2) === 0\n  )\n}\ntestAddTwo()\n';
    assert.equal(statusOf(await js.run({ program: `${prompt}  return n + 2\n}\n`, suites: [script(tests)] })), 'pass');
    const buggy = await js.run({ program: `${prompt}  return n + 1\n}\n`, suites: [script(tests)] });
    assert.equal(statusOf(buggy), 'fail');
    assert.match(
      buggy.suites[0]!.firstFailure!.message,
      /console.assert failed at line 2: console.assert\(addTwo\(1\) === 3\)/,
    );
  });

  test('names: const/let/var arrows, classes and module.exports are callable; helpers too', async () => {
    const program = [
      'const a = (x) => x + 1;',
      'let b = function (x) { return a(x) * 2 };',
      'var c = x => [x];',
      'class K { static make() { return 1 } }',
      'module.exports.d = (x) => `d${x}`;',
      'exports.e = function () { return "e" };',
      'const notAFunction = 3;',
    ].join('\n');
    const code = [
      "const assert = require('assert');",
      'assert.equal(a(1), 2); assert.equal(b(1), 4); assert.deepEqual(c(1), [1]);',
      "assert.equal(d(2), 'd2'); assert.equal(e(), 'e');",
      "assert.equal(typeof notAFunction, 'undefined');",
    ].join('\n');
    const r = await js.run({ program, suites: [script(code)] });
    assert.deepEqual(r.suites[0], { name: 'tests', status: 'pass', passed: 1, total: 1, firstFailure: null });
  });

  test("the candidate's exceptions are rethrown with the same class and message", async () => {
    const program = 'function check(x) { if (x < 0) throw new RangeError("negative: " + x); return x }';
    const code =
      "const assert = require('node:assert');\nassert.throws(() => check(-1), RangeError);\nassert.throws(() => check(-2), /negative: -2/);\nassert.equal(check(1), 1);";
    assert.equal(statusOf(await js.run({ program, suites: [script(code)] })), 'pass');
    const uncaught = await js.run({ program, suites: [script('check(-3)')] });
    assert.equal(statusOf(uncaught), 'fail');
    assert.match(uncaught.suites[0]!.firstFailure!.message, /^RangeError: negative: -3 \(raised by the candidate\)/);
  });

  test('values that cannot cross (callbacks) run the test beside the candidate', async () => {
    const program = 'function apply(f, x) { return f(x) }';
    const pass = await js.run({
      program,
      suites: [script("const assert = require('assert');\nassert.strictEqual(apply((v) => v * 2, 21), 42);")],
    });
    assert.equal(pass.suites[0]?.status, 'pass');
    assert.equal(pass.suites[0]?.inline, true);
    const fail = await js.run({
      program,
      suites: [script("const assert = require('assert');\nassert.strictEqual(apply((v) => v * 2, 21), 41);")],
    });
    assert.equal(fail.suites[0]?.status, 'fail');
  });

  test('a syntax error in the program is a load error with its line', async () => {
    const r = await js.run({ program: 'function f() {\n  return 1 +;\n}', suites: [script('f()')] });
    assert.equal(r.load.ok, false);
    assert.equal(r.load.status, 'error');
    assert.match(r.load.message!, /SyntaxError: Unexpected token ';' \(line 2\)/);
  });

  test('record mode gives the elapsed time of a script suite', async () => {
    const r = await js.run({ program: 'function f() { return 1 }', suites: [script('f()')], record: true });
    assert.equal(r.suites[0]?.status, 'pass');
    assert.equal(typeof r.suites[0]?.elapsed, 'number');
  });
});

describe('io suites', () => {
  const program =
    'function f(x) { if (x === 3) return x * 1.5; if (x === 4) throw new TypeError("four"); return x * 2 }';
  const io = (inputsJson: string, expectedJson?: string, entry = 'f'): TimedSuite => ({
    kind: 'io',
    name: 'plus',
    entry,
    inputsJson,
    ...(expectedJson ? { expectedJson } : {}),
    limits: JSON.parse(inputsJson).map(() => 1),
  });

  test('outputs are compared with the expected ones', async () => {
    const ok = await js.run({ program, suites: [io('[[1],[2],[3]]', '[2, 4, 4.5]')] });
    assert.deepEqual(ok.suites[0], { name: 'plus', status: 'pass', passed: 3, total: 3, firstFailure: null });
    const wrong = await js.run({ program, suites: [io('[[1],[2],[3]]', '[2, 5, 4.5]')] });
    assert.equal(wrong.suites[0]?.status, 'fail');
    assert.equal(wrong.suites[0]?.passed, 2);
    assert.deepEqual(wrong.suites[0]?.firstFailure, {
      input: '[2]',
      expected: '5',
      actual: '4',
      message: 'output differs from expected',
    });
  });

  test('JavaScript values compare with JavaScript semantics', async () => {
    const values =
      'function v(k) { return [undefined, null, NaN, -0, 10n, new Map([[1, [2]]]), new Set(["a"]), {a: undefined}, [1, , 3]][k] }';
    const inputs = JSON.stringify([0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => [k]));
    const expected =
      '[{"$t":"undefined"}, null, {"$t":"float","v":"nan"}, 0, {"$t":"bigint","v":"10"}, {"$t":"map","v":[[1,[2]]]},' +
      ' {"$t":"set","v":["a"]}, {"$t":"object","v":[["a",{"$t":"undefined"}]]}, [1,{"$t":"undefined"},3]]';
    const r = await js.run({ program: values, suites: [io(inputs, expected, 'v')] });
    assert.equal(r.suites[0]?.status, 'pass', JSON.stringify(r.suites[0]?.firstFailure));
    const wrong = await js.run({ program: values, suites: [io('[[0],[1]]', '[null, {"$t":"undefined"}]', 'v')] });
    assert.equal(wrong.suites[0]?.passed, 0);
  });

  test('an exception fails the input and the rest still run', async () => {
    const r = await js.run({ program, suites: [io('[[4],[1]]', '[0, 2]')] });
    assert.equal(r.suites[0]?.status, 'fail');
    assert.equal(r.suites[0]?.passed, 1);
    assert.equal(r.suites[0]?.firstFailure?.message, 'TypeError: four');
    assert.equal(r.suites[0]?.failedAt, 0, 'the first failure is at the first input');
  });

  test('record mode returns encoded outputs and times; an input that raised is marked, not a value', async () => {
    const r = await js.run({ program, suites: [io('[[1],[3],[4]]')], record: true });
    const suite = r.suites[0]!;
    assert.equal(suite.outputs, '[2,4.5,{"$raised":"TypeError"}]');
    assert.equal(suite.times?.length, 3);
    assert.ok(suite.times!.every((t) => typeof t === 'number' && t >= 0 && t < 1));
  });
});

describe('TypeScript', () => {
  const program =
    'function strlen(s: string): number {\n  const n: number = s.length;\n  return n;\n}\nconst label: string = 42 as unknown as string;\n';
  const tests =
    "declare var require: any;\nconst assert = require('node:assert');\nfunction test() {\n  let candidate = strlen;\n  assert.deepEqual(candidate('abc'), 3);\n}\ntest();\n";

  test('transpiles and runs; type checking reports without failing the run', async () => {
    const r = await ts.run({ program, suites: [script(tests)] });
    assert.equal(statusOf(r), 'pass');
    assert.deepEqual(typeCheck(program, tests), []);
    const typeError = 'function strlen(s: string): number {\n  return s;\n}\n';
    const diagnostics = typeCheck(typeError, tests);
    assert.equal(diagnostics.length, 1);
    assert.match(diagnostics[0]!, /^line 2, column 3: TS2322: Type 'string' is not assignable to type 'number'/);
    // The same program still runs: type errors are reported, not judged here.
    const ran = await ts.run({ program: typeError, suites: [script(tests)] });
    assert.equal(statusOf(ran), 'fail');
    assert.equal(ran.suites[0]?.firstFailure?.actual, '"abc"');
  });

  test('a syntax error is a load error with the diagnostic', async () => {
    const r = await ts.run({ program: 'function f(x: ): number {\n  return 1;\n}', suites: [script(tests)] });
    assert.equal(r.load.ok, false);
    assert.equal(r.load.status, 'error');
    assert.match(r.load.message!, /^SyntaxError: line 1, column 15: TS1110: Type expected\./);
    assert.deepEqual(transpile('let x = 1;').errors, []);
  });

  test('exported functions (CommonJS output) are callable', async () => {
    const r = await ts.run({
      program: 'export const twice = (x: number): number => 2 * x;\nexport function thrice(x: number) { return 3 * x }',
      suites: [script("const assert = require('assert');\nassert.equal(twice(2) + thrice(1), 7);")],
    });
    assert.equal(statusOf(r), 'pass');
  });
});

const HUMANEVALPACK = '/work/shared/datasets/humanevalpack/humanevalpack-js.jsonl.gz';
describe('HumanEvalPack JavaScript (sample)', { skip: !existsSync(HUMANEVALPACK) && 'dataset not present' }, () => {
  test('canonical solutions pass and buggy ones fail', async () => {
    const rows = gunzipSync(readFileSync(HUMANEVALPACK))
      .toString()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const row of rows.filter((_: unknown, i: number) => i % 20 === 0)) {
      const suites = [script(row.test, 10)];
      const [good, bad] = await Promise.all([
        js.run({ program: row.prompt + row.canonical_solution, suites }),
        js.run({ program: row.prompt + row.buggy_solution, suites }),
      ]);
      assert.equal(
        statusOf(good),
        'pass',
        `${row.task_id} canonical: ${JSON.stringify(good.suites[0]?.firstFailure ?? good.load)}`,
      );
      assert.notEqual(statusOf(bad), 'pass', `${row.task_id} buggy`);
    }
  });
});
