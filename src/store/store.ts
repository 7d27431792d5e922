/**
 * Runs and their trace events in SQLite (`.crucible/crucible.db`). One row per run, one row
 * per event; event data is JSON validated against the core schemas on the way in, so what
 * the dashboard and `crucible show` read back is always well formed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Budget } from '../core/budget.js';
import { newTraceEventSchema, type NewTraceEvent, type RunStatus, type TraceEvent } from '../core/trace.js';

export const DEFAULT_STORE_PATH = join('.crucible', 'crucible.db');
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
  /** The result: the program, why it abstained, attempts … */
  readonly summary?: Record<string, unknown>;
  readonly usage?: RunUsage;
}

export interface RunUsage {
  readonly modelCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
  readonly sandboxSeconds?: number;
}

export interface Run extends RunStart {
  readonly id: string;
  readonly status: RunStatus;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly summary: Record<string, unknown> | null;
  readonly usage: RunUsage | null;
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
  usage TEXT
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

/** Readable, sortable and unique enough: 20261130-100000-3fa2. */
function newRunId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export interface StoreOptions {
  /**
   * Commit and fsync every event as it is written (what the store did before group
   * commits; slower). Default false: events are grouped and committed within
   * GROUP_COMMIT_MS, at the end of the run, or when the store closes.
   */
  readonly durable?: boolean;
}

export class Store {
  private readonly db: Database.Database;

  /** Group commit: events go into one open transaction, committed within GROUP_COMMIT_MS (or at finishRun, close). */
  private commitTimer: NodeJS.Timeout | undefined;
  private commitError: unknown;
  /** Runs started here and not finished: the next seq and the ids of their events. */
  private readonly writing = new Map<string, { nextSeq: number; events: Set<number> }>();
  /** Statements prepared once (compiling SQL on every event cost more than running it). */
  private readonly statements: ReturnType<Store['prepareStatements']>;
  private readonly insertEvent: (runId: string, valid: NewTraceEvent, time: string) => { id: number; seq: number };

  private readonly durable: boolean;

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
    this.statements = this.prepareStatements();
    const st = this.statements;
    this.insertEvent = this.db.transaction((runId: string, valid: NewTraceEvent, time: string) => {
      // Runs this Store started, and their events, are known without asking the database.
      const own = this.writing.get(runId);
      if (!own && !st.runStatus.get(runId)) throw new UnknownRunError(`no run ${runId}`);
      const parentId = valid.parentId ?? null;
      if (parentId !== null && !own?.events.has(parentId)) {
        const parent = st.eventRun.get(parentId) as { run_id: string } | undefined;
        if (!parent || parent.run_id !== runId) throw new TypeError(`trace event rejected: parent ${parentId} is not an event of run ${runId}`);
      }
      const seq = own ? own.nextSeq : (st.nextSeq.get(runId) as { seq: number }).seq;
      const result = st.insertEvent.run(runId, seq, parentId, valid.kind, valid.label ?? null, time, JSON.stringify(valid.data));
      const id = Number(result.lastInsertRowid);
      if (own) {
        own.nextSeq = seq + 1;
        own.events.add(id);
      }
      return { id, seq };
    });
  }

  private prepareStatements() {
    return {
      insertRun: this.db.prepare('INSERT INTO runs (id, task, strategy, model, budget, meta, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      runStatus: this.db.prepare('SELECT status FROM runs WHERE id = ?'),
      eventRun: this.db.prepare('SELECT run_id FROM events WHERE id = ?'),
      nextSeq: this.db.prepare('SELECT COALESCE(MAX(seq) + 1, 0) AS seq FROM events WHERE run_id = ?'),
      insertEvent: this.db.prepare('INSERT INTO events (run_id, seq, parent_id, kind, label, time, data) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      finishRun: this.db.prepare('UPDATE runs SET status = ?, finished_at = ?, summary = ?, usage = ? WHERE id = ?'),
      runRecord: this.db.prepare('SELECT runs.*, (SELECT COUNT(*) FROM events WHERE run_id = runs.id) AS events FROM runs WHERE id = ?'),
    };
  }

  startRun(start: RunStart, now: Date = new Date()): Run {
    const values = [start.task, start.strategy, start.model, start.budget ? JSON.stringify(start.budget) : null, start.meta ? JSON.stringify(start.meta) : null, 'running', now.toISOString()];
    // Ids are short: many runs started within one second may draw the same one; draw again.
    for (let attempt = 1; ; attempt++) {
      const id = newRunId(now);
      try {
        this.statements.insertRun.run(id, ...values);
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY' && attempt < 20) continue;
        throw error;
      }
      this.writing.set(id, { nextSeq: 0, events: new Set() });
      return this.getRunRecord(id)!;
    }
  }

  /** Validates and stores one event; its parent must be an event of the same run. */
  appendEvent(runId: string, event: NewTraceEvent, now: Date = new Date()): TraceEvent {
    const parsed = newTraceEventSchema.safeParse(event);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
      throw new TypeError(`trace event rejected: ${issues}`);
    }
    const valid = parsed.data;
    this.beginGroup();
    const { id, seq } = this.insertEvent(runId, valid, now.toISOString());
    return { ...valid, id, runId, seq, time: now.toISOString() } as TraceEvent;
  }

  finishRun(runId: string, finish: RunFinish, now: Date = new Date()): Run {
    this.writing.delete(runId);
    this.commit();
    const result = this.statements.finishRun.run(finish.status, now.toISOString(), finish.summary ? JSON.stringify(finish.summary) : null, finish.usage ? JSON.stringify(finish.usage) : null, runId);
    if (result.changes === 0) throw new UnknownRunError(`no run ${runId}`);
    return this.getRunRecord(runId)!;
  }

  /** Newest first. */
  listRuns(options: { limit?: number } = {}): Run[] {
    const rows = this.db
      .prepare(`SELECT runs.*, (SELECT COUNT(*) FROM events WHERE run_id = runs.id) AS events FROM runs ORDER BY started_at DESC, id DESC LIMIT ?`)
      .all(options.limit ?? 50) as RunRow[];
    return rows.map(toRun);
  }

  /** A run and its events in order; `idOrPrefix` may be any unambiguous start of a run id. */
  getRun(idOrPrefix: string): { run: Run; events: TraceEvent[] } | undefined {
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
   * Commits the events written so far. One commit per event cost more than everything else
   * the store does; events are grouped, and committed at the latest GROUP_COMMIT_MS later,
   * when the run finishes, or when the store closes (readers in other processes see them then).
   */
  commit(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    const failed = this.commitError;
    this.commitError = undefined;
    if (this.db.inTransaction) this.db.exec('COMMIT');
    if (failed !== undefined) throw failed;
  }

  private beginGroup(): void {
    if (this.durable) return;
    if (this.commitError !== undefined) this.commit();
    if (this.db.inTransaction) return;
    this.db.exec('BEGIN IMMEDIATE');
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      try {
        if (this.db.open && this.db.inTransaction) this.db.exec('COMMIT');
      } catch (error) {
        this.commitError = error; // thrown by the next write
      }
    }, GROUP_COMMIT_MS);
    this.commitTimer.unref();
  }

  private resolveId(idOrPrefix: string): string | undefined {
    const exact = this.db.prepare('SELECT id FROM runs WHERE id = ?').get(idOrPrefix) as { id: string } | undefined;
    if (exact) return exact.id;
    const matches = this.db.prepare("SELECT id FROM runs WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6").all(`${idOrPrefix.replace(/[\\%_]/g, '\\$&')}%`) as Array<{ id: string }>;
    if (matches.length > 1) throw new UnknownRunError(`"${idOrPrefix}" matches several runs: ${matches.map((m) => m.id).join(', ')}; give more of the id`);
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
