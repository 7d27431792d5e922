/**
 * Where whole programs run (program-pool.ts's warm workers, in this process or behind a
 * queue): the interface the server's executors implement and the `program` pack judges through.
 */
import type { Language } from '../core/task.js';
import type { ProgramRequest, ProgramResult } from './program-worker.js';

export interface ProgramJob {
  readonly language: Language;
  readonly request: ProgramRequest;
}

export interface RunOptions {
  /**
   * Aborts when nobody will read the result (the client went away, or was answered 504):
   * a job not started yet never starts, a running one is stopped where the executor can,
   * and the result is `cancelled`.
   */
  readonly signal?: AbortSignal | undefined;
}

export interface BatchOptions {
  readonly signal?: AbortSignal | undefined;
  readonly skip?: (index: number) => boolean;
}

/** Where programs run: the in-process pool, or workers behind a queue (queue.ts). */
export interface Executor {
  readonly kind: 'local' | 'queue';
  run(job: ProgramJob, options?: RunOptions): Promise<ProgramResult>;
  /**
   * Runs every job and reports each result once, in completion order. Jobs not started
   * when `signal` aborts, jobs stopped by it, and jobs `skip` says no to when their turn
   * comes, get no callback.
   */
  runBatch(
    jobs: readonly ProgramJob[],
    onResult: (index: number, result: ProgramResult) => void,
    options?: BatchOptions,
  ): Promise<void>;
  /** Jobs waiting for a worker, and jobs running now. */
  load(): Promise<{ queued: number; running: number; workers: number }>;
  /** Empty when ready; otherwise why not. */
  health(): Promise<string | undefined>;
  close(): Promise<void>;
}
