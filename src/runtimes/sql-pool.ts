/**
 * Untrusted SQL queries against SQLite and PostgreSQL databases, on warm sandboxed workers
 * (sql/sql-worker.cjs, better-sqlite3; sql/pg-worker.mjs, PGlite; PROTOCOL.md "SQL workers").
 * A request names a database — a file (SQLite), or inline `schema` + `setup` SQL for either
 * engine (`dialect`) — and one query; the answer is its rows as JSON values (protocol.ts
 * `SqlValue`) or why there are none, as a status. Both engines answer the same messages and
 * share everything here (the time limit and the kill, output caps, memory, restarts, cancel).
 *
 * SQLite: every limit, and what enforces it:
 * - **Time** (`wallSeconds`): the worker checks the clock between rows and answers `timeout`;
 *   a statement that yields no row for longer (a runaway recursive CTE, a cross join under
 *   count(*)) cannot be interrupted in-process (better-sqlite3 is synchronous and SQLite's
 *   progress handler is compiled out), so the pool kills the worker's process group when no
 *   answer came `REPLY_GRACE_MS` after the limit, and the next request starts a new worker.
 *   Building an inline database counts within the limit of the query that first needs it.
 * - **Rows and bytes** (`rows`, `bytes`: the JSON of the columns and rows): the worker reads
 *   rows one at a time and stops at the first that would pass either; the result is
 *   `output-limit` with the rows kept so far, never `ok`, so a cut result is never compared.
 *   The pool caps `bytes` (`maxResultBytes`) and kills a worker whose line is longer still.
 * - **Memory** (`memoryBytes`, per pool): an address space limit on the worker (prlimit
 *   --as: this plus the worker's V8 heap and node's fixed overhead). A failed allocation is
 *   SQLite's `out of memory`; a value past SQLite's length limit `string or blob too big`; a
 *   value V8 cannot hold kills the worker, which the pool reads from its stderr: all `memory`.
 *   SQLite's own `PRAGMA hard_heap_limit` is not used: better-sqlite3 builds SQLite without
 *   memory statistics (SQLITE_DEFAULT_MEMSTATUS=0), which that limit needs. Sorts and
 *   temporary tables stay in memory (`temp_store = MEMORY`), under the same limit.
 * - **Read-only**: a file is opened `readonly` (and `query_only`), through a read-only bind of
 *   that one file; an inline database is built by the worker, then served read-only from its
 *   serialized image. `writable: true` runs the query on a fresh in-memory copy
 *   (`serialize()`, then a new connection on the image), closed after the request.
 * - **One read-only query** (the allow-list, in the worker): one statement (better-sqlite3's
 *   `prepare` refuses a string with more, so `SELECT 1; DROP TABLE t` runs nothing), whose
 *   first keyword is SELECT, WITH or VALUES, and which SQLite itself says returns rows and
 *   writes nothing (`stmt.reader`, `stmt.readonly`). So no ATTACH, DETACH, PRAGMA, VACUUM
 *   (INTO), EXPLAIN, transaction control, DDL or DML (on a writable copy INSERT, UPDATE, DELETE
 *   and REPLACE too). A refusal is an `error` in phase `prepare` with `refused: true`.
 * - **Nothing past the engine**: `load_extension()` is not authorized (better-sqlite3 enables
 *   only the C API, which the worker never calls), and SQLite's file functions (`readfile`,
 *   `writefile`, `edit`, the fileio extension) are not compiled in. The sandbox is the second
 *   wall: no network, no processes, the system directories, node, better-sqlite3 and the
 *   task's database files read-only, and a 16 MB private /tmp as the only writable place.
 *
 * PostgreSQL (PGlite 0.5: Postgres 18 compiled to WebAssembly, one instance per worker, on the
 * worker's own thread): every limit, and what enforces it:
 * - **Time**: as SQLite's. The worker reads rows a batch at a time (a cursor's FETCH, sized by
 *   the time and bytes left) and checks the clock between batches; nothing interrupts a
 *   statement in-process (statement_timeout waits for a timer that cannot fire while Postgres
 *   runs on the thread), so the pool kills the worker REPLY_GRACE_MS past the limit. A new
 *   worker loads the runner's data directory, made once by a worker of its own (initdb, ~2-6
 *   s), in about a second; start-up does not count, building the database does.
 * - **Rows and bytes**: as SQLite's, counted the same way, batch by batch; a writable
 *   request's statement is read through the extended protocol's portal, a batch at a time.
 * - **Memory**: Postgres's WebAssembly memory is capped (`--wasm-max-mem-pages`, recipes.ts
 *   `pgRecipe`: its own needs plus `memoryBytes`): past it Postgres answers `out of memory`
 *   (53200) and carries on. Temporary files (spilled sorts, hashes, a function's or a CTE's
 *   rows) are memory here, bounded by `temp_file_limit` (half of `memoryBytes`; 53400). The
 *   address space limit covers both, PGlite's files, the V8 heap and node. SQLSTATE class 53,
 *   54000 (a value past 1 GB) and a query that recursed past the stack (54001, or Postgres left
 *   unable to answer) are `memory`; the worker is replaced after any of them.
 * - **One read-only query**: PGlite's `query()` (the extended protocol) refuses a text of two
 *   statements before anything runs; the first keyword must be SELECT, WITH, VALUES or `(`;
 *   the text runs as the query of `DECLARE … NO SCROLL CURSOR`, which refuses SELECT … INTO
 *   and data-modifying WITH, in a `BEGIN READ ONLY` transaction that is always rolled back.
 *   A keyword refused is checked against Postgres's parse first, so a typo is its syntax error.
 *   `writable: true`: a read-write transaction where INSERT, UPDATE, DELETE and MERGE may run
 *   too, then `after` once the transaction is made read-only, then ROLLBACK; DDL, COPY, SET
 *   and transaction control are refused there as well.
 * - **Session state**: every query runs as `crucible_query` (`SET LOCAL ROLE`), not a
 *   superuser, with set_config() revoked (the session user is the superuser, so it could set
 *   the role back); after each request, ROLLBACK then DISCARD ALL (advisory locks, lastval),
 *   and after a writable one the database's sequences are set back and a database whose
 *   files grew by more than 1 MB is built afresh.
 * - **Nothing past the engine**: that role may not call what reads or writes files
 *   (pg_read_file, pg_ls_dir, lo_import, lo_export), signal the backend or reload the
 *   configuration; COPY, CREATE EXTENSION, LOAD and DO are refused; no extension (dblink) is
 *   installed. PGlite's file system is its own, in memory: no host directory is mounted in it.
 *   The sandbox is the same as SQLite's, PGlite's package and the data directory read-only.
 * - **Databases**: each inline database is a schema of its own (`d_` and its key), built once
 *   by the superuser in one transaction, kept (16, and a quarter of `memoryBytes` together),
 *   on the query's search_path. Its SQL is the task's and is trusted as the task is: tables it
 *   puts outside its schema are refused, but it runs as the superuser.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isMessage, type LineProcess } from './line-process.js';
import { unlessAborted, WarmPool } from './pool.js';
import {
  PG_TEMPLATE,
  SQL,
  type SqlDatabaseRef,
  type SqlReply,
  type SqlRow,
  type SqlWorkerRequest,
} from './protocol.js';
import { pgRecipe, sqlRecipe, type PgRecipe, type SqlRecipe } from './recipes.js';
import type { SandboxMode } from './sandbox.js';
import { Turns } from './sql/turns.js';
import { describeMessage, pingWorker, spawnWorker } from './worker-process.js';

export type { SqlRow, SqlValue } from './protocol.js';

export interface SqlLimits {
  /** Wall-clock seconds for the request (building an inline database the first time included). */
  readonly wallSeconds: number;
  /** Rows of the result (and of `after`'s). */
  readonly rows: number;
  /** Bytes of the result's JSON (columns and rows; `after`'s counted apart). */
  readonly bytes: number;
}

export const DEFAULT_SQL_LIMITS: SqlLimits = { wallSeconds: 5, rows: 10_000, bytes: 4 << 20 };

export type SqlDialect = 'sqlite' | 'postgres';

/**
 * A database file on the host (SQLite), or one built from the task's SQL text (cached by the
 * workers by its hash), for SQLite unless `dialect` says Postgres. The same shape as an SQL
 * task's `database` (domains/sql/task.ts), so a task's can be passed as it is.
 */
export type SqlDatabase =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'inline'; readonly schema: string; readonly setup?: string; readonly dialect?: SqlDialect };

export interface SqlRequest {
  readonly database: SqlDatabase;
  readonly sql: string;
  /** Run on a throw-away copy where INSERT, UPDATE, DELETE and REPLACE are allowed too. */
  readonly writable?: boolean;
  /** With `writable`: a read-only query run on the copy afterwards; its rows are `after`. */
  readonly after?: string;
  readonly limits?: Partial<SqlLimits>;
}

/** `ok`: the query ran within every limit; `error`: the engine or the allow-list refused it, or it failed; `no-verdict`: not the query's doing (the database, the sandbox). */
export type SqlStatus = 'ok' | 'error' | 'timeout' | 'memory' | 'output-limit' | 'no-verdict';

export interface SqlTableResult {
  readonly columns: readonly string[];
  readonly rows: readonly SqlRow[];
}

export interface SqlResult extends SqlTableResult {
  readonly status: SqlStatus;
  /** Where an `error` (or a limit reported by the worker) happened. */
  readonly phase?: 'database' | 'prepare' | 'run' | 'after';
  /** The engine's own message (`near "SELEC": syntax error`), the allow-list's, or which limit stopped the query. */
  readonly message?: string;
  /** The engine's error code, when it raised the error: SQLite's (`SQLITE_NOMEM`), Postgres's SQLSTATE (`42601`). */
  readonly code?: string;
  /** The allow-list refused the statement. */
  readonly refused?: true;
  /** A writable request: rows the statement changed. */
  readonly changes?: number;
  /** A writable request with `after`: that query's rows on the copy. */
  readonly after?: SqlTableResult;
  readonly wallSeconds: number;
  /** Stopped, or never started, because its signal aborted. */
  readonly cancelled?: true;
}

export interface SqlRunnerOptions {
  /** Warm workers of each engine (SQLite's, and Postgres's once a Postgres request comes); default one per core. */
  readonly workers?: number;
  readonly sandbox?: SandboxMode;
  /** The engine's memory allowance for queries, per worker (recipes.ts SQL_DEFAULT_MEMORY; for Postgres, `pgRecipe`). */
  readonly memoryBytes?: number;
  /** The largest `bytes` limit a request may ask for (default 16 MB). */
  readonly maxResultBytes?: number;
}

/**
 * Whose turn a request takes (sql/turns.ts): requests of one lane wait in one line, and the
 * engine's workers go to the lanes in turn, so one caller's many queries (a task's preparation)
 * do not hold up another's few. Any object; requests without one share a lane.
 */
export type SqlLane = object;

/** Time allowed past the limit for the worker's answer to cross before it is killed. */
export const REPLY_GRACE_MS = 250;
const START_MS = 20_000;
/** The template's line: a gzipped data directory (~5 MB), as base64. */
const TEMPLATE_LINE_BYTES = 64 << 20;
/** Longest query text accepted (SQLite's own limit is 1e9). */
export const MAX_SQL_LENGTH = 1 << 20;

function empty(status: SqlStatus, message: string, extra: Partial<SqlResult> = {}): SqlResult {
  return { status, columns: [], rows: [], wallSeconds: 0, message, ...extra };
}

export function sqlNoVerdict(message: string): SqlResult {
  return empty('no-verdict', message);
}

function cancelled(): SqlResult {
  return empty('no-verdict', 'stopped: the request was abandoned', { cancelled: true });
}

/**
 * The database files the workers can see: each host file is a read-only bind of its own at
 * /crucible/db/<n>/<name>. A worker started before a file was added restarts to see it.
 */
class DatabaseFiles {
  private readonly byPath = new Map<string, number>();
  readonly list: string[] = [];

  index(hostPath: string): number {
    const real = realpathSync(hostPath);
    let index = this.byPath.get(real);
    if (index === undefined) {
      index = this.list.length;
      this.list.push(real);
      this.byPath.set(real, index);
    }
    return index;
  }

  inside(index: number): string {
    return `/crucible/db/${index}/${basename(this.list[index]!)}`;
  }

  binds(count: number): Array<readonly [string, string]> {
    return this.list.slice(0, count).map((path, i) => [path, this.inside(i)] as const);
  }
}

interface Prepared {
  readonly database: SqlDatabaseRef;
  /** Files the worker must see: indexes below this. */
  readonly needsFiles: number;
}

type Attempt = { result: SqlResult; retry?: boolean };

/** What one engine's workers start with. */
interface Engine {
  readonly recipe: SqlRecipe;
  /** SQLite's: the database files each worker sees (Postgres builds its databases from SQL text only). */
  readonly files?: DatabaseFiles;
  /** Made ready before a worker starts (Postgres: the data directory it starts from); why not, if it cannot be. */
  readonly ready?: () => Promise<string | undefined>;
}

class SqlWorker {
  private process: LineProcess<SqlWorkerRequest, SqlReply> | undefined;
  /** How many database files the running process sees. */
  private seesFiles = 0;
  private readonly dir = mkdtempSync(join(tmpdir(), 'crucible-sql-'));

  constructor(
    private readonly engine: Engine,
    private readonly mode: SandboxMode,
    private readonly maxLineBytes: number,
  ) {}

  private get recipe(): SqlRecipe {
    return this.engine.recipe;
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  private async ensureStarted(needsFiles: number): Promise<string | undefined> {
    if (this.process && !this.process.isClosed && this.seesFiles >= needsFiles) return undefined;
    this.kill();
    const notReady = await this.engine.ready?.();
    if (notReady) return `SQL worker did not start: ${notReady}`;
    const files = this.engine.files;
    const count = files?.list.length ?? 0;
    const binds = this.mode === 'bwrap' && files ? files.binds(count) : [];
    this.process = spawnWorker(
      {
        ...this.recipe,
        binds: [...(this.recipe.binds ?? []), ...binds],
        dir: this.dir,
        mode: this.mode,
        maxLineBytes: this.maxLineBytes,
      },
      SQL,
    );
    this.seesFiles = count;
    const error = await pingWorker(this.process, this.recipe.startMs ?? START_MS);
    if (!error) return undefined;
    this.kill();
    return `SQL worker did not start: ${error}`;
  }

  async run(
    request: SqlRequest,
    prepared: Prepared,
    limits: SqlLimits,
    signal: AbortSignal | undefined,
  ): Promise<Attempt> {
    if (signal?.aborted) return { result: cancelled() };
    const startError = await this.ensureStarted(prepared.needsFiles);
    if (signal?.aborted) return { result: cancelled() };
    if (startError) return { result: sqlNoVerdict(startError) };
    const process = this.process!;
    const wallMs = Math.max(1, Math.round(limits.wallSeconds * 1000));
    const started = performance.now();
    process.send({
      op: 'query',
      database: prepared.database,
      sql: request.sql,
      writable: request.writable === true,
      after: request.writable === true && request.after !== undefined ? request.after : null,
      limits: { rows: limits.rows, bytes: limits.bytes, wallMs },
    });
    const reply = await unlessAborted(process.next(wallMs + REPLY_GRACE_MS), signal);
    const seconds = (performance.now() - started) / 1000;
    if (reply === undefined) {
      this.kill();
      return { result: cancelled() };
    }
    if (isMessage(reply) && reply.op !== 'pong') {
      const result = classify(reply, limits, seconds);
      // A worker that ran out of memory starts afresh for the next request: what the engine freed
      // may not come back to the heap (a WebAssembly memory never shrinks). Out of memory while
      // building a database is the worker's state, not the query's doing: the request runs once
      // more on a fresh worker.
      const exhausted = /out of memory/i.test(result.message ?? '');
      if (result.status === 'memory' || exhausted) this.kill();
      return exhausted && result.phase === 'database' ? { result, retry: true } : { result };
    }
    const stderr = process.stderrTail;
    this.kill();
    if (!isMessage(reply) && reply.kind === 'timeout') {
      return {
        result: empty('timeout', `stopped after ${limits.wallSeconds}s (the worker was killed)`, {
          phase: 'run',
          wallSeconds: seconds,
        }),
      };
    }
    if (!isMessage(reply) && reply.kind === 'closed' && this.recipe.isOutOfMemory(stderr)) {
      return {
        result: empty('memory', 'the memory limit was reached (the worker ran out of memory)', {
          phase: 'run',
          wallSeconds: seconds,
        }),
      };
    }
    const why = isMessage(reply)
      ? `sent ${describeMessage(reply)}`
      : reply.kind === 'malformed'
        ? reply.why
        : `died: ${stderr.slice(-800)}`;
    return { result: sqlNoVerdict(`SQL worker ${why}`), retry: true };
  }

  kill(): void {
    this.process?.kill();
    this.process = undefined;
    this.seesFiles = 0;
  }

  async close(): Promise<void> {
    const exited = this.process?.exited;
    this.kill();
    await exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A worker's reply as a result: limits are the worker's findings, never read from a message. */
function classify(reply: Exclude<SqlReply, { op: 'pong' }>, limits: SqlLimits, seconds: number): SqlResult {
  if (reply.op === 'error') {
    const base = {
      columns: [],
      rows: [],
      wallSeconds: seconds,
      phase: reply.phase,
      message: reply.message,
      ...(reply.code !== undefined ? { code: reply.code } : {}),
      ...(reply.refused ? { refused: true as const } : {}),
    };
    // The task's database, not the query: whatever stopped it (its setup's memory included).
    if (reply.phase === 'database')
      return { ...base, status: 'no-verdict', message: `the database could not be opened or built: ${reply.message}` };
    if (reply.limit === 'timeout') return { ...base, status: 'timeout' };
    if (reply.limit === 'memory') return { ...base, status: 'memory' };
    return { ...base, status: 'error' };
  }
  const truncated = reply.truncated || reply.after?.truncated === true;
  return {
    status: truncated ? 'output-limit' : 'ok',
    columns: reply.columns,
    rows: reply.rows,
    wallSeconds: seconds,
    ...(truncated
      ? {
          phase: reply.truncated ? ('run' as const) : ('after' as const),
          message: `the result has more than ${limits.rows} rows or ${limits.bytes} bytes`,
        }
      : {}),
    ...(reply.changes !== undefined ? { changes: reply.changes } : {}),
    ...(reply.after ? { after: { columns: reply.after.columns, rows: reply.after.rows } } : {}),
  };
}

/**
 * The data directory every Postgres worker of a runner starts from: initdb takes seconds (and
 * leaves its own WebAssembly memory behind), loading a data directory a fraction of that. A
 * worker of its own (`--make-template`, in the same sandbox, running no query) makes it once,
 * before the runner's first Postgres worker starts; a failure is tried again by the next start.
 */
class PgTemplate {
  private made: Promise<string | undefined> | undefined;
  private maker: { kill(): void } | undefined;

  constructor(
    private readonly recipe: PgRecipe,
    private readonly mode: SandboxMode,
    private readonly dir: string,
  ) {}

  ready(): Promise<string | undefined> {
    this.made ??= this.make().then((why) => {
      if (why) this.made = undefined;
      return why;
    });
    return this.made;
  }

  private async make(): Promise<string | undefined> {
    const process = spawnWorker(
      { ...this.recipe.maker, dir: this.dir, mode: this.mode, maxLineBytes: TEMPLATE_LINE_BYTES },
      PG_TEMPLATE,
    );
    this.maker = process;
    try {
      const reply = await process.next(this.recipe.maker.startMs ?? START_MS);
      if (!isMessage(reply))
        return `the Postgres data directory was not made: ${describeMessage(reply)}: ${process.stderrTail.slice(-800)}`;
      writeFileSync(this.recipe.template, Buffer.from(reply.data, 'base64'));
      return undefined;
    } finally {
      this.maker = undefined;
      process.kill();
      await process.exited;
    }
  }

  /** Stops a maker still running (the runner is closing). */
  close(): void {
    this.maker?.kill();
  }
}

/**
 * Warm SQL workers: a request takes a free worker of its database's engine, or waits in its
 * lane's line for one, the lanes taking turns (`SqlLane`, sql/turns.ts). Each engine has a pool of its own, started on its first request (no Postgres worker starts
 * until a Postgres request comes). A worker that dies for a reason that is not the query's
 * (killed from outside, the sandbox failed) is replaced and the request runs once more; one
 * stopped by a limit is replaced on the next request.
 */
export class SqlRunner {
  private readonly pools = new Map<SqlDialect, WarmPool<SqlWorker>>();
  /** Each pool's places, in turns between lanes. */
  private readonly turns = new Map<WarmPool<SqlWorker>, Turns>();
  /** The lane of requests that name none. */
  private readonly sharedLane: SqlLane = {};
  private startedQueries = 0;
  private readonly files = new DatabaseFiles();
  private readonly mode: SandboxMode;
  private readonly maxResultBytes: number;
  /** Two tables (the result and `after`), each within the byte limit, and the message around them. */
  private readonly maxLineBytes: number;
  private readonly workersPerPool: number;
  private readonly templates: PgTemplate[] = [];
  private readonly dirs: string[] = [];
  private closed = false;

  constructor(private readonly options: SqlRunnerOptions = {}) {
    this.mode = options.sandbox ?? 'bwrap';
    this.maxResultBytes = options.maxResultBytes ?? 16 << 20;
    this.maxLineBytes = 2 * this.maxResultBytes + (1 << 20);
    this.workersPerPool = Math.max(1, options.workers ?? availableParallelism());
    // SQLite's recipe is checked now, as it always was: a runner that cannot start it fails here.
    this.pools.set(
      'sqlite',
      this.newPool({ recipe: sqlRecipe({ sandbox: this.mode, memoryBytes: options.memoryBytes }), files: this.files }),
    );
  }

  /** Workers per engine. */
  get size(): number {
    return this.workersPerPool;
  }

  /** Queries handed to a worker so far, of every engine. */
  get started(): number {
    return this.startedQueries;
  }

  /** Queries waiting for a worker, of every engine. */
  get waiting(): number {
    return [...this.turns.values()].reduce((n, turns) => n + turns.waiting, 0);
  }

  /** Process ids of the running workers, of every engine (tests kill one to see it replaced). */
  get pids(): number[] {
    return [...this.pools.values()]
      .flatMap((pool) => pool.all.map((w) => w.pid))
      .filter((pid): pid is number => pid !== undefined);
  }

  private newPool(engine: Engine): WarmPool<SqlWorker> {
    const pool = new WarmPool(
      Array.from({ length: this.workersPerPool }, () => new SqlWorker(engine, this.mode, this.maxLineBytes)),
    );
    // At most one request per worker is let through, so the pool's own line (first come, first served) stays empty.
    this.turns.set(pool, new Turns(pool.size));
    return pool;
  }

  /** The pool of `dialect`'s workers, made on its first request. */
  private pool(dialect: SqlDialect): WarmPool<SqlWorker> {
    let pool = this.pools.get(dialect);
    if (!pool) {
      const dir = mkdtempSync(join(tmpdir(), 'crucible-pg-'));
      this.dirs.push(dir);
      const recipe = pgRecipe({ sandbox: this.mode, memoryBytes: this.options.memoryBytes, templateDir: dir });
      const template = new PgTemplate(recipe, this.mode, dir);
      this.templates.push(template);
      pool = this.newPool({ recipe, ready: () => template.ready() });
      this.pools.set(dialect, pool);
    }
    return pool;
  }

  /**
   * Runs one query, when its lane's turn comes; when `signal` aborts, a waiting request leaves
   * the line and a running one is stopped (`cancelled`).
   */
  async run(request: SqlRequest, options: { signal?: AbortSignal; lane?: SqlLane } = {}): Promise<SqlResult> {
    const { signal } = options;
    if (this.closed) return sqlNoVerdict('the SQL runner is closed');
    const limits: SqlLimits = { ...DEFAULT_SQL_LIMITS, ...request.limits };
    if (!(limits.wallSeconds > 0) || !(limits.rows >= 0) || !(limits.bytes > 0))
      return sqlNoVerdict(`invalid limits ${JSON.stringify(limits)}`);
    if (limits.bytes > this.maxResultBytes)
      return sqlNoVerdict(`the byte limit ${limits.bytes} is above this runner's ${this.maxResultBytes}`);
    if (request.sql.length > MAX_SQL_LENGTH || (request.after?.length ?? 0) > MAX_SQL_LENGTH) {
      return empty('error', `the query is longer than ${MAX_SQL_LENGTH} characters`, {
        phase: 'prepare',
        refused: true,
      });
    }
    let prepared: Prepared;
    try {
      prepared = this.prepare(request.database);
    } catch (error) {
      return sqlNoVerdict(`the database could not be opened: ${(error as Error).message}`);
    }
    const dialect = request.database.kind === 'inline' ? (request.database.dialect ?? 'sqlite') : 'sqlite';
    if (dialect !== 'sqlite' && dialect !== 'postgres')
      return sqlNoVerdict(`unknown SQL dialect ${JSON.stringify(dialect)}: use 'sqlite' or 'postgres'`);
    let pool: WarmPool<SqlWorker>;
    try {
      pool = this.pool(dialect);
    } catch (error) {
      return sqlNoVerdict(`the ${dialect} engine cannot start here: ${(error as Error).message}`);
    }
    const result = await this.turns
      .get(pool)!
      .take(options.lane ?? this.sharedLane, signal, () =>
        pool.use(signal, (worker) => this.runOn(worker, request, prepared, limits, signal)),
      );
    return result ?? cancelled();
  }

  private async runOn(
    worker: SqlWorker,
    request: SqlRequest,
    prepared: Prepared,
    limits: SqlLimits,
    signal: AbortSignal | undefined,
  ): Promise<SqlResult> {
    this.startedQueries++;
    let attempt = await worker.run(request, prepared, limits, signal);
    if (attempt.retry && !this.closed && !signal?.aborted)
      attempt = await worker.run(request, prepared, limits, signal);
    return attempt.result;
  }

  private prepare(database: SqlDatabase): Prepared {
    if (database.kind === 'file') {
      const index = this.files.index(database.path);
      return {
        database: this.mode === 'bwrap' ? this.files.inside(index) : this.files.list[index]!,
        needsFiles: this.mode === 'bwrap' ? index + 1 : 0,
      };
    }
    const setup = database.setup ?? '';
    const key = createHash('sha256').update(database.schema).update('\0').update(setup).digest('hex');
    return { database: { key, schema: database.schema, setup }, needsFiles: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const template of this.templates) template.close();
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}
