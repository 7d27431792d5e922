// @ts-check
'use strict';
/**
 * The worker's side of a candidate's node surface (node-surface.cjs runs in the
 * candidate's context and calls these). Every function here returns primitives, or a
 * function compiled in the candidate's own context, except `builtin` and `global`, which
 * hand over node's own objects and so taint the worker first (see Execution.taint).
 * Nothing here throws into the candidate: failures come back as null or '' and the
 * candidate's realm raises its own error.
 *
 * Packages come from the allow-listed folders given as `--packages=DIR:DIR` (each one a
 * node_modules folder, made visible read-only by javascript-runtime.ts); a file outside
 * them is never read.
 */
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

/** @typedef {import('./worker-types.js').HostBridge} HostBridge */

const FILENAME = '/tmp/candidate.js';
const CWD = '/tmp';
/**
 * Built-in modules a candidate cannot have, and why (the worker runs one candidate on one thread).
 * @type {Record<string, string>}
 */
const REFUSED = {
  worker_threads: 'threads would outlive the time limit and the candidate',
  cluster: 'process creation is refused',
  inspector: 'a debugger session could stop the worker',
  'inspector/promises': 'a debugger session could stop the worker',
  trace_events: 'tracing writes outside the candidate',
  wasi: 'WebAssembly is not available',
  repl: 'there is no terminal',
  // Its createRequire would load any built-in, the refused ones included.
  module: 'it would load modules past these rules',
};
/** Built-in modules that are built in the candidate's realm instead (node-surface.cjs). */
const LOCAL = new Set(['process', 'console', 'timers', 'timers/promises']);
/** Globals the surface builds itself, and the harness's own: never lent from this realm. */
const OWN_GLOBALS = new Set(
  (
    'global process require module exports console __filename __dirname setTimeout setInterval setImmediate clearTimeout ' +
    'clearInterval clearImmediate queueMicrotask structuredClone TextEncoder TextDecoder atob btoa performance fetch ' +
    'WebAssembly FinalizationRegistry'
  ).split(' '),
);

const packageRoots = process.argv
  .filter((a) => a.startsWith('--packages='))
  .flatMap((a) => a.slice('--packages='.length).split(':'))
  .filter(Boolean)
  .map((dir) => {
    try {
      return fs.realpathSync(dir);
    } catch {
      return null;
    }
  })
  .filter((dir) => dir !== null);

/** The options node-surface.cjs reads (one JSON text for every candidate of this worker). */
function surfaceOptions() {
  const fresh = new Set(
    vm.runInContext('Object.getOwnPropertyNames(globalThis)', vm.createContext(vm.constants.DONT_CONTEXTIFY)),
  );
  const hostGlobals = Object.getOwnPropertyNames(globalThis).filter((n) => !fresh.has(n) && !OWN_GLOBALS.has(n));
  return {
    version: process.version,
    versions: { ...process.versions },
    arch: process.arch,
    platform: process.platform,
    execPath: process.execPath,
    pid: process.pid,
    uid: typeof process.getuid === 'function' ? process.getuid() : 0,
    filename: FILENAME,
    cwd: CWD,
    timeOrigin: performance.timeOrigin,
    started: process.hrtime.bigint().toString(),
    hostGlobals,
  };
}

/** @param {string} file */
function inside(file) {
  let real;
  try {
    real = fs.realpathSync(file);
  } catch {
    return null;
  }
  return packageRoots.some((root) => real.startsWith(root + path.sep)) ? real : null;
}

/**
 * node's own resolution, from a package file or (for the program) from each root in turn.
 * @param {string} id
 * @param {string} from
 */
function resolveFile(id, from) {
  const starts = from === FILENAME ? packageRoots.map((root) => path.join(path.dirname(root), '[program]')) : [from];
  for (const start of starts) {
    let found;
    try {
      found = Module.createRequire(start).resolve(id);
    } catch {
      continue;
    }
    // A native addon would run outside every limit of the candidate's context.
    if (path.isAbsolute(found) && !found.endsWith('.node')) {
      const real = inside(found);
      if (real) return real;
    }
  }
  return '';
}

/**
 * Package files compiled once per worker; each candidate runs the wrapper in its own context.
 * @type {Map<string, import('vm').Script>}
 */
const compiled = new Map();
/** @type {{ makeError: (message: string) => Error } | null} the execution whose packages are compiled */
let current = null;
const refuseImport = () => {
  throw /** @type {NonNullable<typeof current>} */ (current).makeError('import() is not available');
};

/**
 * @param {string} filename
 * @param {import('vm').Context} context
 */
function compile(filename, context) {
  let script = compiled.get(filename);
  if (!script) {
    const real = inside(filename);
    if (!real) return `${filename} is outside the allowed package folders`;
    let source = fs.readFileSync(real, 'utf8');
    if (source.startsWith('#!')) source = `//${source.slice(2)}`;
    try {
      script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
        filename: real,
        importModuleDynamically: refuseImport,
      });
    } catch (/** @type {any} */ e) {
      return `${e.message} (${real})`;
    }
    if (compiled.size > 500) compiled.clear();
    compiled.set(filename, script);
  }
  return script.runInContext(context, { displayErrors: false });
}

/**
 * Every global the surface defines (its own and node's lent ones), from surfaceOptions().
 * @param {ReturnType<typeof surfaceOptions>} options
 */
function surfaceNames(options) {
  const own = [...OWN_GLOBALS].filter(
    (n) => !['module', 'exports', 'console', 'WebAssembly', 'FinalizationRegistry'].includes(n),
  );
  return [...own, ...options.hostGlobals];
}

const encoder = new TextEncoder();
/** @type {Map<string, TextDecoder>} */
const decoders = new Map();

/**
 * The functions one execution's node surface calls.
 * @param {{ context: import('vm').Context; makeError: (message: string) => Error; taint: (why: string) => void }} execution
 * @returns {HostBridge}
 */
function createHostBridge(execution) {
  current = execution;
  /**
   * @template {unknown[]} A
   * @template R, F
   * @param {(...args: A) => R} fn
   * @param {F} fallback
   * @returns {(...args: A) => R | F}
   */
  const quietly =
    (fn, fallback) =>
    (...args) => {
      try {
        return fn(...args);
      } catch {
        return fallback;
      }
    };
  return Object.freeze({
    __proto__: null,
    hrtime: () => process.hrtime.bigint(),
    now: () => performance.now(),
    memoryUsage: () => JSON.stringify(process.memoryUsage()),
    encodeInto: quietly((/** @type {unknown} */ s, /** @type {Uint8Array} */ bytes) => {
      const r = encoder.encodeInto(String(s), bytes);
      return /** @type {[number, number]} */ ([r.read, r.written]);
    }, /** @type {[number, number]} */ ([0, 0])),
    encodingOf: quietly((/** @type {unknown} */ label) => new TextDecoder(String(label)).encoding, ''),
    decode: quietly(
      (
        /** @type {string} */ encoding,
        /** @type {any} */ input,
        /** @type {unknown} */ fatal,
        /** @type {unknown} */ ignoreBOM,
      ) => {
        const key = `${encoding}/${fatal}/${ignoreBOM}`;
        let decoder = decoders.get(key);
        if (!decoder)
          decoders.set(
            key,
            (decoder = new TextDecoder(encoding, { fatal: Boolean(fatal), ignoreBOM: Boolean(ignoreBOM) })),
          );
        return decoder.decode(input);
      },
      null,
    ),
    atob: quietly((/** @type {unknown} */ s) => atob(String(s)), null),
    btoa: quietly((/** @type {unknown} */ s) => btoa(String(s)), null),
    /** @param {unknown} id */
    kindOf(id) {
      const text = String(id);
      const bare = text.startsWith('node:') ? text.slice(5) : text;
      if (!Module.isBuiltin(text)) return 'file';
      if (LOCAL.has(bare)) return 'local';
      if (Object.hasOwn(REFUSED, bare)) return 'refused';
      return 'builtin';
    },
    refusal: (/** @type {string} */ bare) =>
      Object.hasOwn(REFUSED, bare) ? /** @type {string} */ (REFUSED[bare]) : '',
    resolve: quietly(
      (/** @type {unknown} */ id, /** @type {unknown} */ from) =>
        packageRoots.length === 0 ? '' : resolveFile(String(id), String(from)),
      '',
    ),
    compile: quietly(
      (/** @type {unknown} */ filename) => compile(String(filename), execution.context),
      'the package file could not be read',
    ),
    readText: quietly((/** @type {unknown} */ filename) => {
      const real = inside(String(filename));
      return real ? fs.readFileSync(real, 'utf8') : '';
    }, ''),
    /** @param {string} bare */
    builtin(bare) {
      execution.taint(`require('${bare}')`);
      return require(`node:${bare}`);
    },
    /** @param {string} name */
    global(name) {
      execution.taint(name);
      return /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis))[name];
    },
  });
}

module.exports = { createHostBridge, surfaceNames, surfaceOptions, FILENAME };
