// @ts-check
'use strict';
/**
 * Warm JavaScript *program* worker: runs whole programs as `node main.js < stdin` would,
 * for SandboxFusion-style `/run_code` (program-pool.ts starts it inside bubblewrap under
 * the no-fork seccomp filter, with the candidate worker's hardening flags and heap limit).
 *
 * Each program gets a NEW V8 context with nothing of this process in it. Inside it, code
 * evaluated there (`prelude` below) provides what a stdin/stdout program uses: console,
 * process (stdin, stdout, stderr, argv, env, exit, nextTick), timers, and require() of
 * fs (stdin and the request's files only), readline, and nothing else. Only strings cross
 * between this realm and the program's. Everything runs synchronously under vm timeouts
 * that share one wall-clock budget; events (stdin, readline lines, timers) are delivered
 * one macrotask per evaluation, so promise jobs run between them as in node.
 *
 * Protocol: {"op":"ping"} -> {"op":"pong"}; {"op":"run","code","stdin","files","fetch",
 * "limits":{wallSeconds,outputBytes}} -> {"op":"result",...} (see PROTOCOL.md).
 */
const vm = require('vm');
const { types } = require('util');
const { writeAll, serveWorker } = require('./wire.cjs');

/**
 * Evaluated inside each program's context: must not refer to anything outside its body. What
 * it builds are look-alikes of node's objects, filled in as they are made: typed loosely (`any`).
 * @param {string} stdinText
 * @param {string} filesJson
 * @param {number} cap
 */
function prelude(stdinText, filesJson, cap) {
  'use strict';
  /** @type {any} the program's global object, given node's globals below */
  const G = globalThis;
  // Taken before the program runs: it may replace the globals.
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringCtor = String;
  const isInteger = Number.isInteger;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const slice = String.prototype.slice;
  // What was printed and written, kept in variables and a prototype-less object that the
  // program cannot reach, so that result() runs none of its code (see run()).
  let stdoutText = '';
  let stderrText = '';
  let bytes = 0;
  let overflow = false;
  let exited = false;
  let exitCode = 0;
  /** @type {{ phase: string; error: string } | null} */
  let report = null;
  const EXIT = { exit: true };
  /** @type {{ [path: string]: string }} */
  const files = /** @type {any} */ ({ __proto__: null });
  const given = parse(filesJson);
  for (const key of Object.keys(given)) files[key] = given[key];
  // Deferred work must end with the program. Timers are this prelude's own queue and
  // promise jobs the context's (drained only by evaluations in it, which stop with the
  // program); WebAssembly's promises would settle from the worker's event loop, and a
  // FinalizationRegistry callback would run there, after the program and untimed. So no
  // WebAssembly (as for candidates), and registries whose callbacks are dropped once the
  // program is over (in practice they never run: the event loop never turns while it does).
  // The real constructor stays in this closure: with it, a program could make registries
  // whose callbacks are not dropped.
  let live = true;
  delete G.WebAssembly;
  const Registry = G.FinalizationRegistry;
  /** @param {unknown} cleanup */
  function FinalizationRegistry(cleanup) {
    if (new.target === undefined) throw new TypeError("Constructor FinalizationRegistry requires 'new'");
    if (typeof cleanup !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable');
    return construct(Registry, [(/** @type {unknown} */ held) => live && cleanup(held)], new.target);
  }
  Object.defineProperty(FinalizationRegistry, 'prototype', { value: Registry.prototype, writable: false });
  Object.defineProperty(Registry.prototype, 'constructor', { value: FinalizationRegistry });
  Object.defineProperty(G, 'FinalizationRegistry', { value: FinalizationRegistry });

  /** @typedef {{ due: number; seq: number; fn: Function; args: unknown[] }} Task */
  /** @type {Task[]} */
  const tasks = []; // macrotasks: [due, seq, fn, args]
  let seq = 0;
  let clock = 0;
  const intervals = new Set();

  /** @param {string} s */
  function utf8Length(s) {
    let n = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f) n += c > 0x7ff && (c < 0xd800 || c > 0xdfff) ? 2 : c > 0x7ff ? 0 : 1;
    }
    return n;
  }
  /**
   * Prints `s` on stdout (fd 1) or stderr (fd 2).
   * @param {number} fd
   * @param {string} s
   */
  function emit(fd, s) {
    if (exited || overflow) return;
    const n = utf8Length(s);
    const full = bytes + n > cap;
    const piece = full ? s.slice(0, Math.max(0, cap - bytes)) : s;
    if (fd === 1) stdoutText += piece;
    else stderrText += piece;
    bytes = full ? cap : bytes + n;
    if (full) {
      overflow = true;
      throw new RangeError('output limit of ' + cap + ' bytes exceeded');
    }
  }
  /** @param {any} b a chunk the program wrote (anything with a length) */
  function decodeBytes(b) {
    let s = '';
    for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
    try {
      return decodeURIComponent(escape(s));
    } catch {
      return s;
    }
  }
  /**
   * @param {any} v
   * @param {number} depth
   * @param {boolean} nested
   * @returns {string}
   */
  function inspect(v, depth, nested) {
    if (typeof v === 'string') return nested ? "'" + v + "'" : v;
    if (typeof v === 'bigint') return String(v) + 'n';
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'function') return '[Function: ' + (v.name || '(anonymous)') + ']';
    if (v === null || typeof v !== 'object') return Object.is(v, -0) ? '-0' : String(v);
    if (depth > 2) return Array.isArray(v) ? '[Array]' : '[Object]';
    if (v instanceof Error) return String(v.stack || v);
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const items = [];
      for (let i = 0; i < v.length && i < 100; i++) items.push(inspect(v[i], depth + 1, true));
      if (v.length > 100) items.push('... ' + (v.length - 100) + ' more items');
      return '[ ' + items.join(', ') + ' ]';
    }
    if (v instanceof Map)
      return (
        'Map(' +
        v.size +
        ') { ' +
        [...v].map(([k, x]) => inspect(k, depth + 1, true) + ' => ' + inspect(x, depth + 1, true)).join(', ') +
        ' }'
      );
    if (v instanceof Set)
      return 'Set(' + v.size + ') { ' + [...v].map((x) => inspect(x, depth + 1, true)).join(', ') + ' }';
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return '{ ' + keys.map((k) => k + ': ' + inspect(v[k], depth + 1, true)).join(', ') + ' }';
  }
  /** @param {any[]} args */
  function format(args) {
    let first = args[0];
    let rest = 1;
    let text = '';
    if (typeof first === 'string' && first.includes('%') && args.length > 1) {
      text = first.replace(/%[sdifjoOc%]/g, (m) => {
        if (m === '%%') return '%';
        if (rest >= args.length) return m;
        const a = args[rest++];
        if (m === '%d' || m === '%i') return String(m === '%i' ? parseInt(a) : Number(a));
        if (m === '%f') return String(parseFloat(a));
        if (m === '%j') return JSON.stringify(a);
        if (m === '%c') return '';
        return inspect(a, 0, m !== '%s');
      });
    } else {
      text = inspect(first, 0, false);
    }
    for (let i = rest; i < args.length; i++) text += ' ' + inspect(args[i], 0, false);
    return text;
  }
  /** @type {any} */
  const console = {};
  for (const m of ['log', 'info', 'debug', 'dir', 'table'])
    console[m] = (/** @type {unknown[]} */ ...a) => emit(1, (a.length ? format(a) : '') + '\n');
  for (const m of ['error', 'warn', 'trace'])
    console[m] = (/** @type {unknown[]} */ ...a) => emit(2, (a.length ? format(a) : '') + '\n');
  console.assert = (/** @type {unknown} */ c, /** @type {unknown[]} */ ...a) =>
    c || emit(2, 'Assertion failed' + (a.length ? ': ' + format(a) : '') + '\n');
  for (const m of ['group', 'groupEnd', 'groupCollapsed', 'time', 'timeEnd', 'timeLog', 'count', 'countReset', 'clear'])
    console[m] = () => {};

  /** @returns {any} */
  function emitter() {
    /** @type {{ [name: string]: Function[] }} */
    const handlers = /** @type {any} */ ({ __proto__: null });
    /** @type {any} */
    const self = {
      /**
       * @param {string} name
       * @param {Function} fn
       */
      on(name, fn) {
        (handlers[name] = handlers[name] || []).push(fn);
        self.onListen(name);
        return self;
      },
      /**
       * @param {string} name
       * @param {...unknown} args
       */
      emit(name, ...args) {
        const list = handlers[name] || [];
        for (let i = 0; i < list.length; i++) /** @type {Function} */ (list[i]).apply(self, args);
        return list.length > 0;
      },
      /**
       * @param {string} name
       * @param {Function} fn
       */
      removeListener(name, fn) {
        if (handlers[name]) handlers[name] = handlers[name].filter((f) => f !== fn);
        return self;
      },
      /** @param {string | undefined} name */
      removeAllListeners(name) {
        if (name === undefined) for (const k in handlers) delete handlers[k];
        else delete handlers[name];
        return self;
      },
      listenerCount: (/** @type {string} */ name) => (handlers[name] || []).length,
      onListen() {},
    };
    self.once = (/** @type {string} */ name, /** @type {Function} */ fn) => {
      const wrapped = (/** @type {unknown[]} */ ...args) => {
        self.removeListener(name, wrapped);
        fn.apply(self, args);
      };
      return self.on(name, wrapped);
    };
    self.addListener = self.on;
    self.off = self.removeListener;
    return self;
  }
  /**
   * @param {unknown} fn
   * @param {unknown} ms
   * @param {unknown[]} args
   */
  function schedule(fn, ms, args) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const task = { due: clock + Math.max(0, Number(ms) || 0), seq: seq++, fn, args };
    tasks.push(task);
    return task;
  }
  G.setTimeout = (/** @type {unknown} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...args) =>
    schedule(fn, ms, args);
  G.setImmediate = (/** @type {unknown} */ fn, /** @type {unknown[]} */ ...args) => schedule(fn, 0, args);
  G.setInterval = (/** @type {Function} */ fn, /** @type {unknown} */ ms, /** @type {unknown[]} */ ...args) => {
    /** @type {{ task?: Task }} */
    const handle = {};
    intervals.add(handle);
    const tick = () => {
      if (!intervals.has(handle)) return;
      handle.task = schedule(tick, ms, []);
      fn(...args);
    };
    handle.task = schedule(tick, ms, []);
    return handle;
  };
  G.clearTimeout = G.clearImmediate = (/** @type {Task} */ task) => {
    const i = tasks.indexOf(task);
    if (i >= 0) tasks.splice(i, 1);
  };
  G.clearInterval = (/** @type {{ task?: Task } | undefined} */ handle) => {
    if (!handle) return;
    intervals.delete(handle);
    G.clearTimeout(handle.task);
  };
  G.queueMicrotask = (/** @type {() => unknown} */ fn) => {
    Promise.resolve().then(fn);
  };

  // stdin: one 'data' chunk, then 'end' and 'close', delivered when someone listens.
  const stdin = emitter();
  let stdinDelivered = false;
  let stdinQueued = false;
  stdin.onListen = (/** @type {string} */ name) => {
    if ((name === 'data' || name === 'end' || name === 'readable') && !stdinQueued) {
      stdinQueued = true;
      schedule(
        () => {
          stdinDelivered = true;
          if (stdinText) stdin.emit('data', stdinText);
          stdin.emit('readable');
          stdin.emit('end');
          stdin.emit('close');
        },
        0,
        [],
      );
    }
  };
  stdin.fd = 0;
  stdin.isTTY = false;
  stdin.setEncoding = () => stdin;
  stdin.resume = () => stdin;
  stdin.pause = () => stdin;
  stdin.read = () => {
    if (stdinDelivered) return null;
    stdinDelivered = true;
    return stdinText || null;
  };
  stdin[Symbol.asyncIterator] = async function* () {
    if (!stdinDelivered && stdinText) {
      stdinDelivered = true;
      yield stdinText;
    }
  };
  const stream = (/** @type {number} */ fd) => ({
    fd,
    isTTY: false,
    columns: 80,
    writable: true,
    /**
     * @param {any} chunk
     * @param {unknown} [encoding]
     * @param {unknown} [callback]
     */
    write(chunk, encoding, callback) {
      emit(
        fd,
        typeof chunk === 'string'
          ? chunk
          : chunk && typeof chunk.length === 'number'
            ? decodeBytes(chunk)
            : String(chunk),
      );
      const cb = typeof encoding === 'function' ? encoding : callback;
      if (typeof cb === 'function') schedule(cb, 0, []);
      return true;
    },
    /** @param {unknown} chunk */
    end(chunk) {
      if (chunk !== undefined && chunk !== null) this.write(chunk);
    },
    on() {
      return this;
    },
    once() {
      return this;
    },
  });
  const process = emitter();
  Object.assign(process, {
    stdin,
    stdout: stream(1),
    stderr: stream(2),
    argv: ['/usr/bin/node', '/tmp/main.js'],
    env: {},
    platform: 'linux',
    version: 'v20.0.0',
    versions: { node: '20.0.0' },
    pid: 1,
    cwd: () => '/tmp',
    hrtime: Object.assign(() => [0, 0], { bigint: () => 0n }),
    memoryUsage: () => ({ rss: 0, heapUsed: 0, heapTotal: 0, external: 0 }),
    nextTick: (/** @type {Function} */ fn, /** @type {unknown[]} */ ...args) =>
      Promise.resolve().then(() => fn(...args)),
    /** @param {unknown} code */
    exit(code) {
      if (!exited) {
        if (arguments.length > 0) setExitCode(code);
        exited = true;
        exitCode = exitStatus();
      }
      throw EXIT;
    },
  });
  // As in node 20: an integer, a string holding one, undefined or null; anything else
  // throws, so the status is read later without running any of the program's code.
  /** @type {number | string | null | undefined} */
  let exitCodeValue;
  /** @param {any} code */
  function setExitCode(code) {
    if (
      code !== undefined &&
      code !== null &&
      !(typeof code === 'number' ? isInteger(code) : typeof code === 'string' && code !== '' && isInteger(+code))
    ) {
      /** @type {Error & { code?: string }} */
      const e =
        typeof code === 'number'
          ? new RangeError('The value of "code" is out of range. It must be an integer. Received ' + code)
          : new TypeError('The "code" argument must be of type number. Received type ' + typeof code);
      e.code = typeof code === 'number' ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    exitCodeValue = code;
  }
  const exitStatus = () => (exitCodeValue === undefined || exitCodeValue === null ? 0 : +exitCodeValue & 0xff);
  Object.defineProperty(process, 'exitCode', { get: () => exitCodeValue, set: setExitCode, enumerable: true });

  /** @param {unknown} options */
  function lineReader(options) {
    const rl = emitter();
    let closed = false;
    let consumed = false;
    const lines = stdinText.split(/\r?\n/);
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    let queued = false;
    const deliver = () => {
      if (consumed) return;
      consumed = true;
      stdinDelivered = true;
      for (let i = 0; i < lines.length && !closed; i++) rl.emit('line', lines[i]);
      rl.close();
    };
    rl.onListen = (/** @type {string} */ name) => {
      if ((name === 'line' || name === 'close') && !queued) {
        queued = true;
        schedule(deliver, 0, []);
      }
    };
    rl.close = () => {
      if (closed) return;
      closed = true;
      rl.emit('close');
    };
    rl.setPrompt = () => {};
    rl.prompt = () => {};
    rl.pause = () => rl;
    rl.resume = () => rl;
    let asked = 0;
    rl.question = (/** @type {unknown} */ query, /** @type {unknown} */ cb) => {
      emit(1, String(query));
      const line = asked < lines.length ? lines[asked++] : '';
      consumed = true;
      schedule(cb, 0, [line]);
    };
    rl[Symbol.asyncIterator] = async function* () {
      if (consumed) return;
      consumed = true;
      for (let i = 0; i < lines.length && !closed; i++) yield lines[i];
    };
    void options;
    return rl;
  }
  /**
   * @param {unknown} path
   * @param {unknown} [options]
   */
  function readFileSync(path, options) {
    if (path === 0 || path === '/dev/stdin') {
      stdinDelivered = true;
      return stdinText;
    }
    const key = String(path)
      .replace(/^\.\//, '')
      .replace(/^\/tmp\//, '');
    if (Object.prototype.hasOwnProperty.call(files, key)) return files[key];
    /** @type {Error & { code?: string }} */
    const e = new Error("ENOENT: no such file or directory, open '" + String(path) + "'");
    e.code = 'ENOENT';
    throw e;
  }
  const fsModule = {
    readFileSync,
    /**
     * @param {unknown} path
     * @param {unknown} data
     */
    writeFileSync(path, data) {
      const key = String(path)
        .replace(/^\.\//, '')
        .replace(/^\/tmp\//, '');
      const text = StringCtor(data);
      emitSize(text);
      files[key] = text;
    },
    existsSync: (/** @type {unknown} */ path) =>
      path === '/dev/stdin' || Object.prototype.hasOwnProperty.call(files, String(path).replace(/^\.\//, '')),
  };
  /** @param {string} text */
  function emitSize(text) {
    if (utf8Length(text) > cap) {
      overflow = true;
      throw new RangeError('file larger than the output limit of ' + cap + ' bytes');
    }
  }
  /** @type {{ [name: string]: object }} */
  const modules = /** @type {any} */ ({ __proto__: null, fs: fsModule, readline: { createInterface: lineReader } });
  /** @param {unknown} id */
  function require(id) {
    const name = String(id).replace(/^node:/, '');
    const m = modules[name];
    if (m) return m;
    /** @type {Error & { code?: string }} */
    const e = new Error("Cannot find module '" + String(id) + "'");
    e.code = 'MODULE_NOT_FOUND';
    throw e;
  }
  G.console = console;
  G.process = process;
  G.global = G;

  /** @param {any} e */
  function describe(e) {
    try {
      // The frames below the program's own are this worker's: not the program's business.
      if (e !== null && typeof e === 'object' && typeof e.stack === 'string')
        return e.stack
          .split('\n')
          .filter((/** @type {string} */ l) => !/crucible-program|node:vm|\/crucible\//.test(l))
          .join('\n');
      return 'Uncaught ' + inspect(e, 0, true);
    } catch {
      return 'Uncaught exception';
    }
  }
  /** @param {() => unknown} fn */
  function guarded(fn) {
    if (exited) return;
    try {
      fn();
    } catch (/** @type {any} */ e) {
      if (e === EXIT || exited || overflow) return;
      let name;
      try {
        name = e !== null && typeof e === 'object' ? e.name : undefined;
      } catch {}
      report = /** @type {{ phase: string; error: string }} */ ({
        __proto__: null,
        phase: 'run',
        error: typeof name === 'string' ? apply(slice, name, [0, 100]) : 'Error',
      });
      try {
        emit(2, describe(e) + '\n');
      } catch {}
      exited = true;
      exitCode = 1;
    }
  }
  const module = { exports: {} };
  return Object.freeze({
    __proto__: null,
    /** @param {Function} wrapper the program, as a CommonJS module's function */
    main(wrapper) {
      guarded(() => wrapper.call(module.exports, module.exports, require, module, '/tmp/main.js', '/tmp'));
    },
    /** Runs the next macrotask; false when there is none (the program is done). */
    pump() {
      if (exited || overflow || tasks.length === 0) return false;
      let next = 0;
      for (let i = 1; i < tasks.length; i++) {
        const a = /** @type {Task} */ (tasks[i]);
        const b = /** @type {Task} */ (tasks[next]);
        if (a.due < b.due || (a.due === b.due && a.seq < b.seq)) next = i;
      }
      const task = /** @type {Task} */ (tasks.splice(next, 1)[0]);
      clock = Math.max(clock, task.due);
      guarded(() => task.fn(...task.args));
      return true;
    },
    /**
     * The program's outcome, as JSON text; the program is over from now on. It reads only
     * this prelude's own strings, numbers and prototype-less objects, so none of the
     * program's code runs here (the host calls it directly, untimed: see run()).
     */
    result() {
      live = false;
      const code = exited ? exitCode : exitStatus();
      return stringify({
        __proto__: null,
        stdout: stdoutText,
        stderr: stderrText,
        exitCode: code,
        overflow,
        report,
        files,
      });
    },
  });
}

const PRELUDE = new vm.Script(`(${prelude})`, { filename: 'crucible-program-prelude.js' });
const MAIN = new vm.Script('__crucible$.main(__crucible$main)', { filename: 'crucible-program.js' });
const PUMP = new vm.Script('__crucible$.pump()', { filename: 'crucible-program.js' });

/** @param {unknown} e */
function isTimeout(e) {
  if (typeof e !== 'object' || e === null || types.isProxy(e) || !types.isNativeError(e)) return false;
  const code = Object.getOwnPropertyDescriptor(e, 'code');
  return Boolean(code && code.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT');
}

/**
 * @param {import('../protocol.js').ProgramRun} msg
 * @returns {import('../protocol.js').ProgramReport}
 */
function run(msg) {
  const limits = msg.limits || {};
  const cap = Math.max(1, Number(limits.outputBytes) || 1 << 20);
  const budgetMs = Math.max(1, (Number(limits.wallSeconds) || 10) * 1000);
  const started = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  /** @type {{ op: 'result'; signal: null; truncated: boolean; scratchFull: boolean; timedOut: boolean; files: Record<string, string> }} */
  const base = { op: 'result', signal: null, truncated: false, scratchFull: false, timedOut: false, files: {} };
  let wrapper;
  try {
    wrapper = new vm.Script(
      `(function (exports, require, module, __filename, __dirname) {${String(msg.code ?? '')}\n})`,
      {
        filename: '/tmp/main.js',
        importModuleDynamically: () => {
          throw new Error('import() is not available');
        },
      },
    );
  } catch (/** @type {any} */ e) {
    const where = /^\/tmp\/main\.js:(\d+)/.exec(String(e.stack));
    return {
      ...base,
      exitCode: 1,
      stdout: '',
      stderr: `/tmp/main.js${where ? `:${where[1]}` : ''}\n${e.name}: ${e.message}\n`,
      report: { phase: 'compile', error: e.name },
      wallSeconds: elapsed() / 1000,
    };
  }
  /** @type {Record<string, string>} */
  const files = {};
  for (const [path, b64] of Object.entries(msg.files || {}))
    if (typeof b64 === 'string') files[path] = Buffer.from(b64, 'base64').toString('utf8');
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
    name: 'program',
    microtaskMode: 'afterEvaluate',
    codeGeneration: { strings: true, wasm: false },
  });
  const timed = (/** @type {import('vm').Script} */ script) => {
    const left = budgetMs - elapsed();
    if (left <= 0) return 'timeout';
    try {
      return script.runInContext(context, { timeout: Math.max(1, Math.ceil(left)), displayErrors: false });
    } catch (e) {
      return isTimeout(e) ? 'timeout' : 'failed';
    }
  };
  let timedOut = false;
  let control;
  try {
    control = PRELUDE.runInContext(context)(String(msg.stdin ?? ''), JSON.stringify(files), cap);
    // Fixed names the two scripts above read; the program cannot rebind them.
    const install = vm.runInContext(
      '(c, w) => { for (const [k, v] of [["__crucible$", c], ["__crucible$main", w]]) Object.defineProperty(globalThis, k, { value: v, writable: false, configurable: false }); }',
      context,
    );
    install(control, wrapper.runInContext(context));
  } catch (/** @type {any} */ e) {
    return {
      ...base,
      exitCode: null,
      stdout: '',
      stderr: '',
      noVerdict: `program context failed: ${e && e.message}`,
      wallSeconds: elapsed() / 1000,
    };
  }
  if (timed(MAIN) === 'timeout') timedOut = true;
  while (!timedOut) {
    const more = timed(PUMP);
    if (more === 'timeout') timedOut = true;
    else if (more !== true) break;
  }
  // A direct call, not a script: after evaluating a script, node runs the promise jobs a
  // timed-out program left queued, until that script's timeout, which then loses its value.
  // Nothing is evaluated in the context after the program, so none of it runs again.
  /** @type {any} what the program's prelude reported */
  let result;
  try {
    const text = control.result();
    result = JSON.parse(typeof text === 'string' ? text : '{}');
  } catch {
    result = { stdout: '', stderr: '', exitCode: 1 };
  }
  /** @type {Record<string, string>} */
  const fetched = {};
  for (const path of Array.isArray(msg.fetch) ? msg.fetch.slice(0, 100) : []) {
    const text =
      result.files && Object.prototype.hasOwnProperty.call(result.files, path) ? result.files[path] : undefined;
    if (typeof text === 'string') fetched[path] = Buffer.from(text).subarray(0, cap).toString('base64');
  }
  const stdout = Buffer.from(String(result.stdout ?? ''));
  const stderr = Buffer.from(String(result.stderr ?? ''));
  const truncated = Boolean(result.overflow) || stdout.length + stderr.length > cap;
  const cpu = process.cpuUsage(cpu0);
  return {
    ...base,
    exitCode: timedOut ? null : Number(result.exitCode) || 0,
    stdout: stdout.subarray(0, cap).toString('utf8'),
    stderr: stderr.subarray(0, Math.max(0, cap - Math.min(stdout.length, cap))).toString('utf8'),
    truncated,
    timedOut,
    files: fetched,
    report:
      result.report && typeof result.report === 'object'
        ? { phase: String(result.report.phase), error: String(result.report.error) }
        : null,
    wallSeconds: elapsed() / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

serveWorker('program worker', 'run', (msg) => writeAll(1, JSON.stringify(run(msg)) + '\n'));
