/**
 * What `crucible serve --queue` and `crucible worker --queue` agree on: one BullMQ queue of
 * programs, a results list per server, and the Redis keys both sides read.
 *
 * - A job is one program run (one test of one candidate). Its id is `<request id>.<index>`:
 *   adding it twice is a no-op while it exists, and the server keys its bookkeeping on it.
 * - A worker runs the job on its warm pools and pushes `{ id, result }` onto the results
 *   list of the server that asked (`crucible:results:<server id>`); the server pops each
 *   entry once and keeps the first result for an id, dropping any later one (a job retried
 *   after its worker died after pushing but before BullMQ recorded the completion).
 * - A worker that dies loses its job locks within `LOCK_MS`; another worker's stalled-job
 *   check moves the jobs back to the queue and they run again.
 */
import { Redis } from 'ioredis';
import type { ProgramJob } from '../../runtimes/executor.js';
import type { ProgramResult } from '../../runtimes/program-worker.js';

/** BullMQ key prefix and queue name: keys are `crucible:programs:*`. */
export const PREFIX = 'crucible';
export const QUEUE_NAME = 'programs';

/**
 * A job's lock lives this long unless its worker renews it (every LOCK_MS / 2, from the
 * worker's event loop, which is free while a sandboxed program runs). A killed worker's
 * jobs run again after about LOCK_MS + STALLED_INTERVAL_MS.
 */
export const LOCK_MS = 5_000;
export const STALLED_INTERVAL_MS = 2_500;
/** A job whose worker died this many times fails (no-verdict) rather than killing more workers. */
export const MAX_STALLED = 4;
/** Attempts for a job whose processing threw (Redis unreachable while pushing the result). */
export const ATTEMPTS = 3;

export interface QueueJobData extends ProgramJob {
  /** The server waiting for the result: results go to `resultsKey(reply)`. */
  readonly reply: string;
}

export interface QueueResultMessage {
  readonly id: string;
  readonly result: ProgramResult;
  /** The worker that ran it (`host:pid`). */
  readonly by: string;
}

export const resultsKey = (server: string) => `${PREFIX}:results:${server}`;
/** Set (with a TTL) while a server waits for results: workers skip jobs of a server that is gone. */
export const serverAliveKey = (server: string) => `${PREFIX}:server:${server}`;
/** Sorted set of live workers: member = JSON of WorkerInfo, score = when the entry expires (ms). */
export const WORKERS_KEY = `${PREFIX}:workers`;
export const SERVER_TTL_S = 30;
export const WORKER_TTL_MS = 10_000;
/** Results nobody reads (their server died) expire. */
export const RESULTS_TTL_S = 3600;

export interface WorkerInfo {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  /** Warm sandboxed workers per language. */
  readonly workers: number;
  /** Jobs run at once. */
  readonly concurrency: number;
}

/** Checks a `redis://host:port[/db]` (or `rediss://`) URL; returns it without a password for messages. */
export function describeRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--queue expects a Redis URL such as redis://127.0.0.1:6379/0, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new Error(`--queue expects a redis:// or rediss:// URL, got ${parsed.protocol}//…`);
  if (parsed.pathname && parsed.pathname !== '/' && !/^\/\d+$/.test(parsed.pathname))
    throw new Error(`the database in a Redis URL is a number (redis://host:port/0), got ${parsed.pathname}`);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** A connection for commands and for BullMQ (which needs maxRetriesPerRequest: null). */
export function connect(url: string, name: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
  // Errors are reported by the operations that fail; ioredis keeps reconnecting.
  redis.on('error', () => {});
  return redis;
}

/**
 * Fails with a clear message when Redis does not answer within `seconds`, and at once when
 * nothing listens there (ioredis would retry for ever).
 */
export async function assertReachable(redis: Redis, url: string, seconds = 10): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let refused: ((error: Error & { code?: string }) => void) | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(
                `cannot reach Redis at ${describeRedisUrl(url)} within ${seconds}s: is redis-server running there?`,
              ),
            ),
          seconds * 1000,
        );
        refused = (error) => {
          if (error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
            reject(
              new Error(
                `cannot reach Redis at ${describeRedisUrl(url)} (${error.code}): start redis-server there, or give --queue the right address`,
              ),
            );
          }
        };
        redis.on('error', refused);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (refused) redis.off('error', refused);
  }
}

/** The live workers' entries (expired ones are dropped). */
export async function liveWorkers(redis: Redis): Promise<WorkerInfo[]> {
  const now = Date.now();
  await redis.zremrangebyscore(WORKERS_KEY, '-inf', now);
  const members = await redis.zrangebyscore(WORKERS_KEY, now, '+inf');
  return members.flatMap((m) => {
    try {
      return [JSON.parse(m) as WorkerInfo];
    } catch {
      return [];
    }
  });
}
