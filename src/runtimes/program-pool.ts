import { realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from '../core/task.js';
import { resolvePythonInstall } from './python-runtime.js';
import { interpreterPaths, withAddressLimit, type SandboxMode } from './sandbox.js';
import { compilerStopped, typescriptService } from './typescript-service.js';
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
import { isNodeOutOfMemory } from './worker-process.js';
import { waitInLine } from './wait-in-line.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** JavaScript programs share their worker's heap; fixed when it starts. */
export const JAVASCRIPT_PROGRAM_HEAP = 512 * 2 ** 20;

export interface ProgramPoolOptions {
  /** Warm workers per language; default one per core. */
  readonly workers?: number;
  readonly sandbox?: SandboxMode;
  /** Heap of JavaScript/TypeScript workers in bytes (default 512 MiB). */
  readonly javascriptHeapBytes?: number;
  readonly python?: string;
}

function pythonRecipe(options: ProgramPoolOptions): ProgramRecipe {
  const { executable, sitePackages } = resolvePythonInstall(options.python);
  const harnessDir = join(HERE, 'python');
  const harness = (options.sandbox ?? 'bwrap') === 'bwrap' ? '/crucible/python' : harnessDir;
  return {
    command: [executable, '-I', '-S', `${harness}/program_worker.py`, ...sitePackages],
    readOnly: interpreterPaths(executable),
    harnessDir,
    seccompOnWorker: false,
    scratchBytes: 256 << 20,
    silenceIsTimeout: false,
  };
}

/** The candidate worker's node flags (javascript-runtime.ts explains each). */
function nodeRecipe(options: ProgramPoolOptions): ProgramRecipe {
  const node = realpathSync(process.execPath);
  const harnessDir = join(HERE, 'node');
  const harness = (options.sandbox ?? 'bwrap') === 'bwrap' ? '/crucible/node' : harnessDir;
  const heap = options.javascriptHeapBytes ?? JAVASCRIPT_PROGRAM_HEAP;
  const argv = [
    node,
    '--experimental-vm-modules',
    '--disallow-code-generation-from-strings',
    '--frozen-intrinsics',
    '--no-warnings',
    `--max-old-space-size=${Math.max(64, Math.floor(heap / 2 ** 20))}`,
    `${harness}/program-worker.cjs`,
  ];
  return {
    command: withAddressLimit(argv, heap + 2 ** 30),
    readOnly: interpreterPaths(node),
    harnessDir,
    seccompOnWorker: true,
    scratchBytes: 16 << 20,
    silenceIsTimeout: true,
    isOutOfMemory: isNodeOutOfMemory,
  };
}

/**
 * Warm workers for one language: a request takes a free worker or waits for one. A worker
 * that dies for a reason that is not the program's (killed from outside, the sandbox
 * failed) is replaced and the request runs once more, so a lost worker costs no verdict.
 */
export class ProgramLanguagePool {
  private readonly free: ProgramWorker[] = [];
  private readonly all: ProgramWorker[] = [];
  private readonly waiting: Array<(worker: ProgramWorker) => void> = [];
  private closed = false;
  busy = 0;

  constructor(
    readonly language: Language,
    recipe: ProgramRecipe,
    size: number,
    sandbox: SandboxMode,
  ) {
    for (let i = 0; i < size; i++) {
      const worker = new ProgramWorker(recipe, sandbox);
      this.all.push(worker);
      this.free.push(worker);
    }
  }

  get size(): number {
    return this.all.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Process ids of the running workers. */
  get pids(): number[] {
    return this.all.map((w) => w.pid).filter((pid): pid is number => pid !== undefined);
  }

  /**
   * Runs one program on a free worker. When `signal` aborts (nobody will read the answer),
   * a request still waiting leaves the queue without starting, and a running program is
   * stopped: either way the result is `cancelled` and the worker goes to the next request.
   */
  async run(request: ProgramRequest, limits: ProgramLimits, signal?: AbortSignal): Promise<ProgramResult> {
    if (this.closed) return noVerdict(`the ${this.language} program pool is closed`);
    if (signal?.aborted) return cancelled();
    const worker = this.free.pop() ?? (await waitInLine(this.waiting, signal));
    if (!worker) return cancelled();
    this.busy++;
    try {
      let attempt = await worker.run(request, limits, signal);
      if (attempt.retry && !this.closed && !signal?.aborted) attempt = await worker.run(request, limits, signal);
      return attempt.result;
    } finally {
      this.busy--;
      const next = this.waiting.shift();
      if (next) next(worker);
      else this.free.push(worker);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.all.map((w) => w.close()));
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
      const recipe = language === 'python' ? pythonRecipe(this.options) : nodeRecipe(this.options);
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
      const out = await typescriptService().transpile(request.code, 'main.ts');
      if (compilerStopped(out)) {
        const status = out.stopped === 'failed' ? 'error' : out.stopped;
        return { ...noVerdict(out.message), status, phase: 'compile', exitCode: 1, stderr: `${out.message}\n` };
      }
      if (out.errors.length > 0) {
        return {
          status: 'error',
          phase: 'compile',
          exitCode: 1,
          signal: null,
          stdout: '',
          stderr: out.errors.join('\n') + '\n',
          wallSeconds: 0,
          files: {},
          message: 'SyntaxError: the program does not compile',
        };
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
