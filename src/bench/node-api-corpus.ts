/**
 * Programs that use what node and Python give every program, in ordinary ways, each with a
 * MultiPL-E style test script: the corpus of the differential tests (test/differential-
 * node.test.ts, a small hand-written one) and of bench:eval (a large one built from the
 * MultiPL-E prompts). A fresh interpreter running program + test is the reference verdict;
 * Crucible must agree with it on every one.
 */
import pMap from 'p-map';
import type { Language, Task } from '../core/task.js';
import type { Verdict } from '../core/verdict.js';
import type { Harness } from '../domains/code/harness.js';
import { resolvePython } from '../runtimes/recipes.js';
import { transpile } from '../runtimes/typescript.js';
import { spawnPerSample } from '../runtimes/testing/fresh-interpreter.js';

export interface CorpusProgram {
  readonly name: string;
  readonly language: Language;
  readonly program: string;
  /** Test code as the dataset would run it after the program (node:assert, or Python asserts). */
  readonly test: string;
  /**
   * Set where Crucible fails a program on purpose that a bare interpreter passes: why (the
   * sandbox refuses process creation; exiting early is how a program would fake a pass).
   */
  readonly differs?: string;
}

const js = (name: string, program: string, test: string): CorpusProgram => ({
  name,
  language: 'javascript',
  program,
  test: `const assert = require('node:assert');\n${test}\n`,
});
const ts = (name: string, program: string, test: string): CorpusProgram => ({
  ...js(name, program, test),
  language: 'typescript',
});
const py = (name: string, program: string, test: string): CorpusProgram => ({
  name,
  language: 'python',
  program,
  test,
});
const EXITS = 'exiting before the tests finish would pass a bare interpreter run';

/** The small corpus: each API with a right program and, for most, a subtly wrong one. */
export const NODE_API_PROGRAMS: readonly CorpusProgram[] = [
  js(
    'Buffer base64',
    "function enc(s) { return Buffer.from(s).toString('base64') }",
    "assert.equal(enc('ab'), 'YWI='); assert.equal(enc('hello'), 'aGVsbG8=');",
  ),
  js(
    'Buffer base64 (wrong: hex)',
    "function enc(s) { return Buffer.from(s).toString('hex') }",
    "assert.equal(enc('ab'), 'YWI=');",
  ),
  js(
    'Buffer bytes and concat',
    'function bytes(s) { return [...Buffer.concat([Buffer.from(s), Buffer.alloc(1)])] }',
    "assert.deepEqual(bytes('hi'), [104, 105, 0]);",
  ),
  js(
    'Buffer in a global check',
    "function hasBuffer() { return typeof Buffer === 'function' && Buffer.isBuffer(Buffer.from('')) }",
    'assert.equal(hasBuffer(), true);',
  ),
  js(
    'require util.format and inspect',
    "const util = require('util');\nfunction show(x) { return util.format('%s=%d', 'x', x) + ' ' + util.inspect({ a: [1, 2] }) }",
    "assert.equal(show(3), 'x=3 { a: [ 1, 2 ] }');",
  ),
  js(
    'util.isDeepStrictEqual',
    "const { isDeepStrictEqual } = require('node:util');\nfunction same(a, b) { return isDeepStrictEqual(a, b) }",
    'assert.equal(same([1, { b: 2 }], [1, { b: 2 }]), true); assert.equal(same([1], [2]), false);',
  ),
  js(
    'util.types and promisify',
    "const util = require('util');\nfunction kinds(x) { return [util.types.isDate(x), typeof util.promisify(setTimeout)] }",
    "assert.deepEqual(kinds(new Date()), [true, 'function']);",
  ),
  js(
    'crypto md5',
    "const crypto = require('crypto');\nfunction md5(s) { return crypto.createHash('md5').update(s).digest('hex') }",
    "assert.equal(md5('Hello world'), '3e25960a79dbc69b674cd4ec67a72c62');",
  ),
  js(
    'crypto md5 (wrong: sha1)',
    "const crypto = require('crypto');\nfunction md5(s) { return crypto.createHash('sha1').update(s).digest('hex') }",
    "assert.equal(md5('Hello world'), '3e25960a79dbc69b674cd4ec67a72c62');",
  ),
  js(
    'crypto sha256 and hmac',
    "const { createHash, createHmac } = require('node:crypto');\nfunction h(s) { return createHash('sha256').update(s).digest('base64').length + createHmac('sha256', 'k').update(s).digest('hex').length }",
    "assert.equal(h('x'), 44 + 64);",
  ),
  js(
    'crypto.randomUUID and global crypto',
    "function ids() { const a = require('crypto').randomUUID(); const b = crypto.randomUUID(); return [a.length, b.length, a !== b] }",
    'assert.deepEqual(ids(), [36, 36, true]);',
  ),
  js(
    'path',
    "const path = require('path');\nfunction parts(p) { return [path.basename(p), path.extname(p), path.join('a', '..', 'b', p)] }",
    "assert.deepEqual(parts('x/y.txt'), ['y.txt', '.txt', 'b/x/y.txt']);",
  ),
  js(
    'os.EOL',
    "const os = require('os');\nfunction lines(xs) { return xs.join(os.EOL) }",
    "assert.equal(lines(['a', 'b']), 'a\\nb');",
  ),
  js(
    'events: an EventEmitter subclass',
    "const EventEmitter = require('events');\nclass Counter extends EventEmitter { constructor() { super(); this.n = 0; this.on('tick', () => this.n++) } }\nfunction count(k) { const c = new Counter(); for (let i = 0; i < k; i++) c.emit('tick'); return c.n }",
    'assert.equal(count(3), 3);',
  ),
  js(
    'events (wrong: once)',
    "const { EventEmitter } = require('node:events');\nfunction count(k) { const e = new EventEmitter(); let n = 0; e.once('tick', () => n++); for (let i = 0; i < k; i++) e.emit('tick'); return n }",
    'assert.equal(count(3), 3);',
  ),
  js(
    'string_decoder',
    "const { StringDecoder } = require('string_decoder');\nfunction decode(bytes) { const d = new StringDecoder('utf8'); return d.write(Buffer.from(bytes.slice(0, 1))) + d.end(Buffer.from(bytes.slice(1))) }",
    "assert.equal(decode([0xc3, 0xa9]), 'é');",
  ),
  js(
    'URL and URLSearchParams',
    "function q(u) { const url = new URL(u); return [url.hostname, url.searchParams.get('a'), new URLSearchParams('x=1&y=2').toString()] }",
    "assert.deepEqual(q('https://example.com/p?a=5'), ['example.com', '5', 'x=1&y=2']);",
  ),
  js(
    'querystring',
    "const qs = require('querystring');\nfunction parse(s) { return qs.parse(s).k }",
    "assert.equal(parse('k=v&z=1'), 'v');",
  ),
  js(
    'url.parse (legacy)',
    "const url = require('url');\nfunction host(u) { return url.parse(u).host }",
    "assert.equal(host('http://a.b:8080/x'), 'a.b:8080');",
  ),
  js(
    'TextEncoder and TextDecoder',
    'function roundTrip(s) { const b = new TextEncoder().encode(s); return [b.length, new TextDecoder().decode(b)] }',
    "assert.deepEqual(roundTrip('héllo'), [6, 'héllo']);",
  ),
  js(
    'TextDecoder (wrong: byte count)',
    'function size(s) { return new TextEncoder().encode(s).length }',
    "assert.equal(size('é'), 1);",
  ),
  js(
    'util.TextEncoder',
    "const { TextEncoder } = require('util');\nfunction size(s) { return new TextEncoder().encode(s).length }",
    "assert.equal(size('é'), 2);",
  ),
  js(
    'structuredClone',
    'function copy(x) { const c = structuredClone(x); c.list.push(9); return [x.list.length, c.list.length, c.when instanceof Date, c.m.get(1)] }',
    "assert.deepEqual(copy({ list: [1], when: new Date(0), m: new Map([[1, 'a']]) }), [1, 2, true, 'a']);",
  ),
  js(
    'structuredClone of a cycle',
    'function cyc() { const a = { n: 1 }; a.self = a; const b = structuredClone(a); return b.self === b && b !== a }',
    'assert.equal(cyc(), true);',
  ),
  js(
    'setTimeout left pending',
    'let calls = 0;\nfunction debounced(x) { setTimeout(() => calls++, 10); return [x * 2, calls] }',
    'assert.deepEqual(debounced(2), [4, 0]); assert.deepEqual(debounced(3), [6, 0]);',
  ),
  js(
    'setInterval cleared',
    'function tick(x) { const id = setInterval(() => {}, 5); clearInterval(id); return x + 1 }',
    'assert.equal(tick(1), 2);',
  ),
  js(
    'setImmediate and clearTimeout',
    'function f(x) { const t = setTimeout(() => {}, 1000); clearTimeout(t); setImmediate(() => {}); return x }',
    "assert.equal(f('a'), 'a');",
  ),
  js(
    'timers module',
    "const timers = require('timers');\nfunction f(x) { timers.setTimeout(() => {}, 1); return x }",
    'assert.equal(f(1), 1);',
  ),
  js(
    'queueMicrotask and nextTick',
    'function f(x) { queueMicrotask(() => {}); process.nextTick(() => {}); return x * x }',
    'assert.equal(f(3), 9);',
  ),
  js(
    'process.stdout.write',
    "function say(x) { process.stdout.write('x=' + x + '\\n'); return x }",
    'assert.equal(say(5), 5);',
  ),
  js(
    'process.stderr.write and console.error',
    "function warn(x) { process.stderr.write('careful\\n'); console.error('more'); return -x }",
    'assert.equal(warn(5), -5);',
  ),
  js(
    'process.argv, env, platform and versions',
    'function info() { return [Array.isArray(process.argv), typeof process.env, typeof process.platform, typeof process.versions.node] }',
    "assert.deepEqual(info(), [true, 'object', 'string', 'string']);",
  ),
  js(
    'process.hrtime and performance.now',
    'function timed(n) { const t0 = process.hrtime.bigint(); const p0 = performance.now(); let s = 0; for (let i = 0; i < n; i++) s += i; return [s, typeof (process.hrtime.bigint() - t0), performance.now() >= p0, process.hrtime().length] }',
    "assert.deepEqual(timed(4), [6, 'bigint', true, 2]);",
  ),
  js(
    'process.memoryUsage and uptime',
    'function mem() { return [typeof process.memoryUsage().heapUsed, process.uptime() >= 0] }',
    "assert.deepEqual(mem(), ['number', true]);",
  ),
  js(
    'atob and btoa',
    'function b(s) { return [btoa(s), atob(btoa(s))] }',
    "assert.deepEqual(b('hi'), ['aGk=', 'hi']);",
  ),
  js(
    'global and globalThis',
    'global.shared = 4;\nfunction get() { return globalThis.shared + (global === globalThis ? 1 : 0) }',
    'assert.equal(get(), 5);',
  ),
  js(
    'fetch exists and fails without a network',
    "function kinds() { return [typeof fetch, typeof fetch('http://127.0.0.1:9/') .catch(() => {}).then] }",
    "assert.deepEqual(kinds(), ['function', 'function']);",
  ),
  js(
    'fs: write and read a file in the working folder',
    "const fs = require('fs');\nfunction keep(s) { fs.writeFileSync('note.txt', s); return fs.readFileSync('note.txt', 'utf8').toUpperCase() }",
    "assert.equal(keep('abc'), 'ABC');",
  ),
  js(
    'fs.existsSync of a missing file',
    "const fs = require('node:fs');\nfunction there(p) { return fs.existsSync(p) }",
    "assert.equal(there('/no/such/file'), false);",
  ),
  js(
    'zlib round trip',
    "const zlib = require('zlib');\nfunction rt(s) { return zlib.gunzipSync(zlib.gzipSync(s)).toString() }",
    "assert.equal(rt('abc'), 'abc');",
  ),
  js(
    'assert inside the program',
    "const assert = require('assert');\nfunction safeDiv(a, b) { assert.ok(b !== 0, 'no zero'); return a / b }",
    'assert.equal(safeDiv(6, 3), 2); assert.throws(() => safeDiv(1, 0));',
  ),
  js(
    'module.exports and exports',
    'function add(a, b) { return a + b }\nmodule.exports = { add };\nexports.extra = 1;',
    'assert.equal(add(2, 3), 5);',
  ),
  js(
    '__filename, __dirname and require.resolve',
    "function where() { return [typeof __filename, typeof __dirname, require.resolve('fs')] }",
    "assert.deepEqual(where(), ['string', 'string', 'fs']);",
  ),
  js(
    'require of a missing package',
    "const left = require('left-pad-that-is-not-installed');\nfunction f(x) { return x }",
    'assert.equal(f(1), 1);',
  ),
  js(
    'readline loaded but unused',
    "const readline = require('readline');\nfunction f(x) { return typeof readline.createInterface === 'function' ? x : 0 }",
    'assert.equal(f(2), 2);',
  ),
  {
    ...js(
      'child_process is refused',
      "const { execSync } = require('child_process');\nfunction f() { return execSync('echo 1').toString().trim() }",
      "assert.equal(f(), '1');",
    ),
    differs: 'the sandbox refuses process creation',
  },
  js(
    'an async function (its result is a promise)',
    'async function f(x) { await null; return x }',
    'assert.deepEqual(f(1), 1);',
  ),
  {
    ...js('process.exit in the function', 'function f(x) { process.exit(0) }', 'assert.equal(f(1), 1);'),
    differs: EXITS,
  },
  js(
    'a program that patches intrinsics for itself',
    'Array.prototype.sum = function () { return this.reduce((a, b) => a + b, 0) };\nconst parse = JSON.parse; JSON.parse = (s) => parse(s);\nfunction total(xs) { return xs.sum() }',
    'assert.equal(total([1, 2, 3]), 6);',
  ),
  js(
    'js-md5 from the node path',
    "const md5 = require('js-md5');\nfunction hash(s) { return md5(s) }",
    "assert.equal(hash('password'), '5f4dcc3b5aa765d61d8327deb882cf99');",
  ),
  js(
    'js-md5 array output is an array of the program',
    "const md5 = require('js-md5');\nfunction bytes(s) { const a = md5.array(s); return [Array.isArray(a), a instanceof Array, a.length] }",
    "assert.deepEqual(bytes('x'), [true, true, 16]);",
  ),
  ts(
    'TypeScript: import * as crypto',
    "import * as crypto from 'crypto';\nfunction md5(s: string): string { return crypto.createHash('md5').update(s).digest('hex') }",
    "assert.equal(md5('password'), '5f4dcc3b5aa765d61d8327deb882cf99');",
  ),
  ts(
    'TypeScript: default import of fs and path',
    "import fs from 'fs';\nimport path from 'node:path';\nfunction f(p: string): boolean { return fs.existsSync(path.join('/', p)) }",
    "assert.equal(f('no-such-dir'), false);",
  ),
  ts(
    'TypeScript: Buffer and typed values',
    "function enc(s: string): string { const b: Buffer = Buffer.from(s, 'utf8'); return b.toString('hex') }",
    "assert.equal(enc('ab'), '6162');",
  ),
  py(
    'Python: rebinding builtins.len for itself',
    'import builtins\n_len = builtins.len\nbuiltins.len = lambda x: _len(x)\ndef size(xs):\n    return len(xs)\n',
    'assert size([1, 2]) == 2\nassert size("") == 0\n',
  ),
  py(
    'Python: a memoizing builtins.sum',
    'import builtins\n_sum = builtins.sum\ncache = {}\ndef _memo(xs, start=0):\n    key = (tuple(xs), start)\n    if key not in cache:\n        cache[key] = _sum(xs, start)\n    return cache[key]\nbuiltins.sum = _memo\ndef total(xs):\n    return sum(xs)\n',
    'assert total([1, 2, 3]) == 6\nassert total([]) == 0\n',
  ),
  py(
    'Python: builtins.print replaced',
    'import builtins\nlines = []\nbuiltins.print = lambda *a, **k: lines.append(a)\ndef f(x):\n    print(x)\n    return x * 2\n',
    'assert f(2) == 4\n',
  ),
  {
    ...py(
      'Python: sys.stdout.write and sys.exit',
      'import sys\ndef f(x):\n    sys.stdout.write(str(x))\n    sys.exit(0)\n',
      'assert f(1) == 2\n',
    ),
    differs: EXITS,
  },
];

/** What each wrapper of the large corpus does around a known program's call. */
const EXERCISES: ReadonlyArray<{ name: string; prelude: string; around: (call: string) => string }> = [
  { name: 'structuredClone of the result', prelude: '', around: (call) => `return structuredClone(${call});` },
  {
    name: 'Buffer and TextEncoder on the arguments',
    prelude: '',
    around: (call) =>
      `Buffer.from(JSON.stringify(args) ?? '').toString('base64'); new TextDecoder().decode(new TextEncoder().encode(String(args))); return ${call};`,
  },
  {
    name: 'require util and crypto',
    prelude: "const __util = require('util'); const __crypto = require('node:crypto');",
    around: (call) =>
      `const r = ${call}; __crypto.createHash('sha1').update(__util.inspect(r)).digest('hex'); return r;`,
  },
  {
    name: 'timers, microtasks and process.stdout',
    prelude: '',
    around: (call) =>
      `setTimeout(() => {}, 10); const t = setInterval(() => {}, 1); clearInterval(t); queueMicrotask(() => {}); process.nextTick(() => {}); const r = ${call}; process.stdout.write(''); return r;`,
  },
  {
    name: 'performance and process.hrtime',
    prelude: '',
    around: (call) =>
      `const t0 = performance.now(); const h = process.hrtime.bigint(); const r = ${call}; if (performance.now() < t0 || process.hrtime.bigint() < h) throw new Error('time went back'); return r;`,
  },
];

/**
 * The large corpus: for each MultiPL-E JavaScript (or TypeScript) task, HumanEvalPack's
 * JavaScript reference and its buggy program for the same HumanEval problem, called through
 * each wrapper of EXERCISES under the MultiPL-E name (the JavaScript program is valid
 * TypeScript to transpile; its type errors never fail it). A right program must pass and a buggy
 * one fail exactly as under node.
 */
export function multiplECorpus(multiplE: readonly Task[], pack: readonly Task[]): CorpusProgram[] {
  const packByNumber = new Map(pack.map((t) => [/\/(\d+)$/.exec(t.id)?.[1], t]));
  const out: CorpusProgram[] = [];
  for (const task of multiplE) {
    const known = packByNumber.get(/\/(\d+)$/.exec(task.id)?.[1]);
    const name = task.entryPoint;
    const suite = task.suites[0];
    if (!known || !name || !known.reference || !suite || suite.kind !== 'script') continue;
    const programs: Array<[string, string]> = [['reference', known.reference]];
    for (const wrong of known.knownWrong.slice(0, 1)) programs.push(['buggy', wrong.program]);
    for (const [kind, program] of programs) {
      for (const exercise of EXERCISES) {
        const wrapped = [
          exercise.prelude,
          // The known program in its own scope, so its names cannot clash with the prompt's.
          `const __known = (() => {\n${program}\nreturn ${known.entryPoint};\n})();`,
          `function ${name}(...args) {\n  ${exercise.around('__known(...args)')}\n}`,
        ].join('\n');
        out.push({
          name: `${task.language} ${task.id} ${kind}: ${exercise.name}`,
          language: task.language,
          program: wrapped,
          test: `${suite.code}\n${suite.invoke ?? ''}\n`,
        });
      }
    }
  }
  return out;
}

/** A task that judges one corpus program with its test script (no reference needed). */
export function corpusTask(entry: CorpusProgram, index: number): Task {
  return {
    id: `corpus/${index}`,
    language: entry.language,
    prompt: '',
    entryPoint: 'f',
    completionPrefix: '',
    knownWrong: [],
    source: 'corpus',
    suites: [{ kind: 'script', name: 'test', code: entry.test }],
  };
}

export interface BothWays {
  readonly entry: CorpusProgram;
  /** Crucible's status for the program. */
  readonly crucible: string;
  /** Whether a fresh interpreter running program + test exits cleanly. */
  readonly fresh: boolean;
  /** Crucible agrees: the same outcome, or a fail where the entry says why it differs. */
  readonly agrees: boolean;
  readonly message?: string;
}

/**
 * Judges every entry with Crucible (through the Harness a user runs) and with a fresh
 * interpreter per program; `nodePath` serves both (NODE_PATH for node). Our own corpus and
 * dataset programs only: the fresh side runs unsandboxed.
 */
export async function judgeBothWays(
  entries: readonly CorpusProgram[],
  harness: Harness,
  options: { nodePath?: readonly string[]; parallel?: number; timeoutMs?: number } = {},
): Promise<{ rows: BothWays[]; crucibleSeconds: number; freshSeconds: number }> {
  const parallel = options.parallel ?? 2;
  const t0 = performance.now();
  const verdicts: Verdict[] = await pMap(entries, (entry, i) => harness.judge(corpusTask(entry, i), entry.program), {
    concurrency: parallel * 2,
  });
  const crucibleSeconds = (performance.now() - t0) / 1000;
  const python = resolvePython();
  const env = options.nodePath?.length ? { NODE_PATH: options.nodePath.join(':') } : undefined;
  const jobs = entries.map((e) => {
    if (e.language === 'python') return { interpreter: python, source: `${e.program}\n\n${e.test}`, suffix: '.py' };
    const source = e.language === 'typescript' ? transpile(`${e.program}\n${e.test}`).code : `${e.program}\n${e.test}`;
    return { interpreter: process.execPath, source, suffix: '.js', ...(env ? { env } : {}) };
  });
  const t1 = performance.now();
  const fresh = await spawnPerSample(jobs, parallel, options.timeoutMs ?? 10_000);
  const freshSeconds = (performance.now() - t1) / 1000;
  const rows = entries.map((entry, i) => {
    const status = verdicts[i]!.status;
    const passed = status === 'pass';
    const agrees = entry.differs ? fresh[i] === true && status === 'fail' : passed === fresh[i];
    const message = verdicts[i]!.firstFailure?.message;
    return { entry, crucible: status, fresh: fresh[i]!, agrees, ...(message ? { message } : {}) };
  });
  return { rows, crucibleSeconds, freshSeconds };
}
