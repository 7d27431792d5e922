// @ts-check
'use strict';
/**
 * Wire encoding of JavaScript values (see PROTOCOL.md), shared by both workers.
 *
 * `createWire` is used twice: the judge calls it in its own realm, and the candidate
 * worker evaluates its source text (`createWire.toString()`) INSIDE each candidate's
 * context, so the candidate's values are encoded by code of their own realm and nothing
 * but strings crosses. It must therefore stay self-contained: no references to anything
 * outside its body, and it captures every intrinsic it uses when it is called (before a
 * candidate can patch Object.prototype, JSON, Array.prototype...). It uses no iteration
 * protocols or spread, and it assigns only to properties an object already owns or on
 * objects whose prototypes hold no accessors, so no candidate setter runs for it.
 * (Inside a candidate's context, whatever a candidate does could only change its own
 * replies, which are plain data the judge checks; this keeps even those replies right.)
 */
/** @typedef {import('./worker-types.js').Wire} Wire */
/** @typedef {import('./worker-types.js').WireErrorKind} WireErrorKind */

/** @returns {Wire} */
function createWire() {
  'use strict';
  const G = globalThis;
  const ObjectCtor = G.Object;
  const ArrayCtor = G.Array;
  const MapCtor = G.Map;
  const SetCtor = G.Set;
  const DateCtor = G.Date;
  const BigIntCtor = G.BigInt;
  const ErrorCtor = G.Error;
  const NumberCtor = G.Number;
  const StringCtor = G.String;
  const R = G.Reflect;
  const apply = R.apply;
  const defineProperty = R.defineProperty;
  const getPrototypeOf = R.getPrototypeOf;
  const setPrototypeOf = R.setPrototypeOf;
  const ownKeys = R.ownKeys;
  const gopd = ObjectCtor.getOwnPropertyDescriptor;
  const keys = ObjectCtor.keys;
  const freeze = ObjectCtor.freeze;
  const isArray = ArrayCtor.isArray;
  const jsonStringify = G.JSON.stringify;
  const jsonParse = G.JSON.parse;
  const ObjectProto = ObjectCtor.prototype;
  const ArrayProto = ArrayCtor.prototype;
  const MapProto = MapCtor.prototype;
  const SetProto = SetCtor.prototype;
  const DateProto = DateCtor.prototype;
  const ErrorProto = ErrorCtor.prototype;
  const mapForEach = MapProto.forEach;
  const mapSet = MapProto.set;
  const mapSize = /** @type {() => number} */ (/** @type {PropertyDescriptor} */ (gopd(MapProto, 'size')).get);
  const setForEach = SetProto.forEach;
  const setAdd = SetProto.add;
  const setSize = /** @type {() => number} */ (/** @type {PropertyDescriptor} */ (gopd(SetProto, 'size')).get);
  const dateGetTime = DateProto.getTime;
  const dateToISOString = DateProto.toISOString;
  const stringSlice = StringCtor.prototype.slice;
  const dateNow = DateCtor.now;
  const MAX_DEPTH = 200;
  // Hashed containers are filled checking the clock every this many items: keys can be chosen
  // to collide, which makes filling a Set or Map quadratic (decodeBy bounds it by the call's deadline).
  const HASHED_STEP = 1024;
  let decodeDeadline = Infinity;

  /** Thrown by a strict encode (an argument that cannot cross) or when a budget runs out. */
  class WireError extends ErrorCtor {
    /**
     * @param {WireErrorKind} kind
     * @param {string} message
     */
    constructor(kind, message) {
      super(message);
      defineProperty(this, 'kind', { __proto__: null, value: kind });
    }
  }

  /** Stands for a value that could not cross; equal to nothing but itself. */
  class Opaque {
    /**
     * @param {string} type
     * @param {string} text
     */
    constructor(type, text) {
      defineProperty(this, '$opaque', { __proto__: null, value: type, enumerable: true });
      defineProperty(this, 'text', { __proto__: null, value: text });
    }
    // `==` with anything yields false (NaN); printing shows what it was.
    /**
     * @this {{ $opaque: string }}
     * @param {string} hint
     */
    [G.Symbol.toPrimitive](hint) {
      return hint === 'string' ? '[opaque ' + this.$opaque + ']' : NaN;
    }
  }
  freeze(Opaque.prototype);

  /**
   * @param {object} object
   * @param {PropertyKey} key
   */
  function dataValue(object, key) {
    const d = gopd(object, key);
    return d && 'value' in d ? d.value : undefined;
  }

  /** A short description of a value that cannot be encoded: its class and, for errors, the message. */
  /** @param {object} x */
  function typeName(x) {
    if (typeof x === 'function') return 'function';
    const proto = getPrototypeOf(x);
    const ctor = proto === null ? undefined : dataValue(proto, 'constructor');
    const name = typeof ctor === 'function' ? dataValue(ctor, 'name') : undefined;
    return typeof name === 'string' && name !== '' ? apply(stringSlice, name, [0, 100]) : 'Object';
  }

  /** @param {object} x */
  function opaqueText(x) {
    if (typeof x === 'function') {
      const name = dataValue(x, 'name');
      return typeof name === 'string' ? apply(stringSlice, name, [0, 100]) : '';
    }
    for (let proto = getPrototypeOf(x), i = 0; proto !== null && i < 20; proto = getPrototypeOf(proto), i++) {
      if (proto === ErrorProto) {
        const message = dataValue(x, 'message');
        return typeof message === 'string' ? apply(stringSlice, message, [0, 200]) : '';
      }
    }
    return '';
  }

  /**
   * @param {Function} getter
   * @param {unknown} x
   */
  function brand(getter, x) {
    try {
      apply(getter, x, []);
      return true;
    } catch {
      return false;
    }
  }

  function prototypesClean() {
    const protos = [ArrayProto, ObjectProto];
    for (let p = 0; p < protos.length; p++) {
      const ks = ownKeys(/** @type {object} */ (protos[p]));
      for (let i = 0; i < ks.length; i++) {
        const k = ks[i];
        // An index key: its text is that of a uint32 (`+k` is the same ToNumber that `k >>> 0` does).
        if (k === 'toJSON' || (typeof k === 'string' && '' + (+k >>> 0) === k)) return false;
      }
    }
    return true;
  }

  /**
   * JSON text of `x`. strict: throw on anything that is not plain data (judge arguments);
   * otherwise such values become opaque markers (candidate results). `budget` bounds the
   * text length; past it a WireError of kind 'size' is thrown early, before the text is built.
   *
   * The value is first mirrored into fresh arrays and objects of plain data, read only
   * through captured intrinsics, then serialized by the native JSON.stringify: a mirror
   * has no getters, and no toJSON unless the realm's prototypes were patched, in which
   * case the mirror is built of null-prototype objects instead.
   */
  /**
   * @param {unknown} x
   * @param {boolean} strict
   * @param {number} [budget]
   * @returns {string}
   */
  function encode(x, strict, budget) {
    let left = budget === undefined ? Infinity : budget;
    /** @param {number} n */
    function spend(n) {
      left -= n;
      if (left < 0) throw new WireError('size', 'value larger than ' + budget + ' bytes');
    }
    // Plain arrays and objects are fast; they are safe while nothing in this realm put a
    // toJSON or an indexed accessor on their prototypes (a candidate may have).
    const clean = prototypesClean();
    function list() {
      /** @type {unknown[]} */
      const a = [];
      if (!clean) setPrototypeOf(a, null);
      return a;
    }
    /**
     * @param {string} t
     * @param {unknown} v
     */
    function tagged(t, v) {
      spend(16);
      return clean ? { $t: t, v } : { __proto__: null, $t: t, v };
    }
    /**
     * @param {unknown} x
     * @param {string} type
     * @param {string} text
     */
    function opaqueOf(x, type, text) {
      if (strict) throw new WireError('unencodable', 'a value of type ' + type + ' cannot cross the sandbox boundary');
      spend(32 + type.length + text.length);
      return { __proto__: null, $t: 'opaque', type, v: text };
    }
    /**
     * @param {string} t
     * @param {(out: unknown[]) => void} fill
     */
    function pairs(t, fill) {
      const out = list();
      fill(out);
      return tagged(t, out);
    }
    /**
     * @param {any} x a value of the realm being encoded, any shape
     * @param {number} depth
     * @returns {unknown}
     */
    function mirror(x, depth) {
      spend(2);
      switch (typeof x) {
        case 'string':
          spend(x.length);
          return x;
        case 'number':
          if (x !== x) return tagged('float', 'nan');
          if (x === Infinity) return tagged('float', 'inf');
          if (x === -Infinity) return tagged('float', '-inf');
          if (x === 0 && 1 / x < 0) return tagged('float', '-0');
          spend(22);
          return x;
        case 'boolean':
          return x;
        case 'undefined':
          return tagged('undefined', undefined);
        case 'bigint': {
          const digits = '' + x;
          spend(digits.length);
          return tagged('bigint', digits);
        }
        case 'symbol':
          return opaqueOf(x, 'symbol', '');
        case 'function':
          return opaqueOf(x, 'function', opaqueText(x));
      }
      if (x === null) return null;
      if (depth > MAX_DEPTH) {
        // Data, only too deep: a failure (kind 'opaque'), never a reason to run the test inline.
        if (strict)
          throw new WireError(
            'opaque',
            'a value nested deeper than ' + MAX_DEPTH + ' cannot cross the sandbox boundary',
          );
        return opaqueOf(x, 'deep', 'nesting too deep');
      }
      const d = depth + 1;
      const proto = getPrototypeOf(x);
      if (proto === ArrayProto && isArray(x)) {
        const n = x.length;
        const out = list();
        for (let i = 0; i < n; i++) out[i] = mirror(x[i], d);
        return out;
      }
      if (proto === ObjectProto || proto === null) {
        const ks = keys(x);
        return pairs('object', (out) => {
          for (let i = 0; i < ks.length; i++) {
            const pair = list();
            pair[0] = mirror(ks[i], d);
            pair[1] = mirror(x[/** @type {string} */ (ks[i])], d);
            out[i] = pair;
          }
        });
      }
      if (proto === MapProto && brand(mapSize, x)) {
        return pairs('map', (out) => {
          let i = 0;
          apply(mapForEach, x, [
            (/** @type {unknown} */ v, /** @type {unknown} */ k) => {
              const pair = list();
              pair[0] = mirror(k, d);
              pair[1] = mirror(v, d);
              out[i++] = pair;
            },
          ]);
        });
      }
      if (proto === SetProto && brand(setSize, x)) {
        return pairs('set', (out) => {
          let i = 0;
          apply(setForEach, x, [
            (/** @type {unknown} */ v) => {
              out[i++] = mirror(v, d);
            },
          ]);
        });
      }
      if (proto === DateProto && brand(dateGetTime, x)) {
        const t = apply(dateGetTime, x, []);
        return tagged('date', t === t ? apply(dateToISOString, x, []) : null);
      }
      if (strict && proto === Opaque.prototype) {
        // A candidate's value that did not cross as data, passed back by the test: the
        // candidate's failure, never a reason to run the test beside the candidate.
        throw new WireError('opaque', 'the candidate returned a ' + x.$opaque + ', which is not plain data');
      }
      return opaqueOf(x, typeName(x), opaqueText(x));
    }
    const text = jsonStringify(mirror(x, 0));
    // Only a getter that patched a prototype during the walk can make these fail.
    if (typeof text !== 'string') throw new WireError('unencodable', 'the value changed while it was encoded');
    if (budget !== undefined && text.length > budget)
      throw new WireError('size', 'value larger than ' + budget + ' bytes');
    return text;
  }

  /** A plain object from [key, value] pairs; `__proto__` stays an own property. */
  /** @param {any[]} pairs [key, value] pairs, as decoded */
  function plainObject(pairs) {
    /** @type {Record<string, unknown>} */
    const o = {};
    for (let i = 0; i < pairs.length; i++) {
      checkDeadline(i);
      const k = '' + pairs[i][0];
      if (k === '__proto__')
        defineProperty(o, k, {
          __proto__: null,
          value: pairs[i][1],
          writable: true,
          enumerable: true,
          configurable: true,
        });
      else o[k] = pairs[i][1];
    }
    return o;
  }

  // Decoding works in place on what JSON.parse made: assigning to a property the object
  // already owns never reaches a setter (or the __proto__ accessor) up the prototype chain.
  /**
   * @param {unknown} v
   * @returns {any[]}
   */
  function decodeList(v) {
    if (!isArray(v)) throw new WireError('malformed', 'malformed wire value');
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      if (item !== null && typeof item === 'object') v[i] = decodeParsed(item);
    }
    return v;
  }

  /** @param {number} i */
  function checkDeadline(i) {
    if (i % HASHED_STEP === HASHED_STEP - 1 && decodeDeadline !== Infinity && dateNow() > decodeDeadline) {
      throw new WireError('timeout', 'decoding the value took past its time limit');
    }
  }

  /**
   * @param {unknown} v
   * @returns {any[]} [key, value] pairs
   */
  function decodePairs(v) {
    const list = decodeList(v);
    for (let i = 0; i < list.length; i++) {
      if (!isArray(list[i]) || list[i].length !== 2) throw new WireError('malformed', 'malformed wire pair');
    }
    return list;
  }

  /** A value of this realm from parsed JSON in the wire encoding. */
  /**
   * @param {any} x what JSON.parse made of wire text
   * @returns {unknown}
   */
  function decodeParsed(x) {
    if (x === null || typeof x !== 'object') return x;
    if (isArray(x)) return decodeList(x);
    const tag = dataValue(x, '$t');
    if (tag === undefined) {
      const ks = keys(x);
      for (let i = 0; i < ks.length; i++) {
        const k = /** @type {string} */ (ks[i]);
        const item = x[k];
        if (item !== null && typeof item === 'object') x[k] = decodeParsed(item);
      }
      return x;
    }
    const v = dataValue(x, 'v');
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'float':
        if (v === 'nan') return NaN;
        if (v === 'inf') return Infinity;
        if (v === '-inf') return -Infinity;
        if (v === '-0') return -0;
        return NumberCtor(v);
      case 'int':
        return NumberCtor(v);
      case 'bigint':
        return BigIntCtor(v);
      case 'tuple':
        return decodeList(v);
      case 'set':
      case 'frozenset': {
        const s = new SetCtor();
        const list = decodeList(v);
        for (let i = 0; i < list.length; i++) {
          apply(setAdd, s, [list[i]]);
          checkDeadline(i);
        }
        return s;
      }
      case 'map': {
        const m = new MapCtor();
        const pairs = decodePairs(v);
        for (let i = 0; i < pairs.length; i++) {
          apply(mapSet, m, [pairs[i][0], pairs[i][1]]);
          checkDeadline(i);
        }
        return m;
      }
      case 'object':
        return plainObject(decodePairs(v));
      case 'dict': {
        // A Python dict: a plain object when every key can be a property name, else a Map.
        const pairs = decodePairs(v);
        let simple = true;
        for (let i = 0; i < pairs.length; i++) {
          const t = typeof pairs[i][0];
          if (t !== 'string' && t !== 'number') simple = false;
        }
        if (simple) return plainObject(pairs);
        const m = new MapCtor();
        for (let i = 0; i < pairs.length; i++) {
          apply(mapSet, m, [pairs[i][0], pairs[i][1]]);
          checkDeadline(i);
        }
        return m;
      }
      case 'date':
        return new DateCtor(v === null ? NaN : v);
      case 'opaque': {
        const type = dataValue(x, 'type');
        return freeze(new Opaque(typeof type === 'string' ? type : 'object', typeof v === 'string' ? v : ''));
      }
    }
    throw new WireError('malformed', 'unknown wire tag ' + jsonStringify(tag));
  }

  /** @param {string} text */
  function decode(text) {
    return decodeParsed(jsonParse(text));
  }

  /** decodeParsed(x), stopped with a WireError of kind 'timeout' past `deadline` (Date.now()). */
  /**
   * @param {unknown} x
   * @param {number} deadline
   */
  function decodeBy(x, deadline) {
    decodeDeadline = deadline;
    try {
      return decodeParsed(x);
    } finally {
      decodeDeadline = Infinity;
    }
  }

  // The classes' fields are defined (defineProperty), which the compiler does not follow: it is told their shape.
  return freeze({
    encode,
    decode,
    decodeParsed,
    decodeBy,
    Opaque: /** @type {Wire['Opaque']} */ (/** @type {unknown} */ (Opaque)),
    WireError: /** @type {Wire['WireError']} */ (/** @type {unknown} */ (WireError)),
    __proto__: null,
  });
}

// --- Blocking line I/O, used by both workers on stdin/stdout and the FIFOs (host realm only).
// A candidate lent node's own objects (node-surface.cjs) can reach fs and Buffer, which
// --frozen-intrinsics does not freeze; what this worker uses after a candidate loads is
// captured here, so the program cannot break the worker's replies to the judge for itself.
const fs = require('fs');
const { apply } = Reflect;
const { readSync, writeSync } = fs;
const bufferFrom = Buffer.from;
const bufferAlloc = Buffer.alloc;
const bufferConcat = Buffer.concat;
const { indexOf: bufferIndexOf, toString: bufferToString, subarray: bufferSubarray } = Buffer.prototype;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** @param {number} ms */
function sleep(ms) {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Writes all of `text`, waiting when a non-blocking descriptor is full.
 * @param {number} fd
 * @param {string} text
 */
function writeAll(fd, text) {
  const data = apply(bufferFrom, Buffer, [text]);
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(fd, data, offset, data.length - offset);
    } catch (/** @type {any} */ e) {
      if (e.code !== 'EAGAIN') throw e;
      sleep(0.2);
    }
  }
}

/**
 * Newline-separated messages from a file descriptor. `next(deadline)` returns a line,
 * null at end of file, or undefined when `deadline` (Date.now() milliseconds) passes
 * first; waiting on a non-blocking descriptor polls with a short, growing sleep.
 */
class LineReader {
  /** @param {number} fd */
  constructor(fd) {
    this.fd = fd;
    /** @type {Buffer[]} */
    this.chunks = [];
    this.buffer = apply(bufferAlloc, Buffer, [1 << 20]);
  }

  /**
   * @overload
   * @returns {string | null}
   */
  /**
   * @overload
   * @param {number} deadline
   * @returns {string | null | undefined}
   */
  /**
   * @param {number} [deadline]
   * @returns {string | null | undefined}
   */
  next(deadline = Infinity) {
    let idle = 0;
    for (;;) {
      const last = this.chunks.length ? this.chunks[this.chunks.length - 1] : null;
      const nl = last ? apply(bufferIndexOf, last, [10]) : -1;
      if (last && nl >= 0) {
        const all = this.chunks.length === 1 ? last : apply(bufferConcat, Buffer, [this.chunks]);
        const at = all.length - last.length + nl;
        this.chunks = at + 1 < all.length ? [apply(bufferSubarray, all, [at + 1])] : [];
        return apply(bufferToString, all, ['utf8', 0, at]);
      }
      let n;
      try {
        n = readSync(this.fd, this.buffer, 0, this.buffer.length, null);
      } catch (/** @type {any} */ e) {
        if (e.code !== 'EAGAIN') {
          if (e.code === 'EOF') return null;
          throw e;
        }
        if (Date.now() >= deadline) return undefined;
        sleep(Math.min(1, 0.02 * 2 ** idle++));
        continue;
      }
      if (n === 0) return null;
      idle = 0;
      this.chunks.push(apply(bufferFrom, Buffer, [apply(bufferSubarray, this.buffer, [0, n])]));
    }
  }
}

/**
 * The main loop of a worker that runs untrusted code on its own thread (candidate and program
 * workers): one JSON message a line on stdin until it closes. A ping is answered at once; a
 * message whose op is `op` goes to `run`; others are stale and ignored. After each run, one
 * turn of the event loop lets what the code left queued settle. Rejections it left unhandled
 * are dropped (never inspected), so that dead contexts can be collected. Exits 0 when stdin
 * closes, 70 with the stack on stderr if the loop itself fails.
 * @template {string} Op
 * @param {string} name
 * @param {Op} op
 * @param {(msg: import('../protocol.js').Requested<Op>) => void} run
 */
function serveWorker(name, op, run) {
  process.on('unhandledRejection', () => undefined);
  process.on('rejectionHandled', () => undefined);
  const loop = async () => {
    const stdin = new LineReader(0);
    for (;;) {
      const line = stdin.next();
      if (line === null) return;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (msg.op === 'ping') writeAll(1, '{"op":"pong"}\n');
      else if (msg.op === op) {
        run(msg);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };
  loop().then(
    () => process.exit(0),
    (/** @type {any} */ e) => {
      process.stderr.write(`${name} failed: ${e && e.stack}\n`);
      process.exit(70);
    },
  );
}

/** Words that cannot be read as a variable name (both workers look program names up by name). */
const RESERVED_WORDS = (
  'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
  'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
  'arguments let static yield await implements interface package private protected public'
).split(' ');

module.exports = { createWire, LineReader, writeAll, sleep, serveWorker, RESERVED_WORDS };
