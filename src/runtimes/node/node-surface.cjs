// @ts-check
'use strict';
/**
 * What node gives every program beyond the language: `require`, `process`, timers,
 * `Buffer`, TextEncoder... installed in a candidate's fresh V8 context (see
 * candidate-worker.cjs). Like createWire, `nodeSurface` is evaluated as source text INSIDE
 * the candidate's context: it must not refer to anything outside its body, and it captures
 * every intrinsic it uses when it runs, before the program can patch them.
 *
 * Two kinds of things live here:
 * - Built in this realm, for every candidate (cheap, and nothing of the worker's realm in
 *   them): process, console-counted stdout/stderr, timers, queueMicrotask, structuredClone,
 *   TextEncoder/TextDecoder, atob/btoa, performance, fetch (which fails, as the network
 *   does), global, require, __filename, __dirname. Timers never fire: for a program judged
 *   by calls, node would run them only after the test script, and they end with the
 *   candidate here, so nothing a candidate schedules outlives it or delays a result.
 * - The worker's own node objects (built-in modules such as crypto or util, Buffer, URL,
 *   webcrypto...), handed over on first use through `host`, exactly as node has them. Such
 *   an object belongs to the worker's realm, so a candidate holding one could change the
 *   worker for the candidates after it: `host.builtin` and `host.global` therefore first make
 *   the worker report itself tainted to Crucible (on its protocol channel, before the object
 *   is returned), and a tainted worker is replaced after this candidate.
 * Packages from the allow-listed folders are evaluated in this realm (`host.compile`
 * returns the module wrapper compiled in this context), so their values are the
 * candidate's own.
 *
 * `host` (the worker's functions, createHostBridge in host-bridge.cjs) only ever returns
 * primitives, functions compiled in this context, or — after tainting — node's objects.
 * `print(text, stream)` counts output against the cap (the harness's console does too).
 * `mayDefine(name)` says whether a global is still free (the program may have defined its
 * own `fetch` before this runs). Returns the names defined, the getters of the lazy globals
 * (which must not be mistaken for the program's functions) and whether the program called
 * process.exit.
 *
 * What it builds are look-alikes of node's objects, filled in as they are made, over the
 * program's values: those are typed loosely (`any`); `host` and the options are not.
 * @param {import('./worker-types.js').HostBridge} host
 * @param {(text: string, fd: number) => void} print
 * @param {string} optionsJson
 * @param {(name: string) => boolean} mayDefine
 * @returns {import('./worker-types.js').Surface}
 */
function nodeSurface(host, print, optionsJson, mayDefine) {
  'use strict';
  const G = globalThis;
  const R = Reflect;
  const apply = R.apply;
  const defineProperty = R.defineProperty;
  const getPrototypeOf = R.getPrototypeOf;
  const ownKeys = R.ownKeys;
  /** @type {(o: any, key: PropertyKey) => any} the intrinsic getters below are read from their descriptors */
  const gopd = Object.getOwnPropertyDescriptor;
  const create = Object.create;
  const freeze = Object.freeze;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const ObjectCtor = Object;
  const ArrayCtor = Array;
  const jsonParse = JSON.parse;
  const StringCtor = String;
  const NumberCtor = Number;
  const BigIntCtor = BigInt;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const MapCtor = Map;
  const SetCtor = Set;
  const DateCtor = Date;
  const RegExpCtor = RegExp;
  const ArrayBufferCtor = ArrayBuffer;
  const DataViewCtor = DataView;
  const Uint8ArrayCtor = Uint8Array;
  const isView = ArrayBuffer.isView;
  const arrayBufferSlice = ArrayBuffer.prototype.slice;
  const typedArraySubarray = Uint8Array.prototype.subarray;
  const TYPED_ARRAY_PROTO = getPrototypeOf(Uint8Array.prototype);
  const typedArrayLength = gopd(TYPED_ARRAY_PROTO, 'length').get;
  const mapForEach = Map.prototype.forEach;
  const mapSet = Map.prototype.set;
  const setForEach = Set.prototype.forEach;
  const setAdd = Set.prototype.add;
  const dateGetTime = Date.prototype.getTime;
  const stringSlice = String.prototype.slice;
  const stringIndexOf = String.prototype.indexOf;
  const stringLastIndexOf = String.prototype.lastIndexOf;
  const regExpSource = gopd(RegExp.prototype, 'source').get;
  const regExpFlags = gopd(RegExp.prototype, 'flags').get;
  const viewBuffer = gopd(TYPED_ARRAY_PROTO, 'buffer').get;
  const viewOffset = gopd(TYPED_ARRAY_PROTO, 'byteOffset').get;
  const dataViewBuffer = gopd(DataView.prototype, 'buffer').get;
  const dataViewOffset = gopd(DataView.prototype, 'byteOffset').get;
  const dataViewLength = gopd(DataView.prototype, 'byteLength').get;
  const promiseResolve = Promise.resolve.bind(Promise);
  /** @type {{ [name: string]: ErrorConstructor | undefined }} */
  const ERROR_CTORS = /** @type {any} */ ({
    __proto__: null,
    Error,
    EvalError,
    RangeError,
    ReferenceError,
    SyntaxError,
    TypeError,
    URIError,
  });
  const toPrimitive = Symbol.toPrimitive;
  const toStringTag = Symbol.toStringTag;
  const objectToString = Object.prototype.toString;
  /** @type {ReturnType<typeof import('./host-bridge.cjs').surfaceOptions>} */
  const options = jsonParse(optionsJson);
  const started = BigIntCtor(options.started);
  /** @type {import('./worker-types.js').Surface['lazy']} */
  const lazy = create(null);

  /**
   * @param {any} target
   * @param {PropertyKey} name
   * @param {unknown} v
   */
  function value(target, name, v, enumerable = false) {
    defineProperty(target, name, { __proto__: null, value: v, writable: true, configurable: true, enumerable });
  }
  /**
   * @template T
   * @param {T} target
   * @param {any} table
   * @returns {T}
   */
  function methods(target, table) {
    const ks = ownKeys(table);
    for (let i = 0; i < ks.length; i++)
      value(target, /** @type {PropertyKey} */ (ks[i]), table[/** @type {PropertyKey} */ (ks[i])]);
    return target;
  }
  /**
   * @param {ErrorConstructor} Ctor
   * @param {string} code
   * @param {string} message
   */
  function nodeError(Ctor, code, message) {
    const e = new Ctor(message);
    value(e, 'code', code, true);
    return e;
  }
  /** @param {any} x */
  function describeType(x) {
    if (x === null) return 'null';
    if (typeof x === 'function') return 'function ' + (x.name || '');
    if (typeof x === 'object') return 'an instance of ' + (apply(objectToString, x, []) || 'Object');
    return 'type ' + typeof x + ' (' + apply(stringSlice, StringCtor(x), [0, 25]) + ')';
  }
  /**
   * @param {unknown} fn
   * @param {string} name
   */
  function callbackArgument(fn, name) {
    if (typeof fn !== 'function') {
      throw nodeError(
        TypeErrorCtor,
        'ERR_INVALID_ARG_TYPE',
        'The "' + name + '" argument must be of type function. Received ' + describeType(fn),
      );
    }
  }
  /**
   * @param {Function} fn
   * @param {unknown[]} args
   */
  function later(fn, args) {
    apply(promiseThen, promiseResolve(), [() => apply(fn, undefined, args)]);
  }

  // --- timers: handles as node returns them, callbacks that never run --------------
  let lastTimer = 0;
  /**
   * @constructor
   * @param {number | null} repeat
   */
  function Timeout(repeat) {
    value(this, '_idleTimeout', 1);
    value(this, '_repeat', repeat);
    value(this, 'id', ++lastTimer);
  }
  // ref/unref keep nothing alive here: the handles only answer as node's do.
  const handleMethods = {
    ref() {
      return this;
    },
    unref() {
      return this;
    },
    hasRef() {
      return true;
    },
  };
  methods(Timeout.prototype, handleMethods);
  methods(Timeout.prototype, {
    refresh() {
      return this;
    },
    close() {
      return this;
    },
    /** @this {{ id: number }} */
    [toPrimitive]() {
      return this.id;
    },
  });
  /** @constructor */
  function Immediate() {
    value(this, 'id', ++lastTimer);
  }
  methods(Immediate.prototype, handleMethods);
  const timers = {
    /** @param {unknown} callback */
    setTimeout(callback) {
      callbackArgument(callback, 'callback');
      return new Timeout(null);
    },
    /** @param {unknown} callback */
    setInterval(callback) {
      callbackArgument(callback, 'callback');
      return new Timeout(1);
    },
    /** @param {unknown} callback */
    setImmediate(callback) {
      callbackArgument(callback, 'callback');
      return new Immediate();
    },
    clearTimeout() {},
    clearInterval() {},
    clearImmediate() {},
  };
  const never = () => new PromiseCtor(() => {});
  const timersPromises = freeze({
    __proto__: null,
    setTimeout: never,
    setImmediate: never,
    setInterval() {
      return {
        next: never,
        return: () => promiseResolve({ value: undefined, done: true }),
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
    scheduler: { wait: never, yield: never },
  });

  // --- process -------------------------------------------------------------------
  const listeners = create(null);
  /** @type {{ code: unknown } | null} */
  let exit = null; // {code} once process.exit was called: sticky, as the process would be gone
  /** @param {number} fd */
  function stream(fd) {
    const s = {
      fd,
      isTTY: false,
      writable: true,
      /**
       * @param {any} chunk
       * @param {unknown} [encoding]
       * @param {unknown} [callback]
       */
      write(chunk, encoding, callback) {
        let text;
        if (typeof chunk === 'string') text = chunk;
        else if (isView(chunk)) text = /** @type {string} */ (host.decode('utf-8', chunk, false, false));
        else
          throw nodeError(
            TypeErrorCtor,
            'ERR_INVALID_ARG_TYPE',
            'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ' +
              describeType(chunk),
          );
        print(text, fd);
        const cb = typeof encoding === 'function' ? encoding : callback;
        if (typeof cb === 'function') later(cb, []);
        return true;
      },
      /**
       * @param {any} chunk
       * @param {unknown} [encoding]
       * @param {unknown} [callback]
       */
      end(chunk, encoding, callback) {
        if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') s.write(chunk, encoding, callback);
        return s;
      },
      cork() {},
      uncork() {},
      getWindowSize: () => [80, 24],
      hasColors: () => false,
      getColorDepth: () => 1,
    };
    return emitterMethods(s, create(null));
  }
  /**
   * @template T
   * @param {T} target
   * @param {{ [name: PropertyKey]: any[] }} table the listeners, by event name
   * @returns {T}
   */
  function emitterMethods(target, table) {
    /**
     * @param {PropertyKey} name
     * @param {unknown} fn
     */
    function on(name, fn) {
      callbackArgument(fn, 'listener');
      const list = table[name] || (table[name] = []);
      list[list.length] = fn;
      return target;
    }
    /**
     * @param {PropertyKey} name
     * @param {unknown} fn
     */
    function off(name, fn) {
      const list = table[name];
      if (list) {
        const kept = [];
        for (let i = 0; i < list.length; i++)
          if (list[i] !== fn && list[i].listener !== fn) kept[kept.length] = list[i];
        table[name] = kept;
      }
      return target;
    }
    return methods(target, {
      on,
      addListener: on,
      prependListener: on,
      /**
       * @param {PropertyKey} name
       * @param {Function} fn
       */
      once(name, fn) {
        callbackArgument(fn, 'listener');
        /** @param {...unknown} args */
        function wrapped(...args) {
          off(name, wrapped);
          return apply(fn, target, args);
        }
        value(wrapped, 'listener', fn);
        return on(name, wrapped);
      },
      off,
      removeListener: off,
      /** @param {PropertyKey | undefined} name */
      removeAllListeners(name) {
        if (name === undefined) {
          const ks = ownKeys(table);
          for (let i = 0; i < ks.length; i++) delete table[/** @type {PropertyKey} */ (ks[i])];
        } else delete table[name];
        return target;
      },
      /**
       * @param {PropertyKey} name
       * @param {...unknown} args
       */
      emit(name, ...args) {
        const list = table[name];
        if (!list || list.length === 0) return false;
        const copy = [];
        for (let i = 0; i < list.length; i++) copy[i] = list[i];
        for (let i = 0; i < copy.length; i++) apply(copy[i], target, args);
        return true;
      },
      listeners: (/** @type {PropertyKey} */ name) => {
        const list = table[name] || [];
        const out = [];
        for (let i = 0; i < list.length; i++) out[i] = list[i].listener || list[i];
        return out;
      },
      listenerCount: (/** @type {PropertyKey} */ name) => (table[name] || []).length,
      eventNames: () => ownKeys(table),
      setMaxListeners() {
        return target;
      },
      getMaxListeners: () => 10,
    });
  }
  /** @param {unknown} previous */
  function hrtime(previous) {
    const t = host.hrtime();
    let s = NumberCtor(t / 1000000000n);
    let ns = NumberCtor(t % 1000000000n);
    if (isArray(previous)) {
      s -= previous[0];
      ns -= previous[1];
      if (ns < 0) {
        s--;
        ns += 1e9;
      }
    }
    return [s, ns];
  }
  value(hrtime, 'bigint', () => host.hrtime());
  function memoryUsage() {
    return jsonParse(host.memoryUsage());
  }
  value(memoryUsage, 'rss', () => memoryUsage().rss);
  const stdin = emitterMethods(
    {
      fd: 0,
      isTTY: false,
      readable: true,
      setEncoding() {
        return stdin;
      },
      resume() {
        return stdin;
      },
      pause() {
        return stdin;
      },
      read: () => null,
      setRawMode() {
        return stdin;
      },
    },
    create(null),
  );
  const process = {
    title: 'node',
    version: options.version,
    versions: options.versions,
    arch: options.arch,
    platform: options.platform,
    release: { name: 'node' },
    argv: [options.execPath, options.filename],
    argv0: 'node',
    execArgv: [],
    execPath: options.execPath,
    env: {},
    pid: options.pid,
    ppid: 0,
    exitCode: undefined,
    config: { variables: {} },
    features: {},
    stdin,
    stdout: stream(1),
    stderr: stream(2),
  };
  emitterMethods(process, listeners);
  methods(process, {
    cwd: () => options.cwd,
    chdir() {
      throw nodeError(ErrorCtor, 'ERR_CRUCIBLE_SANDBOX', "process.chdir() is not available in Crucible's sandbox");
    },
    umask: () => 0o22,
    getuid: () => options.uid,
    geteuid: () => options.uid,
    getgid: () => options.uid,
    getegid: () => options.uid,
    getgroups: () => [],
    hrtime,
    memoryUsage,
    uptime: () => NumberCtor(host.hrtime() - started) / 1e9,
    cpuUsage: () => ({ user: 0, system: 0 }),
    resourceUsage: () => ({}),
    /**
     * @param {unknown} callback
     * @param {...unknown} args
     */
    nextTick(callback, ...args) {
      callbackArgument(callback, 'callback');
      later(/** @type {Function} */ (callback), args);
    },
    /** @param {any} warning */
    emitWarning(warning) {
      const text =
        typeof warning === 'string'
          ? warning
          : warning && typeof warning.message === 'string'
            ? warning.message
            : StringCtor(warning);
      print('(node:' + options.pid + ') Warning: ' + text + '\n', 2);
    },
    /** @param {unknown} code */
    exit(code) {
      if (exit === null) exit = { code: code === undefined ? (process.exitCode ?? 0) : code };
      // Unwinds the program; the harness reports the exit even if the program catches this.
      throw nodeError(ErrorCtor, 'ERR_PROCESS_EXIT', 'process.exit(' + StringCtor(exit.code) + ') was called');
    },
    abort() {
      /** @type {any} */ (process).exit(134);
    },
    kill() {
      throw nodeError(ErrorCtor, 'EPERM', 'kill EPERM');
    },
    binding() {
      throw nodeError(ErrorCtor, 'ERR_CRUCIBLE_SANDBOX', "process.binding() is not available in Crucible's sandbox");
    },
  });

  // --- text, base64, structured clone ------------------------------------------------
  // Encoding and decoding are node's own (`host` reads and writes this realm's bytes and
  // returns only strings and numbers).
  /** @constructor */
  function TextEncoder() {}
  methods(TextEncoder.prototype, {
    /** @param {unknown} [input] */
    encode(input = '') {
      const s = StringCtor(input);
      const bytes = new Uint8ArrayCtor(s.length * 3);
      return apply(typedArraySubarray, bytes, [0, host.encodeInto(s, bytes)[1]]);
    },
    /**
     * @param {unknown} input
     * @param {Uint8Array} target
     */
    encodeInto(input, target) {
      const s = StringCtor(input);
      const pair = host.encodeInto(s, target);
      return { read: pair[0], written: pair[1] };
    },
  });
  defineProperty(TextEncoder.prototype, 'encoding', { __proto__: null, get: () => 'utf-8', configurable: true });
  /** @type {WeakMap<object, { encoding: string; fatal: boolean; ignoreBOM: boolean }>} */
  const DECODER = new WeakMap();
  /**
   * @constructor
   * @param {unknown} [label]
   * @param {any} [opts]
   */
  function TextDecoder(label = 'utf-8', opts = undefined) {
    const fatal = Boolean(opts && opts.fatal);
    const ignoreBOM = Boolean(opts && opts.ignoreBOM);
    const encoding = host.encodingOf(StringCtor(label));
    if (encoding === '')
      throw nodeError(
        RangeErrorCtor,
        'ERR_ENCODING_NOT_SUPPORTED',
        'The "' + StringCtor(label) + '" encoding is not supported',
      );
    DECODER.set(this, { encoding, fatal, ignoreBOM });
  }
  methods(TextDecoder.prototype, {
    /**
     * @this {object}
     * @param {unknown} [input]
     */
    decode(input = new Uint8ArrayCtor(0)) {
      const d = DECODER.get(this);
      if (!d) throw nodeError(TypeErrorCtor, 'ERR_INVALID_THIS', 'Value of "this" must be of type TextDecoder');
      if (!(input instanceof ArrayBufferCtor) && !isView(input)) {
        throw nodeError(
          TypeErrorCtor,
          'ERR_INVALID_ARG_TYPE',
          'The "input" argument must be an instance of ArrayBuffer or ArrayBufferView. Received ' + describeType(input),
        );
      }
      const text = host.decode(d.encoding, input, d.fatal, d.ignoreBOM);
      if (text === null)
        throw nodeError(
          TypeErrorCtor,
          'ERR_ENCODING_INVALID_ENCODED_DATA',
          'The encoded data was not valid for encoding ' + d.encoding,
        );
      return text;
    },
  });
  const decoderFields = ['encoding', 'fatal', 'ignoreBOM'];
  for (let i = 0; i < decoderFields.length; i++) {
    const k = /** @type {'encoding' | 'fatal' | 'ignoreBOM'} */ (decoderFields[i]);
    defineProperty(TextDecoder.prototype, k, {
      __proto__: null,
      get() {
        const d = DECODER.get(/** @type {object} */ (this));
        return d ? d[k] : undefined;
      },
      configurable: true,
    });
  }
  /**
   * @param {string} name
   * @param {(s: string) => string | null} convert
   */
  function base64(name, convert) {
    const fn = function (/** @type {unknown} */ data) {
      if (arguments.length === 0)
        throw nodeError(TypeErrorCtor, 'ERR_MISSING_ARGS', 'The "data" argument must be specified');
      const r = convert(StringCtor(data));
      if (r === null) {
        const e = new ErrorCtor('Invalid character');
        value(e, 'name', 'InvalidCharacterError');
        throw e;
      }
      return r;
    };
    defineProperty(fn, 'name', { __proto__: null, value: name, configurable: true });
    return fn;
  }
  const atob = base64('atob', host.atob);
  const btoa = base64('btoa', host.btoa);

  /** The HTML structured clone of this realm's values (what node's structuredClone copies). */
  /** @param {unknown} input */
  function structuredClone(input) {
    if (arguments.length === 0)
      throw nodeError(TypeErrorCtor, 'ERR_MISSING_ARGS', 'The "value" argument must be specified');
    const seen = new MapCtor();
    /** @param {any} x */
    function cannot(x) {
      const e = new ErrorCtor(
        (typeof x === 'function' ? x.toString() : StringCtor(typeof x === 'symbol' ? 'Symbol()' : '#<Object>')) +
          ' could not be cloned.',
      );
      value(e, 'name', 'DataCloneError');
      return e;
    }
    /**
     * @param {any} x
     * @returns {any}
     */
    function clone(x) {
      if (typeof x === 'function' || typeof x === 'symbol') throw cannot(x);
      if (x === null || typeof x !== 'object') return x;
      const prior = seen.get(x);
      if (prior !== undefined) return prior;
      /** @type {any} */
      let out;
      if (isArray(x)) {
        out = new ArrayCtor(x.length);
        seen.set(x, out);
        const ks = keys(x);
        for (let i = 0; i < ks.length; i++) out[/** @type {string} */ (ks[i])] = clone(x[/** @type {any} */ (ks[i])]);
        return out;
      }
      if (x instanceof DateCtor) out = new DateCtor(apply(dateGetTime, x, []));
      else if (x instanceof RegExpCtor) out = new RegExpCtor(apply(regExpSource, x, []), apply(regExpFlags, x, []));
      else if (x instanceof ArrayBufferCtor) out = apply(arrayBufferSlice, x, [0]);
      else if (x instanceof DataViewCtor) {
        out = new DataViewCtor(
          clone(apply(dataViewBuffer, x, [])),
          apply(dataViewOffset, x, []),
          apply(dataViewLength, x, []),
        );
      } else if (isView(x)) {
        // The typed array's own constructor: the first prototype below %TypedArray%.prototype.
        let proto = getPrototypeOf(x);
        while (proto !== null && getPrototypeOf(proto) !== TYPED_ARRAY_PROTO) proto = getPrototypeOf(proto);
        const Ctor = proto === null ? Uint8ArrayCtor : gopd(proto, 'constructor').value;
        out = new Ctor(clone(apply(viewBuffer, x, [])), apply(viewOffset, x, []), apply(typedArrayLength, x, []));
      } else if (x instanceof MapCtor) {
        out = new MapCtor();
        seen.set(x, out);
        /** @type {any[]} */
        const entries = [];
        apply(mapForEach, x, [
          (/** @type {unknown} */ v, /** @type {unknown} */ k) => (entries[entries.length] = [k, v]),
        ]);
        for (let i = 0; i < entries.length; i++) apply(mapSet, out, [clone(entries[i][0]), clone(entries[i][1])]);
        return out;
      } else if (x instanceof SetCtor) {
        out = new SetCtor();
        seen.set(x, out);
        /** @type {unknown[]} */
        const items = [];
        apply(setForEach, x, [(/** @type {unknown} */ v) => (items[items.length] = v)]);
        for (let i = 0; i < items.length; i++) apply(setAdd, out, [clone(items[i])]);
        return out;
      } else if (x instanceof ErrorCtor) {
        const name = x.name;
        const Ctor = typeof name === 'string' && ERROR_CTORS[name] ? ERROR_CTORS[name] : ErrorCtor;
        out = new Ctor(x.message);
        if (typeof x.stack === 'string') value(out, 'stack', x.stack);
        if ('cause' in x) value(out, 'cause', clone(x.cause));
      } else if (x instanceof Boolean || x instanceof Number || x instanceof String || x instanceof BigInt) {
        out = ObjectCtor(x.valueOf());
      } else if (x instanceof PromiseCtor || x instanceof WeakMap || x instanceof WeakSet) {
        throw cannot(x);
      } else {
        out = {};
        seen.set(x, out);
        const ks = keys(x);
        for (let i = 0; i < ks.length; i++)
          out[/** @type {string} */ (ks[i])] = clone(x[/** @type {string} */ (ks[i])]);
        return out;
      }
      seen.set(x, out);
      return out;
    }
    return clone(input);
  }

  // --- performance, fetch --------------------------------------------------------------
  const performance = methods(
    {},
    {
      now: () => host.now(),
      /** @param {unknown} name */
      mark(name) {
        return { name: StringCtor(name), entryType: 'mark', startTime: host.now(), duration: 0 };
      },
      /** @param {unknown} name */
      measure(name) {
        return { name: StringCtor(name), entryType: 'measure', startTime: 0, duration: 0 };
      },
      clearMarks() {},
      clearMeasures() {},
      getEntries: () => [],
      getEntriesByName: () => [],
      getEntriesByType: () => [],
      toJSON: () => ({ timeOrigin: options.timeOrigin }),
    },
  );
  value(performance, 'timeOrigin', options.timeOrigin, true);
  async function fetch() {
    // What node says when no network is reachable.
    const cause = nodeError(ErrorCtor, 'ENOTFOUND', 'getaddrinfo ENOTFOUND');
    const e = new TypeErrorCtor('fetch failed');
    value(e, 'cause', cause);
    throw e;
  }

  // --- require ----------------------------------------------------------------------------
  // Modules node would give from its own code, but which must be this candidate's:
  const local = create(null);
  local.process = () => process;
  local.console = () => G.console;
  local.timers = () => timers;
  local['timers/promises'] = () => timersPromises;
  /** @typedef {{ id: string; path: string; exports: any; filename: string; loaded: boolean; children: unknown[]; paths: unknown[]; parent: unknown }} Module */
  /** @type {{ [filename: string]: Module }} */
  const cache = create(null);

  /**
   * @param {string} id
   * @param {string} from
   */
  function notFound(id, from) {
    const e = nodeError(ErrorCtor, 'MODULE_NOT_FOUND', "Cannot find module '" + id + "'\nRequire stack:\n- " + from);
    value(e, 'requireStack', [from], true);
    return e;
  }

  /**
   * @param {string} filename
   * @param {Module} parent
   */
  function loadFile(filename, parent) {
    const cached = cache[filename];
    if (cached) return cached.exports;
    const dir = apply(stringSlice, filename, [0, apply(stringLastIndexOf, filename, ['/'])]) || '/';
    /** @type {Module} */
    const mod = { id: filename, path: dir, exports: {}, filename, loaded: false, children: [], paths: [], parent };
    cache[filename] = mod;
    try {
      if (apply(stringSlice, filename, [-5]) === '.json') {
        mod.exports = jsonParse(host.readText(filename));
      } else {
        const wrapper = host.compile(filename);
        if (typeof wrapper === 'string') throw new SyntaxError(wrapper);
        apply(wrapper, mod.exports, [mod.exports, makeRequire(mod), mod, filename, mod.path]);
      }
    } catch (e) {
      delete cache[filename];
      throw e;
    }
    mod.loaded = true;
    return mod.exports;
  }

  /**
   * @param {unknown} id
   * @param {Module} parent
   */
  function resolve(id, parent) {
    if (typeof id !== 'string')
      throw nodeError(
        TypeErrorCtor,
        'ERR_INVALID_ARG_TYPE',
        'The "id" argument must be of type string. Received ' + describeType(id),
      );
    if (id === '')
      throw nodeError(
        TypeErrorCtor,
        'ERR_INVALID_ARG_VALUE',
        "The argument 'id' must be a non-empty string. Received ''",
      );
    const kind = host.kindOf(id);
    if (kind !== 'file') return { kind, id };
    const filename = host.resolve(id, parent.filename);
    if (filename === '') throw notFound(id, parent.filename);
    return { kind: 'file', id: filename };
  }

  /** @param {Module} parent */
  function makeRequire(parent) {
    /** @param {unknown} id */
    function require(id) {
      const r = resolve(id, parent);
      const bare = apply(stringIndexOf, r.id, ['node:']) === 0 ? apply(stringSlice, r.id, [5]) : r.id;
      if (r.kind === 'local' || (r.kind === 'builtin' && local[bare])) return local[bare]();
      if (r.kind === 'refused')
        throw nodeError(
          ErrorCtor,
          'ERR_CRUCIBLE_SANDBOX',
          'node:' + bare + " is not available in Crucible's sandbox (" + host.refusal(bare) + ')',
        );
      if (r.kind === 'builtin') return host.builtin(bare);
      return loadFile(r.id, parent);
    }
    value(require, 'resolve', (/** @type {unknown} */ id) => {
      const r = resolve(id, parent);
      return r.id;
    });
    value(require, 'cache', cache);
    value(require, 'main', main);
    return require;
  }
  const main = {
    id: '.',
    path: options.cwd,
    exports: G.module.exports,
    filename: options.filename,
    loaded: false,
    children: [],
    paths: [],
    parent: null,
  };
  // The harness's `module` is the main module (TypeScript output writes module.exports).
  G.module.id = main.id;
  G.module.filename = main.filename;
  G.module.path = main.path;
  G.module.loaded = false;
  G.module.children = main.children;
  G.module.paths = main.paths;

  // --- the globals ------------------------------------------------------------------------
  const globals = {
    global: G,
    process,
    require: makeRequire(main),
    __filename: options.filename,
    __dirname: options.cwd,
    setTimeout: timers.setTimeout,
    setInterval: timers.setInterval,
    setImmediate: timers.setImmediate,
    clearTimeout: timers.clearTimeout,
    clearInterval: timers.clearInterval,
    clearImmediate: timers.clearImmediate,
    /** @param {unknown} callback */
    queueMicrotask(callback) {
      callbackArgument(callback, 'callback');
      later(/** @type {Function} */ (callback), []);
    },
    structuredClone,
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    performance,
    fetch,
  };
  /** @type {string[]} */
  const defined = [];
  const gks = /** @type {(keyof typeof globals)[]} */ (ownKeys(globals));
  for (let i = 0; i < gks.length; i++) {
    if (!mayDefine(/** @type {keyof typeof globals} */ (gks[i]))) continue;
    value(G, /** @type {keyof typeof globals} */ (gks[i]), globals[/** @type {keyof typeof globals} */ (gks[i])]);
    defined[defined.length] = /** @type {keyof typeof globals} */ (gks[i]);
  }
  defineProperty(TextEncoder.prototype, toStringTag, { __proto__: null, value: 'TextEncoder', configurable: true });
  defineProperty(TextDecoder.prototype, toStringTag, { __proto__: null, value: 'TextDecoder', configurable: true });

  // Node's other globals (Buffer, URL, crypto, AbortController...) are the worker's own:
  // tainting, on first read. A program may still define its own under the same name.
  const hostGlobals = options.hostGlobals;
  for (let i = 0; i < hostGlobals.length; i++) {
    const name = /** @type {string} */ (hostGlobals[i]);
    if (!mayDefine(name)) continue;
    let got = false;
    /** @type {unknown} */
    let v;
    const get = function () {
      if (!got) {
        v = host.global(name);
        got = true;
      }
      return v;
    };
    lazy[name] = get;
    defineProperty(G, name, {
      __proto__: null,
      get,
      /** @param {unknown} x */
      set(x) {
        value(G, name, x);
      },
      configurable: true,
    });
  }
  return { defined, lazy, exit: () => exit };
}

module.exports = { nodeSurface };
