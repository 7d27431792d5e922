// @ts-check
'use strict';
/**
 * Warm SQL worker: runs one untrusted query at a time against an SQLite database with
 * better-sqlite3, inside bubblewrap under the no-new-processes seccomp filter and an address
 * space limit (recipes.ts `sqlRecipe`; sql-pool.ts describes every limit).
 *
 * Started as `node sql-worker.cjs --sqlite=DIR --cache-bytes=N`, where DIR is better-sqlite3's
 * package folder (bound read-only inside the sandbox) and N what the databases built from SQL
 * text may keep between requests. Speaks JSON lines on stdin/stdout (PROTOCOL.md, "SQL
 * workers"; the messages are typed in protocol.ts):
 *   {"op":"ping"} -> {"op":"pong"}
 *   {"op":"query","database","sql","writable","after","limits":{rows,bytes,wallMs}}
 *     -> {"op":"result","columns","rows","truncated","changes"?,"after"?,"wallMs"}
 *      | {"op":"error","phase","message","code"?,"limit"?,"refused"?}
 *
 * better-sqlite3 is synchronous and SQLite's progress handler is compiled out
 * (SQLITE_OMIT_PROGRESS_CALLBACK), so nothing here can interrupt a statement that is
 * running: the deadline is checked between rows, and a statement that never yields a row is
 * stopped by Crucible killing this process.
 */
const { readSync, writeSync } = require('node:fs');

/** @typedef {import('../protocol.js').SqlQuery} SqlQuery */
/** @typedef {import('../protocol.js').SqlReply} SqlReply */
/** @typedef {import('../protocol.js').SqlDatabaseRef} SqlDatabaseRef */
/** @typedef {import('better-sqlite3').Database} Database */
/** @typedef {import('better-sqlite3').Statement<unknown[], unknown>} Statement */
/** @typedef {{ phase: 'database' | 'prepare' | 'run' | 'after', message: string, code?: string, limit?: 'timeout' | 'memory', refused?: true }} Failure */

const sqliteDir = (process.argv.find((a) => a.startsWith('--sqlite=')) ?? '').slice('--sqlite='.length);
/** @type {typeof import('better-sqlite3')} */
const DatabaseCtor = require(`${sqliteDir}/lib/index.js`);
const nativeBinding = `${sqliteDir}/build/Release/better_sqlite3.node`;

/**
 * The allow-list. A candidate's statement must be ONE statement (better-sqlite3's `prepare`
 * refuses a string with two) that SQLite itself says returns rows (`stmt.reader`) and writes
 * nothing (`stmt.readonly`, sqlite3_stmt_readonly), and whose first keyword is one of these.
 * The keyword only tells a query from the statements that are readers and read-only all the
 * same (PRAGMA, EXPLAIN); it is the first token after comments and spaces, not a parse.
 */
const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'VALUES']);
/** On a writable request's throw-away copy, data changes too (RETURNING or not); nothing else (no DDL, ATTACH, PRAGMA, VACUUM). */
const WRITE_KEYWORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE']);

/**
 * Databases built from SQL text, kept by key (read-only connections to a deserialized image),
 * and open files: the least recently used go first, so that what is kept never takes the
 * memory the queries are allowed (`--cache-bytes`, a quarter of it, for the images).
 */
const KEPT = 16;
const cacheBytes = Number(
  (process.argv.find((a) => a.startsWith('--cache-bytes=')) ?? '--cache-bytes=67108864').slice('--cache-bytes='.length),
);
/** @type {Map<string, { db: Database, bytes: number }>} */
const inline = new Map();
let inlineBytes = 0;
/** @type {Map<string, Database>} */
const files = new Map();

/**
 * @template T
 * @param {Map<string, T>} map
 * @param {string} key
 */
function touch(map, key) {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/** @param {string} sql */
function firstKeyword(sql) {
  let i = 0;
  for (;;) {
    while (i < sql.length && /\s/.test(sql[i] ?? '')) i++;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else break;
  }
  const m = /^[A-Za-z]+/.exec(sql.slice(i, i + 20));
  return m ? m[0].toUpperCase() : '';
}

/**
 * @param {unknown} error
 * @param {Failure['phase']} phase
 * @returns {Failure}
 */
function failure(error, phase) {
  const e = /** @type {{ code?: unknown, message?: unknown }} */ (error);
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message.slice(0, 4000) : String(error).slice(0, 4000);
  /** @type {Failure} */
  const out = { phase, message };
  if (code !== undefined) out.code = code;
  // Out of memory (malloc failed under the address space limit), a value past SQLite's
  // length limit, a full temporary store, or V8 unable to hold a value: all memory.
  // (better-sqlite3 raises RangeError for other things too: two statements in one string.)
  const tooBig =
    error instanceof RangeError && /invalid string length|allocation failed|too large|longer than/i.test(message);
  if (code === 'SQLITE_NOMEM' || code === 'SQLITE_TOOBIG' || code === 'SQLITE_FULL' || tooBig) out.limit = 'memory';
  return out;
}

class Refusal extends Error {}
class Overtime extends Error {}

/** @param {Database} db */
function harden(db) {
  // Sorts and temporary b-trees in memory (bounded by the address space limit), never in files.
  db.pragma('temp_store = MEMORY');
  db.defaultSafeIntegers(true);
  return db;
}

/** @param {string} path */
function openFile(path) {
  const kept = touch(files, path);
  if (kept) return kept;
  // Read-only: SQLite refuses every write to it, and the file is a read-only bind of its own
  // (no journal beside it to roll back, no folder to make one in).
  const db = harden(new DatabaseCtor(path, { readonly: true, fileMustExist: true, nativeBinding }));
  db.pragma('query_only = ON');
  // A page cache of 2 MB per open file (SQLite's default is 16 MB).
  db.pragma('cache_size = -2000');
  files.set(path, db);
  if (files.size > KEPT) {
    const [oldest, old] = /** @type {[string, Database]} */ (files.entries().next().value);
    files.delete(oldest);
    old.close();
  }
  return db;
}

/** @param {{ key: string, schema: string, setup: string }} spec */
function openInline(spec) {
  const kept = touch(inline, spec.key);
  if (kept) return kept.db;
  const builder = new DatabaseCtor(':memory:', { nativeBinding });
  let image;
  try {
    builder.exec(spec.schema);
    if (spec.setup) builder.exec(spec.setup);
    image = builder.serialize();
  } finally {
    builder.close();
  }
  const db = harden(new DatabaseCtor(image, { readonly: true, nativeBinding }));
  db.pragma('query_only = ON');
  inline.set(spec.key, { db, bytes: image.length });
  inlineBytes += image.length;
  // The newest stays, whatever its size: the query at hand needs it.
  while (inline.size > 1 && (inline.size > KEPT || inlineBytes > cacheBytes)) {
    const [oldest, old] = /** @type {[string, { db: Database, bytes: number }]} */ (inline.entries().next().value);
    inline.delete(oldest);
    inlineBytes -= old.bytes;
    old.db.close();
  }
  return db;
}

/** @param {SqlDatabaseRef} ref */
function openDatabase(ref) {
  return typeof ref === 'string' ? openFile(ref) : openInline(ref);
}

/**
 * @param {Database} db
 * @param {string} sql
 * @param {boolean} writable
 */
function prepare(db, sql, writable) {
  const stmt = db.prepare(sql);
  const keyword = firstKeyword(sql);
  const allowed = QUERY_KEYWORDS.has(keyword) || (writable && WRITE_KEYWORDS.has(keyword));
  if (!allowed) {
    throw new Refusal(
      `only one read-only query is allowed (SELECT, WITH … SELECT or VALUES${writable ? '; INSERT, UPDATE, DELETE or REPLACE on this copy' : ''}), not ${keyword || 'this statement'}`,
    );
  }
  if (!writable && !(stmt.reader && stmt.readonly))
    throw new Refusal('only one read-only query is allowed: this statement writes or returns no rows');
  return stmt;
}

/**
 * A value as JSON text (protocol.ts SqlValue).
 * @param {unknown} v
 */
function encode(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') {
    const n = Number(v);
    return Number.isSafeInteger(n) ? String(n) : `{"$int":"${v}"}`;
  }
  if (typeof v === 'number')
    return Number.isFinite(v) ? JSON.stringify(v) : `{"$real":"${v > 0 ? 'Infinity' : '-Infinity'}"}`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Buffer.isBuffer(v)) return `{"$blob":"${v.toString('base64')}"}`;
  return JSON.stringify(String(v));
}

/** @param {unknown} v the smallest its JSON text can be, known before encoding it */
function leastBytes(v) {
  if (typeof v === 'string') return v.length + 2;
  if (Buffer.isBuffer(v)) return Math.ceil(v.length / 3) * 4 + 12;
  return 0;
}

/**
 * Runs a statement that returns rows, keeping at most `limits.rows` rows and `limits.bytes`
 * bytes of JSON; returns the `columns`, `rows` and `truncated` fields as JSON text.
 * @param {Statement} stmt
 * @param {SqlQuery['limits']} limits
 * @param {number} deadline
 */
function readRows(stmt, limits, deadline) {
  stmt.raw(true);
  const columns = stmt.columns().map((c) => c.name);
  let bytes = JSON.stringify(columns).length;
  /** @type {string[]} */
  const rows = [];
  let truncated = false;
  const iterator = /** @type {IterableIterator<unknown[]>} */ (stmt.iterate());
  try {
    for (;;) {
      const step = iterator.next();
      if (step.done) break;
      if (Date.now() > deadline) throw new Overtime();
      if (rows.length >= limits.rows) {
        truncated = true;
        break;
      }
      const row = step.value;
      let least = 0;
      for (const v of row) least += leastBytes(v);
      if (bytes + least > limits.bytes) {
        truncated = true;
        break;
      }
      const text = `[${row.map(encode).join(',')}]`;
      const size = Buffer.byteLength(text) + 1;
      if (bytes + size > limits.bytes) {
        truncated = true;
        break;
      }
      bytes += size;
      rows.push(text);
    }
  } finally {
    iterator.return?.();
  }
  return `"columns":${JSON.stringify(columns)},"rows":[${rows.join(',')}],"truncated":${truncated}`;
}

/** @param {SqlQuery} request */
function answer(request) {
  const started = Date.now();
  const deadline = started + request.limits.wallMs;
  const elapsed = () => `,"wallMs":${Date.now() - started}}`;
  /** @type {Database} */
  let db;
  try {
    db = openDatabase(request.database);
  } catch (error) {
    return failureLine(failure(error, 'database'));
  }
  /** @type {Database | undefined} */
  let copy;
  /** @type {Failure['phase']} */
  let phase = 'prepare';
  try {
    if (request.writable) {
      copy = harden(new DatabaseCtor(db.serialize(), { nativeBinding }));
      db = copy;
    }
    const stmt = prepare(db, request.sql, request.writable);
    phase = 'run';
    let line;
    if (stmt.reader) {
      stmt.safeIntegers(true);
      line = `{"op":"result",${readRows(stmt, request.limits, deadline)}`;
      if (request.writable) line += `,"changes":${Number(db.prepare('SELECT changes()').pluck().get())}`;
    } else {
      const info = stmt.run();
      line = `{"op":"result","columns":[],"rows":[],"truncated":false,"changes":${Number(info.changes)}`;
    }
    if (Date.now() > deadline) throw new Overtime();
    if (copy && request.after !== null) {
      phase = 'after';
      const check = prepare(db, request.after, false);
      line += `,"after":{${readRows(check, request.limits, deadline)}}`;
    }
    return line + elapsed();
  } catch (error) {
    if (error instanceof Overtime)
      return failureLine({ phase, message: `stopped after ${request.limits.wallMs} ms`, limit: 'timeout' });
    if (error instanceof Refusal)
      return failureLine({ phase: phase === 'after' ? 'after' : 'prepare', message: error.message, refused: true });
    return failureLine(failure(error, phase));
  } finally {
    copy?.close();
  }
}

/** @param {Failure} f */
function failureLine(f) {
  return JSON.stringify({ op: 'error', ...f });
}

// --- stdin/stdout ---------------------------------------------------------------------

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** @param {number} ms */
function sleep(ms) {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** @param {string} text */
function writeAll(text) {
  const data = Buffer.from(text);
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(1, data, offset, data.length - offset);
    } catch (/** @type {any} */ e) {
      if (e.code !== 'EAGAIN') throw e;
      sleep(1);
    }
  }
}

function* lines() {
  const buffer = Buffer.alloc(1 << 20);
  /** @type {Buffer[]} */
  let pending = [];
  let idle = 0;
  for (;;) {
    let n;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (/** @type {any} */ e) {
      if (e.code === 'EOF') return;
      if (e.code !== 'EAGAIN') throw e;
      sleep(Math.min(5, 0.05 * 2 ** idle++));
      continue;
    }
    if (n === 0) return;
    idle = 0;
    let chunk = buffer.subarray(0, n);
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10)) {
      pending.push(chunk.subarray(0, nl));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      chunk = chunk.subarray(nl + 1);
    }
    if (chunk.length > 0) pending.push(Buffer.from(chunk));
  }
}

for (const line of lines()) {
  /** @type {{ op?: unknown }} */
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    continue;
  }
  if (msg.op === 'ping') writeAll('{"op":"pong"}\n');
  else if (msg.op === 'query') writeAll(answer(/** @type {SqlQuery} */ (msg)) + '\n');
}
