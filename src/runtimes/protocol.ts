import { z } from 'zod';
import type { PromptHelpers } from '../core/prompt-helpers.js';
import type { Channel } from './line-process.js';
import { RAW_SUITE_STATUSES, type CandidateExit, type Limits, type LoadOutcome, type SuiteOutcome } from './runtime.js';

/**
 * The messages between Crucible and its workers (PROTOCOL.md), one JSON object a line each
 * way. What Crucible sends is typed here; what a worker sends is checked against the schema
 * of its `op` as LineProcess reads the line, so a reply that does not fit is a reason (a
 * no-verdict upstream), never a crash, and the rest of Crucible reads typed fields.
 *
 * A judge's result can be hundreds of MB (HumanEval+'s recorded outputs): the checks that cost
 * per item are plain loops over what JSON.parse made, returned as it is, so nothing large is
 * copied or walked twice.
 */

type Ping = { readonly op: 'ping' };
const pong = z.object({ op: z.literal('pong') });

/** Numbers, checked in a loop and kept as they are (per-input times: one per test). */
const numbers = z.custom<readonly number[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'number') return false;
  return true;
}, 'expected an array of numbers');
/** path → text, kept as it is (a fetched file's path may be `__proto__`, which zod's copy would drop). */
const textsByPath = z.custom<Record<string, string>>(
  (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'),
  'expected an object of strings',
);

type ReplyOf<Replies extends Record<string, z.ZodType>> = z.output<Replies[keyof Replies]>;

/** Reads replies told apart by `op`, each checked against its schema; the reason names the worker and the first wrong field. */
function byOp<const Replies extends Record<string, z.ZodType>>(
  worker: string,
  replies: Replies,
): (value: unknown) => ReplyOf<Replies> | string {
  return (value) => {
    const op = typeof value === 'object' && value !== null ? (value as { op?: unknown }).op : undefined;
    if (typeof op !== 'string' || !Object.hasOwn(replies, op)) {
      return `${worker} sent a message the protocol does not have (${typeof op === 'string' ? `op ${op.slice(0, 40)}` : 'no op'})`;
    }
    const parsed = replies[op]!.safeParse(value);
    return parsed.success
      ? (parsed.data as ReplyOf<Replies>)
      : `${worker} wrote a malformed ${op} (${firstIssue(parsed.error.issues)})`;
  };
}

/** The first issue as "path: message"; of a union (one op, two shapes), that of the last shape, the full one. */
function firstIssue(issues: readonly z.core.$ZodIssue[], path: readonly PropertyKey[] = []): string {
  const issue = issues[0];
  if (!issue) return 'unknown';
  const at = [...path, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) return firstIssue(issue.errors.at(-1)!, at);
  return `${at.map(String).join('.') || 'line'}: ${issue.message}`;
}

// --- Crucible ↔ candidate worker ------------------------------------------------------

export type CandidateRequest =
  | Ping
  | {
      readonly op: 'start';
      readonly limits: Pick<Limits, 'memoryBytes' | 'cpuSeconds' | 'outputBytes' | 'replyBytes'>;
      readonly seccomp: string | null;
    }
  /** Only while a candidate runs: stop it now. */
  | { readonly op: 'kill' };

const candidateReplies = {
  pong,
  started: z.object({ op: z.literal('started') }),
  /** The candidate was lent one of the worker's own node objects: the worker is replaced after the run. */
  tainted: z.object({ op: z.literal('tainted'), why: z.string() }),
  exited: z.object({
    op: z.literal('exited'),
    code: z.number().nullable(),
    signal: z.number().nullable(),
    outputBytes: z.number(),
    cpuSeconds: z.number().exactOptional(),
    maxRssBytes: z.number().exactOptional(),
  }) satisfies z.ZodType<CandidateExit & { op: 'exited' }>,
};
export type CandidateReply = ReplyOf<typeof candidateReplies>;
export const CANDIDATE: Channel<CandidateRequest, CandidateReply> = {
  read: byOp('the candidate worker', candidateReplies),
};

// --- Crucible ↔ judge worker ----------------------------------------------------------

export type JudgeSuite =
  | {
      readonly kind: 'io';
      readonly name: string;
      readonly entry: string;
      /** JSON text of the argument lists. */
      readonly inputs: string;
      readonly atol: number;
      readonly oracle: string | null;
      readonly inputAdapter: string | null;
      /** Seconds per input (from the reference's times), or one `limit` for each. */
      readonly limits: readonly number[] | null;
      readonly limit: number;
    }
  | {
      readonly kind: 'script';
      readonly name: string;
      readonly code: string;
      readonly invoke: string | null;
      readonly helpers: PromptHelpers | null;
      readonly limit: number;
    };

/**
 * A run, less its `expected` outputs: those are JSON the judges wrote themselves, spliced into
 * the line as JSON (slot.ts), since escaping hundreds of MB into a string and back costs.
 */
export interface JudgeRun {
  readonly op: 'run';
  readonly program: string;
  readonly record: boolean;
  readonly loadSeconds: number;
  readonly replyBytes: number;
  readonly connectSeconds: number;
  readonly suites: readonly JudgeSuite[];
  /** An untrusted run (Python): the run's child installs this filter on itself before the test code runs. */
  readonly seccomp?: string;
}

export type JudgeRequest = Ping | JudgeRun;

/**
 * A judge's result. Crucible's own judges write it, but one that ran a request's test code may
 * have been rewritten by it: its texts are also capped (`text`), since they reach the client.
 */
function judgeReplies(text: z.ZodString) {
  const status = z.enum(RAW_SUITE_STATUSES);
  const failure = z.object({
    input: text.nullable(),
    expected: text.nullable(),
    actual: text.nullable(),
    message: text,
  });
  const suite = z.object({
    name: text,
    status,
    passed: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    firstFailure: failure.nullable(),
    inline: z.boolean().exactOptional(),
    failedAt: z.number().int().nonnegative().exactOptional(),
    outputs: z.string().exactOptional(),
    times: numbers.exactOptional(),
    elapsed: z.number().exactOptional(),
  }) satisfies z.ZodType<SuiteOutcome>;
  const result = z.object({
    op: z.literal('result'),
    load: z.object({
      ok: z.boolean(),
      status: status.exactOptional(),
      message: text.exactOptional(),
    }) satisfies z.ZodType<LoadOutcome>,
    suites: z.array(suite),
    /** Stop the candidate: it overran a time limit. */
    kill: z.boolean().exactOptional(),
  });
  /** The judge's own failure (an exception in it, or a forking judge's child that wrote no single line). */
  const failed = z.object({ op: z.literal('result'), internalError: text });
  return { pong, result: z.union([failed, result]) };
}

const judgeTrusted = judgeReplies(z.string());
export type JudgeReply = ReplyOf<typeof judgeTrusted>;
export type JudgeResult = Extract<JudgeReply, { suites: unknown }>;
export const JUDGE: Channel<JudgeRequest, JudgeReply> = { read: byOp('the judge', judgeTrusted) };
/** A judge that runs test code Crucible does not trust: texts of at most 1 MB. */
export const UNTRUSTED_JUDGE: Channel<JudgeRequest, JudgeReply> = {
  read: byOp('the judge', judgeReplies(z.string().max(1 << 20))),
};

// --- Crucible ↔ program worker --------------------------------------------------------

export interface ProgramRun {
  readonly op: 'run';
  readonly code: string;
  readonly stdin: string;
  /** Relative path → base64, written before the run. */
  readonly files: Readonly<Record<string, string>>;
  /** Relative paths to return after the run. */
  readonly fetch: readonly string[];
  readonly limits: {
    readonly wallSeconds: number;
    readonly cpuSeconds: number;
    readonly memoryBytes: number;
    readonly outputBytes: number;
  };
  readonly seccomp: string | null;
}

const programReplies = {
  pong,
  result: z.object({
    op: z.literal('result'),
    exitCode: z.number().nullable(),
    signal: z.number().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    truncated: z.boolean(),
    scratchFull: z.boolean(),
    timedOut: z.boolean(),
    wallSeconds: z.number(),
    cpuSeconds: z.number().exactOptional(),
    maxRssBytes: z.number().exactOptional(),
    /** Written by the program's own process (so it can only lower the program's status); none when it wrote nothing. */
    report: z.object({ phase: z.string(), error: z.string() }).nullable().exactOptional(),
    files: textsByPath,
    /** The worker could not set the program up (JavaScript: its context failed). */
    noVerdict: z.string().exactOptional(),
  }),
};
export type ProgramWorkerRequest = Ping | ProgramRun;
export type ProgramReply = ReplyOf<typeof programReplies>;
export type ProgramReport = Extract<ProgramReply, { op: 'result' }>;
export const PROGRAM: Channel<ProgramWorkerRequest, ProgramReply> = {
  read: byOp('the program worker', programReplies),
};

// --- Crucible ↔ SQL worker -------------------------------------------------------------

/**
 * One value of a result row, as JSON can carry it (sql/sql-worker.cjs and sql/pg-worker.mjs
 * `encode`): NULL, TEXT and REAL as themselves; INTEGER as a number while it is exact in a
 * double (|n| ≤ 2^53 − 1), else `{"$int": decimal}`; a REAL that is ±infinity
 * `{"$real": "Infinity" | "-Infinity"}` (SQLite turns NaN into NULL, and the Postgres worker
 * does the same); a BLOB `{"$blob": base64}`. Postgres's other types map onto these: numeric
 * and the floats are REAL, boolean 1 or 0, bytea a BLOB, the rest the text Postgres prints.
 */
export type SqlValue =
  | null
  | number
  | string
  | { readonly $blob: string }
  | { readonly $int: string }
  | { readonly $real: 'Infinity' | '-Infinity' };
export type SqlRow = readonly SqlValue[];

/** Where a database comes from: a file (its path inside the sandbox; SQLite only), or built from the task's SQL text, cached by `key`. */
export type SqlDatabaseRef = string | { readonly key: string; readonly schema: string; readonly setup: string };

export interface SqlQuery {
  readonly op: 'query';
  readonly database: SqlDatabaseRef;
  readonly sql: string;
  /** Run on a throw-away in-memory copy of the database (SQLite), or in a transaction that is rolled back (Postgres), where INSERT/UPDATE/DELETE (REPLACE; MERGE) are allowed too. */
  readonly writable: boolean;
  /** With `writable`: a read-only query run on the copy afterwards (what the statement left). */
  readonly after: string | null;
  readonly limits: { readonly rows: number; readonly bytes: number; readonly wallMs: number };
}
export type SqlWorkerRequest = Ping | SqlQuery;

function isSqlValue(v: unknown): boolean {
  if (v === null || typeof v === 'string') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 1) return false;
  const tagged = v as Record<string, unknown>;
  if (keys[0] === '$blob' || keys[0] === '$int') return typeof tagged[keys[0]] === 'string';
  return keys[0] === '$real' && (tagged.$real === 'Infinity' || tagged.$real === '-Infinity');
}
/** Rows, checked in a loop and kept as they are (a result can have 100,000 rows). */
const sqlRows = z.custom<readonly SqlRow[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (const row of v) {
    if (!Array.isArray(row)) return false;
    for (let i = 0; i < row.length; i++) if (!isSqlValue(row[i])) return false;
  }
  return true;
}, 'expected an array of rows of SQL values');
const sqlTable = z.object({ columns: z.array(z.string()), rows: sqlRows, truncated: z.boolean() });
const sqlReplies = {
  pong,
  result: sqlTable.extend({
    op: z.literal('result'),
    /** Rows the statement changed (a writable request's INSERT/UPDATE/DELETE). */
    changes: z.number().exactOptional(),
    /** The `after` query's result on the copy. */
    after: sqlTable.exactOptional(),
    /** Time the worker spent on the request, database included. */
    wallMs: z.number(),
  }),
  error: z.object({
    op: z.literal('error'),
    /** `database`: opening or building it failed (the task's fault); `prepare`: the engine or the allow-list refused the query; `run`: it failed while running; `after`: the `after` query failed. */
    phase: z.enum(['database', 'prepare', 'run', 'after']),
    /** The engine's own message (or the allow-list's). */
    message: z.string().max(1 << 16),
    /** The engine's error code, when it raised the error: SQLite's (SQLITE_ERROR, SQLITE_NOMEM...), Postgres's SQLSTATE (42601...). */
    code: z.string().max(100).exactOptional(),
    /** Set by the worker, never from the message: the query ran past its time (between rows) or out of memory. */
    limit: z.enum(['timeout', 'memory']).exactOptional(),
    /** The allow-list refused the statement (it parsed, but is not one read-only query). */
    refused: z.literal(true).exactOptional(),
  }),
};
export type SqlReply = ReplyOf<typeof sqlReplies>;
export type SqlTable = z.output<typeof sqlTable>;
export const SQL: Channel<SqlWorkerRequest, SqlReply> = { read: byOp('the SQL worker', sqlReplies) };
/** The Postgres worker started with `--make-template`: its one line, the data directory every worker starts from (a .tar.gz, as base64). */
export const PG_TEMPLATE: Channel<never, { op: 'template'; data: string }> = {
  read: byOp('the Postgres template maker', {
    template: z.object({ op: z.literal('template'), data: z.base64() }),
  }),
};

// --- Crucible ↔ TypeScript compiler process -------------------------------------------

export type CompilerRequest =
  | Ping
  | { readonly op: 'transpile'; readonly source: string; readonly fileName: string }
  | { readonly op: 'check'; readonly program: string; readonly extra?: string }
  | { readonly op: 'instrument'; readonly source: string; readonly typescript: boolean };

const errors = z.array(z.string());
const compilerReplies = {
  pong,
  transpiled: z.object({ op: z.literal('transpiled'), code: z.string(), errors }),
  checked: z.object({ op: z.literal('checked'), errors }),
  /** A reference made to count its statements and branch outcomes (instrument.ts). */
  instrumented: z.object({
    op: z.literal('instrumented'),
    code: z.string(),
    statementLines: numbers,
    branchOutcomes: numbers,
    errors,
  }),
  /** The compiler threw (a stack overflow on deep nesting), or the request was not one it knows. */
  failed: z.object({ op: z.literal('failed'), message: z.string() }),
};
export type CompilerReply = ReplyOf<typeof compilerReplies>;
export const COMPILER: Channel<CompilerRequest, CompilerReply> = {
  read: byOp('the TypeScript compiler', compilerReplies),
};

// --- Judge ↔ candidate, over the FIFOs ------------------------------------------------
// Crucible reads none of it. The JavaScript judge's requests are checked by the compiler
// (node/judge-worker.cjs); what either side reads from a FIFO is `Unchecked`: a judge that
// ran a request's test code, or a candidate, could have written anything there.

/** What the judge asks of the candidate worker; `timeoutMs` is read by JavaScript only (PROTOCOL.md). */
export type ToCandidate =
  | { readonly op: 'load'; readonly program: string; readonly timeoutMs?: number }
  | {
      readonly op: 'batch';
      readonly name: string;
      readonly inputs: readonly unknown[];
      readonly timeoutMs?: readonly number[];
    }
  | { readonly op: 'inline'; readonly code: string; readonly invoke: string | null; readonly timeoutMs?: number }
  | { readonly op: 'end' };

/** A line as JSON.parse made it, before any of it is checked. */
export type Unchecked = { readonly [field: string]: unknown };

/** The message a worker's `serveWorker` loop hands its `run` for `op` (node/wire.cjs). */
export type Requested<Op extends string> = Extract<CandidateRequest | ProgramWorkerRequest, { op: Op }>;
