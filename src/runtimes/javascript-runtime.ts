import type { Language } from '../core/task.js';
import { SlotPool, type PoolOptions } from './pool.js';
import { nodeRecipes, type NodeRecipeOptions } from './recipes.js';
import type { Limits, RunRequest, RunResult, Runtime, TimedSuite } from './runtime.js';
import type { Transpiled } from './typescript.js';
import {
  compilerStopped,
  transpileProgram,
  typescriptService,
  type TranspileOutcome,
  type TypeScriptService,
} from './typescript-service.js';

export type NodeRuntimeOptions = PoolOptions &
  Pick<NodeRecipeOptions, 'memoryBytes' | 'nodePath'> & {
    /** The limits runs will ask for: their memory is the candidate heap when `memoryBytes` is not given. */
    readonly limits?: Partial<Limits>;
    /** TypeScript: the compiler processes (default: the process-wide ones). */
    readonly compiler?: TypeScriptService;
  };

function slotRecipe(options: NodeRuntimeOptions) {
  return nodeRecipes({ ...options, memoryBytes: options.memoryBytes ?? options.limits?.memoryBytes }).slot;
}

/** JavaScript programs, judged with node:assert semantics (MultiPL-E, HumanEvalPack). */
export function createJavaScriptRuntime(options: NodeRuntimeOptions = {}): Runtime {
  return new SlotPool('javascript', slotRecipe(options), options);
}

/**
 * TypeScript: the program and script-suite test code are transpiled to JavaScript by the
 * compiler processes (typescript-service.ts) and run by a JavaScript pool. A program that
 * does not parse is a load error, as is one that the compiler cannot finish within its
 * limits; type errors are not checked here (the harness reports them).
 */
export function createTypeScriptRuntime(options: NodeRuntimeOptions = {}): Runtime {
  return new TypeScriptRuntime(
    new SlotPool('typescript', slotRecipe(options), options),
    options.compiler ?? typescriptService(),
  );
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
    const program = await transpileProgram(this.compiler, request.program, 'candidate.ts');
    if (!program.ok)
      return { kind: 'ran', load: { ok: false, status: program.status, message: program.message }, suites: [] };
    const suites: TimedSuite[] = [];
    for (const suite of request.suites) {
      if (suite.kind !== 'script') {
        suites.push(suite);
        continue;
      }
      const parts = await Promise.all(
        [suite.code, suite.invoke, suite.helpers?.code].map((code) => (code ? this.transpileTest(code) : undefined)),
      );
      const problems = parts.flatMap((part) => (!part ? [] : compilerStopped(part) ? [part.message] : part.errors));
      if (problems.length > 0) {
        const why = `the test code of suite ${suite.name} does not compile: ${problems.join('; ')}`;
        return { kind: 'no-verdict', why };
      }
      const [code, invoke, helpers] = parts as Array<Transpiled | undefined>;
      suites.push({
        ...suite,
        code: code!.code,
        ...(invoke ? { invoke: invoke.code } : {}),
        ...(helpers ? { helpers: { ...suite.helpers!, code: helpers.code } } : {}),
      });
    }
    return this.pool.run({ ...request, program: program.code, suites });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
