import { availableParallelism } from 'node:os';
import type { Language } from '../core/task.js';
import type { RunRequest, RunResult, Runtime } from './runtime.js';
import type { SandboxMode } from './sandbox.js';
import { Slot, type SlotRecipe } from './slot.js';

/**
 * Warm workers of one kind, the one pool of both stacks (judge/candidate slots, program
 * workers): a request takes a free worker or waits in line for one, and leaves the line
 * without starting when its signal aborts.
 */
export class WarmPool<W extends { close(): Promise<void> }> {
  private readonly free: W[];
  private readonly waiting: Array<(worker: W) => void> = [];
  private isClosed = false;
  /** Requests running on a worker now. */
  busy = 0;

  constructor(readonly all: readonly W[]) {
    this.free = [...all];
  }

  get size(): number {
    return this.all.length;
  }

  /** Requests waiting for a worker. */
  get queued(): number {
    return this.waiting.length;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** `work`'s result on a free worker; undefined when `signal` aborted before one was free. */
  async use<R>(signal: AbortSignal | undefined, work: (worker: W) => Promise<R>): Promise<R | undefined> {
    if (signal?.aborted) return undefined;
    const worker = this.free.pop() ?? (await waitInLine(this.waiting, signal));
    if (!worker) return undefined;
    this.busy++;
    try {
      return await work(worker);
    } finally {
      this.busy--;
      const next = this.waiting.shift();
      if (next) next(worker);
      else this.free.push(worker);
    }
  }

  async close(): Promise<void> {
    this.isClosed = true;
    await Promise.all(this.all.map((worker) => worker.close()));
  }
}

export interface PoolOptions {
  /** Worker pairs; default one per core. */
  readonly workers?: number;
  readonly sandbox?: SandboxMode;
  /**
   * The test code comes from someone Crucible does not trust (a request over HTTP): every run
   * gets a judge process of its own, under the candidates' seccomp filter and memory limit,
   * which is killed when the run ends, so nothing the test code does outlives its request.
   */
  readonly untrustedTests?: boolean;
}

export const ABANDONED = 'stopped: nobody will read this result (the request was abandoned)';

/** A warm pool of judge/candidate pairs: each request takes a free pair, or waits for one. */
export class SlotPool implements Runtime {
  private readonly slots: WarmPool<Slot>;

  constructor(
    readonly language: Language,
    recipe: SlotRecipe,
    options: PoolOptions = {},
  ) {
    const size = Math.max(1, options.workers ?? availableParallelism());
    this.slots = new WarmPool(
      Array.from({ length: size }, () => new Slot(recipe, options.sandbox ?? 'bwrap', Boolean(options.untrustedTests))),
    );
  }

  get size(): number {
    return this.slots.size;
  }

  async run(request: RunRequest): Promise<RunResult> {
    if (this.slots.closed) throw new Error(`the ${this.language} runtime is closed`);
    return (
      (await this.slots.use(request.signal, (slot) => slot.run(request))) ?? { kind: 'no-verdict', why: ABANDONED }
    );
  }

  close(): Promise<void> {
    return this.slots.close();
  }
}

/**
 * Waits for the next worker handed to `line` (a pool's waiting list of takers), or gives up
 * when `signal` aborts: the taker then leaves the line, so nothing is handed to a request that
 * nobody waits for.
 */
function waitInLine<T>(line: Array<(resource: T) => void>, signal: AbortSignal | undefined): Promise<T | undefined> {
  return new Promise((resolve) => {
    const take = (resource: T) => {
      signal?.removeEventListener('abort', leave);
      resolve(resource);
    };
    const leave = () => {
      const at = line.indexOf(take);
      if (at >= 0) line.splice(at, 1);
      resolve(undefined);
    };
    line.push(take);
    signal?.addEventListener('abort', leave, { once: true });
  });
}

/** Resolves with `work`'s value, or with undefined as soon as `signal` aborts. */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const stop = () => resolve(undefined);
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}
