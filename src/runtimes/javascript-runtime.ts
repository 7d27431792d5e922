import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language } from '../core/task.js';
import { SlotPool, type PoolOptions } from './pool.js';
import type { Limits, RunRequest, RunResult, Runtime, TimedSuite } from './runtime.js';
import { interpreterPaths, withAddressLimit } from './sandbox.js';
import type { SlotRecipe } from './slot.js';
import { isNodeOutOfMemory } from './worker-process.js';
import type { Transpiled } from './typescript.js';
import { compilerStopped, typescriptService, type TranspileOutcome, type TypeScriptService } from './typescript-service.js';

const HARNESS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'node');
/** Address space node needs besides its heap: ~0.7 GB is reserved at start (measured, Node 20). */
const ADDRESS_SPACE_OVERHEAD = 1 << 30;

export type NodeRuntimeOptions = PoolOptions & {
  /**
   * Heap for candidate code. The candidate worker is long-lived and its heap limit is
   * fixed when it starts, so this (else limits.memoryBytes, else the first run's) holds for the pool.
   */
  readonly memoryBytes?: number;
  readonly limits?: Partial<Limits>;
  /**
   * node_modules folders whose packages candidates may `require` (as with NODE_PATH), seen
   * read-only inside the sandbox. Packages run in the candidate's own context.
   */
  readonly nodePath?: readonly string[];
  /** TypeScript: the compiler processes (default: the process-wide ones). */
  readonly compiler?: TypeScriptService;
};

/** Checks each --node-path folder; the error says what to do. */
export function checkNodePath(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    const full = resolve(dir);
    if (!existsSync(full) || !statSync(full).isDirectory()) {
      throw new Error(`--node-path ${dir}: no such folder (install packages with: npm install --prefix DIR PACKAGE, then pass DIR/node_modules)`);
    }
    if (basename(full) !== 'node_modules') {
      throw new Error(`--node-path ${dir}: pass a node_modules folder (npm install --prefix DIR PACKAGE puts packages in DIR/node_modules)`);
    }
    return realpathSync(full);
  });
}

/**
 * The node flags of the candidate worker matter for isolation:
 * - --disallow-code-generation-from-strings and --frozen-intrinsics harden THIS realm: if
 *   a candidate ever got hold of one of its objects, it could neither compile code with
 *   it (the Function constructor refuses) nor patch built-ins for the next candidate.
 *   Each candidate's own context re-enables eval for itself.
 * - --experimental-vm-modules lets the worker answer `import()` itself (with an error of
 *   the candidate's realm); without it node rejects with an error object of this realm.
 * - --max-old-space-size bounds the heap; prlimit --as bounds memory outside it (ArrayBuffers).
 */
function nodeRecipe(options: NodeRuntimeOptions): SlotRecipe {
  const node = realpathSync(process.execPath);
  const sandboxed = (options.sandbox ?? 'bwrap') === 'bwrap';
  const harness = sandboxed ? '/crucible/node' : HARNESS_DIR;
  // Inside the sandbox each folder is named node_modules under its own parent, where node's
  // resolution looks for it (host-bridge.cjs).
  const packageDirs = checkNodePath(options.nodePath ?? []);
  const packagesInside = packageDirs.map((dir, i) => (sandboxed ? `/crucible/packages/${i}/node_modules` : dir));
  const binds = packageDirs.map((dir, i) => [dir, packagesInside[i]!] as const);
  return {
    candidateCommand: (limits: Limits) => {
      const memory = options.memoryBytes ?? options.limits?.memoryBytes ?? limits.memoryBytes;
      const argv = [
        node,
        '--experimental-vm-modules',
        '--disallow-code-generation-from-strings',
        '--frozen-intrinsics',
        '--no-warnings',
        `--max-old-space-size=${Math.max(64, Math.floor(memory / 2 ** 20))}`,
        `${harness}/candidate-worker.cjs`,
        ...(packagesInside.length > 0 ? [`--packages=${packagesInside.join(':')}`] : []),
      ];
      return withAddressLimit(argv, memory + ADDRESS_SPACE_OVERHEAD);
    },
    judgeCommand: [node, '--no-warnings', `${harness}/judge-worker.cjs`],
    readOnly: [...interpreterPaths(node)],
    ...(sandboxed && binds.length > 0 ? { binds } : {}),
    harnessDir: HARNESS_DIR,
    seccompOnWorker: true,
    scratchBytes: 16 << 20,
    killWorkerToStop: true,
    isOutOfMemory: isNodeOutOfMemory,
  };
}

/** JavaScript programs, judged with node:assert semantics (MultiPL-E, HumanEvalPack). */
export function createJavaScriptRuntime(options: NodeRuntimeOptions = {}): Runtime {
  return new SlotPool('javascript', nodeRecipe(options), options);
}

/**
 * TypeScript: the program and script-suite test code are transpiled to JavaScript by the
 * compiler processes (typescript-service.ts) and run by a JavaScript pool. A program that
 * does not parse is a load error, as is one that the compiler cannot finish within its
 * limits; type errors are not checked here (the harness reports them).
 */
export function createTypeScriptRuntime(options: NodeRuntimeOptions = {}): Runtime {
  return new TypeScriptRuntime(new SlotPool('typescript', nodeRecipe(options), options), options.compiler ?? typescriptService());
}

class TypeScriptRuntime implements Runtime {
  readonly language: Language = 'typescript';
  /** Test code is the same for every sample of a task. */
  private readonly testCache = new Map<string, Promise<TranspileOutcome>>();

  constructor(
    private readonly pool: SlotPool,
    private readonly compiler: TypeScriptService,
  ) {}

  private transpileTest(code: string): Promise<TranspileOutcome> {
    let out = this.testCache.get(code);
    if (!out) {
      out = this.compiler.transpile(code, 'test.ts');
      if (this.testCache.size > 2000) this.testCache.clear();
      this.testCache.set(code, out);
      // A stopped compile is not kept: the next sample tries again.
      void out.then((outcome) => compilerStopped(outcome) && this.testCache.delete(code));
    }
    return out;
  }

  async run(request: RunRequest): Promise<RunResult> {
    const program = await this.compiler.transpile(request.program, 'candidate.ts');
    if (compilerStopped(program)) {
      const status = program.stopped === 'failed' ? 'error' : program.stopped;
      return { kind: 'ran', load: { ok: false, status, message: program.message }, suites: [] };
    }
    if (program.errors.length > 0) {
      return { kind: 'ran', load: { ok: false, status: 'error', message: `SyntaxError: ${program.errors.join('\n')}`.slice(0, 2000) }, suites: [] };
    }
    const suites: TimedSuite[] = [];
    for (const suite of request.suites) {
      if (suite.kind !== 'script') {
        suites.push(suite);
        continue;
      }
      const parts = await Promise.all([suite.code, suite.invoke, suite.helpers?.code].map((code) => (code ? this.transpileTest(code) : undefined)));
      const problems = parts.flatMap((part) => (!part ? [] : compilerStopped(part) ? [part.message] : part.errors));
      if (problems.length > 0) {
        const why = `the test code of suite ${suite.name} does not compile: ${problems.join('; ')}`;
        return { kind: 'no-verdict', why };
      }
      const [code, invoke, helpers] = parts as Array<Transpiled | undefined>;
      suites.push({ ...suite, code: code!.code, ...(invoke ? { invoke: invoke.code } : {}), ...(helpers ? { helpers: { ...suite.helpers!, code: helpers.code } } : {}) });
    }
    return this.pool.run({ ...request, program: program.code, suites });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
