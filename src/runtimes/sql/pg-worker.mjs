// @ts-check
/**
 * Warm Postgres worker: runs one untrusted query at a time in PGlite (PostgreSQL 18 compiled to
 * WebAssembly, running on this thread), inside bubblewrap under the no-new-processes seccomp
 * filter, with its WebAssembly memory capped and an address space limit (recipes.ts
 * `pgRecipe`; sql-pool.ts lists every limit and what enforces it).
 *
 * Started as `node pg-worker.mjs --pglite=DIR --template=FILE --temp-bytes=N --cache-bytes=N`,
 * where DIR is PGlite's package folder (bound read-only inside the sandbox), FILE the data
 * directory every worker starts from, N the bytes of temporary files a query may write and of
 * the databases built from SQL text that are kept between requests. With `--make-template`
 * instead of `--template`, it runs initdb, adds the role queries run as, writes the data
 * directory as one line `{"op":"template","data":base64 of a .tar.gz}` and exits. Otherwise
 * it speaks the SQL workers' JSON lines (PROTOCOL.md, "SQL workers"; typed in protocol.ts):
 *   {"op":"ping"} -> {"op":"pong"}
 *   {"op":"query","database","sql","writable","after","limits":{rows,bytes,wallMs}}
 *     -> {"op":"result","columns","rows","truncated","changes"?,"after"?,"wallMs"}
 *      | {"op":"error","phase","message","code"?,"limit"?,"refused"?}
 *
 * Nothing interrupts a statement while Postgres runs it: PGlite runs it on this thread, and
 * statement_timeout waits for a timer signal that cannot fire meanwhile. The deadline is
 * checked between batches of rows; a statement that does not come back is stopped by Crucible
 * killing this process.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** @typedef {import('../protocol.js').SqlQuery} SqlQuery */
/** @typedef {{ key: string, schema: string, setup: string }} InlineSpec */
/** @typedef {{ phase: 'database' | 'prepare' | 'run' | 'after', message: string, code?: string, limit?: 'timeout' | 'memory', refused?: true }} Failure */
/** @typedef {{ name: string, dataTypeID: number }} Field */
/** @typedef {{ schema: string, bytes: number, sequences: string | undefined }} Built */

// The protocol owns stdout: anything PGlite or node would print goes to stderr.
console.log = console.info = console.debug = console.warn = console.error;

/** @param {string} name */
function option(name) {
  const prefix = `--${name}=`;
  return (process.argv.find((a) => a.startsWith(prefix)) ?? '').slice(prefix.length);
}

/** @type {typeof import('@electric-sql/pglite')} */
const pglite = await import(`${option('pglite')}/dist/index.js`);
const { PGlite, protocol, messages } = pglite;
const { serialize } = protocol;

/** The role every query runs as (`SET LOCAL ROLE`): see TEMPLATE_SQL. */
const QUERY_ROLE = 'crucible_query';
/**
 * Run once, by the superuser, into the data directory every worker starts from. The session
 * user stays the superuser, so the role is a wall only because the query cannot switch back:
 * SET, RESET and SET ROLE are statements the allow-list refuses, and set_config() (which could
 * set `role` or `session_authorization`, also through an UPDATE of pg_settings) is revoked.
 * Not being a superuser, the role may not call what reads or writes files (pg_read_file,
 * pg_ls_dir, lo_import, lo_export; PGlite's file system is its own, in memory, with no host
 * directory mounted, but it holds the data directory), signal the backend, reload the
 * configuration, or raise temp_file_limit; it has no TEMP privilege, and no CREATE anywhere.
 */
const TEMPLATE_SQL = `
  CREATE ROLE ${QUERY_ROLE} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT;
  REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC;
  REVOKE TEMPORARY ON DATABASE postgres FROM PUBLIC;
  REVOKE CREATE ON SCHEMA public FROM PUBLIC;
`;

const tempKb = Math.max(64, Math.floor(Number(option('temp-bytes') || 256 << 20) / 1024));
/**
 * Postgres's settings, given on its command line: RESET (and DISCARD ALL) return to them, and
 * only a superuser may change the ones that bound memory. 32 MB of shared buffers (PGlite's
 * 128 MB would take half of a small WebAssembly memory); temporary files (sorts, hashes,
 * materialized CTEs that spill) live in memory too, so they are capped; WAL is recycled at
 * 32 MB instead of kept to 80 MB.
 */
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=32MB', '-c', `temp_file_limit=${tempKb}kB`],
  ...['-c', 'max_wal_size=64MB', '-c', 'min_wal_size=32MB'],
];

/**
 * The allow-list. A candidate's text must be ONE statement (Postgres's extended protocol,
 * which PGlite's `query()` and `describeQuery()` use, refuses a text with two before running
 * anything) whose first keyword is one of these, and which Postgres itself accepts as the
 * query of a cursor: DECLARE refuses SELECT … INTO and data-modifying WITH, and the
 * transaction is READ ONLY, so nothing is written either way. The keyword only tells a query
 * from the statements a cursor would not take anyway; it is the first token after comments
 * and spaces, not a parse. `(` opens a parenthesized query.
 */
const QUERY_KEYWORDS = new Set(['SELECT', 'WITH', 'VALUES', '(']);
/** On a writable request, data changes too (RETURNING or not, WITH … first or not); never DDL, COPY, SET or transaction control. */
const WRITE_KEYWORDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
const CURSOR = 'crucible_rows';
const SELECT_INTO = 'only one query or data change is allowed: SELECT … INTO creates a table';

/**
 * Databases built from SQL text, each in a schema of its own (`d_` and the first 128 bits of
 * its key), kept by key: the least recently used are dropped past KEPT, or when they hold
 * more than `--cache-bytes` together, so that what is kept never takes the memory the queries
 * are allowed.
 */
const KEPT = 16;
const cacheBytes = Number(option('cache-bytes') || 64 << 20);
/** Rolled-back writes leave dead rows in a database's files: past this growth it is built afresh. */
const GROWTH = 1 << 20;

class Refusal extends Error {}
class Overtime extends Error {}
/** A database whose SQL ran, but which cannot be served (it put tables outside its schema). */
class Unservable extends Error {}
/** PGlite lost Postgres's state: see `send`. */
class EngineLost extends Error {}

/**
 * Errors after which this instance is not trusted with another query: a query that recursed
 * past the stack (54001 "stack depth limit exceeded"), and what PGlite answers when Postgres
 * did not unwind cleanly from one (the portal or statement it was setting up is gone; seen
 * with JSON and jsonpath nested tens of thousands deep).
 */
const STACK = new Set(['54001', '24000', '26000']);

/**
 * A query's failure as the protocol's. Postgres's own message and SQLSTATE; `limit: memory`
 * for insufficient resources (class 53: out of memory, disk full, temp_file_limit), a value or
 * a statement past Postgres's limits (54000 "requested length too large", STACK), and V8
 * unable to hold what PGlite read.
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
  const tooBig =
    error instanceof RangeError && /invalid string length|allocation failed|too large|memory/i.test(message);
  if (code?.startsWith('53') || code === '54000' || (code !== undefined && STACK.has(code)) || tooBig) {
    out.limit = 'memory';
    if (code === '24000' || code === '26000')
      out.message = `the query went deeper than the engine's stack (then: ${message})`;
  }
  // What the allow-list asks of Postgres: one statement, and no write in a read-only transaction.
  else if (code === '25006' || (code === '42601' && /multiple commands/.test(message))) out.refused = true;
  return out;
}

/** @param {string} sql the first keyword after comments (Postgres's block comments nest), or `(` */
function firstKeyword(sql) {
  let i = 0;
  for (;;) {
    while (i < sql.length && /\s/.test(sql[i] ?? '')) i++;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      let depth = 0;
      do {
        if (sql.startsWith('/*', i)) (depth++, (i += 2));
        else if (sql.startsWith('*/', i)) (depth--, (i += 2));
        else i++;
      } while (depth > 0 && i < sql.length);
    } else break;
  }
  if (sql[i] === '(') return '(';
  const m = /^[A-Za-z]+/.exec(sql.slice(i, i + 20));
  return m ? m[0].toUpperCase() : '';
}

/**
 * A value, from the text Postgres prints, as JSON text (protocol.ts SqlValue). int2, int4,
 * float4, float8 and numeric are numbers: numeric loses digits past a double's, and the
 * reference and the candidate go through the same conversion, so both lose the same ones;
 * int8 (what count(*) returns) is a number while exact, else `{"$int"}`. ±Infinity is
 * `{"$real"}`; NaN is null, as SQLite makes it (SqlValue has no NaN). boolean is 1 or 0
 * (SqlValue has no boolean; SQLite's are integers too). bytea is `{"$blob"}`. Everything else
 * (text, dates, times, intervals, json, arrays, enums...) is the text Postgres prints.
 * @param {string | null} text
 * @param {number} type
 */
function encode(text, type) {
  if (text === null) return 'null';
  switch (type) {
    case 21: // int2
    case 23: // int4
      return text;
    case 20: {
      // int8
      const n = Number(text);
      return Number.isSafeInteger(n) ? text : `{"$int":"${text}"}`;
    }
    case 700: // float4
    case 701: // float8
    case 1700: {
      // numeric
      if (text === 'NaN') return 'null';
      const n = Number(text);
      if (Number.isFinite(n)) return JSON.stringify(n);
      return `{"$real":"${n > 0 ? 'Infinity' : '-Infinity'}"}`;
    }
    case 16: // bool
      return text === 't' ? '1' : '0';
    case 17: // bytea, printed as \x and hex
      return `{"$blob":"${Buffer.from(text.slice(2), 'hex').toString('base64')}"}`;
    default:
      return JSON.stringify(text);
  }
}

/**
 * Rows kept within `limits.rows` and `limits.bytes` (the JSON of the columns and rows, as the
 * SQLite worker counts them): the first row that would pass either stops the result, which is
 * then `truncated`.
 */
class Table {
  /** @param {SqlQuery['limits']} limits */
  constructor(limits) {
    this.limits = limits;
    /** @type {string[] | undefined} */
    this.columns = undefined;
    /** @type {string[]} */
    this.rows = [];
    this.bytes = 0;
    /** Bytes of the widest row kept; none yet: the first batch is small. */
    this.widest = 0;
    /** The time a row of the last batch took. */
    this.msPerRow = 0;
    this.truncated = false;
  }

  /** @param {readonly Field[]} fields */
  describe(fields) {
    if (this.columns) return;
    this.columns = fields.map((f) => f.name);
    this.bytes = JSON.stringify(this.columns).length;
  }

  /**
   * How many rows to ask for next: enough to fill what is left of either limit and see one
   * more, but, as rows can be wide, no more than the bytes left hold at the widest row so far
   * (the rows of a batch are all in memory before they are counted), and, as rows can be
   * slow, no more than came in the time left at the pace so far (the clock is read between
   * batches).
   * @param {number} msLeft
   */
  batch(msLeft) {
    if (this.widest === 0) return Math.max(1, Math.min(16, this.limits.rows + 1));
    const byBytes = Math.floor((this.limits.bytes - this.bytes) / this.widest) + 1;
    const byTime = Math.floor(msLeft / Math.max(this.msPerRow, 1e-3)) + 1;
    return Math.max(1, Math.min(1024, this.limits.rows - this.rows.length + 1, byBytes, byTime));
  }

  /**
   * Asks `fetch` for the next batch and keeps its rows.
   * @param {number} deadline
   * @param {(rows: number) => Promise<{ rows: number, done: boolean }>} fetch the rows it got, and whether they were the last
   * @returns {Promise<boolean>} whether more rows may come
   */
  async next(deadline, fetch) {
    const now = Date.now();
    if (now > deadline) throw new Overtime();
    const want = this.batch(deadline - now);
    const got = await fetch(want);
    this.msPerRow = (Date.now() - now) / Math.max(got.rows, 1);
    return !got.done && got.rows >= want && !this.truncated;
  }

  /**
   * @param {readonly (string | null)[]} row
   * @param {readonly Field[]} fields
   * @returns {boolean} whether the row was kept (else the result is cut here)
   */
  add(row, fields) {
    if (this.truncated) return false;
    // The least its JSON can be, known before encoding it: no row is encoded that cannot fit.
    let least = 0;
    for (const v of row) least += v === null ? 4 : v.length;
    if (this.rows.length >= this.limits.rows || this.bytes + least > this.limits.bytes) return this.cut();
    const text = `[${row.map((v, i) => encode(v, fields[i]?.dataTypeID ?? 0)).join(',')}]`;
    const size = Buffer.byteLength(text) + 1;
    if (this.bytes + size > this.limits.bytes) return this.cut();
    this.widest = Math.max(this.widest, size);
    this.bytes += size;
    this.rows.push(text);
    return true;
  }

  cut() {
    this.truncated = true;
    return false;
  }

  json() {
    return `"columns":${JSON.stringify(this.columns ?? [])},"rows":[${this.rows.join(',')}],"truncated":${this.truncated}`;
  }
}

/** @param {import('@electric-sql/pglite').PGlite} db */
async function serve(db) {
  /** @type {Map<string, Built>} */
  const databases = new Map();
  let keptBytes = 0;
  /** This instance failed in a way Postgres did not recover from: the worker exits after answering. */
  let broken = false;

  /**
   * Crucible's own statements, and a cursor's FETCH, as one simple-protocol message: PGlite
   * hands back Postgres's messages as they are (rows as the text Postgres prints, which
   * `encode` reads; PGlite's parsers never run), and throws Postgres's error.
   * @param {Uint8Array} message
   * @param {string[]} ends the messages, one of which ends its answer
   */
  async function send(message, ...ends) {
    const reply = await db.execProtocol(message, { syncToFs: false });
    // Postgres ends every answer with one of these. Without it, PGlite lost Postgres's state
    // (seen when a query recursed past the stack: FETCH then answers nothing, and the next
    // statement never returns): not an error of the query's, and this instance is done.
    if (!reply.messages.some((m) => ends.includes(m.name)))
      throw new EngineLost(`Postgres did not answer (${ends.join(' or ')} expected)`);
    return reply;
  }
  /** @param {string} sql */
  const ours = (sql) => send(serialize.query(sql), 'readyForQuery');

  /**
   * Postgres's own error for a text it cannot parse (PGlite's `describeQuery`: the extended
   * protocol's Parse and Describe, which run nothing), asked when the allow-list would refuse
   * it, so that a typo is Postgres's syntax error, not a refusal.
   * @param {string} sql
   */
  async function parseError(sql) {
    try {
      await db.describeQuery(sql);
      return undefined;
    } catch (error) {
      if (error instanceof messages.DatabaseError) return error;
      throw error;
    }
  }

  /**
   * The allow-list's keyword, after Postgres's parse when it refuses.
   * @param {string} sql
   * @param {boolean} writable
   */
  async function allow(sql, writable) {
    // The protocol's strings end at a NUL, and Postgres's text cannot hold one anyway.
    if (sql.includes('\0')) throw new Refusal('the query contains a NUL character, which Postgres text cannot hold');
    const keyword = firstKeyword(sql);
    if (QUERY_KEYWORDS.has(keyword) || (writable && WRITE_KEYWORDS.has(keyword))) return;
    throw (
      (await parseError(sql)) ??
      new Refusal(
        `only one read-only query is allowed (SELECT, WITH … SELECT, VALUES or a parenthesized query${writable ? '; INSERT, UPDATE, DELETE or MERGE in this transaction' : ''}), not ${keyword || 'this statement'}`,
      )
    );
  }

  /** @param {string} key */
  async function drop(key) {
    const built = databases.get(key);
    if (!built) return;
    databases.delete(key);
    keptBytes -= built.bytes;
    await ours(`DROP SCHEMA IF EXISTS ${built.schema} CASCADE`);
  }

  /**
   * Builds an inline database into its own schema, with the schema first on the search_path
   * while its SQL runs (so `CREATE TABLE city` lands there), as the superuser, in one
   * transaction that a failure rolls back. Its SQL is the task's, trusted as the task is: it
   * runs as the superuser, and could change the worker's other databases.
   * @param {InlineSpec} spec
   * @returns {Promise<Built>}
   */
  async function build(spec) {
    if (`${spec.schema}${spec.setup}`.includes('\0'))
      throw new Unservable("the database's SQL contains a NUL character, which Postgres text cannot hold");
    const schema = `d_${spec.key.slice(0, 32)}`;
    await ours(`BEGIN; CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    try {
      await db.exec(spec.schema);
      if (spec.setup) await db.exec(spec.setup);
      // A database sees only its own schema: tables put elsewhere would be shared by every
      // database of this worker (and a second database making them again would fail).
      const stray = await db.query(
        `SELECT n.nspname || '.' || c.relname AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname <> $1 AND n.nspname !~ '^(pg_|information_schema$|d_[0-9a-f]{32}$)' LIMIT 1`,
        [schema],
      );
      const name = /** @type {{ name?: string } | undefined} */ (stray.rows[0])?.name;
      if (name !== undefined) {
        throw new Unservable(
          `the database's SQL created ${name} outside its own schema: create its tables unqualified (each database is a schema of its own, first on the search_path)`,
        );
      }
      await ours(
        `GRANT USAGE ON SCHEMA ${schema} TO ${QUERY_ROLE};
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${QUERY_ROLE};
         GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${QUERY_ROLE};`,
      );
      const built = { schema, bytes: await size(schema), sequences: await sequences(schema) };
      await ours('COMMIT');
      await ours('DISCARD ALL');
      return built;
    } catch (error) {
      // Not Postgres's error: PGlite failed (V8 could not grow its files), and this instance is done.
      if (!(error instanceof messages.DatabaseError || error instanceof Unservable)) throw error;
      // The database's SQL may have ended the transaction itself (its own COMMIT).
      await ours('ROLLBACK');
      await ours(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await ours('DISCARD ALL');
      throw error;
    }
  }

  /** @param {string} schema its tables' bytes, indexes and TOAST included */
  async function size(schema) {
    const r = await db.query(
      `SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)::float8 AS bytes FROM pg_catalog.pg_class c
       WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return Number(/** @type {{ bytes: number }} */ (r.rows[0]).bytes);
  }

  /**
   * Its sequences' state, as JSON: nextval() and setval() are not rolled back, and a writable
   * request may call them (a serial column's default does), so they are set back after one.
   * @param {string} schema
   */
  async function sequences(schema) {
    const names = await db.query(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind = 'S'`,
      [schema],
    );
    const states = [];
    for (const { name } of /** @type {{ name: string }[]} */ (names.rows)) {
      const r = await db.query(`SELECT last_value::text AS value, is_called AS called FROM ${name}`);
      states.push({ name, .../** @type {{ value: string, called: boolean }} */ (r.rows[0]) });
    }
    return states.length > 0 ? JSON.stringify(states) : undefined;
  }

  /** @param {SqlQuery['database']} ref */
  async function open(ref) {
    if (typeof ref === 'string')
      throw new Unservable('a Postgres worker builds its databases from SQL text: database files are SQLite’s');
    const kept = databases.get(ref.key);
    if (kept) {
      databases.delete(ref.key);
      databases.set(ref.key, kept);
      return kept;
    }
    const built = await build(ref);
    databases.set(ref.key, built);
    keptBytes += built.bytes;
    // The newest stays, whatever its size: the query at hand needs it.
    for (const [key] of databases) {
      if (databases.size <= 1 || (databases.size <= KEPT && keptBytes <= cacheBytes)) break;
      await drop(key);
    }
    return built;
  }

  /**
   * Adds a batch of Postgres's messages to `table`.
   * @param {Table} table
   * @param {readonly Field[]} fields
   * @param {readonly { name: string }[]} batch
   * @returns {{ rows: number, tag?: string[] }} the rows in it, and the command's tag if it ended
   */
  function take(table, fields, batch) {
    let rows = 0;
    /** @type {string[] | undefined} */
    let tag;
    for (const m of batch) {
      if (m.name === 'dataRow') {
        rows++;
        table.add(/** @type {import('@electric-sql/pglite').messages.DataRowMessage} */ (m).fields, fields);
      } else if (m.name === 'commandComplete')
        tag = /** @type {import('@electric-sql/pglite').messages.CommandCompleteMessage} */ (m).text.split(' ');
    }
    return tag ? { rows, tag } : { rows };
  }

  /** @param {readonly { name: string }[]} batch */
  const fieldsOf = (batch) => {
    const description = batch.find((m) => m.name === 'rowDescription');
    return description
      ? /** @type {import('@electric-sql/pglite').messages.RowDescriptionMessage} */ (description).fields
      : [];
  };

  /**
   * Reads a query's rows through a cursor, in batches, until the end or a limit.
   * @param {string} sql
   * @param {SqlQuery['limits']} limits
   * @param {number} deadline
   * @param {() => void} running
   * @param {(() => Promise<void>) | undefined} restart begins the transaction afresh (the
   *   failed DECLARE aborted it), to ask Postgres whether the text parses on its own; none
   *   for `after`, whose transaction holds the changes it reads
   */
  async function readCursor(sql, limits, deadline, running, restart) {
    await allow(sql, false);
    try {
      // query(): the extended protocol, one statement.
      await db.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${sql}`);
    } catch (error) {
      // DECLARE refuses to parse what is not a query (WITH … DELETE, SELECT … INTO), and
      // refuses a data-modifying WITH: refused, unless the text does not parse on its own.
      const e = /** @type {{ code?: string, message?: string }} */ (error);
      if (e?.code === '42601' || (e?.code === '0A000' && /data-modifying/.test(e.message ?? ''))) {
        await restart?.();
        throw (restart && (await parseError(sql))) || new Refusal(`only one read-only query is allowed: ${e.message}`);
      }
      throw error;
    }
    running();
    const table = new Table(limits);
    const fetch = async (/** @type {number} */ want) => {
      const batch = (await ours(`FETCH FORWARD ${want} FROM ${CURSOR}`)).messages;
      const fields = fieldsOf(batch);
      table.describe(fields);
      return { rows: take(table, fields, batch).rows, done: false };
    };
    while (await table.next(deadline, fetch));
    return table;
  }

  /**
   * Runs a writable request's statement (DML cannot be a cursor's query) through the extended
   * protocol's unnamed portal (one statement), executed a batch of rows at a time: a SELECT
   * stops at the limit; an INSERT … RETURNING has run whole before its first row comes.
   * @param {string} sql
   * @param {SqlQuery['limits']} limits
   * @param {number} deadline
   * @param {() => void} running
   */
  async function runPortal(sql, limits, deadline, running) {
    await allow(sql, true);
    const table = new Table(limits);
    /** @type {number | undefined} */
    let changes;
    try {
      await send(serialize.parse({ text: sql }), 'parseComplete');
      await send(serialize.bind({}), 'bindComplete');
      const fields = fieldsOf((await send(serialize.describe({ type: 'P' }), 'rowDescription', 'noData')).messages);
      // A query that returns no rows is SELECT … INTO, which makes a table. (After WITH, it may
      // be a change without RETURNING too: the command's tag tells, below; and the role may
      // create nothing anyway.)
      if (fields.length === 0 && !WRITE_KEYWORDS.has(firstKeyword(sql)) && firstKeyword(sql) !== 'WITH')
        throw new Refusal(SELECT_INTO);
      table.describe(fields);
      running();
      const fetch = async (/** @type {number} */ want) => {
        const batch = await send(serialize.execute({ rows: want }), 'commandComplete', 'portalSuspended');
        // No tag: the portal is suspended, with rows to come.
        const { rows, tag } = take(table, fields, batch.messages);
        if (tag) {
          // SELECT … INTO makes a table (rolled back with the rest, but DDL all the same).
          if (tag[0] === 'SELECT' && fields.length === 0) throw new Refusal(SELECT_INTO);
          changes = WRITE_KEYWORDS.has(tag[0] ?? '') ? Number(tag.at(-1)) : 0;
        }
        return { rows, done: tag !== undefined };
      };
      while (await table.next(deadline, fetch));
    } finally {
      await db.execProtocol(serialize.sync(), { syncToFs: false, throwOnError: false });
    }
    return { table, changes };
  }

  /** @param {SqlQuery} request */
  async function answer(request) {
    const started = Date.now();
    const deadline = started + request.limits.wallMs;
    /** @type {Built} */
    let database;
    try {
      database = await open(request.database);
    } catch (error) {
      const postgres = error instanceof messages.DatabaseError && !STACK.has(error.code ?? '');
      if (!(postgres || error instanceof Unservable)) broken = true;
      if (error instanceof EngineLost) {
        // Seen with a database whose files outgrow the worker's memory.
        const message = `out of memory (or stack) while building the database: ${error.message}`;
        return failureLine({ phase: 'database', message, limit: 'memory' });
      }
      return failureLine(failure(error, 'database'));
    }
    const writable = request.writable;
    /** @type {Failure['phase']} */
    let phase = 'prepare';
    const running = () => (phase = 'run');
    // Always rolled back. As the superuser: the transaction's mode and the search path; then
    // the role every query runs as, until the end of the transaction.
    const begin = () =>
      ours(
        `BEGIN ${writable ? 'READ WRITE' : 'READ ONLY'}; SET LOCAL search_path TO ${database.schema}; SET LOCAL ROLE ${QUERY_ROLE}`,
      );
    await begin();
    try {
      let line;
      if (writable) {
        const { table, changes } = await runPortal(request.sql, request.limits, deadline, running);
        line = `{"op":"result",${table.json()}${changes !== undefined ? `,"changes":${changes}` : ''}`;
      } else {
        const restart = async () => {
          await ours('ROLLBACK');
          await begin();
        };
        line = `{"op":"result",${(await readCursor(request.sql, request.limits, deadline, running, restart)).json()}`;
      }
      if (Date.now() > deadline) throw new Overtime();
      if (writable && request.after !== null) {
        phase = 'after';
        // Read-only from here: a transaction may become read-only at any point (not back).
        await ours('SET LOCAL transaction_read_only = on');
        const table = await readCursor(request.after, request.limits, deadline, () => undefined, undefined);
        line += `,"after":{${table.json()}}`;
      }
      return line + `,"wallMs":${Date.now() - started}}`;
    } catch (error) {
      if (error instanceof Overtime)
        return failureLine({ phase, message: `stopped after ${request.limits.wallMs} ms`, limit: 'timeout' });
      if (error instanceof Refusal)
        return failureLine({ phase: phase === 'after' ? 'after' : 'prepare', message: error.message, refused: true });
      if (error instanceof messages.DatabaseError) {
        if (STACK.has(error.code ?? '')) broken = true;
        return failureLine(failure(error, phase));
      }
      broken = true;
      if (error instanceof EngineLost) {
        const message = `the query went deeper than the engine's stack, or broke it otherwise: ${error.message}`;
        return failureLine({ phase, message, limit: 'memory' });
      }
      // PGlite itself failed (V8 could not hold what it read, a WebAssembly trap): Postgres
      // did not unwind, so this instance is not trusted with another query.
      const f = failure(error, phase);
      return failureLine(f.limit ? f : { ...f, message: `the engine failed: ${f.message}` });
    } finally {
      if (!broken) await cleanUp(request.database, database, writable);
    }
  }

  /**
   * What a rollback leaves: session state (advisory locks, currval and lastval, anything
   * else a superuser's session would keep) is discarded; after a write, the sequences are set
   * back, and a database whose files grew by more than GROWTH (dead rows) is built afresh on
   * its next request.
   * @param {SqlQuery['database']} ref
   * @param {Built} database
   * @param {boolean} writable
   */
  async function cleanUp(ref, database, writable) {
    await ours('ROLLBACK');
    await ours('DISCARD ALL');
    if (!writable || typeof ref === 'string') return;
    if (database.sequences !== undefined) {
      await db.query(
        `SELECT pg_catalog.setval(s.name::regclass, s.value, s.called) FROM json_to_recordset($1::json) AS s(name text, value bigint, called boolean)`,
        [database.sequences],
      );
    }
    if ((await size(database.schema)) > database.bytes + GROWTH) await drop(ref.key);
  }

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    /** @type {{ op?: unknown }} */
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      continue;
    }
    if (msg.op === 'ping') await write('{"op":"pong"}');
    else if (msg.op === 'query') {
      const reply = await answer(/** @type {SqlQuery} */ (msg)).catch((error) => {
        // Crucible's own statements around the query failed (the transaction, the clean-up).
        broken = true;
        return failureLine({ ...failure(error, 'run'), message: `the engine failed: ${String(error).slice(0, 4000)}` });
      });
      await write(reply);
      // The answer says what happened; the next request starts on a fresh worker.
      if (broken) process.exit(1);
    }
  }
  process.exit(0);
}

/** @param {Failure} f */
function failureLine(f) {
  return JSON.stringify({ op: 'error', ...f });
}

/** @param {string} line */
function write(line) {
  return new Promise((resolve) => process.stdout.write(line + '\n', () => resolve(undefined)));
}

if (process.argv.includes('--make-template')) {
  const maker = await PGlite.create({ startParams: START_PARAMS });
  await maker.exec(TEMPLATE_SQL);
  const dump = await maker.dumpDataDir('gzip');
  const data = Buffer.from(await dump.arrayBuffer()).toString('base64');
  await maker.close();
  process.stdout.write(`{"op":"template","data":"${data}"}\n`, () => process.exit(0));
} else {
  await serve(
    await PGlite.create({
      loadDataDir: new Blob([readFileSync(option('template'))]),
      startParams: START_PARAMS,
    }),
  );
}
