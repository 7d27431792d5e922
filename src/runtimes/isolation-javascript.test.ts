import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { createJavaScriptRuntime } from './javascript-runtime.js';
import type { Ran, TimedSuite } from './runtime.js';
import { judged } from './testing/judged.js';

/**
 * Hostile candidates. Every test runs an attack through the runtime, checks the status it
 * gets, and then checks that the NEXT candidate in the same pool (one worker pair, so the
 * same long-lived candidate worker when it survived) still gets a correct verdict.
 */
const SECRET = `crucible-secret-${process.pid}-${Date.now()}`;
process.env.CRUCIBLE_TEST_SECRET = SECRET; // before the pool exists: it must not leak into it
const rt = judged(createJavaScriptRuntime({ workers: 1, memoryBytes: 256 << 20 }));
after(() => rt.close());

const script = (code: string, limit = 1): TimedSuite => ({ kind: 'script', name: 'tests', code, limit });
const statusOf = (r: Ran) => (r.load.ok ? r.suites[0]?.status : `load-${r.load.status}`);

async function run(program: string, code: string, limit = 1, loadSeconds = 2) {
  return rt.run({ program, suites: [script(code, limit)], limits: { loadSeconds } });
}

/** A right and a wrong candidate right after an attack: both must be judged correctly. */
async function nextCandidateIsJudged() {
  const tests = "const assert = require('node:assert');\nassert.deepEqual(add([1, 2], {k: 3}), [4, {k: 3}]);\nconsole.assert(JSON.stringify([1]) === '[1]');";
  const good = await run('function add(xs, o) { return [xs[0] + xs[1] + o.k - 2, o] }', tests, 5);
  assert.equal(statusOf(good), 'pass', JSON.stringify(good));
  const bad = await run('function add(xs, o) { return [xs[0] + xs[1], o] }', tests, 5);
  assert.equal(statusOf(bad), 'fail', JSON.stringify(bad));
}

async function expectStatus(program: string, code: string, status: string, limit = 1) {
  const started = Date.now();
  const r = await run(program, code, limit);
  assert.equal(statusOf(r), status, JSON.stringify(r));
  await nextCandidateIsJudged();
  return { result: r, ms: Date.now() - started };
}

describe('endless loops are stopped by the time limit', () => {
  const cases: Record<string, string> = {
    synchronous: 'function f() { for (;;); }',
    'promise microtask': 'function f() { Promise.resolve().then(function spin() { for (;;); }); return 1 }',
    'microtask chain': 'function f() { const again = () => Promise.resolve().then(again); again(); return 1 }',
    'queueMicrotask chain': 'function f() { queueMicrotask(function again() { queueMicrotask(again) }); return 1 }',
    'getter read while encoding the result': 'function f() { return { get x() { for (;;); } } }',
    'Proxy trap while encoding the result': 'function f() { return new Proxy([1], { get() { for (;;); }, ownKeys() { for (;;); } }) }',
    'toString of something printed': 'function f() { console.log({ toString() { for (;;); } }); return 1 }',
    'Atomics.wait on a SharedArrayBuffer': 'function f() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 1 }',
    'a setter node triggers after the timeout': "function f() { Object.defineProperty(Object.prototype, 'code', { set() { for (;;); } }); for (;;); }",
    'catching and retrying (the timeout is not an exception)': 'function f() { for (;;) { try { for (;;); } catch (e) {} } }',
  };
  for (const [name, program] of Object.entries(cases)) {
    test(name, async () => {
      const { ms } = await expectStatus(program, 'f()', 'timeout');
      assert.ok(ms < 6000, `took ${ms} ms`);
    });
  }

  test('at load time', async () => {
    const r = await run('while (true) {}', 'f()', 1, 1);
    assert.equal(r.load.status, 'timeout');
    await nextCandidateIsJudged();
  });

  test('a value thrown at load time whose getters loop (node must not decorate it untimed)', async () => {
    for (const program of ['throw new Proxy({}, { get() { for (;;); } })', 'throw { get stack() { for (;;); }, get name() { for (;;); } }']) {
      const started = Date.now();
      const r = await run(program, 'f()', 1, 1);
      assert.equal(r.load.status, 'timeout', JSON.stringify(r));
      assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
      await nextCandidateIsJudged();
    }
  });

  test('in an io suite: the suite stops at the first timeout', async () => {
    const program = 'function f(x) { if (x === 2) for (;;); return x }';
    const r = await rt.run({ program, suites: [{ kind: 'io', name: 'io', entry: 'f', inputsJson: '[[1],[2],[3]]', expectedJson: '[1,2,3]', limits: [1, 1, 1] }] });
    assert.equal(r.suites[0]?.status, 'timeout');
    assert.equal(r.suites[0]?.passed, 1);
    await nextCandidateIsJudged();
  });

  test('a setter on Error.prototype.code cannot even be installed', async () => {
    const r = await run("Object.defineProperty(Error.prototype, 'code', { set() { for (;;); } }); function f() {}", 'f()');
    assert.equal(r.load.status, 'error');
    assert.match(r.load.message!, /Cannot redefine property: code/);
    await nextCandidateIsJudged();
  });
});

describe('deferred work ends with the candidate', () => {
  // Garbage that reaches the old generation (only a full GC clears a registry's cells), then
  // a pause without allocation (measured: without it the registry mostly dies first).
  const churn = 'let keep = []; for (let k = 0; k < 400; k++) { keep.push(new Array(1e5).fill(k)); if (keep.length > 60) keep = []; } keep = null; const t = Date.now(); while (Date.now() - t < 300);';

  test('promises settled from outside the candidate (Atomics.waitAsync) never run their reactions, during or after it', async () => {
    const program = `const ia = new Int32Array(new SharedArrayBuffer(4));
      let resolve; new Promise((r) => (resolve = r)).then(() => { for (;;); });
      Atomics.waitAsync(ia, 0, 0, 1).value.then(() => { for (;;); });
      Atomics.waitAsync(ia, 0, 0, 50).value.then(resolve);
      function f() { Atomics.waitAsync(ia, 0, 0, 1).value.then(() => { for (;;); }); const t = Date.now(); while (Date.now() - t < 20); return 1 }`;
    const r = await run(program, "require('node:assert').equal(f(), 1); require('node:assert').equal(f(), 1)", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    await new Promise((done) => setTimeout(done, 100)); // every waitAsync timeout is due now
    const started = Date.now();
    await nextCandidateIsJudged();
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  test('FinalizationRegistry and WebAssembly are not there: a candidate that uses them fails to load', async () => {
    for (const program of [
      `new FinalizationRegistry(() => { for (;;); }).register({}, 1); function f() { return 1 }`,
      'WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { for (;;); }); function f() { return 1 }',
    ]) {
      const r = await run(program, 'f()', 5);
      assert.equal(r.load.status, 'error', JSON.stringify(r));
      assert.match(r.load.message!, /is not defined/);
      await nextCandidateIsJudged();
    }
  });

  test("node's own registries, promise jobs and WebAssembly (a context made by node's vm) never run: the tainted worker is gone first", async () => {
    const program = `function f() {
      require('vm').runInNewContext(\`
        globalThis.fr = new FinalizationRegistry(() => { for (;;); });
        for (let i = 0; i < 1e4; i++) fr.register({ i }, i);
        Promise.resolve().then(() => { for (;;); });
        Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1).value.then(() => { for (;;); });
        WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => { for (;;); });
      \`);
      ${churn}
      return 1;
    }`;
    const r = await run(program, "require('node:assert').equal(f(), 1)", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    const started = Date.now();
    await nextCandidateIsJudged();
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});

describe('memory', () => {
  test('growing arrays exhaust the heap: the worker dies, the next candidate gets a fresh one', async () => {
    const { result } = await expectStatus('function f() { const a = []; for (;;) a.push(new Array(1e5).fill(1.5)); }', 'f()', 'crashed', 30);
    assert.equal(result.exit?.outOfMemory, true);
  });

  test('a 4 GB ArrayBuffer fails to allocate (address-space limit) and counts as memory', async () => {
    await expectStatus('function f() { const b = new ArrayBuffer(4 * 2 ** 30); new Uint8Array(b).fill(1); return b.byteLength }', 'f()', 'memory');
  });

  test('many filled buffers outside the heap are bounded too', async () => {
    const program = 'function f() { const keep = []; for (let i = 0; i < 64; i++) { const b = new Uint8Array(256 * 2 ** 20); b.fill(1); keep.push(b) } return keep.length }';
    await expectStatus(program, 'f()', 'memory', 10);
  });

  test('a string past V8 limits is an ordinary exception', async () => {
    await expectStatus('function f() { let s = "x"; for (;;) s += s; }', 'f()', 'fail', 10);
  });
});

describe('output', () => {
  test('printing 100 MB hits the output limit, even when the candidate catches the error', async () => {
    const program = 'function f() { const s = "x".repeat(1e6); for (let i = 0; i < 100; i++) try { console.log(s) } catch {} return 1 }';
    const { result } = await expectStatus(program, "require('assert').equal(f(), 1)", 'output-limit');
    assert.equal(result.exit?.outputBytes, 100_000_100);
  });

  test('a return value larger than replyBytes', async () => {
    const r = await rt.run({ program: 'function f() { return "x".repeat(64e6) }', suites: [script('f()')], limits: { replyBytes: 16 << 20 } });
    assert.equal(statusOf(r), 'output-limit');
    assert.match(r.suites[0]!.firstFailure!.message, /return value larger than 16777216 bytes/);
    await nextCandidateIsJudged();
  });

  test('a result too deep or too wide does not hurt the worker', async () => {
    const program = 'function deep() { let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a }\nfunction wide() { let a = [1]; for (let i = 0; i < 40; i++) a = [a, a]; return a }';
    const suites = [script("require('assert').deepEqual(deep(), [])", 5), { ...script('wide()', 5), name: 'wide' }];
    // A small reply cap: encoding a shared-array DAG takes many times the reply's size in
    // heap, and this pool's heap is 256 MiB; the cap must be reached first.
    const r = await rt.run({ program, suites, limits: { replyBytes: 1 << 20 } });
    assert.deepEqual(r.suites.map((s) => s.status), ['fail', 'output-limit']);
    await nextCandidateIsJudged();
  });
});

describe('no way out of the context', () => {
  // Each probe returns everything of the worker's realm it could reach without asking node
  // for it (node's lent objects taint the worker: see the next describe); reaching the
  // worker's \`process\` means calling exit on it.
  const probe = `
    const found = [];
    const foreign = (x) => x !== null && (typeof x === 'object' || typeof x === 'function') && !(x instanceof Object);
    function attempt(label, get) {
      try {
        const p = get();
        if (p && typeof p === 'object' && typeof p.exit === 'function' && foreign(p)) { found.push(label); p.exit(0); }
        if (p && typeof p.exit !== 'function' && foreign(p)) found.push(label + ':foreign');
      } catch (e) {
        if (foreign(e)) found.push(label + ':foreign-error');
      }
    }
    function escape() {
      attempt('constructor', () => this.constructor.constructor('return process')());
      attempt('Function', () => Function('return process')());
      attempt('eval', () => eval('process'));
      attempt('async', () => (async () => {}).constructor('return process'));
      // Node's lent globals (Buffer, URL...) are accessors that taint on read: skipped here.
      attempt('global names', () => { for (const k of Object.getOwnPropertyNames(globalThis)) { const d = Object.getOwnPropertyDescriptor(globalThis, k); if ('value' in d && foreign(d.value)) return d.value; } });
      attempt('node surface', () => [process, process.stdout, setTimeout(() => {}), performance, structuredClone({}), new TextEncoder(), require('timers'), require('node:process')].find(foreign));
      attempt('node surface errors', () => { try { new TextDecoder('no-such-encoding') } catch (e) { return e } });
      attempt('require of a missing module', () => { try { require('no-such-module') } catch (e) { return e } });
      attempt('harness', () => __crucible$.control.constructor.constructor('return process')());
      attempt('stack overflow error', () => { try { (function r() { r() })() } catch (e) { return e.constructor.constructor('return process')() } });
      attempt('caller', () => { function g() { return g.caller } return g().constructor('return process')() });
      const saved = Error.prepareStackTrace;
      Error.prepareStackTrace = (e, sites) => sites;
      const sites = new Error().stack;
      Error.prepareStackTrace = saved;
      for (const s of sites) {
        attempt('callsite this', () => s.getThis());
        attempt('callsite function', () => s.getFunction());
        attempt('callsite this ctor', () => s.getThis().constructor.constructor('return process')());
        attempt('callsite function ctor', () => s.getFunction().constructor('return process')());
      }
      return found.length ? found.join(',') : 'contained';
    }
    globalThis.late = [];
    import('node:child_process').then((m) => late.push('imported'), (e) => { attempt('import', () => e.constructor.constructor('return process')()); if (foreign(e)) late.push('foreign') });
    (0, eval)('import("fs")').catch((e) => { if (foreign(e)) late.push('foreign-eval') });
    function lateFindings() { return late.concat(found).join(',') || 'contained' }
  `;

  test('constructors, eval, globals, call sites, callers, import() and thrown errors lead nowhere', async () => {
    const code = "const assert = require('node:assert');\nassert.equal(escape(), 'contained');\nassert.equal(lateFindings(), 'contained');\nassert.equal(lateFindings(), 'contained');";
    const r = await run(probe, code, 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    await nextCandidateIsJudged();
  });

  test("node's globals are there, built in the candidate's realm; no WebAssembly, no FinalizationRegistry", async () => {
    const program = `function probe() {
      const own = ['process', 'require', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'queueMicrotask', 'fetch', 'structuredClone',
                   'global', 'performance', 'TextEncoder', 'TextDecoder', 'atob', 'btoa', 'module', 'exports']
        .filter((name) => !((0, eval)(name) instanceof Object));
      const missing = ['WebSocket', 'XMLHttpRequest', 'WebAssembly', 'FinalizationRegistry'].filter((name) => (0, eval)('typeof ' + name) !== 'undefined');
      return own.concat(missing).join(',');
    }`;
    const r = await run(program, "require('node:assert').equal(probe(), '')", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    await nextCandidateIsJudged();
  });

  test('timers never fire: an interval or a timeout left running neither delays a result nor reaches the next candidate', async () => {
    const started = Date.now();
    const program = [
      'setInterval(() => { for (;;); }, 0);',
      'setTimeout(() => { globalThis.fired = true; throw new Error("late") }, 0);',
      'setImmediate(() => { for (;;); });',
      'process.nextTick(() => { globalThis.ticked = true });',
      'function f() { setTimeout(() => f(), 0); const t = setInterval(() => {}, 1); if (typeof t.unref !== "function" || typeof +t !== "number") throw new Error("not a Timeout"); return [typeof fired, ticked] }',
    ].join('\n');
    const r = await run(program, "require('assert').deepStrictEqual(f(), ['undefined', true])", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    assert.ok(Date.now() - started < 3000);
    await nextCandidateIsJudged();
  });

  test('no network: a server on 127.0.0.1 in the test process sees no connection', async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const program = `function connect() {
        const tries = [
          () => fetch('http://127.0.0.1:${port}/'),
          () => require('net').connect(${port}, '127.0.0.1'),
          () => new WebSocket('ws://127.0.0.1:${port}/'),
          () => import('node:net').then((net) => net.connect(${port}, '127.0.0.1')),
          () => this.constructor.constructor('return process')().binding('tcp_wrap'),
        ];
        return tries.map((t) => { try { t(); return 'tried' } catch (e) { return e.name } }).join(',');
      }`;
      // fetch rejects and net.connect never gets a turn of the event loop (nor a route out
      // of the sandbox's network namespace); the tainted worker is replaced after the run.
      const r = await run(program, "require('node:assert').equal(connect(), 'tried,tried,ReferenceError,tried,Error')", 5);
      assert.equal(statusOf(r), 'pass', JSON.stringify(r));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(connections, 0);
    } finally {
      server.close();
    }
    await nextCandidateIsJudged();
  });

  test('environment variables of the host are not visible', async () => {
    const program = `function look() {
      const seen = [];
      for (const get of [() => process.env, () => this.constructor.constructor('return process')().env, () => Object.getOwnPropertyNames(globalThis)]) {
        try { seen.push(JSON.stringify(get())) } catch (e) { seen.push(e.name) }
      }
      return seen.join(' ');
    }`;
    const code = `const seen = look();\nif (seen.includes(${JSON.stringify(SECRET)}) || seen.includes('CRUCIBLE_TEST_SECRET')) throw new Error('leak');\nif (!seen.startsWith('{} {} [')) throw new Error(seen);`;
    const r = await run(program, code, 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    await nextCandidateIsJudged();
  });

  test('process.exit fails the program even when it is caught, and ends neither the worker nor the judge', async () => {
    const atLoad = await run("try { process.exit(0) } catch {}\ntry { process.kill(1, 'SIGKILL') } catch {}\nfunction f() { return 1 }", "require('assert').equal(f(), 1)", 5);
    assert.equal(atLoad.load.status, 'error', JSON.stringify(atLoad));
    assert.match(atLoad.load.message!, /ProcessExit: process\.exit\(0\) was called/);
    await nextCandidateIsJudged();
    const inCall = await run('function f() { try { process.exit(0) } catch {} return 1 }', "require('assert').equal(f(), 1); require('assert').equal(f(), 1)", 5);
    assert.equal(statusOf(inCall), 'fail', JSON.stringify(inCall));
    await nextCandidateIsJudged();
  });
});

describe("node's own objects taint the worker, which is replaced before the next candidate", () => {
  const pristine = `
    function check() {
      const fs = require('fs');
      return [
        Buffer.from('ab').toString('base64'),
        fs.existsSync('/tmp/left-behind'),
        require('crypto').createHash('md5').update('x').digest('hex'),
        require('util').inspect({ a: { b: { c: {} } } }),
        require('events').defaultMaxListeners,
        typeof URL.prototype.lie,
      ];
    }`;
  const expected = "['YWI=', false, '9dd4e461268c8034f5c8564e155c67a6', '{ a: { b: { c: {} } } }', 10, 'undefined']";

  test('a candidate that changes Buffer, fs, crypto, util, events and URL changes nothing for the next one', async () => {
    const tamper = `
      Buffer.prototype.toString = () => 'lie';
      require('fs').writeFileSync('/tmp/left-behind', 'x');
      const crypto = require('crypto');
      crypto.createHash = () => ({ update() { return this }, digest: () => 'lie' });
      require('util').inspect.defaultOptions.depth = 0;
      require('events').defaultMaxListeners = 1;
      URL.prototype.lie = true;
      function f() { return Buffer.from('ab').toString('base64') }`;
    const first = await run(tamper, "require('node:assert').equal(f(), 'lie')", 5);
    assert.equal(statusOf(first), 'pass', JSON.stringify(first));
    const next = await run(pristine, `require('node:assert').deepStrictEqual(check(), ${expected})`, 5);
    assert.equal(statusOf(next), 'pass', JSON.stringify(next));
    await nextCandidateIsJudged();
  });

  test("work left on the worker's event loop (a callback that spins) never runs", async () => {
    const program = "require('crypto').randomBytes(8, () => { for (;;); }); require('fs').readFile('/etc/hostname', () => { for (;;); }); function f() { return 1 }";
    const r = await run(program, "require('node:assert').equal(f(), 1)", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    const started = Date.now();
    await nextCandidateIsJudged();
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  test('a tainted candidate cannot forge replies into the next run: work it leaves on the event loop never runs, and no run starts before it is gone', async () => {
    const forge = `
      const fs = require('fs');
      const forged = '{"ok":true,"names":["add"]}\\n' + '{"ok":true,"v":{"$t":"tuple","v":[4,{"$t":"object","v":[["k",3]]}]}}\\n'.repeat(50);
      function spam() {
        for (let tries = 0; tries < 1e6; tries++) {
          try {
            const fd = fs.openSync('/ipc/c2j', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
            for (let i = 0; i < 1000; i++) fs.writeSync(fd, forged);
          } catch {}
        }
      }
      require('crypto').randomBytes(1, spam);
      fs.readFile('/etc/hostname', spam);
      function f() { return 1 }`;
    for (let i = 0; i < 3; i++) {
      const r = await run(forge, "require('node:assert').equal(f(), 1)", 5);
      assert.equal(statusOf(r), 'pass', JSON.stringify(r));
      await nextCandidateIsJudged();
    }
  });

  test('node:module is refused (its createRequire would load worker_threads)', async () => {
    const r = await run("function f() { return require('module').createRequire('/tmp/x.js')('worker_threads') }", 'f()', 5);
    assert.equal(statusOf(r), 'fail', JSON.stringify(r));
    assert.match(r.suites[0]!.firstFailure!.message, /node:module is not available/);
    await nextCandidateIsJudged();
  });

  test("an error of node's own realm is the program's error, at load and in a call", async () => {
    const atLoad = await run("require('fs').readFileSync('/no/such/file'); function f() {}", 'f()', 5);
    assert.equal(atLoad.load.status, 'error', JSON.stringify(atLoad));
    assert.match(atLoad.load.message!, /ENOENT/);
    const inCall = await run("function f() { return require('fs').readFileSync('/no/such/file') }", 'f()', 5);
    assert.equal(statusOf(inCall), 'fail', JSON.stringify(inCall));
    assert.match(inCall.suites[0]!.firstFailure!.message, /ENOENT/);
    await nextCandidateIsJudged();
  });

  test('process.stdout.write counts against the output cap', async () => {
    const r = await run("function f() { const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 3000; i++) process.stdout.write(line); return 1 }", 'f()', 5);
    assert.equal(statusOf(r), 'output-limit', JSON.stringify(r));
    await nextCandidateIsJudged();
  });

  test("require reaches only the allowed package folders: the harness's own files and absolute paths are not found", async () => {
    for (const target of ['/crucible/node/wire.cjs', '../crucible/node/wire.cjs', './candidate-worker.cjs', '/etc/passwd']) {
      const r = await run(`function f() { try { require(${JSON.stringify(target)}); return 'loaded' } catch (e) { return e.code } }`, "require('node:assert').equal(f(), 'MODULE_NOT_FOUND')", 5);
      assert.equal(statusOf(r), 'pass', `${target}: ${JSON.stringify(r)}`);
    }
    await nextCandidateIsJudged();
  });

  test('process creation is refused and reported as the candidate\'s error; threads are refused', async () => {
    const spawn = await run("function f() { return require('child_process').execSync('echo hi').toString() }", 'f()', 5);
    assert.equal(statusOf(spawn), 'fail', JSON.stringify(spawn));
    assert.match(spawn.suites[0]!.firstFailure!.message, /EPERM/);
    const threads = await run("function f() { return require('node:worker_threads') }", 'f()', 5);
    assert.equal(statusOf(threads), 'fail', JSON.stringify(threads));
    assert.match(threads.suites[0]!.firstFailure!.message, /worker_threads is not available/);
    await nextCandidateIsJudged();
  });
});

describe('nothing a candidate patches reaches the harness, the judge or the next candidate', () => {
  test('patched built-ins in the candidate realm do not corrupt its own results', async () => {
    const program = `
      Object.prototype.polluted = 'yes';
      Object.defineProperty(Array.prototype, '0', { get() { return 'lie' }, set() { throw new Error('setter') }, configurable: true });
      Object.defineProperty(Object.prototype, 'v', { get() { return 'lie' }, set() {}, configurable: true });
      Array.prototype.map = () => ['lie'];
      Array.isArray = () => false;
      Object.keys = () => [];
      JSON.stringify = () => '"lie"';
      JSON.parse = () => 'lie';
      Reflect.apply = () => 'lie';
      Function.prototype.call = function () { return 'lie' };
      Function.prototype.apply = function () { return 'lie' };
      Map.prototype.forEach = () => {};
      String.prototype.slice = () => 'lie';
      Object.getPrototypeOf = () => null;
      function f(x) { return [x, { a: x, list: [x, x] }, new Map([[x, x]])] }
    `;
    const r = await run(program, "require('node:assert').deepStrictEqual(f(1), [1, { a: 1, list: [1, 1] }, new Map([[1, 1]])])", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
    await nextCandidateIsJudged();
  });

  test('the next candidate sees pristine built-ins', async () => {
    await run("Object.prototype.polluted = 1; JSON.stringify = () => 'lie'; Array.prototype.push = null; globalThis.leftover = 1; function f() {}", 'f()');
    const program = "function check() { return [typeof ({}).polluted, JSON.stringify([1]), typeof Array.prototype.push, typeof globalThis.leftover] }";
    const r = await run(program, "require('node:assert').deepStrictEqual(check(), ['undefined', '[1]', 'function', 'undefined'])", 5);
    assert.equal(statusOf(r), 'pass', JSON.stringify(r));
  });

  test('objects with lying valueOf, toJSON, Symbol.toPrimitive or equals are not equal to anything', async () => {
    const program = `
      function liar() { return { valueOf() { return 42 }, toJSON() { return 42 }, [Symbol.toPrimitive]() { return 42 }, toString() { return '42' }, equals() { return true } } }
      class Liar { valueOf() { return 42 } toJSON() { return 42 } [Symbol.toPrimitive]() { return 42 } }
      function instance() { return new Liar() }
    `;
    for (const code of [
      "require('node:assert').deepEqual(liar(), 42)",
      "require('node:assert').equal(liar(), 42)",
      'console.assert(liar() == 42)',
      'console.assert(instance() == 42)',
      "console.assert(JSON.stringify(instance()) === '42')",
      "require('node:assert').deepEqual(instance(), {})",
    ]) {
      const r = await run(program, code, 5);
      assert.equal(statusOf(r), 'fail', code);
    }
    const io = await rt.run({ program, suites: [{ kind: 'io', name: 'io', entry: 'instance', inputsJson: '[[]]', expectedJson: '[42]', limits: [1] }] });
    assert.equal(io.suites[0]?.status, 'fail');
    await nextCandidateIsJudged();
  });

  test("overriding console.assert (or console) in the candidate does not touch the judge's", async () => {
    const program = "console.assert = () => {};\nglobalThis.console = { assert() {}, log() {} };\nconst f = () => 1;";
    await expectStatus(program, 'console.assert(f() === 2)', 'fail');
  });

  test('candidate names cannot inject code into the judge or shadow its require', async () => {
    const program = `
      module.exports['a){throw new Error("injected")}//'] = () => 1;
      module.exports['constructor'] = () => 1;
      function require() { return { strictEqual() {} } }
      function console() {}
      function f() { return 2 }
    `;
    const r = await run(program, "const assert = require('assert');\nassert.strictEqual(f(), 1);", 5);
    assert.equal(statusOf(r), 'fail');
    assert.match(r.suites[0]!.firstFailure!.message, /Expected values to be strictly equal/);
    await nextCandidateIsJudged();
  });

  test('a thrown Proxy or an exception with hostile getters is described safely', async () => {
    await expectStatus('function f() { throw new Proxy({}, { get() { throw new Error("x") } }) }', 'f()', 'fail');
    await expectStatus('function f() { throw { get name() { for (;;); } } }', 'f()', 'timeout');
  });
});

/** Pids of this process's descendants whose command line mentions `marker`. */
function descendants(marker: string): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter((pid) => {
    try {
      return mine(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && !readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/usr/bin/bwrap');
    } catch {
      return false;
    }
  });
}

describe('the worker killed from outside', () => {
  test('mid-run: the run is not a pass, and the next run works', async () => {
    const running = run('function f() { for (;;); }', 'f()', 10);
    let pids: number[] = [];
    for (let i = 0; i < 100 && pids.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pids = descendants('candidate-worker.cjs').filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/usr/bin/node'));
    }
    // One worker runs the candidate; after a tainted run the pool also keeps a spare.
    assert.ok(pids.length >= 1 && pids.length <= 2, `${pids.length} candidate workers in this pool`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const r = await running;
    assert.equal(statusOf(r), 'crashed', JSON.stringify(r));
    await nextCandidateIsJudged();
  });
});
