/**
 * `POST /v1/verify` with `"domain": "sql"` (request.ts): candidate queries for one SQL task
 * (its schema and setup SQL, its reference), judged by the SQL pack on the task's database and,
 * with `augment`, on generated ones; each report on the wire as every pack's (../request.ts).
 * The engine's workers start on the first SQL request.
 *
 * The engine is shared between requests: each request's candidates, and each task's
 * preparation, take turns on its workers (runtimes/sql-pool.ts `SqlLane`). A preparation (the
 * reference on up to 300 generated databases, each of its mutants on each) is kept per request
 * hash, shared by the requests that wait for it and stopped when the last of them leaves; it
 * spends at most its budget of engine seconds, and stops its mutants at the first that runs
 * past its short limit (domains/sql/preparation-budget.ts), saying so in `summary.task.stopped`.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import pMap from 'p-map';
import { BadRequestError } from '../../core/errors.js';
import { unlessAborted } from '../../runtimes/pool.js';
import { SqlRunner, type SqlLane, type SqlRunnerOptions } from '../../runtimes/sql-pool.js';
import {
  identified,
  statusCounts,
  stoppedVerdict,
  verdictOnWire,
  type RequestVerifier,
  type VerifyHooks,
} from '../request.js';
import { sqlPack, type SqlChecks, type SqlPack, type SqlPrepareLimits, type SqlTask } from './index.js';
import { SqlVerifyRequestSchema, type SqlVerifyRequest } from './request.js';

/** How SQL preparations are bounded and kept. */
export interface SqlVerifierOptions extends SqlRunnerOptions {
  /** The engine to use instead of one made at the first request (not closed by close()). */
  readonly runner?: SqlRunner;
  /** Prepared tasks kept (least recently used first out). */
  readonly cacheSize?: number;
  /** Each preparation's engine seconds (summed over its queries; default 60) and its mutants' limit (preparation-budget.ts). */
  readonly preparation?: Pick<SqlPrepareLimits, 'querySeconds' | 'mutantSeconds'>;
}

/** Prepared tasks kept: a task's checks hold its generated databases (at most 100 small ones) and its SQL. */
const CACHE_SIZE = 128;
/** The SQL text (schemas and setups, up to 64 MB each) the kept tasks may hold together. */
const CACHE_BYTES = 256 << 20;
/** A preparation's engine seconds: a hundred databases of an ordinary task take a few. */
const PREPARATION_SECONDS = 60;
const STOPPED = 'not judged: the request was stopped';

/**
 * One task's preparation, shared by the requests that wait for it: it stops (every query it
 * has queued or running) when the last of them leaves, and is then forgotten.
 */
interface Preparation {
  readonly checks: Promise<SqlChecks>;
  readonly stop: AbortController;
  /** The task's own SQL it keeps (schema and setup): what the cache's size counts. */
  readonly bytes: number;
  waiting: number;
  settled: boolean;
}

export class SqlVerifier implements RequestVerifier {
  private runner: SqlRunner | undefined;
  private readonly cache = new Map<string, Preparation>();

  constructor(private readonly options: SqlVerifierOptions = {}) {
    this.runner = options.runner;
  }

  async verify(request: unknown, hooks: VerifyHooks = {}) {
    const body: SqlVerifyRequest = SqlVerifyRequestSchema.parse(request);
    const started = performance.now();
    this.runner ??= new SqlRunner(this.options);
    const pack = sqlPack(this.runner);
    const task: SqlTask = {
      id: body.task.task_id,
      dialect: body.task.dialect,
      database: { kind: 'inline', schema: body.task.schema, setup: body.task.setup },
      question: body.task.question,
      reference: body.task.reference,
      equivalents: [],
      source: 'request',
    };
    const candidates = identified(body.candidates);
    // Every query the request has queued listens to its signal: hundreds at once, by design.
    const signal = hooks.signal && AbortSignal.any([hooks.signal]);
    if (signal) setMaxListeners(0, signal);
    const prepared = await this.prepared(pack, task, body, signal);
    if (prepared === undefined)
      return {
        results: candidates.map((c) => stoppedVerdict(c.id, STOPPED)),
        summary: summary(task, candidates, started),
      };
    const { checks, cached } = prepared;
    if (checks.referenceProblem !== undefined)
      throw new SqlVerifyError(`the task cannot be judged: ${checks.referenceProblem}`);
    // The request's candidates take turns with other requests (and with preparations), apart.
    const lane: SqlLane = {};
    let done = 0;
    hooks.onProgress?.({ done, total: candidates.length });
    const results = await pMap(
      candidates,
      async (candidate, i) => {
        const report = await pack.verify(checks, candidate.code, {
          shrink: body.augment !== undefined,
          lane,
          ...(signal ? { signal } : {}),
          ...(body.weights ? { weights: body.weights } : {}),
        });
        const verdict = verdictOnWire(candidate.id, report, checks.publicSuites);
        hooks.onCandidate?.(verdict, i);
        hooks.onProgress?.({ done: ++done, total: candidates.length });
        return verdict;
      },
      { concurrency: 2 * this.runner.size },
    );
    return {
      results,
      summary: {
        ...summary(task, candidates, started),
        task: {
          id: task.id,
          checks: checks.description,
          generated_databases: checks.generated.length,
          cached,
          ...(checks.incomplete ? { incomplete: checks.incomplete } : {}),
          ...(checks.stopped ? { stopped: checks.stopped } : {}),
        },
        status_counts: statusCounts(results),
      },
    };
  }

  /**
   * The task's checks: from the cache when the same task (and augment options) came before or
   * is being prepared for another request; undefined when `signal` aborted first. A preparation
   * nobody waits for any more is stopped; one that ended incomplete is not kept.
   */
  private async prepared(
    pack: SqlPack,
    task: SqlTask,
    body: SqlVerifyRequest,
    signal: AbortSignal | undefined,
  ): Promise<{ checks: SqlChecks; cached: boolean } | undefined> {
    if (signal?.aborted) return undefined;
    const key = createHash('sha256')
      .update(JSON.stringify([body.task, body.augment ?? null]))
      .digest('hex');
    let entry = this.cache.get(key);
    const cached = entry !== undefined;
    if (entry) {
      this.cache.delete(key); // most recently used last
      this.cache.set(key, entry);
    } else {
      const stop = new AbortController();
      // Its queries take turns in a lane of their own, apart from its requests' candidates.
      const lane: SqlLane = {};
      const checks = pack.prepare(task, {
        audience: 'scorer',
        seed: body.augment?.seed ?? 0,
        probes: body.augment?.databases ?? 0,
        signal: stop.signal,
        lane,
        querySeconds: this.options.preparation?.querySeconds ?? PREPARATION_SECONDS,
        ...(this.options.preparation?.mutantSeconds !== undefined
          ? { mutantSeconds: this.options.preparation.mutantSeconds }
          : {}),
      });
      const bytes = body.task.schema.length + body.task.setup.length + body.task.reference.length;
      const made: Preparation = { checks, stop, bytes, waiting: 0, settled: false };
      entry = made;
      this.cache.set(key, made);
      const size = () => [...this.cache.values()].reduce((n, p) => n + p.bytes, 0);
      while (
        this.cache.size > (this.options.cacheSize ?? CACHE_SIZE) ||
        (this.cache.size > 1 && size() > CACHE_BYTES)
      ) {
        const [oldest, kept] = this.cache.entries().next().value!;
        this.cache.delete(oldest);
        if (!kept.settled && kept.waiting === 0) kept.stop.abort();
      }
      const forget = () => this.cache.get(key) === made && this.cache.delete(key);
      checks.then((c) => {
        made.settled = true;
        if (c.incomplete !== undefined) forget();
      }, forget);
    }
    const preparation = entry;
    preparation.waiting++;
    try {
      const checks = await unlessAborted(preparation.checks, signal);
      return checks && { checks, cached };
    } finally {
      if (--preparation.waiting === 0 && !preparation.settled) {
        preparation.stop.abort();
        if (this.cache.get(key) === preparation) this.cache.delete(key);
      }
    }
  }

  async close(): Promise<void> {
    for (const preparation of this.cache.values()) preparation.stop.abort();
    this.cache.clear();
    if (this.runner !== this.options.runner) await this.runner?.close();
    this.runner = undefined;
  }
}

function summary(task: SqlTask, candidates: readonly unknown[], started: number) {
  return {
    candidates: candidates.length,
    task: { id: task.id, checks: STOPPED, generated_databases: 0, cached: false },
    status_counts: { 'no-verdict': candidates.length } as Record<string, number>,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The task itself cannot be judged (its reference does not run on its database): a 400. */
export class SqlVerifyError extends BadRequestError {}
