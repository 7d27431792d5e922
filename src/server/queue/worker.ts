/**
 * `crucible worker --queue`: takes program jobs from the BullMQ queue, runs them on this
 * host's warm sandboxed pools (the same ProgramRunner as `crucible serve`), and pushes each
 * result onto the asking server's results list. Several workers on several hosts share the
 * queue; a worker that dies loses its locks and its jobs run again elsewhere (protocol.ts).
 */
import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ProgramRunner, type ProgramPoolOptions } from '../../runtimes/program-pool.js';
import { noVerdict, type ProgramResult } from '../../runtimes/program-worker.js';
import {
  assertReachable,
  ATTEMPTS,
  connect,
  describeRedisUrl,
  LOCK_MS,
  MAX_STALLED,
  PREFIX,
  QUEUE_NAME,
  RESULTS_TTL_S,
  resultsKey,
  serverAliveKey,
  STALLED_INTERVAL_MS,
  WORKER_TTL_MS,
  WORKERS_KEY,
  type QueueJobData,
  type QueueResultMessage,
  type WorkerInfo,
} from './protocol.js';

export interface QueueWorkerOptions extends ProgramPoolOptions {
  /** redis://host:port[/db] */
  readonly url: string;
  /**
   * Jobs taken at once (default: four per sandboxed worker): more than the pool runs, so that
   * a worker always has the next program at hand while results and fetches cross Redis.
   */
  readonly concurrency?: number | undefined;
  /** Told about each job this worker finishes (tests, logs). */
  readonly onJob?: ((id: string, result: ProgramResult) => void) | undefined;
}

export interface QueueWorker {
  readonly info: WorkerInfo;
  readonly runner: ProgramRunner;
  /** Jobs whose result this worker pushed. */
  readonly done: number;
  /** Stops taking jobs, finishes the running ones, and stops the pools. */
  close(): Promise<void>;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  describeRedisUrl(options.url);
  const id = `${hostname()}:${process.pid}`;
  const redis: Redis = connect(options.url, `crucible-worker-${id}`);
  try {
    await assertReachable(redis, options.url);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const { url: _url, concurrency: _c, onJob, ...poolOptions } = options;
  const runner = new ProgramRunner(poolOptions);
  const concurrency = options.concurrency ?? runner.workers * 4;
  const info: WorkerInfo = { id, host: hostname(), pid: process.pid, workers: runner.workers, concurrency };
  const member = JSON.stringify(info);
  let done = 0;

  // Servers that are gone (their liveness key expired) get no more work: their jobs are dropped.
  const aliveCache = new Map<string, number>();
  const serverAlive = async (server: string) => {
    const until = aliveCache.get(server) ?? 0;
    if (until > Date.now()) return true;
    const alive = (await redis.exists(serverAliveKey(server))) === 1;
    if (alive) aliveCache.set(server, Date.now() + 2000);
    return alive;
  };

  const push = async (jobId: string, server: string, result: ProgramResult) => {
    const message: QueueResultMessage = { id: jobId, result, by: id };
    const key = resultsKey(server);
    await redis.multi().lpush(key, JSON.stringify(message)).expire(key, RESULTS_TTL_S).exec();
    done++;
    onJob?.(jobId, result);
  };

  const processor = async (job: Job<QueueJobData>) => {
    const data = job.data;
    if (!(await serverAlive(data.reply))) return 'orphaned';
    let result: ProgramResult;
    try {
      result = await runner.run(data.language, data.request);
    } catch (error) {
      result = noVerdict(`the worker ${id} failed: ${(error as Error).message}`);
    }
    // The result goes out before BullMQ records the completion: a worker dying in between
    // costs a second run, whose result the server drops; the other order could lose one.
    await push(job.id!, data.reply, result);
    return 'done';
  };

  const worker = new Worker<QueueJobData>(QUEUE_NAME, processor, {
    connection: redis,
    prefix: PREFIX,
    name: id,
    concurrency,
    lockDuration: LOCK_MS,
    stalledInterval: STALLED_INTERVAL_MS,
    maxStalledCount: MAX_STALLED,
    autorun: false,
  });
  worker.on('error', (error) => process.stderr.write(`crucible worker: ${error.message}\n`));
  // A job that failed for good (its workers kept dying, or the result could not be pushed
  // ATTEMPTS times) still answers its server: no-verdict, never a silent loss.
  worker.on('failed', (job, error) => {
    if (!job?.id) return;
    const final =
      error instanceof UnrecoverableError ||
      error.name === 'UnrecoverableError' ||
      job.attemptsMade >= (job.opts.attempts ?? ATTEMPTS);
    if (!final) return;
    void push(job.id, job.data.reply, noVerdict(`the job failed on the queue: ${error.message}`)).catch(() => {});
  });

  const heartbeat = async () => {
    await redis.zadd(WORKERS_KEY, Date.now() + WORKER_TTL_MS, member);
  };
  await heartbeat();
  const timer = setInterval(() => void heartbeat().catch(() => {}), WORKER_TTL_MS / 4);
  timer.unref();
  void worker.run().catch((error: Error) => process.stderr.write(`crucible worker: ${error.message}\n`));
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    info,
    runner,
    get done() {
      return done;
    },
    close() {
      closing ??= (async () => {
        clearInterval(timer);
        await redis.zrem(WORKERS_KEY, member).catch(() => {});
        await worker.close();
        await runner.close();
        redis.disconnect();
      })();
      return closing;
    },
  };
}
