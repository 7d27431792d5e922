// @ts-check
'use strict';
/**
 * Trusted JavaScript judge (runs in its own sandbox, never next to a candidate).
 *
 * Test code runs in THIS realm, against proxies whose calls go to the candidate worker
 * over the FIFOs, so the values it compares were decoded here from plain data: same-realm
 * arrays and objects, on which node:assert behaves as in MultiPL-E's node harness, and
 * nothing the candidate returns can lie about equality. The judge is synchronous: a
 * proxy call writes a request and waits (polling, with a deadline) for the reply.
 */
const fs = require('fs');
const vm = require('vm');
const util = require('util');
const { builtinModules } = require('module');
const { createWire, LineReader, writeAll, sleep, RESERVED_WORDS } = require('./wire.cjs');

const W = createWire();
const IPC = process.env.CRUCIBLE_IPC || '/ipc';
/** How long past a limit we wait for the candidate's own timeout reply before giving up on it. */
const GRACE_MS = 1000;
const MAX_NAMES = 10000;

/** @typedef {import('../protocol.js').JudgeReply} JudgeReply */
/** @typedef {import('../protocol.js').JudgeSuite & { expected?: unknown[] | null | undefined }} Spec a suite, with its expected outputs */
/** @typedef {{ kill?: boolean; inline?: boolean; failedAt?: number; outputs?: string; times?: number[]; elapsed?: number }} Extra what a suite's result may add */
/** @typedef {import('../protocol.js').Unchecked} Unchecked */
/** @typedef {import('../runtime.js').RawSuiteStatus} RawSuiteStatus */
/** @typedef {import('../runtime.js').SuiteOutcome} SuiteOutcome */
/** @typedef {import('../../core/verdict.js').Failure} Failure */

// --- what test code sees ------------------------------------------------------------
class ConsoleAssertError extends Error {
  /** @param {unknown[]} args */
  constructor(args) {
    super(args.length ? `console.assert failed: ${util.format(...args)}` : 'console.assert failed');
    this.name = 'AssertionError';
  }
}
const noop = () => undefined;
// Printing is discarded (stdout carries the protocol); console.assert FAILS the test:
// HumanEvalPack's JavaScript tests are written with it, and in node it only prints.
const testConsole = Object.freeze({
  ...Object.fromEntries(
    [
      'log',
      'info',
      'warn',
      'error',
      'debug',
      'trace',
      'dir',
      'dirxml',
      'table',
      'group',
      'groupCollapsed',
      'groupEnd',
      'time',
      'timeEnd',
      'timeLog',
      'count',
      'countReset',
      'clear',
    ].map((k) => [k, noop]),
  ),
  /**
   * @param {unknown} condition
   * @param {...unknown} args
   */
  assert(condition, ...args) {
    if (!condition) throw new ConsoleAssertError(args);
  },
});
Object.defineProperty(globalThis, 'console', { value: testConsole, writable: true, configurable: true });

/** @param {unknown} id */
function testRequire(id) {
  const bare = String(id).replace(/^node:/, '');
  if (builtinModules.includes(bare)) return require(`node:${bare}`);
  const error = /** @type {NodeJS.ErrnoException} */ (new Error(`Cannot find module '${id}'`));
  error.code = 'MODULE_NOT_FOUND';
  throw error;
}

// Besides reserved words, names the test wrapper binds itself cannot become proxies.
const RESERVED = new Set([...RESERVED_WORDS, ...'eval require console module exports'.split(' ')]);
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/**
 * Candidate names are untrusted text that becomes parameter names: only plain identifiers
 * pass. A name may shadow a global of this realm for the test code (a program's own
 * `escape` wins over the built-in, as when program and tests share one file).
 */
/** @param {unknown} names */
function usableNames(names) {
  /** @type {Set<string>} */
  const out = new Set();
  for (const n of Array.isArray(names) ? names : []) {
    if (typeof n === 'string' && n.length <= 200 && IDENTIFIER.test(n) && !RESERVED.has(n)) out.add(n);
    if (out.size >= MAX_NAMES) break;
  }
  return [...out];
}

// --- showing values in failure reports ---------------------------------------------
/**
 * @param {unknown} value
 * @param {number} [max]
 */
function show(value, max = 500) {
  let budget = max + 50;
  /**
   * @param {any} x
   * @param {number} depth
   * @returns {string}
   */
  function render(x, depth) {
    if (budget <= 0) return '...';
    let s;
    if (typeof x === 'string') s = JSON.stringify(x);
    else if (typeof x === 'number') s = Object.is(x, -0) ? '-0' : String(x);
    else if (typeof x === 'bigint') s = `${x}n`;
    else if (x === undefined || x === null || typeof x === 'boolean') s = String(x);
    else if (typeof x === 'function') s = `[Function ${x.name || 'anonymous'}]`;
    else if (typeof x === 'symbol') s = x.toString();
    else if (x instanceof W.Opaque) s = `[opaque ${x.$opaque}${x.text ? ` ${x.text}` : ''}]`;
    else if (depth > 20) s = '...';
    else if (Array.isArray(x)) s = `[${x.map((v) => render(v, depth + 1)).join(',')}]`;
    else if (x instanceof Map)
      s = `Map{${[...x].map(([k, v]) => `${render(k, depth + 1)} => ${render(v, depth + 1)}`).join(', ')}}`;
    else if (x instanceof Set) s = `Set{${[...x].map((v) => render(v, depth + 1)).join(', ')}}`;
    else if (x instanceof Date) s = `Date(${Number.isNaN(x.getTime()) ? 'Invalid' : x.toISOString()})`;
    else if (Object.getPrototypeOf(x) === Object.prototype || Object.getPrototypeOf(x) === null)
      s = `{${Object.keys(x)
        .map((k) => `${JSON.stringify(k)}:${render(x[k], depth + 1)}`)
        .join(',')}}`;
    else s = util.inspect(x, { depth: 2, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
    budget -= s.length;
    return s;
  }
  let text;
  try {
    text = render(value, 0);
  } catch {
    text = '<unprintable>';
  }
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

// --- equality for io suites (JavaScript semantics) --------------------------------
/** Deep equality: same types and shapes; numbers by ===, except NaN equals NaN; atol for numbers. */
/**
 * @param {any} a
 * @param {any} b
 * @param {number} atol
 * @returns {boolean}
 */
function equal(a, b, atol, depth = 0) {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b || (a !== a && b !== b)) return true;
    return atol > 0 && Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= atol + 1e-7 * Math.abs(b);
  }
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 200) return false;
  if (a instanceof W.Opaque || b instanceof W.Opaque) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => equal(v, b[i], atol, depth + 1));
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !equal(v, b.get(k), atol, depth + 1)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (a.size !== b.size) return false;
    const rest = [...b];
    for (const v of a) {
      const i = b.has(v) ? rest.indexOf(v) : rest.findIndex((/** @type {unknown} */ w) => equal(v, w, atol, depth + 1));
      if (i < 0) return false;
      rest.splice(i, 1);
    }
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k], atol, depth + 1))
  );
}

const isFloat = (/** @type {unknown} */ x) => typeof x === 'number' && !Number.isInteger(x);
/** EvalPlus widens atol to 1e-6 once an expected value is a float (here: a non-integer number). */
const isFloats = (/** @type {unknown} */ x) =>
  isFloat(x) || (Array.isArray(x) && x.length > 0 && x.every((v) => typeof v === 'number') && x.some(isFloat));

/**
 * @param {number[]} xs
 * @param {number} x
 */
function poly(xs, x) {
  return xs.reduce((sum, c, i) => sum + c * Math.pow(x, i), 0);
}

/**
 * [ok, why] for one output; the EvalPlus oracles that make sense for JavaScript values.
 * @param {any} out
 * @param {unknown} exp
 * @param {any} args
 * @param {{ atol: number }} state
 * @param {string | null} oracle
 * @returns {[boolean, string]}
 */
function matches(out, exp, args, state, oracle) {
  try {
    if (oracle === 'always') return [true, ''];
    if (oracle === 'find_zero') {
      const ok = Math.abs(poly(args[0], out)) <= (state.atol || 1e-6);
      return [ok, ok ? '' : 'poly(xs, result) is not close to 0'];
    }
    if (state.atol === 0 && isFloats(exp)) state.atol = 1e-6;
    let ok = equal(out, exp, state.atol);
    if (!ok && oracle === 'or_zero') ok = out === 0;
    if (!ok && oracle === 'set_eq' && Array.isArray(out) && Array.isArray(exp))
      ok = equal(new Set(out), new Set(exp), state.atol);
    if (oracle === 'output_not_none')
      ok = typeof out === 'boolean' ? out === exp : exp === (out !== null && out !== undefined);
    return [ok, ok ? '' : 'output differs from expected'];
  } catch (e) {
    return [false, `comparison failed: ${e}`];
  }
}

// --- the channel to the candidate --------------------------------------------------
class Timeout extends Error {}
class CandidateGone extends Error {}

class Channel {
  /** @param {number} connectSeconds */
  constructor(connectSeconds) {
    const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fs.constants;
    this.rfd = fs.openSync(`${IPC}/c2j`, O_RDONLY | O_NONBLOCK);
    const deadline = Date.now() + connectSeconds * 1000;
    let wfd;
    for (;;) {
      try {
        wfd = fs.openSync(`${IPC}/j2c`, O_WRONLY | O_NONBLOCK);
        break;
      } catch (/** @type {any} */ e) {
        if (e.code !== 'ENXIO') throw e;
        if (Date.now() > deadline) {
          fs.closeSync(this.rfd);
          throw new CandidateGone('candidate process never connected');
        }
        sleep(0.05);
      }
    }
    // The reader is there now, so a blocking open returns at once; writes then block.
    this.wfd = fs.openSync(`${IPC}/j2c`, O_WRONLY);
    fs.closeSync(wfd);
    this.reader = new LineReader(this.rfd);
    this.gone = false;
  }

  /** @param {import('../protocol.js').ToCandidate | string} obj a request, or one written as JSON already */
  send(obj) {
    try {
      writeAll(this.wfd, (typeof obj === 'string' ? obj : JSON.stringify(obj)) + '\n');
    } catch {
      this.gone = true;
      throw new CandidateGone('candidate process is gone');
    }
  }

  /**
   * @param {number} deadline
   * @returns {Unchecked}
   */
  recv(deadline) {
    const line = this.reader.next(deadline);
    if (line === undefined) throw new Timeout('no reply in time');
    if (line === null) {
      this.gone = true;
      throw new CandidateGone('candidate process ended');
    }
    let r;
    try {
      r = JSON.parse(line);
    } catch {}
    if (r === null || typeof r !== 'object') {
      this.gone = true;
      throw new CandidateGone('candidate wrote a malformed reply');
    }
    return r;
  }

  close() {
    for (const fd of [this.rfd, this.wfd]) {
      try {
        fs.closeSync(fd);
      } catch {}
    }
  }
}

// --- one run -------------------------------------------------------------------
const CANDIDATE = Symbol('raised by the candidate');
const NEEDS_INLINE = Symbol('needs inline');
/** @type {Record<string, ErrorConstructor>} */
const ERROR_CLASSES = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
/** @type {Record<string, RawSuiteStatus>} */
const LIMIT_STATUS = { memory: 'memory', output: 'output-limit', timeout: 'timeout' };

/**
 * The status of a reply's `limit` (set by the candidate worker, which measured it), else `otherwise`.
 * @param {unknown} limit
 * @param {RawSuiteStatus} otherwise
 */
function limitStatus(limit, otherwise) {
  const key = /** @type {string} */ (limit); // any value: both lookups make it a property key alike
  return Object.hasOwn(LIMIT_STATUS, key) ? /** @type {RawSuiteStatus} */ (LIMIT_STATUS[key]) : otherwise;
}

/**
 * The candidate's exception, rethrown here with the same class (by name) and message.
 * @param {Unchecked} r
 */
function candidateError(r) {
  const name = typeof r.error === 'string' ? r.error : 'Error';
  const message = typeof r.message === 'string' ? r.message : '';
  const Ctor = Object.hasOwn(ERROR_CLASSES, name) ? /** @type {ErrorConstructor} */ (ERROR_CLASSES[name]) : Error;
  const e = /** @type {Error & { [CANDIDATE]?: true }} */ (new Ctor(message));
  if (e.name !== name) Object.defineProperty(e, 'name', { value: name, writable: true, configurable: true });
  e[CANDIDATE] = true;
  return e;
}

const DECODE_TIMEOUT = Symbol('decoding ran past the deadline');

/** A candidate's output, decoded by its call's deadline: colliding keys make filling a Set quadratic. */
/**
 * @param {unknown} v
 * @param {number} deadline
 */
function decodeOutput(v, deadline) {
  try {
    return W.decodeBy(v, deadline);
  } catch (e) {
    if (e instanceof W.WireError && e.kind === 'timeout') return DECODE_TIMEOUT;
    throw e;
  }
}

class Run {
  /** @param {Channel} channel */
  constructor(channel) {
    this.ch = channel;
    /** @type {{ name: string; args: unknown[]; value: unknown; returned: boolean } | null} the call under way, or the last one */
    this.last = null;
    this.deadline = Infinity;
    /** @type {{ status: RawSuiteStatus; message: string; kill: boolean; error: Error } | null} */
    this.abort = null; // sticky: once a limit is hit, every later call fails the same way
    this.needsInline = false;
  }

  /** @param {number} limitSeconds */
  startSuite(limitSeconds) {
    this.last = null;
    this.abort = null;
    this.needsInline = false;
    this.deadline = Date.now() + limitSeconds * 1000;
  }

  /**
   * @param {RawSuiteStatus} status
   * @param {string} message
   * @returns {never}
   */
  stop(status, message, kill = false) {
    this.abort = { status, message, kill, error: new Error(message) };
    throw this.abort.error;
  }

  /**
   * @param {string} name
   * @param {unknown[]} args
   */
  call(name, args) {
    if (this.abort) throw this.abort.error;
    if (this.needsInline) throw NEEDS_INLINE;
    let encoded;
    try {
      encoded = args.map((a) => W.encode(a, true));
    } catch (e) {
      // Only the test's own values (callbacks) are run inline; a candidate's value that could
      // not cross fails the test here, as calling with it would (Python: wire.OpaqueValue).
      if (e instanceof W.WireError && e.kind === 'opaque') throw new TypeError(e.message);
      this.needsInline = true;
      throw NEEDS_INLINE;
    }
    this.last = { name, args, value: undefined, returned: false };
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) this.stop('timeout', 'time limit exceeded');
    try {
      this.ch.send(
        `{"op":"call","name":${JSON.stringify(name)},"args":[${encoded.join(',')}],"kwargs":{},"timeoutMs":${remaining}}`,
      );
      const r = this.ch.recv(this.deadline + GRACE_MS);
      if (!r.ok) {
        const limit = limitStatus(r.limit, 'fail');
        if (limit !== 'fail') this.stop(limit, `${r.error}: ${r.message}`);
        throw candidateError(r);
      }
      const value = decodeOutput(r.v, this.deadline + GRACE_MS);
      if (value === DECODE_TIMEOUT) this.stop('timeout', 'time limit exceeded (decoding the output)', true);
      this.last.value = value;
      this.last.returned = true;
      return value;
    } catch (e) {
      if (e instanceof Timeout) this.stop('timeout', 'the candidate did not answer within the time limit', true);
      if (e instanceof CandidateGone) this.stop('crashed', e.message);
      throw e;
    }
  }

  /** @param {string} name */
  proxy(name) {
    const run = this;
    return {
      /** @param {...unknown} args */
      [name](...args) {
        return run.call(name, args);
      },
    }[name];
  }
}

/**
 * @param {{ name: string }} spec
 * @param {RawSuiteStatus} status
 * @param {number} passed
 * @param {number} total
 * @param {Failure | null} [firstFailure]
 * @param {Extra} [extra]
 * @returns {SuiteOutcome & { kill?: boolean }}
 */
function suiteResult(spec, status, passed, total, firstFailure = null, extra = {}) {
  return { name: spec.name, status, passed, total, firstFailure, ...extra };
}

/**
 * @param {unknown} message
 * @param {string | null} [input]
 * @param {string | null} [expected]
 * @param {string | null} [actual]
 * @returns {{ -readonly [K in keyof Failure]: Failure[K] }}
 */
function failure(message, input = null, expected = null, actual = null) {
  return { input, expected, actual, message: String(message).slice(0, 2000) };
}

/**
 * "line N: source" of the innermost test-code frame in an error's stack.
 * @param {any} error
 * @param {string} source
 */
function testLine(error, source) {
  const stack = error && typeof error.stack === 'string' ? error.stack : '';
  const m = /test\.js:(\d+):\d+/.exec(stack);
  if (!m) return '';
  const lines = source.split('\n');
  const at = Number(m[1]) - 1;
  if (lines[at] === undefined) return '';
  // A call written over several lines (console.assert(\n  f(x) === y\n)): up to where its
  // parentheses close, at most 8 lines.
  let text = lines[at].trim();
  let depth = 0;
  for (let i = at; i < lines.length && i < at + 8; i++) {
    const line = /** @type {string} */ (lines[i]);
    if (i > at) text += ` ${line.trim()}`;
    for (const c of line) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth <= 0) break;
  }
  return `line ${m[1]}: ${text.slice(0, 300)}`;
}

/**
 * @param {any} e what the test code threw
 * @param {Run} run
 * @param {string} source
 */
function failureOfException(e, run, source) {
  const f = failure('');
  if (run.last) {
    f.input = show(run.last.args);
    if (run.last.returned) f.actual = show(run.last.value);
  }
  const where = testLine(e, source);
  if (e instanceof ConsoleAssertError) {
    f.message = where ? `console.assert failed at ${where}` : e.message;
  } else if (e instanceof Error) {
    const error = /** @type {Error & { [CANDIDATE]?: true; code?: unknown; actual?: unknown; expected?: unknown }} */ (
      e
    );
    f.message = `${error.name}: ${error.message}${error[CANDIDATE] ? ' (raised by the candidate)' : ''}${where ? `\n    at ${where}` : ''}`;
    if (error.code === 'ERR_ASSERTION') {
      if ('actual' in error) f.actual = show(error.actual);
      if ('expected' in error) f.expected = show(error.expected);
    }
  } else {
    f.message = `Uncaught ${show(e)}${where ? ` at ${where}` : ''}`;
  }
  f.message = f.message.slice(0, 2000);
  return f;
}

/**
 * Datasets run program and test code as one file (MultiPL-E, HumanEvalPack), so an early
 * error of that file fails the program there before anything runs: a program that declares
 * `const assert` when the test does too. Compiling is all this does; nothing runs here.
 */
/**
 * @param {string} program
 * @param {string} source
 */
function sharedFileError(program, source) {
  try {
    new vm.Script(`${program}\n${source}`, { filename: 'program-and-test.js' });
    return null;
  } catch (e) {
    return e instanceof SyntaxError ? e : null;
  }
}

/**
 * The test code as a function of the program's names. Test code runs as a function body, so
 * its own declarations may shadow candidate names; the prompt's helpers (encodeCyclic in
 * HumanEvalPack JS/38) sit in a scope between the two, so the test's calls reach the prompt's
 * definitions, never a candidate's. Helpers that do not compile are left out.
 */
/**
 * @param {string[]} params
 * @param {string} source
 * @param {string | null} helpers
 * @returns {(...args: unknown[]) => () => void}
 */
function testFactory(params, source, helpers) {
  const head = `(function (${params.join(', ')}) {\nreturn function () {\n`;
  if (helpers) {
    const lines = helpers.split('\n').length;
    try {
      return vm.runInThisContext(`${head}${helpers}\nreturn (function () {\n${source}})();\n};\n})`, {
        filename: 'test.js',
        lineOffset: -(3 + lines),
      });
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
    }
  }
  return vm.runInThisContext(`${head}${source}};\n})`, { filename: 'test.js', lineOffset: -2 });
}

/**
 * @param {Spec & { kind: 'script' }} spec
 * @param {Run} run
 * @param {string[]} names
 * @param {boolean} record
 * @param {string} program
 */
function runScript(spec, run, names, record, program) {
  const limit = Number(spec.limit ?? 10);
  const start = Date.now();
  run.startSuite(limit);
  const source = `${spec.code}\n${spec.invoke ?? ''}\n`;
  const early = sharedFileError(program, source);
  if (early) {
    return suiteResult(
      spec,
      'fail',
      0,
      1,
      failure(
        `SyntaxError: ${early.message} (the program and the test code run as one file, as the dataset runs them)`,
      ),
    );
  }
  const params = ['require', 'console', 'module', 'exports', ...names];
  let factory;
  try {
    factory = testFactory(params, source, typeof spec.helpers?.code === 'string' ? spec.helpers.code : null);
  } catch (e) {
    return suiteResult(spec, 'error', 0, 1, failure(`the test code does not compile: ${e}`));
  }
  /** @type {{ exports: object }} */
  const module = { exports: {} };
  let thrown = null;
  let threw = false;
  try {
    factory(testRequire, testConsole, module, module.exports, ...names.map((n) => run.proxy(n)))();
  } catch (e) {
    thrown = e;
    threw = true;
  }
  if (run.needsInline) return runInline(spec, run);
  if (run.abort) {
    const { status, message, kill } = run.abort;
    const f = failure(
      status === 'timeout' ? `time limit of ${limit.toFixed(2)}s exceeded` : message,
      run.last ? show(run.last.args) : null,
    );
    return suiteResult(spec, status, 0, 1, f, kill ? { kill } : {});
  }
  if (threw) return suiteResult(spec, 'fail', 0, 1, failureOfException(thrown, run, source));
  return suiteResult(spec, 'pass', 1, 1, null, record ? { elapsed: (Date.now() - start) / 1000 } : {});
}

/**
 * Arguments that cannot cross (callbacks): the test code runs beside the candidate.
 * @param {Spec & { kind: 'script' }} spec
 * @param {Run} run
 */
function runInline(spec, run) {
  const timeoutMs = Math.max(1, run.deadline - Date.now());
  let r;
  try {
    run.ch.send({ op: 'inline', code: spec.code, invoke: spec.invoke ?? null, timeoutMs });
    r = run.ch.recv(run.deadline + GRACE_MS);
  } catch (/** @type {any} */ e) {
    if (e instanceof Timeout) return suiteResult(spec, 'timeout', 0, 1, null, { kill: true, inline: true });
    return suiteResult(spec, 'crashed', 0, 1, failure(e.message), { inline: true });
  }
  if (r.ok) return suiteResult(spec, 'pass', 1, 1, null, { inline: true });
  const status = limitStatus(r.limit, 'fail');
  return suiteResult(spec, status, 0, 1, failure(`${r.error}: ${r.message}`), { inline: true });
}

/**
 * @param {Spec & { kind: 'io' }} spec
 * @param {Run} run
 * @param {boolean} record
 */
function runIo(spec, run, record) {
  /** @type {unknown} */
  let inputs;
  /** @type {unknown[] | null} */
  let expected = null;
  /** @type {unknown[]} */
  let decodedInputs;
  try {
    if (spec.inputAdapter) throw new Error(`input adapter ${spec.inputAdapter} is not supported for JavaScript`);
    inputs = JSON.parse(spec.inputs);
    if (!Array.isArray(inputs) || !inputs.every(Array.isArray))
      throw new Error('inputs must be a list of argument lists');
    decodedInputs = inputs.map((i) => W.decodeParsed(i));
    if (!record) {
      expected = /** @type {unknown[]} */ (spec.expected).map((v) => W.decodeParsed(v));
      if (expected.length !== inputs.length) throw new Error('expected outputs do not match the inputs');
    }
  } catch (/** @type {any} */ e) {
    return suiteResult(spec, 'error', 0, Array.isArray(inputs) ? inputs.length : 0, failure(String(e.message ?? e)));
  }
  const total = inputs.length;
  if (total === 0) return suiteResult(spec, 'pass', 0, 0, null, record ? { outputs: '[]', times: [] } : {});
  const limits = Array.isArray(spec.limits) ? spec.limits.map(Number) : new Array(total).fill(Number(spec.limit ?? 10));
  run.ch.send({ op: 'batch', name: spec.entry, inputs, timeoutMs: limits.map((s) => s * 1000) });
  const state = { atol: Number(spec.atol) || 0 };
  /** @type {string[]} */
  const outputs = [];
  /** @type {number[]} */
  const times = [];
  let passed = 0;
  /** @type {RawSuiteStatus} */
  let status = 'pass';
  /** @type {Failure | null} */
  let first = null;
  /** @type {number | null} */
  let firstAt = null;
  let kill = false;
  for (let i = 0; i < total; i++) {
    const shownInput = () => show(decodedInputs[i]);
    if (first === null) firstAt = i; // settles on the input where the first failure happens
    const shownExpected = () => (record ? null : show(/** @type {unknown[]} */ (expected)[i]));
    let r;
    const deadline = Date.now() + limits[i] * 1000;
    try {
      r = run.ch.recv(deadline + GRACE_MS);
    } catch (/** @type {any} */ e) {
      if (e instanceof Timeout) {
        status = 'timeout';
        kill = true;
        first ??= failure(`time limit of ${limits[i].toFixed(2)}s exceeded`, shownInput(), shownExpected());
      } else {
        status = 'crashed';
        first ??= failure(e.message, shownInput());
      }
      break;
    }
    if (!r.ok) {
      if (r.limit === 'timeout') {
        status = 'timeout';
        first ??= failure(`time limit of ${limits[i].toFixed(2)}s exceeded`, shownInput(), shownExpected());
        break;
      }
      if (first === null) {
        status = limitStatus(r.limit, 'fail');
        first = failure(`${r.error}: ${r.message}`, shownInput(), shownExpected());
      }
      if (record) {
        // An exception is behaviour too (it tells candidates apart): marked, never a wire value.
        outputs.push(JSON.stringify({ $raised: String(r.error) }));
        times.push(Number(r.dt) || 0);
      }
      continue;
    }
    if (record) {
      let v = r.v;
      if (spec.oracle === 'output_not_none') {
        const value = W.decodeParsed(v);
        v = value !== null && value !== undefined;
      }
      outputs.push(JSON.stringify(v));
      times.push(Number(r.dt) || 0);
      passed++;
      continue;
    }
    const out = decodeOutput(r.v, deadline + GRACE_MS);
    if (out === DECODE_TIMEOUT) {
      status = 'timeout';
      kill = true;
      first ??= failure(
        `time limit of ${limits[i].toFixed(2)}s exceeded (decoding the output)`,
        shownInput(),
        shownExpected(),
      );
      break;
    }
    const [ok, why] = matches(
      out,
      /** @type {unknown[]} */ (expected)[i],
      decodedInputs[i],
      state,
      spec.oracle ?? null,
    );
    if (ok) passed++;
    else if (first === null) {
      status = 'fail';
      first = failure(why, shownInput(), shownExpected(), show(out));
    }
  }
  /** @type {Extra} */
  const extra = kill ? { kill } : {};
  if (first !== null) extra.failedAt = /** @type {number} */ (firstAt);
  if (record) Object.assign(extra, { outputs: `[${outputs.join(',')}]`, times });
  return suiteResult(spec, status, passed, total, first, extra);
}

/**
 * @param {import('../protocol.js').JudgeRun & { expected: (unknown[] | null)[] }} msg
 * @returns {import('../protocol.js').JudgeResult}
 */
function handleRun(msg) {
  const record = Boolean(msg.record);
  let ch;
  try {
    ch = new Channel(Number(msg.connectSeconds ?? 10));
  } catch (/** @type {any} */ e) {
    if (!(e instanceof CandidateGone)) throw e;
    return { op: 'result', load: { ok: false, status: 'crashed', message: e.message }, suites: [] };
  }
  const run = new Run(ch);
  /** @type {import('../protocol.js').JudgeResult} */
  const result = { op: 'result', load: { ok: true }, suites: [] };
  try {
    const loadMs = Number(msg.loadSeconds ?? 10) * 1000;
    let r;
    try {
      ch.send({ op: 'load', program: msg.program, timeoutMs: loadMs });
      r = ch.recv(Date.now() + loadMs + GRACE_MS);
    } catch (e) {
      if (e instanceof Timeout) {
        result.load = { ok: false, status: 'timeout', message: 'loading the program took too long' };
        result.kill = true;
        return result;
      }
      if (e instanceof CandidateGone) {
        result.load = { ok: false, status: 'crashed', message: e.message };
        return result;
      }
      throw e;
    }
    if (!r.ok) {
      const status = limitStatus(r.limit, 'error');
      result.load = { ok: false, status, message: `${r.error}: ${r.message}`.slice(0, 2000) };
      return result;
    }
    const names = usableNames(r.names);
    let stopped = false;
    for (const [j, spec] of /** @type {Spec[]} */ (msg.suites).entries()) {
      spec.expected = msg.expected[j];
      if (stopped || ch.gone || result.kill) {
        result.suites.push(suiteResult(spec, 'skipped', 0, 0));
        continue;
      }
      /** @type {SuiteOutcome & { kill?: boolean }} */
      const res =
        spec.kind === 'io' ? runIo(spec, run, record) : runScript(spec, run, names, record, String(msg.program));
      if (res.kill) result.kill = true;
      delete res.kill;
      // After a timeout the candidate's state is suspect; later suites are skipped, as in Python.
      if (res.status === 'timeout') stopped = true;
      result.suites.push(res);
    }
    try {
      ch.send({ op: 'end' });
    } catch {}
    return result;
  } finally {
    ch.close();
  }
}

function main() {
  const stdin = new LineReader(0);
  for (;;) {
    const line = stdin.next();
    if (line === null || line === undefined) return;
    /** @type {JudgeReply} */
    let out;
    try {
      const msg = JSON.parse(line);
      out = msg.op === 'ping' ? { op: 'pong' } : handleRun(msg);
    } catch (/** @type {any} */ e) {
      out = { op: 'result', internalError: `${e && e.name}: ${e && e.message}` };
    }
    writeAll(1, JSON.stringify(out) + '\n');
  }
}

main();
