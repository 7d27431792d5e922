import { availableParallelism } from 'node:os';
import type { Language } from '../core/task.js';
import { WarmPool } from './pool.js';
import { nodeRecipes, pythonRecipes } from './recipes.js';
import type { SandboxMode } from './sandbox.js';
import { transpileProgram, typescriptService } from './typescript-service.js';
import {
  cancelled,
  DEFAULT_PROGRAM_LIMITS,
  noVerdict,
  ProgramWorker,
  type ProgramLimits,
  type ProgramRecipe,
  type ProgramRequest,
  type ProgramResult,
} from './program-worker.js';

export interface ProgramPoolOptions {
  /** Warm workers per language; default one per core. */
  readonly workers?: number;
  readonly sandbox?: SandboxMode;
  /** Heap of JavaScript/TypeScript workers in bytes (default recipes.ts JAVASCRIPT_DEFAULT_HEAP). */
  readonly javascriptHeapBytes?: number;
  readonly python?: string;
}

/**
 * Warm workers for one language: a request takes a free worker or waits for one. A worker
 * that dies for a reason that is not the program's (killed from outside, the sandbox
 * failed) is replaced and the request runs once more, so a lost worker costs no verdict.
 */
export class ProgramLanguagePool {
  private readonly workers: WarmPool<ProgramWorker>;

  constructor(
    readonly language: Language,
    recipe: ProgramRecipe,
    size: number,
    sandbox: SandboxMode,
  ) {
    this.workers = new WarmPool(Array.from({ length: size }, () => new ProgramWorker(recipe, sandbox)));
  }

  get size(): number {
    return this.workers.size;
  }

  get busy(): number {
    return this.workers.busy;
  }

  get queued(): number {
    return this.workers.queued;
  }

  /** Process ids of the running workers. */
  get pids(): number[] {
    return this.workers.all.map((w) => w.pid).filter((pid): pid is number => pid !== undefined);
  }

  /**
   * Runs one program on a free worker. When `signal` aborts (nobody will read the answer),
   * a request still waiting leaves the queue without starting, and a running program is
   * stopped: either way the result is `cancelled` and the worker goes to the next request.
   */
  async run(request: ProgramRequest, limits: ProgramLimits, signal?: AbortSignal): Promise<ProgramResult> {
    if (this.workers.closed) return noVerdict(`the ${this.language} program pool is closed`);
    const result = await this.workers.use(signal, async (worker) => {
      let attempt = await worker.run(request, limits, signal);
      if (attempt.retry && !this.workers.closed && !signal?.aborted)
        attempt = await worker.run(request, limits, signal);
      return attempt.result;
    });
    return result ?? cancelled();
  }

  close(): Promise<void> {
    return this.workers.close();
  }
}

export const PROGRAM_LANGUAGES: readonly Language[] = ['python', 'javascript', 'typescript'];

/** One pool per language, started on first use. TypeScript is transpiled here and runs as JavaScript. */
export class ProgramRunner {
  private readonly pools = new Map<'python' | 'javascript', ProgramLanguagePool>();
  readonly workers: number;

  constructor(private readonly options: ProgramPoolOptions = {}) {
    this.workers = Math.max(1, options.workers ?? availableParallelism());
  }

  pool(language: 'python' | 'javascript'): ProgramLanguagePool {
    let pool = this.pools.get(language);
    if (!pool) {
      const { sandbox, python, javascriptHeapBytes } = this.options;
      const recipe =
        language === 'python'
          ? pythonRecipes({ sandbox, python }).program
          : nodeRecipes({ sandbox, memoryBytes: javascriptHeapBytes }).program;
      pool = new ProgramLanguagePool(language, recipe, this.workers, this.options.sandbox ?? 'bwrap');
      this.pools.set(language, pool);
    }
    return pool;
  }

  /** Pools started so far (for metrics). */
  get started(): ProgramLanguagePool[] {
    return [...this.pools.values()];
  }

  /** Runs one program; `signal` abandons it (see ProgramLanguagePool.run). */
  async run(language: Language, request: ProgramRequest, signal?: AbortSignal): Promise<ProgramResult> {
    const limits: ProgramLimits = { ...DEFAULT_PROGRAM_LIMITS, ...request.limits };
    if (language === 'python') return this.pool('python').run(request, limits, signal);
    if (language === 'typescript') {
      // In the compiler's own processes, with a deadline: a program can make transpiling exponential.
      const out = await transpileProgram(typescriptService(), request.code, 'main.ts');
      if (!out.ok) {
        const stderr = out.errors.length > 0 ? `${out.errors.join('\n')}\n` : `${out.message}\n`;
        const message = out.errors.length > 0 ? 'SyntaxError: the program does not compile' : out.message;
        return { ...noVerdict(message), status: out.status, phase: 'compile', exitCode: 1, stderr };
      }
      return this.pool('javascript').run({ ...request, code: out.code }, limits, signal);
    }
    return this.pool('javascript').run(request, limits, signal);
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }
}
