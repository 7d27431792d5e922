// @ts-check
'use strict';
/**
 * Warm JavaScript candidate worker (runs inside bubblewrap under a no-fork seccomp filter,
 * started by javascript-runtime.ts with node flags that matter for safety, see there).
 *
 * Each candidate gets a NEW V8 context with nothing of this process in it: its global is
 * a fresh one (vm.constants.DONT_CONTEXTIFY), and the harness that decodes arguments,
 * calls the candidate and encodes results is code evaluated INSIDE that context (see
 * `harness` below, wire.cjs), so only strings cross between this realm and the candidate's.
 * This host side never reads a property of a candidate value: it passes strings in,
 * takes the harness's reply string out, and runs every piece of candidate code under a
 * vm timeout. The worker is entirely synchronous and never returns to the event loop
 * while a candidate runs, so nothing the candidate schedules can run untimed.
 */
const fs = require('fs');
const vm = require('vm');
const { types } = require('util');
const { createWire, LineReader, writeAll, serveWorker, RESERVED_WORDS } = require('./wire.cjs');
const { nodeSurface } = require('./node-surface.cjs');
const { createHostBridge, surfaceNames, surfaceOptions } = require('./host-bridge.cjs');

/** @typedef {import('./worker-types.js').HostBridge} HostBridge */
/** @typedef {import('./worker-types.js').Surface} Surface */
/** @typedef {import('./worker-types.js').HarnessControl} HarnessControl */
/** @typedef {import('../protocol.js').Unchecked} Unchecked */

const IPC = process.env.CRUCIBLE_IPC || '/ipc';
// Taken before any candidate can be lent node's objects (see wire.cjs).
const { openSync, closeSync } = fs;
const runInContext = vm.Script.prototype.runInContext;
const hrtime = process.hrtime.bigint;
const cpuUsage = process.cpuUsage;
const resourceUsage = process.resourceUsage;
const exitNow = process.exit.bind(process);
const STEP = new vm.Script('__crucible$()', { filename: 'crucible-harness.js' });

/**
 * The in-context harness. Its source text is evaluated in each candidate's context; it
 * must not refer to anything outside its body. It returns `step`, which the host calls
 * (through the STEP script, under a timeout) to process the message it `put` last.
 */
/**
 * @param {() => import('./worker-types.js').Wire} createWire
 * @param {(host: HostBridge, print: (text: string, fd?: number) => void, optionsJson: string, mayDefine: (name: string) => boolean) => Surface} nodeSurface
 */
function harness(createWire, nodeSurface) {
  'use strict';
  const G = globalThis;
  const W = createWire();
  const apply = Reflect.apply;
  const defineProperty = Reflect.defineProperty;
  const deleteProperty = Reflect.deleteProperty;
  const getPrototypeOf = Reflect.getPrototypeOf;
  const ownNames = Object.getOwnPropertyNames;
  const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
  const keys = Object.keys;
  const freeze = Object.freeze;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const StringCtor = String;
  const ErrorCtor = Error;
  const RangeErrorCtor = RangeError;
  const RangeErrorProto = RangeError.prototype;
  const slice = String.prototype.slice;
  const indirectEval = G.eval;
  const ERROR_CLASSES = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

  let limits = { outputBytes: 1 << 20, replyBytes: 16 << 20 };
  /** @type {Surface['lazy']} */
  let lazyGlobals = /** @type {any} */ ({ __proto__: null });
  /** @type {Surface['exit']} */
  let exitCalled = () => null;
  let pending = '';
  /** @type {unknown} */
  let thrown;
  let outputBytes = 0;
  let overflow = false;
  let kept = '';
  /** @type {{ [name: string]: () => unknown }} readers of the program's top-level functions */
  const functions = /** @type {any} */ ({ __proto__: null });
  /** @type {{ [name: string]: unknown }} what each global held before the program ran */
  const builtins = /** @type {any} */ ({ __proto__: null });

  // After a vm timeout node sets `code` on the error it creates here with [[Set]]: a
  // setter on Error.prototype.code would then run untimed. A fixed data property there
  // makes that assignment plain (instances can still have their own `code`).
  for (let i = 0; i < ERROR_CLASSES.length; i++) {
    defineProperty(/** @type {ErrorConstructor} */ (ERROR_CLASSES[i]).prototype, 'code', {
      __proto__: null,
      value: undefined,
      writable: true,
      configurable: false,
    });
  }
  // No WebAssembly (huge address-space reservations; its compile and instantiate promises
  // settle from the host's event loop), and no FinalizationRegistry (its callbacks would
  // run later from the host's event loop, outside any timeout). Other promises that
  // something outside the context settles later (Atomics.waitAsync) only queue their
  // reactions on this context's own microtask queue, which nothing drains once the
  // candidate is over: the host evaluates nothing more in it.
  deleteProperty(G, 'WebAssembly');
  deleteProperty(G, 'FinalizationRegistry');

  /**
   * @param {string} s
   * @param {number} n
   */
  function cut(s, n) {
    return s.length > n ? apply(slice, s, [0, n]) : s;
  }

  /**
   * Counts (and keeps the start of) what is printed; past the cap, the program stops.
   * @param {string} text
   */
  function print(text) {
    outputBytes += text.length;
    if (kept.length < 8192) kept += cut(text, 8192 - kept.length);
    if (outputBytes > limits.outputBytes) {
      overflow = true;
      throw new RangeErrorCtor('output limit of ' + limits.outputBytes + ' bytes exceeded');
    }
  }

  // A console that only counts what is printed.
  /**
   * @param {unknown[]} args
   * @param {string} prefix
   */
  function write(args, prefix) {
    let line = prefix;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      let s;
      if (typeof a === 'string') s = a;
      else {
        try {
          s = StringCtor(a);
        } catch {
          s = '[object]';
        }
      }
      line += (line ? ' ' : '') + s;
    }
    print(line + '\n');
  }
  const consoleObject = {};
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table', 'group', 'groupCollapsed'];
  for (let i = 0; i < methods.length; i++) {
    defineProperty(consoleObject, /** @type {string} */ (methods[i]), {
      __proto__: null,
      value: function (/** @type {unknown[]} */ ...args) {
        write(args, '');
      },
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  defineProperty(consoleObject, 'assert', {
    __proto__: null,
    value: function (/** @type {unknown} */ condition, /** @type {unknown[]} */ ...args) {
      if (!condition) write(args, 'Assertion failed:');
    },
    writable: true,
    configurable: true,
    enumerable: true,
  });
  const noop = function () {};
  const quiet = ['groupEnd', 'time', 'timeEnd', 'timeLog', 'count', 'countReset', 'clear'];
  for (let i = 0; i < quiet.length; i++) {
    defineProperty(consoleObject, /** @type {string} */ (quiet[i]), {
      __proto__: null,
      value: noop,
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  const moduleObject = { exports: {} };
  /** @type {[string, object][]} */
  const globals = [
    ['console', consoleObject],
    ['module', moduleObject],
    ['exports', moduleObject.exports],
  ];
  for (let i = 0; i < globals.length; i++) {
    const entry = /** @type {[string, object]} */ (globals[i]);
    defineProperty(G, entry[0], { __proto__: null, value: entry[1], writable: true, configurable: true });
  }
  // Node's surface is built when the program first reads one of its globals: most programs
  // read none, and building it costs more than the rest of a candidate's context. Until
  // then each global the program's text names is an accessor that builds it.
  /** @type {{ [name: string]: () => unknown }} */
  const installers = /** @type {any} */ ({ __proto__: null });
  /** @type {[HostBridge, string] | null} */
  let surfaceArgs = null;
  /** @param {string} name */
  function ours(name) {
    const d = getOwnPropertyDescriptor(G, name);
    return d !== undefined && d.get !== undefined && (d.get === installers[name] || d.get === lazyGlobals[name]);
  }
  /** @param {string} name */
  function note(name) {
    const d = getOwnPropertyDescriptor(G, name);
    builtins[name] = d && 'value' in d ? d.value : undefined;
  }
  function buildSurface() {
    if (surfaceArgs === null) return;
    const host = surfaceArgs[0];
    const optionsJson = surfaceArgs[1];
    surfaceArgs = null;
    const surface = nodeSurface(
      host,
      print,
      optionsJson,
      (name) => getOwnPropertyDescriptor(G, name) === undefined || ours(name),
    );
    lazyGlobals = surface.lazy;
    exitCalled = surface.exit;
    for (let i = 0; i < surface.defined.length; i++) note(/** @type {string} */ (surface.defined[i]));
  }
  /** @param {string} name */
  function installer(name) {
    const get = function () {
      buildSurface();
      const d = getOwnPropertyDescriptor(G, name);
      if (d !== undefined && d.get === get) {
        deleteProperty(G, name);
        return undefined;
      }
      return /** @type {any} */ (G)[name];
    };
    installers[name] = get;
    defineProperty(G, name, {
      __proto__: null,
      get,
      /** @param {unknown} x */
      set(x) {
        defineProperty(G, name, { __proto__: null, value: x, writable: true, configurable: true, enumerable: true });
      },
      configurable: true,
    });
  }

  /**
   * Node's globals that `namesJson` lists (lazily), then a note of what each global held before the program ran.
   * @type {HarnessControl['install']}
   */
  function install(host, optionsJson, namesJson) {
    if (host !== null) {
      surfaceArgs = [host, optionsJson];
      /** @type {string[]} */
      const names = jsonParse(namesJson);
      for (let i = 0; i < names.length; i++) {
        const name = /** @type {string} */ (names[i]);
        if (getOwnPropertyDescriptor(G, name) === undefined) installer(name);
      }
    }
    // A name is the candidate's when its value differs (a program may define its own
    // `escape` or `parseInt`).
    const names0 = ownNames(G);
    for (let i = 0; i < names0.length; i++) note(/** @type {string} */ (names0[i]));
  }

  /** @param {unknown} s */
  function quote(s) {
    return jsonStringify(s);
  }

  /**
   * @param {object} x
   * @param {object} proto
   */
  function isError(x, proto) {
    for (let p = getPrototypeOf(x), i = 0; p !== null && i < 50; p = getPrototypeOf(p), i++)
      if (p === proto) return true;
    return false;
  }

  /**
   * @param {string} error
   * @param {string} message
   * @param {'' | 'timeout' | 'memory' | 'output'} limit
   */
  function failure(error, message, limit) {
    return (
      '{"ok":false,"error":' +
      quote(cut(error, 100)) +
      ',"message":' +
      quote(cut(message, 2000)) +
      (limit ? ',"limit":' + quote(limit) : '') +
      '}'
    );
  }

  /**
   * An error reply for anything thrown; reading `name`/`message` may run candidate code (we are timed).
   * @param {any} e
   */
  function describe(e) {
    let name = 'Error';
    let message = '';
    /** @type {'' | 'memory'} */
    let limit = '';
    try {
      if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
        const n = e.name;
        if (typeof n === 'string') name = n;
        const m = e.message;
        message = typeof m === 'string' ? m : m === undefined ? '' : StringCtor(m);
        if (message === 'Array buffer allocation failed' && isError(e, RangeErrorProto)) limit = 'memory';
      } else {
        message = StringCtor(e);
      }
    } catch {
      name = 'Error';
      message = 'the exception could not be described';
    }
    return failure(name, message, limit);
  }

  /** @param {Unchecked} msg */
  function callReply(msg) {
    const name = msg.name;
    const thunk = typeof name === 'string' ? functions[name] : undefined;
    if (thunk === undefined) return failure('ReferenceError', StringCtor(name) + ' is not defined', '');
    const args = /** @type {unknown[]} */ (W.decodeParsed(msg.args));
    const fn = /** @type {Function} */ (thunk());
    const value = apply(fn, undefined, args);
    let encoded;
    try {
      encoded = W.encode(value, false, limits.replyBytes);
    } catch (/** @type {any} */ e) {
      const tooLong = e instanceof RangeErrorCtor && e.message === 'Invalid string length';
      if ((e instanceof W.WireError && e.kind === 'size') || tooLong)
        return failure('OutputLimit', 'return value larger than ' + limits.replyBytes + ' bytes', 'output');
      throw e;
    }
    return '{"ok":true,"v":' + encoded + '}';
  }

  /**
   * Registers the top-level callables among candidate identifiers; thunks read each binding.
   * @param {{ names: string[] }} msg
   * @param {(() => unknown)[]} thunks
   */
  function namesReply(msg, thunks) {
    /** @type {string[]} */
    const list = [];
    /**
     * @param {string} name
     * @param {() => unknown} thunk
     */
    function add(name, thunk) {
      if (name === '__crucible$' || functions[name] !== undefined) return;
      // Node's lazy globals (Buffer...) are not the program's, and reading one would build or taint.
      if (ours(name)) return;
      let v;
      try {
        v = thunk();
      } catch {
        return;
      }
      if (typeof v !== 'function' || v === builtins[name]) return;
      functions[name] = thunk;
      defineProperty(list, list.length, {
        __proto__: null,
        value: name,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    for (let i = 0; i < msg.names.length; i++)
      add(/** @type {string} */ (msg.names[i]), /** @type {() => unknown} */ (thunks[i]));
    // CommonJS style programs (TypeScript output): module.exports.f
    /** @type {any} */
    let exported;
    try {
      exported = /** @type {any} */ (G).module.exports;
    } catch {}
    if (exported !== null && (typeof exported === 'object' || typeof exported === 'function')) {
      /** @type {string[]} */
      let ks = [];
      try {
        ks = keys(exported);
      } catch {}
      for (let i = 0; i < ks.length && i < 10000; i++) {
        const k = /** @type {string} */ (ks[i]);
        add(k, () => exported[k]);
      }
    }
    let out = '[';
    for (let i = 0; i < list.length; i++) out += (i ? ',' : '') + quote(list[i]);
    return '{"ok":true,"names":' + out + ']}';
  }

  // --- Inline tests: only when arguments cannot cross (callbacks). A small assert. ----
  /**
   * @param {any} a
   * @param {any} b
   * @param {boolean} strict
   * @param {number} depth
   * @returns {boolean}
   */
  function same(a, b, strict, depth) {
    if (strict ? a === b || (a !== a && b !== b) : a == b || (a !== a && b !== b)) return true;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || depth > 200) return false;
    if (strict && getPrototypeOf(a) !== getPrototypeOf(b)) return false;
    const ka = keys(a);
    const kb = keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++)
      if (!same(a[/** @type {string} */ (ka[i])], b[/** @type {string} */ (ka[i])], strict, depth + 1)) return false;
    return true;
  }
  /**
   * @param {unknown} ok
   * @param {unknown} message
   * @param {string} text
   */
  function check(ok, message, text) {
    if (!ok) {
      const e = new ErrorCtor(message === undefined ? text : StringCtor(message));
      e.name = 'AssertionError';
      throw e;
    }
  }
  /** @typedef {(a: unknown, b: unknown, m?: unknown) => void} Comparison */
  /**
   * @type {((v: unknown, m?: unknown) => void) & {
   *   ok: (v: unknown, m?: unknown) => void; equal: Comparison; notEqual: Comparison; strictEqual: Comparison; notStrictEqual: Comparison;
   *   deepEqual: Comparison; deepStrictEqual: Comparison; notDeepEqual: Comparison; notDeepStrictEqual: Comparison;
   *   fail: (m?: unknown) => void; throws: (fn: () => unknown, e?: unknown, m?: unknown) => void; strict: unknown }}
   */
  const assert = function (v, m) {
    check(v, m, 'assertion failed');
  };
  assert.ok = assert;
  assert.equal = (a, b, m) => check(a == b || (a !== a && b !== b), m, 'values are not equal');
  assert.notEqual = (a, b, m) => check(!(a == b), m, 'values are equal');
  assert.strictEqual = (a, b, m) => check(a === b || (a !== a && b !== b), m, 'values are not strictly equal');
  assert.notStrictEqual = (a, b, m) => check(a !== b, m, 'values are strictly equal');
  assert.deepEqual = (a, b, m) => check(same(a, b, false, 0), m, 'values are not deep-equal');
  assert.deepStrictEqual = (a, b, m) => check(same(a, b, true, 0), m, 'values are not deep-strict-equal');
  assert.notDeepEqual = (a, b, m) => check(!same(a, b, false, 0), m, 'values are deep-equal');
  assert.notDeepStrictEqual = (a, b, m) => check(!same(a, b, true, 0), m, 'values are deep-strict-equal');
  assert.fail = (m) => check(false, m, 'failed');
  assert.throws = (fn, _e, m) => {
    let threw = false;
    try {
      fn();
    } catch {
      threw = true;
    }
    check(threw, typeof _e === 'string' ? _e : m, 'missing expected exception');
  };
  assert.strict = assert;
  const testConsole = {
    __proto__: consoleObject,
    assert: (/** @type {unknown} */ c) => check(c, undefined, 'console.assert failed'),
  };
  /** @param {unknown} id */
  function testRequire(id) {
    if (id === 'assert' || id === 'node:assert' || id === 'assert/strict' || id === 'node:assert/strict') return assert;
    throw new ErrorCtor('Cannot find module ' + StringCtor(id));
  }
  /** @param {Unchecked} msg */
  function inlineReply(msg) {
    const fn = indirectEval('(function (require, console) {\n' + msg.code + '\n' + (msg.invoke || '') + '\n})');
    apply(fn, undefined, [testRequire, testConsole]);
    return '{"ok":true,"v":null}';
  }

  /** @param {unknown} arg what the STEP script passed (the names probe's thunks) */
  function handle(arg) {
    /** @type {Unchecked} */
    const msg = jsonParse(pending);
    pending = '';
    switch (msg.op) {
      case 'call':
        return callReply(msg);
      case 'names':
        return namesReply(/** @type {{ names: string[] }} */ (msg), /** @type {(() => unknown)[]} */ (arg));
      case 'thrown':
        return describe(thrown);
      case 'inline':
        return inlineReply(msg);
    }
    return failure('Error', 'unknown operation', '');
  }

  /** @param {unknown} arg */
  function step(arg) {
    let reply;
    try {
      reply = handle(arg);
    } catch (e) {
      reply = describe(e);
    }
    thrown = undefined;
    if (overflow) reply = failure('OutputLimit', 'printed more than ' + limits.outputBytes + ' bytes', 'output');
    // The process would be gone: node runs nothing after process.exit, caught or not.
    const exit = exitCalled();
    if (exit !== null) reply = failure('ProcessExit', 'process.exit(' + StringCtor(exit.code) + ') was called', '');
    return reply;
  }

  // Host-side controls, taken by the host before any candidate code runs.
  /** @type {HarnessControl} */
  const control = freeze({
    __proto__: null,
    /** @param {string} limitsJson */
    configure(limitsJson) {
      limits = jsonParse(limitsJson);
    },
    install,
    /** @param {string} text */
    put(text) {
      pending = text;
    },
    /** @param {unknown} value */
    stash(value) {
      thrown = value;
    },
    outputBytes() {
      return outputBytes;
    },
  });
  defineProperty(step, 'control', { __proto__: null, value: control });
  return freeze(step);
}

const HARNESS = new vm.Script(`const __crucible$ = (${harness})(${createWire}, ${nodeSurface});\n__crucible$.control`, {
  filename: 'crucible-harness.js',
});
const SURFACE = surfaceOptions();
const SURFACE_OPTIONS = JSON.stringify(SURFACE);
const SURFACE_NAMES = surfaceNames(SURFACE);
/** Words through which a program can reach a global without naming it. */
const DYNAMIC_GLOBAL_ACCESS = ['globalThis', 'global', 'eval', 'Function', 'require', 'import', 'window', 'self'];

// Words that cannot be read as a variable (the names probe is plain script code).
const RESERVED = new Set(RESERVED_WORDS);
const IDENTIFIER = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/gu;

/** @param {import('../protocol.js').CandidateReply} obj */
function reply(obj) {
  writeAll(1, JSON.stringify(obj) + '\n');
}

const HOST_ERROR_PROTOS = new Set(
  [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError].map((c) => c.prototype),
);

/**
 * What a throw that reached this realm was, without running candidate code: a property
 * read on a candidate object could hit a getter or a Proxy trap, untimed.
 */
/** @param {unknown} e */
function classify(e) {
  if (typeof e !== 'object' || e === null || types.isProxy(e) || !types.isNativeError(e)) return 'candidate';
  if (HOST_ERROR_PROTOS.has(Object.getPrototypeOf(e))) return 'host';
  const code = Object.getOwnPropertyDescriptor(e, 'code');
  return code && code.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? 'timeout' : 'candidate';
}

/**
 * A script that hands the harness one reader per name (a name that is not an expression is dropped).
 * @param {string[]} names
 */
function namesProbe(names) {
  const source = (/** @type {string[]} */ list) => `__crucible$([${list.map((n) => `() => ${n}`).join(',')}])`;
  try {
    return { script: new vm.Script(source(names), { filename: 'crucible-names.js' }), names };
  } catch {
    const ok = names.filter((n) => {
      try {
        new vm.Script(`() => ${n}`);
        return true;
      } catch {
        return false;
      }
    });
    return { script: new vm.Script(source(ok), { filename: 'crucible-names.js' }), names: ok };
  }
}

/** One candidate: a fresh context, served over the FIFOs until `end` or EOF. */
class Execution {
  /**
   * `surface: false` leaves node's surface out: bench:eval measures what it costs per candidate.
   * @param {Partial<Record<'cpuSeconds' | 'outputBytes' | 'replyBytes' | 'memoryBytes', unknown>>} limits
   */
  constructor(limits, surface = true) {
    this.limits = limits;
    this.budgetMs = (Number(limits.cpuSeconds) || 120) * 1000;
    // Dynamic import() in the context must fail with an error of the context's realm;
    // node's own refusal would hand the candidate an error object of this realm.
    const refuseImport = () => {
      throw this.makeError('import() is not available');
    };
    /** @type {{ importModuleDynamically: () => never }} */
    this.importOption = { importModuleDynamically: refuseImport };
    this.context = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
      name: 'candidate',
      microtaskMode: 'afterEvaluate',
      codeGeneration: { strings: true, wasm: false },
      importModuleDynamically: refuseImport,
    });
    /** @type {HarnessControl} */
    this.control = HARNESS.runInContext(this.context, { displayErrors: false });
    /** @type {(message: string) => Error} */
    this.makeError = vm.runInContext('(message) => new TypeError(message)', this.context);
    this.tainted = false;
    this.surface = surface;
    // A reply is one V8 string: it cannot be longer than V8's limit (2^29 - 24 characters).
    const replyBytes = Math.min(Number(limits.replyBytes) || 16 << 20, 2 ** 28);
    this.control.configure(JSON.stringify({ outputBytes: Number(limits.outputBytes) || 1 << 20, replyBytes }));
  }

  /**
   * Node's globals for this program: those its text names, or all of them when it could
   * reach globals by a computed name (globalThis[...], eval) or loads modules (require).
   */
  /** @param {Set<string>} identifiers */
  installSurface(identifiers) {
    const names = !this.surface
      ? []
      : DYNAMIC_GLOBAL_ACCESS.some((w) => identifiers.has(w))
        ? SURFACE_NAMES
        : SURFACE_NAMES.filter((n) => identifiers.has(n));
    this.control.install(this.surface ? createHostBridge(this) : null, SURFACE_OPTIONS, JSON.stringify(names));
  }

  /**
   * Runs candidate code under a timeout: {value} | {timeout} | {thrown: value} | {host: error}.
   * @param {import('vm').Script} script
   * @param {unknown} timeoutMs
   * @returns {{ value: unknown } | { timeout: true } | { thrown: unknown } | { host: Error }}
   */
  timed(script, timeoutMs) {
    const ms = Math.max(1, Math.min(Math.ceil(Number(timeoutMs) || 10000), Math.ceil(this.budgetMs)));
    const t0 = hrtime();
    try {
      return { value: Reflect.apply(runInContext, script, [this.context, { timeout: ms, displayErrors: false }]) };
    } catch (e) {
      const kind = classify(e);
      if (kind === 'timeout') return { timeout: true };
      if (kind === 'host') return { host: /** @type {Error} */ (e) };
      return { thrown: e };
    } finally {
      this.budgetMs -= Number(hrtime() - t0) / 1e6;
    }
  }

  /**
   * The harness's reply to `message`, or a timeout reply.
   * @param {string} message
   * @param {unknown} timeoutMs
   */
  step(message, timeoutMs, script = STEP) {
    this.control.put(message);
    const t0 = hrtime();
    /** @type {{ value?: unknown; timeout?: true; thrown?: unknown; host?: Error }} */
    const r = this.timed(script, timeoutMs);
    const dt = Number(hrtime() - t0) / 1e9;
    this.timedOut = Boolean(r.timeout);
    let text;
    if (r.timeout) text = '{"ok":false,"error":"Timeout","message":"time limit exceeded","limit":"timeout"}';
    else if (r.host)
      text = JSON.stringify({ ok: false, error: 'Error', message: `harness failure: ${r.host.message}` });
    else if (typeof r.value === 'string' && r.value.startsWith('{') && r.value.endsWith('}')) text = r.value;
    else text = '{"ok":false,"error":"Error","message":"harness failure"}';
    return `${text.slice(0, -1)},"dt":${dt}}`;
  }

  /** @param {Unchecked} msg */
  load(msg) {
    const timeoutMs = Number(msg.timeoutMs) || 10000;
    const started = Date.now();
    let script;
    const identifiers = new Set(String(msg.program).match(IDENTIFIER) ?? []);
    this.installSurface(identifiers);
    try {
      script = new vm.Script(String(msg.program), { filename: 'candidate.js', ...this.importOption });
    } catch (/** @type {any} */ e) {
      // Compiled in this realm: a host SyntaxError whose stack starts "candidate.js:LINE".
      const where = /^candidate\.js:(\d+)/.exec(String(e.stack));
      const message = `${e.message}${where ? ` (line ${where[1]})` : ''}`;
      return JSON.stringify({ ok: false, error: e.name, message });
    }
    /** @type {{ value?: unknown; timeout?: true; thrown?: unknown; host?: Error }} */
    const r = this.timed(script, timeoutMs);
    if (r.timeout)
      return '{"ok":false,"error":"Timeout","message":"loading the program took too long","limit":"timeout"}';
    // Once the program holds node's objects, an error of this realm may be its own (fs.readFileSync of a missing file).
    if (r.host && !this.tainted)
      return JSON.stringify({ ok: false, error: 'Error', message: `harness failure: ${r.host.message}` });
    if ('thrown' in r || r.host) {
      this.control.stash(r.host ?? r.thrown);
      return this.step('{"op":"thrown"}', timeoutMs - (Date.now() - started));
    }
    // Every identifier in the source is a possible top-level name; the probe keeps the
    // ones that are bound to functions in the global scope (let/const included).
    const names = [...identifiers].filter((n) => !RESERVED.has(n)).slice(0, 50000);
    const probe = namesProbe(names);
    return this.step(
      JSON.stringify({ op: 'names', names: probe.names }),
      timeoutMs - (Date.now() - started),
      probe.script,
    );
  }

  /**
   * Called before the program gets any of this worker's own objects: from then on it could
   * change this process, so Crucible is told now (it replaces the worker after this run),
   * on a channel the program can no longer take back.
   */
  /** @param {string} why */
  taint(why) {
    if (this.tainted) return;
    this.tainted = true;
    reply({ op: 'tainted', why: String(why).slice(0, 200) });
  }

  /**
   * Serves the judge; returns when the judge ends the execution or goes away.
   * @param {number} toJudge
   * @param {number} fromJudge
   */
  serve(toJudge, fromJudge) {
    const lines = new LineReader(fromJudge);
    const send = (/** @type {string} */ text) => writeAll(toJudge, text + '\n');
    for (;;) {
      const line = lines.next();
      if (line === null) return;
      /** @type {Unchecked} */
      const msg = JSON.parse(line);
      switch (msg.op) {
        case 'end':
          return;
        case 'load':
          send(this.load(msg));
          break;
        case 'call':
        case 'inline':
          send(this.step(line, msg.timeoutMs));
          break;
        case 'batch': {
          const inputs = Array.isArray(msg.inputs) ? msg.inputs : [];
          const timeouts = Array.isArray(msg.timeoutMs) ? msg.timeoutMs : [];
          for (let i = 0; i < inputs.length; i++) {
            const answer = this.step(
              JSON.stringify({ op: 'call', name: msg.name, args: inputs[i] }),
              timeouts[i] ?? msg.timeoutMs,
            );
            send(answer);
            // The judge stops reading a batch at its first timeout; so do we.
            if (this.timedOut) break;
          }
          break;
        }
        default:
          send('{"ok":false,"error":"Error","message":"unknown operation"}');
      }
    }
  }

  get outputBytes() {
    const n = this.control.outputBytes();
    return typeof n === 'number' ? n : 0;
  }
}

/** @param {import('../protocol.js').Requested<'start'>} msg */
function runCandidate(msg) {
  const cpu0 = cpuUsage();
  const execution = new Execution(msg.limits ?? {});
  reply({ op: 'started' });
  let toJudge;
  let fromJudge;
  try {
    toJudge = openSync(`${IPC}/c2j`, 'w');
    fromJudge = openSync(`${IPC}/j2c`, 'r');
    execution.serve(toJudge, fromJudge);
  } catch (/** @type {any} */ e) {
    // The judge went away (EPIPE) or a FIFO failed: this execution is over either way.
    if (!['EPIPE', 'EOF', 'ECONNRESET'].includes(e && e.code))
      process.stderr.write(`candidate worker: ${e && e.stack}\n`);
  } finally {
    for (const fd of [toJudge, fromJudge]) if (fd !== undefined) closeSync(fd);
  }
  const cpu = cpuUsage(cpu0);
  reply({
    op: 'exited',
    code: 0,
    signal: null,
    outputBytes: execution.outputBytes,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    maxRssBytes: resourceUsage().maxRSS * 1024,
  });
  // A tainted worker ends here, before its event loop could run anything the candidate left
  // on it (a callback that writes to the FIFOs of the next run); Crucible waits for the exit.
  if (execution.tainted) exitNow(0);
}

// 'kill' only matters while a candidate runs; one arriving between runs is stale.
if (require.main === module) serveWorker('candidate worker', 'start', runCandidate);
module.exports = { Execution };
