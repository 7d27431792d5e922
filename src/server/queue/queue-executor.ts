/**
 * `crucible serve --queue`: the server's `Executor` puts every program run on the BullMQ
 * queue and waits for `crucible worker` processes (any number, on any host) to run it.
 * Guarantees and their mechanisms are in protocol.ts; in short: each job has the id
 * `<request>.<index>`, results arrive on this server's own list and are read once, and the
 * first result for an id wins (later ones are counted as duplicates and dropped), so a job
 * retried after a worker died gives its test exactly one verdict.
 */
import pMap from 'p-map';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { cancelled, noVerdict, type ProgramResult } from '../../runtimes/program-worker.js';
import type { BatchOptions, Executor, ProgramJob, RunOptions } from '../../runtimes/executor.js';
import type { Metrics } from '../metrics.js';
import {
  assertReachable,
  ATTEMPTS,
  connect,
  describeRedisUrl,
  liveWorkers,
  PREFIX,
  QUEUE_NAME,
  resultsKey,
  SERVER_TTL_S,
  serverAliveKey,
  type QueueJobData,
  type QueueResultMessage,
} from './protocol.js';

export interface QueueExecutorOptions {
  /** redis://host:port[/db] */
  readonly url: string;
  readonly metrics?: Metrics | undefined;
  /** Jobs of one batch on the queue at once (default 1024): bounds what a stopped or aborted batch leaves behind. */
  readonly inFlight?: number | undefined;
  /** How often waiting jobs are checked for being lost with Redis's data, and from what age (ms; default every 5 s, after 15 s). */
  readonly watch?: { readonly everyMs: number; readonly afterMs: number } | undefined;
}

interface Pending {
  readonly job: ProgramJob;
  readonly started: number;
  readonly batch: string;
  /** On Redis (addBulk returned). */
  queued: boolean;
  resolve(result: ProgramResult | undefined): void;
}

/** Results taken from the list per round trip. */
const DRAIN = 512;
/** Jobs per addBulk call. */
const ADD_CHUNK = 1000;
/** How often, and after how long, waiting jobs are checked for still being on Redis. */
const WATCH_MS = 5_000;
const WATCH_AFTER_MS = 15_000;

export class QueueExecutor implements Executor {
  readonly kind = 'queue' as const;
  /** This server's id: its results list and its liveness key are named after it. */
  readonly id = randomUUID();
  readonly url: string;
  private readonly redis: Redis;
  private readonly reader: Redis;
  private readonly queue: Queue<QueueJobData>;
  private readonly pending = new Map<string, Pending>();
  private buffer: Array<{ id: string; job: ProgramJob }> = [];
  private flushScheduled = false;
  private closed = false;
  private connected = false;
  private readonly aliveTimer: NodeJS.Timeout;
  private readonly watchTimer: NodeJS.Timeout;
  /** Waiting jobs found missing from Redis once: queued again if still missing at the next check. */
  private suspects = new Set<string>();
  private readonly loop: Promise<void>;
  private readonly inFlight: number;
  /** Results read from the list, and those dropped because their job already had one. */
  results = 0;
  duplicates = 0;
  /** Jobs queued again because Redis no longer had them and no result came (Redis lost its data). */
  requeued = 0;

  private constructor(private readonly options: QueueExecutorOptions) {
    this.url = options.url;
    this.inFlight = Math.max(1, options.inFlight ?? 1024);
    this.redis = connect(options.url, `crucible-serve-${this.id}`);
    this.reader = connect(options.url, `crucible-serve-results-${this.id}`);
    this.queue = new Queue<QueueJobData>(QUEUE_NAME, { connection: this.redis, prefix: PREFIX });
    // Before connect() has reached Redis, its own message says what is wrong, once.
    this.queue.on(
      'error',
      (error) => this.connected && process.stderr.write(`crucible serve: queue: ${error.message}\n`),
    );
    this.aliveTimer = setInterval(() => void this.markAlive().catch(() => {}), (SERVER_TTL_S / 3) * 1000);
    this.aliveTimer.unref();
    // After Redis restarts, say at once that this server is alive (workers drop jobs of dead servers).
    this.redis.on('ready', () => void this.markAlive().catch(() => {}));
    this.watchTimer = setInterval(() => void this.requeueLost().catch(() => {}), options.watch?.everyMs ?? WATCH_MS);
    this.watchTimer.unref();
    this.loop = this.readResults();
  }

  /** Connects to Redis (failing clearly if it does not answer) and starts reading results. */
  static async connect(options: QueueExecutorOptions): Promise<QueueExecutor> {
    describeRedisUrl(options.url);
    const executor = new QueueExecutor(options);
    try {
      await assertReachable(executor.redis, options.url);
      await executor.markAlive();
      await executor.queue.waitUntilReady();
      executor.connected = true;
    } catch (error) {
      // Not close(): its goodbyes to Redis would wait for a Redis that is not there.
      executor.disconnectNow();
      throw error;
    }
    return executor;
  }

  private disconnectNow(): void {
    this.closed = true;
    clearInterval(this.aliveTimer);
    clearInterval(this.watchTimer);
    this.reader.disconnect();
    this.redis.disconnect();
    void this.loop.catch(() => {});
  }

  private async markAlive(): Promise<void> {
    await this.redis.set(serverAliveKey(this.id), '1', 'EX', SERVER_TTL_S);
  }

  async run(job: ProgramJob, options: RunOptions = {}): Promise<ProgramResult> {
    const { signal } = options;
    if (signal?.aborted) return cancelled();
    // A batch of one, so that an abandoned request withdraws its job if no worker took it yet.
    // A job a worker already runs is not stopped: it ends at its own time limit.
    const batch = randomUUID();
    const withdraw = () => void this.withdraw(batch);
    signal?.addEventListener('abort', withdraw, { once: true });
    try {
      return (await this.submit(`${batch}.0`, job, batch)) ?? cancelled();
    } finally {
      signal?.removeEventListener('abort', withdraw);
    }
  }

  async runBatch(
    jobs: readonly ProgramJob[],
    onResult: (index: number, result: ProgramResult) => void,
    options: BatchOptions = {},
  ): Promise<void> {
    const batch = randomUUID();
    const { signal, skip } = options;
    // Jobs no worker has taken yet are withdrawn; running ones still report.
    const withdraw = () => void this.withdraw(batch);
    signal?.addEventListener('abort', withdraw, { once: true });
    try {
      await pMap(
        jobs,
        async (job, index) => {
          if (signal?.aborted || skip?.(index)) return;
          const result = await this.submit(`${batch}.${index}`, job, batch);
          if (result) onResult(index, result);
        },
        { concurrency: this.inFlight },
      );
    } finally {
      signal?.removeEventListener('abort', withdraw);
    }
  }

  /** Queues one job; resolves with its first result, or undefined if withdrawn. */
  private submit(id: string, job: ProgramJob, batch: string): Promise<ProgramResult | undefined> {
    if (this.closed) return Promise.resolve(noVerdict('the server is shutting down'));
    return new Promise((resolve) => {
      this.pending.set(id, { job, started: performance.now(), batch, queued: false, resolve });
      this.buffer.push({ id, job });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // Jobs queued in the same turn of the event loop go to Redis in one call.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const items = this.buffer;
    this.buffer = [];
    for (let i = 0; i < items.length; i += ADD_CHUNK) {
      const chunk = items.slice(i, i + ADD_CHUNK);
      try {
        await this.queue.addBulk(
          chunk.map(({ id, job }) => ({
            name: job.language,
            data: { language: job.language, request: job.request, reply: this.id },
            opts: { jobId: id, attempts: ATTEMPTS, removeOnComplete: true, removeOnFail: { age: 3600 } },
          })),
        );
        for (const { id } of chunk) {
          const entry = this.pending.get(id);
          if (entry) entry.queued = true;
        }
      } catch (error) {
        for (const { id } of chunk)
          this.settle(
            id,
            noVerdict(`the job could not be queued on ${describeRedisUrl(this.url)}: ${(error as Error).message}`),
          );
      }
    }
  }

  /** Removes the batch's jobs that no worker holds; their tests get no callback. */
  private async withdraw(batch: string): Promise<void> {
    const ids = [...this.pending].filter(([, p]) => p.batch === batch).map(([id]) => id);
    const buffered = new Set(ids);
    this.buffer = this.buffer.filter(({ id }) => {
      if (!buffered.has(id)) return true;
      this.settle(id, undefined);
      return false;
    });
    await Promise.all(
      ids.map(async (id) => {
        if (!this.pending.has(id)) return;
        try {
          if ((await this.queue.remove(id)) === 1) this.settle(id, undefined);
        } catch {
          // Left to run: its result is still taken when it comes.
        }
      }),
    );
  }

  private settle(id: string, result: ProgramResult | undefined): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    if (result)
      this.options.metrics?.recordExecution(
        entry.job.language,
        result.status,
        (performance.now() - entry.started) / 1000,
      );
    entry.resolve(result);
    return true;
  }

  private deliver(text: string): void {
    let message: QueueResultMessage;
    try {
      message = JSON.parse(text) as QueueResultMessage;
    } catch {
      return;
    }
    this.results++;
    if (!this.settle(message.id, message.result)) {
      this.duplicates++;
      this.options.metrics?.recordDuplicateResult();
    }
  }

  /**
   * A job is removed from Redis only after its worker pushed the result, so a job that is
   * gone while its result has not come at the next check (WATCH_MS later, time enough to
   * read the list) was lost with Redis's data (a restart without persistence, a flush):
   * it is queued again under the same id. A second result would be dropped as a duplicate.
   */
  private async requeueLost(): Promise<void> {
    const now = performance.now();
    const after = this.options.watch?.afterMs ?? WATCH_AFTER_MS;
    const old = [...this.pending].filter(([, p]) => p.queued && now - p.started > after);
    if (old.length === 0) {
      this.suspects.clear();
      return;
    }
    const pipeline = this.redis.pipeline();
    for (const [id] of old) pipeline.exists(`${PREFIX}:${QUEUE_NAME}:${id}`);
    const exists = (await pipeline.exec()) ?? [];
    const suspects = new Set<string>();
    let lost = false;
    old.forEach(([id, entry], i) => {
      if (exists[i]?.[1] !== 0 || !this.pending.has(id)) return;
      if (!this.suspects.has(id)) suspects.add(id);
      else {
        lost = true;
        this.requeued++;
        entry.queued = false;
        this.buffer.push({ id, job: entry.job });
      }
    });
    this.suspects = suspects;
    // Whatever took the jobs took this server's liveness key too.
    if (lost) await this.markAlive();
    if (this.buffer.length > 0 && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  /** Pops results from this server's list: each entry is read once. */
  private async readResults(): Promise<void> {
    const key = resultsKey(this.id);
    while (!this.closed) {
      try {
        const first = await this.reader.brpop(key, 1);
        if (!first) continue;
        this.deliver(first[1]);
        for (;;) {
          const out = await this.reader
            .multi()
            .lrange(key, -DRAIN, -1)
            .ltrim(key, 0, -DRAIN - 1)
            .exec();
          const items = (out?.[0]?.[1] ?? []) as string[];
          // The list's tail is the oldest entry.
          for (let i = items.length - 1; i >= 0; i--) this.deliver(items[i]!);
          if (items.length < DRAIN) break;
        }
      } catch {
        if (this.closed) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async load() {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
    const workers = await liveWorkers(this.redis);
    return {
      queued: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
      running: counts.active ?? 0,
      workers: workers.reduce((n, w) => n + w.workers, 0),
    };
  }

  async health(): Promise<string | undefined> {
    try {
      await assertReachable(this.redis, this.url, 2);
      const workers = await liveWorkers(this.redis);
      if (workers.length === 0)
        return `no crucible worker is connected to ${describeRedisUrl(this.url)}: start one with crucible worker --queue <the same URL>`;
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** Jobs waiting for a result here. */
  get waiting(): number {
    return this.pending.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.aliveTimer);
    clearInterval(this.watchTimer);
    for (const id of [...this.pending.keys()]) this.settle(id, noVerdict('the server is shutting down'));
    await this.redis.del(serverAliveKey(this.id), resultsKey(this.id)).catch(() => {});
    await this.queue.close().catch(() => {});
    this.reader.disconnect();
    await this.loop;
    this.redis.disconnect();
  }
}
