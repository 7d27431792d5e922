import { availableParallelism } from 'node:os';
import type { Language } from '../core/task.js';
import type { RunRequest, RunResult, Runtime } from './runtime.js';
import type { SandboxMode } from './sandbox.js';
import { Slot, type SlotRecipe } from './slot.js';
import { waitInLine } from './wait-in-line.js';

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

function abandoned(): RunResult {
  return { kind: 'no-verdict', why: ABANDONED };
}

/** A warm pool of judge/candidate pairs: each request takes a free pair, or waits for one. */
export class SlotPool implements Runtime {
  private readonly free: Slot[] = [];
  private readonly all: Slot[] = [];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private closed = false;
  readonly size: number;

  constructor(
    readonly language: Language,
    recipe: SlotRecipe,
    options: PoolOptions = {},
  ) {
    this.size = Math.max(1, options.workers ?? availableParallelism());
    for (let i = 0; i < this.size; i++) {
      const slot = new Slot(recipe, options.sandbox ?? 'bwrap', Boolean(options.untrustedTests));
      this.all.push(slot);
      this.free.push(slot);
    }
  }

  async run(request: RunRequest): Promise<RunResult> {
    if (this.closed) throw new Error(`the ${this.language} runtime is closed`);
    if (request.signal?.aborted) return abandoned();
    const slot = this.free.pop() ?? (await waitInLine(this.waiting, request.signal));
    if (!slot) return abandoned();
    try {
      return await slot.run(request);
    } finally {
      const next = this.waiting.shift();
      if (next) next(slot);
      else this.free.push(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.all.map((slot) => slot.close()));
  }
}
