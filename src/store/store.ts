/**
 * Runs and their trace events in SQLite (`.crucible/crucible.db`). One row per run, one row
 * per event; event data is JSON validated against the core schemas on the way in, so what
 * the dashboard and `crucible show` read back is always well formed.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_STORE_PATH } from '../core/constants.js';
import type { Budget } from '../core/budget.js';
import { newTraceEventSchema, type NewTraceEvent, type RunStatus, type TraceEvent } from '../core/trace.js';

export { DEFAULT_STORE_PATH };
/** Longest time an event waits for its commit. */
const GROUP_COMMIT_MS = 200;

export interface RunStart {
  /** The task's id (e.g. HumanEval/12) or file. */
  readonly task: string;
  readonly strategy: string;
  readonly model: string;
  readonly budget?: Budget;
  /** Anything else worth keeping: settings, seed, versions. */
  readonly meta?: Record<string, unknown>;
}

export interface RunFinish {
  readonly status: Exclude<RunStatus, 'running'>;
  /** The result: the program, why it abstained, attempts … ; for a command's run, the whole JSON document it writes. */
  readonly summary?: Record<string, unknown>;
  readonly usage?: RunUsage;
  /**
   * The figures a list of runs shows (a command's run: its document's summary). Kept apart from
   * `summary`, which for an eval of thousands of samples is megabytes that `listRuns` does not read.
   */
  readonly headline?: Record<string, unknown>;
}

export interface RunUsage {
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  readonly sandboxSeconds?: number;
}

/** How far a running command is (its progress bar), as the dashboard of `crucible serve` shows it. */
export interface RunProgress {
  readonly done: number;
  readonly total: number;
  /** Which bar (a command may have several in turn: generate, then eval). */
  readonly label?: string;
  /** When it was written. */
  readonly at: string;
}

/** Which runs `listRuns` returns (all of them, newest first, without any). */
export interface RunFilter {
  readonly limit?: number;
  readonly status?: RunStatus;
  /** A command's runs (eval, select, calibrate, audit), or `solve`: the runs of strategies. */
  readonly command?: string;
  /** Text found (case-insensitively, for ASCII letters) in the run's id, task, model or strategy. */
  readonly text?: string;
}

/** The commands that judge a whole dataset, each stored as one run (see command-runs.ts). */
export const COMMAND_RUNS = ['eval', 'select', 'calibrate', 'audit'] as const;
export type CommandRunName = (typeof COMMAND_RUNS)[number];

export interface Run extends RunStart {
  readonly id: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** From listRuns: null for a run with a headline (getRun has it). */
  readonly summary: Record<string, unknown> | null;
  readonly usage: RunUsage | null;
  readonly headline: Record<string, unknown> | null;
  /** The last progress its command wrote (kept when it finishes: how far it got); null for runs without a progress bar. */
  readonly progress: RunProgress | null;
  readonly events: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  task TEXT NOT NULL,
  strategy TEXT NOT NULL,
  model TEXT NOT NULL,
  budget TEXT,
  meta TEXT,
  status TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  summary TEXT,
  usage TEXT,
  headline TEXT,
  progress TEXT
);
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  parent_id INTEGER REFERENCES events(id),
  kind TEXT NOT NULL,
  label TEXT,
  time TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (run_id, seq)
);
CREATE INDEX IF NOT EXISTS events_by_run ON events(run_id, seq);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs(started_at);
`;

interface RunRow {
  id: string;
  task: string;
  strategy: string;
  model: string;
  budget: string | null;
  meta: string | null;
  status: string;
  started_at: string;
  finished_at: string | null;
  summary: string | null;
  usage: string | null;
  headline: string | null;
  progress: string | null;
  events: number;
}

interface EventRow {
  id: number;
  run_id: string;
  seq: number;
  parent_id: number | null;
  kind: string;
  label: string | null;
  time: string;
  data: string;
}

export class UnknownRunError extends Error {
  override readonly name = 'UnknownRunError';
}

/** Readable and sortable: 20261130-100000-3fa2 (a drawn id that exists is drawn again). */
function newRunId(now: Date): string {
  const iso = now.toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  // Not a secret, so not crypto.randomBytes (which cost a tenth of a millisecond here, called once per run).
  return `${stamp}-${Math.floor(Math.random() * 0x10000)
    .toString(16)
    .padStart(4, '0')}`;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** A run's columns as lists show them: the summary only when there is no headline (see RunFinish). */
const LISTED_COLUMNS = `id, task, strategy, model, budget, meta, status, started_at, finished_at, CASE WHEN headline IS NULL THEN summary END AS summary, usage, headline, progress,
  (SELECT COUNT(*) FROM events WHERE run_id = runs.id) AS events`;

export interface StoreOptions {
  /**
   * Commit and fsync every write as it is made (what the store did before group commits;
   * slower). Default false: writes are grouped, and committed within GROUP_COMMIT_MS, right
   * after a run finishes, or when the store closes.
   */
  readonly durable?: boolean;
}

/** Work waiting for the next flush: a run's row or finish, or an event (validated when flushed). */
type Queued =
  | { readonly write: Database.Statement; readonly values: readonly unknown[]; readonly runId?: string }
  | {
      readonly event: NewTraceEvent;
      readonly id: number;
      readonly runId: string;
      readonly seq: number;
      readonly time: string;
    };

/** Runs this Store started and has not finished: the run as started, the next seq, its event ids. */
interface OwnRun {
  readonly run: Run;
  nextSeq: number;
  /** The group in which nextSeq was last known right (another writer may append between groups). */
  seqGroup: number;
  readonly events: Set<number>;
  /** The last progress written. */
  progress: RunProgress | null;
}

/**
 * Writers hold one group transaction (BEGIN IMMEDIATE) for at most GROUP_COMMIT_MS. While it is
 * held no other connection can write, so this Store numbers events itself and queues them. The
 * queue is validated and written when the event loop is next free (a strategy waiting for a
 * sandbox or a model), before any read, and before each commit: a strategy's turn pays for
 * neither zod nor SQLite, and a batch costs less than the same work spread between sandbox calls
 * (measured in `npm run bench:solve`). The price: a malformed event is refused when its batch is
 * written, and the error is thrown by the Store's next write, commit or close.
 */
export class Store {
  private readonly db: Database.Database;
  private readonly durable: boolean;
  /** Statements prepared once (compiling SQL on every event cost more than running it). */
  private readonly statements: ReturnType<Store['prepareStatements']>;
  private readonly writing = new Map<string, OwnRun>();
  private readonly queued: Queued[] = [];
  /** Runs whose row is still in the queue (a new run id must not be one of them). */
  private readonly queuedRuns = new Set<string>();
  /** The id the next event gets; valid while the group transaction is held. */
  private nextEventId = 0;
  /** Counts group transactions. */
  private group = 0;
  private commitTimer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Immediate | undefined;
  private commitSoon = false;
  /** The first failure of queued work (a refused event, a failed write or commit); thrown by the next write. */
  private laterError: unknown;

  constructor(
    readonly path: string = DEFAULT_STORE_PATH,
    options: StoreOptions = {},
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.durable = options.durable ?? false;
    this.db = new Database(path);
    // WAL: `crucible runs` can read while a run writes; a busy writer is waited for, not failed.
    this.db.pragma('journal_mode = WAL');
    // With WAL, NORMAL commits without an fsync; the database stays consistent after any
    // crash, and only an OS crash or power cut may lose the last events.
    this.db.pragma(`synchronous = ${this.durable ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(SCHEMA);
    this.addMissingColumns();
    this.statements = this.prepareStatements();
  }

  /** A database written before `headline` or `progress` existed gets the column (NULL for its runs); older code reads it as before. */
  private addMissingColumns(): void {
    const columns = (this.db.prepare('PRAGMA table_info(runs)').all() as Array<{ name: string }>).map((c) => c.name);
    for (const column of ['headline', 'progress']) {
      if (columns.includes(column)) continue;
      try {
        this.db.exec(`ALTER TABLE runs ADD COLUMN ${column} TEXT`);
      } catch (error) {
        if (!/duplicate column/.test(String(error))) throw error; // else another process added it first
      }
    }
  }

  private prepareStatements() {
    return {
      insertRun: this.db.prepare(
        'INSERT INTO runs (id, task, strategy, model, budget, meta, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      runStatus: this.db.prepare('SELECT status FROM runs WHERE id = ?'),
      eventRun: this.db.prepare('SELECT run_id FROM events WHERE id = ?'),
      nextSeq: this.db.prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS seq FROM events WHERE run_id = ?'),
      nextEventId: this.db.prepare(
        "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), COALESCE((SELECT MAX(id) FROM events), 0)) + 1 AS id",
      ),
      insertEvent: this.db.prepare(
        'INSERT INTO events (id, run_id, seq, parent_id, kind, label, time, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      finishRun: this.db.prepare(
        'UPDATE runs SET status = ?, finished_at = ?, summary = ?, usage = ?, headline = ? WHERE id = ?',
      ),
      runRecord: this.db.prepare(
        'SELECT runs.*, (SELECT COUNT(*) FROM events WHERE run_id = runs.id) AS events FROM runs WHERE id = ?',
      ),
      runListed: this.db.prepare(`SELECT ${LISTED_COLUMNS} FROM runs WHERE id = ?`),
      setProgress: this.db.prepare('UPDATE runs SET progress = ? WHERE id = ?'),
      eventsAfter: this.db.prepare('SELECT * FROM events WHERE run_id = ? AND seq > ? ORDER BY seq'),
    };
  }

  startRun(start: RunStart, now: Date = new Date()): Run {
    this.raiseLater();
    // Ids are short: many runs started within one second may draw the same one; draw again.
    let id = newRunId(now);
    for (let attempt = 1; this.queuedRuns.has(id) || this.statements.runStatus.get(id); attempt++) {
      if (attempt === 20)
        throw new Error(
          `could not draw a free run id for ${now.toISOString()} in 20 tries; start fewer runs per second`,
        );
      id = newRunId(now);
    }
    const budget = start.budget ? JSON.stringify(start.budget) : null;
    const meta = start.meta ? JSON.stringify(start.meta) : null;
    const run: Run = {
      ...start,
      id,
      status: 'running',
      startedAt: now.toISOString(),
      finishedAt: null,
      summary: null,
      usage: null,
      headline: null,
      progress: null,
      events: 0,
    };
    this.queuedRuns.add(id);
    this.queue({
      write: this.statements.insertRun,
      values: [id, start.task, start.strategy, start.model, budget, meta, 'running', run.startedAt],
      runId: id,
    });
    // The group that inserts the run (the open one, or the next) knows it has no events yet.
    this.writing.set(id, {
      run,
      nextSeq: 0,
      seqGroup: this.db.inTransaction ? this.group : this.group + 1,
      events: new Set(),
      progress: null,
    });
    return run;
  }

  /** Stores one event; its parent must be an event of the same run. It is validated when written (see the class comment). */
  appendEvent(runId: string, event: NewTraceEvent, now: Date = new Date()): TraceEvent {
    this.raiseLater();
    this.beginGroup();
    const own = this.writing.get(runId);
    if (!own) {
      this.flush();
      if (!this.statements.runStatus.get(runId)) throw new UnknownRunError(`no run ${runId}`);
    }
    const parentId = event.parentId ?? null;
    if (parentId !== null && !own?.events.has(parentId)) {
      this.flush();
      const parent = this.statements.eventRun.get(parentId) as { run_id: string } | undefined;
      if (!parent || parent.run_id !== runId)
        throw new TypeError(`trace event rejected: parent ${parentId} is not an event of run ${runId}`);
    }
    if (own && own.seqGroup !== this.group) {
      this.flush();
      own.nextSeq = (this.statements.nextSeq.get(runId) as { seq: number }).seq;
      own.seqGroup = this.group;
    }
    const seq = own ? own.nextSeq++ : (this.statements.nextSeq.get(runId) as { seq: number }).seq;
    const id = this.nextEventId++;
    own?.events.add(id);
    const time = now.toISOString();
    this.queue({ event, id, runId, seq, time });
    return { ...event, parentId, id, runId, seq, time } as TraceEvent;
  }

  /** Records how a run ended; committed once the caller yields (see the class comment), or at once if durable. */
  finishRun(runId: string, finish: RunFinish, now: Date = new Date()): Run {
    const own = this.writing.get(runId);
    this.writing.delete(runId);
    const finishedAt = now.toISOString();
    const json = (value: unknown) => (value ? JSON.stringify(value) : null);
    const values = [finish.status, finishedAt, json(finish.summary), json(finish.usage), json(finish.headline), runId];
    let finished: Run;
    if (own) {
      this.queue({ write: this.statements.finishRun, values });
      finished = {
        ...own.run,
        status: finish.status,
        finishedAt,
        summary: finish.summary ?? null,
        usage: finish.usage ?? null,
        headline: finish.headline ?? null,
        progress: own.progress,
        events: own.nextSeq,
      };
    } else {
      this.raiseLater();
      this.flush();
      if (this.statements.finishRun.run(...values).changes === 0) throw new UnknownRunError(`no run ${runId}`);
      finished = this.getRunRecord(runId)!;
    }
    this.later(true);
    this.raiseLater(); // after the finish is queued: a run whose events were refused still ends
    return finished;
  }

  /**
   * Newest first (at most `limit`, default 50, of those the filter keeps); a run with a
   * headline comes without its summary (see RunFinish).
   */
  listRuns(options: RunFilter = {}): Run[] {
    this.flush();
    const where: string[] = [];
    const values: unknown[] = [];
    if (options.status !== undefined) {
      where.push('status = ?');
      values.push(options.status);
    }
    if (options.command === 'solve') {
      where.push(`strategy NOT IN (${COMMAND_RUNS.map(() => '?').join(', ')})`);
      values.push(...COMMAND_RUNS);
    } else if (options.command !== undefined) {
      where.push('strategy = ?');
      values.push(options.command);
    }
    if (options.text) {
      const like = `%${options.text.replace(/[\\%_]/g, '\\$&')}%`;
      where.push(
        `(${['id', 'task', 'model', 'strategy'].map((column) => `${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      );
      values.push(like, like, like, like);
    }
    const rows = this.db
      .prepare(
        `SELECT ${LISTED_COLUMNS} FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, id DESC LIMIT ?`,
      )
      .all(...values, options.limit ?? 50) as RunRow[];
    return rows.map(toRun);
  }

  /**
   * A run as `listRuns` shows it (without its summary when it has a headline), without its
   * events: what a watcher of a running run reads again and again.
   */
  peekRun(idOrPrefix: string): Run | undefined {
    this.flush();
    const id = this.resolveId(idOrPrefix);
    return id === undefined ? undefined : toRun(this.statements.runListed.get(id) as RunRow);
  }

  /** The run's events after `seq` (all of them for -1), in order: what a watcher has not seen yet. */
  eventsAfter(runId: string, seq: number): TraceEvent[] {
    this.flush();
    return (this.statements.eventsAfter.all(runId, seq) as EventRow[]).map(toEvent);
  }

  /**
   * Records how far a run of this store is (the dashboard's progress bar). Committed with the
   * next group (within GROUP_COMMIT_MS); callers write it at most a few times a second.
   */
  setProgress(
    runId: string,
    progress: { readonly done: number; readonly total: number; readonly label?: string },
    now: Date = new Date(),
  ): RunProgress {
    const written: RunProgress = { ...progress, at: now.toISOString() };
    const values = [JSON.stringify(written), runId];
    const own = this.writing.get(runId);
    this.raiseLater();
    if (own) {
      own.progress = written;
      this.queue({ write: this.statements.setProgress, values });
    } else {
      this.flush();
      if (this.statements.setProgress.run(...values).changes === 0) throw new UnknownRunError(`no run ${runId}`);
    }
    return written;
  }

  /** A run and its events in order; `idOrPrefix` may be any unambiguous start of a run id. */
  getRun(idOrPrefix: string): { run: Run; events: TraceEvent[] } | undefined {
    this.flush();
    const id = this.resolveId(idOrPrefix);
    if (!id) return undefined;
    const run = this.getRunRecord(id)!;
    const rows = this.db.prepare('SELECT * FROM events WHERE run_id = ? ORDER BY seq').all(id) as EventRow[];
    return { run, events: rows.map(toEvent) };
  }

  close(): void {
    try {
      this.commit();
    } finally {
      this.db.close();
    }
  }

  /**
   * Commits everything written so far. One commit per event cost more than everything else
   * the store does; writes are grouped, and committed at the latest GROUP_COMMIT_MS later,
   * right after a run finishes, or when the store closes (readers in other processes see them then).
   */
  commit(): void {
    clearTimeout(this.commitTimer);
    clearImmediate(this.soon);
    this.commitTimer = this.soon = undefined;
    this.commitSoon = false;
    this.flush();
    try {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    } catch (error) {
      this.laterError ??= error;
    }
    this.raiseLater();
  }

  private raiseLater(): void {
    const failed = this.laterError;
    if (failed === undefined) return;
    this.laterError = undefined;
    throw failed;
  }

  /**
   * Validates and writes the queue inside the group transaction. A refused event is not
   * written, nor are events below it; the first failure is kept for the next write to throw.
   */
  private flush(): void {
    if (this.queued.length === 0) return;
    this.beginGroup();
    const refused = new Set<number>();
    for (const item of this.queued.splice(0)) {
      try {
        if ('write' in item) {
          if (item.runId !== undefined) this.queuedRuns.delete(item.runId);
          item.write.run(...item.values);
          continue;
        }
        const { event, id, runId, seq, time } = item;
        const parentId = event.parentId ?? null;
        if (parentId !== null && refused.has(parentId)) {
          refused.add(id);
          continue;
        }
        const parsed = newTraceEventSchema.safeParse(event);
        if (!parsed.success) {
          refused.add(id);
          const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
          throw new TypeError(`trace event rejected (run ${runId}, event ${seq}, ${String(event.kind)}): ${issues}`);
        }
        const valid = parsed.data;
        this.statements.insertEvent.run(
          id,
          runId,
          seq,
          parentId,
          valid.kind,
          valid.label ?? null,
          time,
          JSON.stringify(valid.data),
        );
      } catch (error) {
        this.laterError ??= error;
      }
    }
  }

  private queue(item: Queued): void {
    this.queued.push(item);
    if (this.durable) this.commit();
    else this.later(false);
  }

  /** Flushes (and commits, if asked) once the event loop is next free, not within the caller's turn. */
  private later(commit: boolean): void {
    if (this.durable) return;
    this.commitSoon ||= commit;
    this.soon ??= setImmediate(() => {
      this.soon = undefined;
      const commitNow = this.commitSoon;
      this.commitSoon = false;
      if (!this.db.open) return;
      try {
        if (commitNow) this.commit();
        else this.flush();
      } catch (error) {
        this.laterError ??= error;
      }
    });
  }

  /** Takes the write lock (if not held) and numbers events from the database's largest id. */
  private beginGroup(): void {
    if (this.db.inTransaction) return;
    this.db.exec('BEGIN IMMEDIATE');
    this.group++;
    this.nextEventId = (this.statements.nextEventId.get() as { id: number }).id;
    if (this.durable) return;
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      if (!this.db.open) return;
      try {
        this.commit();
      } catch (error) {
        this.laterError ??= error; // thrown by the next write
      }
    }, GROUP_COMMIT_MS);
    this.commitTimer.unref();
  }

  private resolveId(idOrPrefix: string): string | undefined {
    const exact = this.db.prepare('SELECT id FROM runs WHERE id = ?').get(idOrPrefix) as { id: string } | undefined;
    if (exact) return exact.id;
    const matches = this.db
      .prepare("SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6")
      .all(`${idOrPrefix.replace(/[\\%_]/g, '\\$&')}%`) as Array<{ id: string }>;
    if (matches.length > 1)
      throw new UnknownRunError(
        `"${idOrPrefix}" matches several runs: ${matches.map((m) => m.id).join(', ')}; give more of the id`,
      );
    return matches[0]?.id;
  }

  private getRunRecord(id: string): Run | undefined {
    const row = this.statements.runRecord.get(id) as RunRow | undefined;
    return row ? toRun(row) : undefined;
  }
}

function toRun(row: RunRow): Run {
  const budget = parse<Budget>(row.budget);
  const meta = parse<Record<string, unknown>>(row.meta);
  return {
    id: row.id,
    task: row.task,
    strategy: row.strategy,
    model: row.model,
    ...(budget ? { budget } : {}),
    ...(meta ? { meta } : {}),
    status: row.status as RunStatus,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    summary: parse(row.summary),
    usage: parse(row.usage),
    headline: parse(row.headline),
    progress: parse(row.progress),
    events: row.events,
  };
}

function toEvent(row: EventRow): TraceEvent {
  return {
    id: row.id,
    runId: row.run_id,
    seq: row.seq,
    parentId: row.parent_id,
    kind: row.kind,
    ...(row.label !== null ? { label: row.label } : {}),
    time: row.time,
    data: JSON.parse(row.data),
  } as TraceEvent;
}
