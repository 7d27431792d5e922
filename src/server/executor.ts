import pMap from 'p-map';
import { ProgramRunner, type ProgramPoolOptions } from '../runtimes/program-pool.js';
import type { BatchOptions, Executor, ProgramJob, RunOptions } from '../runtimes/executor.js';
import type { ProgramResult } from '../runtimes/program-worker.js';
import type { Metrics } from './metrics.js';

/**
 * Starts every Python worker by running an empty program through the pool: each run takes
 * a free worker like any request, so warming never shares a worker with a request that
 * arrives meanwhile.
 */
export function warmPython(runner: ProgramRunner): Promise<void> {
  return Promise.all(Array.from({ length: runner.workers }, () => runner.run('python', { code: '' }))).then(
    () => undefined,
  );
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
    if (!result.cancelled)
      this.metrics?.recordExecution(job.language, result.status, (performance.now() - started) / 1000);
    return result;
  }

  async runBatch(
    jobs: readonly ProgramJob[],
    onResult: (index: number, result: ProgramResult) => void,
    options?: BatchOptions,
  ): Promise<void> {
    await pMap(
      jobs,
      async (job, i) => {
        if (options?.signal?.aborted || options?.skip?.(i)) return;
        const result = await this.run(job, options);
        if (!result.cancelled) onResult(i, result);
      },
      // Twice the workers in flight keeps every worker busy while replies are handled.
      { concurrency: this.runner.workers * 2 },
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
