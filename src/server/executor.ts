import type { Language } from '../core/task.js';
import { ProgramRunner, type ProgramPoolOptions } from '../runtimes/program-pool.js';
import type { ProgramRequest, ProgramResult } from '../runtimes/program-worker.js';
import type { Metrics } from './metrics.js';

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
  runBatch(jobs: readonly ProgramJob[], onResult: (index: number, result: ProgramResult) => void, options?: BatchOptions): Promise<void>;
  /** Jobs waiting for a worker, and jobs running now. */
  load(): Promise<{ queued: number; running: number; workers: number }>;
  /** Empty when ready; otherwise why not. */
  health(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Runs `count` jobs with at most `limit` in flight. */
export async function runBounded(count: number, limit: number, start: (index: number) => Promise<void>, options: BatchOptions = {}): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count && !options.signal?.aborted) {
      const index = next++;
      if (!options.skip?.(index)) await start(index);
    }
  });
  await Promise.all(lanes);
}

/**
 * Starts every Python worker by running an empty program through the pool: each run takes
 * a free worker like any request, so warming never shares a worker with a request that
 * arrives meanwhile.
 */
export function warmPython(runner: ProgramRunner): Promise<void> {
  return Promise.all(Array.from({ length: runner.workers }, () => runner.run('python', { code: '' }))).then(() => undefined);
}

/** The embedded default: warm sandboxed workers in this process's care. */
export class LocalExecutor implements Executor {
  readonly kind = 'local' as const;
  readonly runner: ProgramRunner;

  constructor(
    /** The pool's options (workers, sandbox); the server's harness for function-style tasks takes the same. */
    readonly options: ProgramPoolOptions = {},
    private readonly metrics?: Metrics,
  ) {
    this.runner = new ProgramRunner(options);
  }

  async run(job: ProgramJob, options: RunOptions = {}): Promise<ProgramResult> {
    const started = performance.now();
    const result = await this.runner.run(job.language, job.request, options.signal);
    // An abandoned run is no outcome of the program (nor a sandbox failure to count).
    if (!result.cancelled) this.metrics?.recordExecution(job.language, result.status, (performance.now() - started) / 1000);
    return result;
  }

  async runBatch(jobs: readonly ProgramJob[], onResult: (index: number, result: ProgramResult) => void, options?: BatchOptions): Promise<void> {
    // Twice the workers in flight keeps every worker busy while replies are handled.
    await runBounded(
      jobs.length,
      this.runner.workers * 2,
      async (i) => {
        const result = await this.run(jobs[i]!, options);
        if (!result.cancelled) onResult(i, result);
      },
      options,
    );
  }

  async load() {
    const pools = this.runner.started;
    return {
      queued: pools.reduce((n, p) => n + p.queued, 0),
      running: pools.reduce((n, p) => n + p.busy, 0),
      workers: pools.reduce((n, p) => n + p.size, 0),
    };
  }

  async health(): Promise<string | undefined> {
    return undefined;
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
