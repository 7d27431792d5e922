import { availableParallelism } from 'node:os';
import type { Language, Suite, Task } from '../../core/task.js';
import { combineStatuses, type Verdict } from '../../core/verdict.js';
import { createJavaScriptRuntime, createTypeScriptRuntime } from '../../runtimes/javascript-runtime.js';
import { createPythonRuntime } from '../../runtimes/python-runtime.js';
import { ABANDONED } from '../../runtimes/pool.js';
import { JAVASCRIPT_DEFAULT_HEAP } from '../../runtimes/recipes.js';
import {
  compilerStopped,
  type CompilerLimits,
  type InstrumentOutcome,
  TypeScriptService,
  typescriptService,
} from '../../runtimes/typescript-service.js';
import { DEFAULT_LIMITS, type Limits, type RunResult, type Runtime, type TimedSuite } from '../../runtimes/runtime.js';
import { assertSandboxUsable, type SandboxMode } from '../../runtimes/sandbox.js';
import { suiteVerdicts } from './outcome.js';
import { promptHelpers, type PromptHelpers } from '../../core/prompt-helpers.js';
import { callLimit, DEFAULT_TIME_POLICY, scriptLimit, type TimePolicy } from './time-limits.js';

export interface HarnessOptions {
  /** Worker pairs per language; default one per core. */
  readonly workers?: number;
  readonly sandbox?: SandboxMode;
  readonly time?: Partial<TimePolicy>;
  readonly limits?: Partial<Limits>;
  /** Type-check TypeScript candidates and report the errors (default true). */
  readonly typeCheck?: boolean;
  /** TypeScript type errors fail a candidate (default: reported only). */
  readonly strictTypes?: boolean;
  /** node_modules folders whose packages JavaScript and TypeScript candidates may require (as NODE_PATH). */
  readonly nodePath?: readonly string[];
  /** Deadlines and heap of the TypeScript compiler processes (default: the process-wide ones, DEFAULT_COMPILER_LIMITS). */
  readonly compilerLimits?: Partial<CompilerLimits>;
  /** The tests come from someone not trusted (a request over HTTP): each run gets a fresh, filtered judge. */
  readonly untrustedTests?: boolean;
  /** Supplies runtimes; defaults to the built-in ones (tests may pass their own). */
  readonly runtimeFactory?: (language: Language, options: RuntimeChoices) => Runtime;
}

/** Starts the no-verdict message of every candidate of a task whose reference ran out of time. */
const REFERENCE_SECONDS = 180;
export const REFERENCE_OUT_OF_TIME = `the reference ran past its time limit of ${REFERENCE_SECONDS}s`;

/** What running the reference told us: expected outputs and how long it took. */
interface Baseline {
  readonly suites: ReadonlyMap<string, { expectedJson?: string; times?: readonly number[]; elapsed?: number }>;
  /** Set when the reference could not produce expected outputs. */
  readonly problem?: string;
  readonly sandboxFailed?: boolean;
}

/**
 * Judges programs against a task's suites. Expected outputs and time limits come from
 * running the task's reference once (cached per task). A timeout is re-run once before
 * it is reported, so a moment of load on a shared machine does not fail a right answer.
 */
export class Harness {
  private readonly runtimes = new Map<Language, Runtime>();
  /** Keyed by the task object: two datasets may use the same ids with different tests. */
  private readonly baselines = new WeakMap<Task, Promise<Baseline>>();
  private readonly suiteSizes = new WeakMap<Task, ReadonlyMap<string, number>>();
  private readonly limitChecks = new Map<Language, Promise<string | undefined>>();
  readonly time: TimePolicy;
  readonly limits: Limits;
  /** Worker pairs per language. */
  readonly workerCount: number;
  /** Its own when compilerLimits are given (closed with the harness), else the process-wide one. */
  private readonly compiler: TypeScriptService;

  constructor(private readonly options: HarnessOptions = {}) {
    this.time = { ...DEFAULT_TIME_POLICY, ...options.time };
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.workerCount = options.workers ?? availableParallelism();
    this.compiler = options.compilerLimits
      ? new TypeScriptService({ processes: this.workerCount, limits: options.compilerLimits })
      : typescriptService();
    assertSandboxUsable(options.sandbox ?? 'bwrap');
  }

  /** `signal`: nobody will read the verdict (see RunRequest.signal); it is then a no-verdict. */
  async judge(task: Task, program: string, options: { signal?: AbortSignal } = {}): Promise<Verdict> {
    const signal = options.signal ? { signal: options.signal } : {};
    const started = performance.now();
    const unfit = await this.limitsProblem(task.language);
    if (unfit) return this.verdictOf(task, { kind: 'no-verdict', why: unfit }, started);
    const baseline = await this.baseline(task);
    const helpers = promptHelpers(task);
    const suites = task.suites.map((suite) => this.timed(suite, baseline, helpers));
    const missing = suites.find((suite) => suite.kind === 'io' && suite.expectedJson === undefined);
    if (missing) {
      const message =
        baseline.problem ?? `suite ${missing.name} needs expected outputs, but the task has no reference solution`;
      return this.verdictOf(task, { kind: 'no-verdict', why: message }, started);
    }
    const run = () => this.runtime(task.language).run({ program, suites, limits: this.limits, ...signal });
    const runStarted = performance.now();
    const result = await run();
    let verdict = this.verdictOf(task, result, started);
    if (!options.signal?.aborted && verdict.status === 'timeout' && !hadTheCpu(result, performance.now() - runStarted))
      verdict = this.verdictOf(task, await run(), started);
    // Aborted while it ran: whatever else the run ended as (a worker killed as it started reads
    // as an error), nobody reads it, so it says nothing about the program.
    if (options.signal?.aborted && verdict.status !== 'no-verdict')
      return this.verdictOf(task, { kind: 'no-verdict', why: ABANDONED }, started);
    const check = task.language === 'typescript' && this.options.typeCheck !== false;
    return check ? this.withTypeErrors(verdict, program) : verdict;
  }

  /**
   * Type errors are a separate check: reported always, failing the candidate only with
   * strictTypes. A check the compiler could not finish within its limits is reported as not
   * done (and, with strictTypes, fails a candidate that needs it: its types are too costly).
   */
  private async withTypeErrors(verdict: Verdict, program: string): Promise<Verdict> {
    const checked = await this.compiler.typeCheck(program);
    if (compilerStopped(checked)) {
      const typeCheckNotDone = checked.message;
      if (!this.options.strictTypes || verdict.status !== 'pass') return { ...verdict, typeCheckNotDone };
      const failure = {
        input: null,
        expected: null,
        actual: null,
        message: `type check not done: ${typeCheckNotDone}`,
      };
      return { ...verdict, status: 'fail', firstFailure: failure, typeCheckNotDone };
    }
    const typeErrors = checked.errors;
    if (typeErrors.length === 0) return verdict;
    if (!this.options.strictTypes || verdict.status !== 'pass') return { ...verdict, typeErrors };
    const failure = { input: null, expected: null, actual: null, message: `type error: ${typeErrors[0]}` };
    return { ...verdict, status: 'fail', firstFailure: failure, typeErrors };
  }

  /**
   * Why no program of `language` can be judged under these limits, if an empty program does
   * not even load (a memory limit below what the interpreter needs): every candidate would
   * otherwise fail for it. Asked once per language; a sandbox failure is asked again.
   */
  private limitsProblem(language: Language): Promise<string | undefined> {
    let cached = this.limitChecks.get(language);
    if (!cached) {
      cached = this.runtime(language)
        .run({ program: '', suites: [], limits: this.limits })
        .then((result) => {
          if (result.kind === 'no-verdict') {
            this.limitChecks.delete(language);
            return undefined;
          }
          if (result.kind !== 'ran' || result.load.ok) return undefined;
          const memory = Math.round(this.limits.memoryBytes / 2 ** 20);
          return `an empty ${language} program does not load under these limits (memory ${memory} MiB, load ${this.limits.loadSeconds}s): ${result.load.message ?? result.load.status}; raise --memory-mb`;
        });
      this.limitChecks.set(language, cached);
    }
    return cached;
  }

  /** Runs the reference and keeps its outputs and times; one run per task. */
  baseline(task: Task): Promise<Baseline> {
    let cached = this.baselines.get(task);
    if (!cached) {
      const computing = this.computeBaseline(task);
      this.baselines.set(task, computing);
      // A sandbox failure (or a broken setup) says nothing about the reference: try again next time.
      computing.then(
        (baseline) => baseline.sandboxFailed && this.baselines.delete(task),
        () => this.baselines.delete(task),
      );
      cached = computing;
    }
    return cached;
  }

  private async computeBaseline(task: Task): Promise<Baseline> {
    if (task.reference === undefined) return { suites: new Map() };
    // Generous: a reference is trusted, and one of MBPP+'s (Mbpp/255) builds a 957 MB output,
    // which takes over a minute on a busy machine.
    const helpers = promptHelpers(task);
    const generous = task.suites.map((suite): TimedSuite => ({
      ...suite,
      limit: REFERENCE_SECONDS,
      ...(helpers && suite.kind === 'script' ? { helpers } : {}),
    }));
    const result = await this.runtime(task.language).run({
      program: task.reference,
      suites: generous,
      record: true,
      limits: this.limits,
    });
    const suites = new Map<string, { expectedJson?: string; times?: readonly number[]; elapsed?: number }>();
    for (const outcome of result.kind === 'ran' ? result.suites : []) {
      suites.set(outcome.name, {
        ...(outcome.outputs !== undefined && outcome.status === 'pass' ? { expectedJson: outcome.outputs } : {}),
        ...(outcome.times ? { times: outcome.times } : {}),
        ...(outcome.elapsed !== undefined ? { elapsed: outcome.elapsed } : {}),
      });
    }
    const failed = (result.kind === 'ran' ? result.suites : []).find((outcome) => outcome.status !== 'pass');
    const problem =
      result.kind === 'no-verdict'
        ? `the reference could not be run: ${result.why}`
        : result.kind === 'ran' && !result.load.ok
          ? `the reference does not load: ${result.load.message ?? result.load.status}`
          : failed?.status === 'timeout'
            ? `${REFERENCE_OUT_OF_TIME} in suite ${failed.name} (a busy machine can cause it; run again with fewer --workers)`
            : failed
              ? `the reference fails suite ${failed.name}: ${failed.firstFailure?.message ?? failed.status}`
              : undefined;
    return {
      suites,
      ...(problem ? { problem } : {}),
      ...(result.kind === 'no-verdict' ? { sandboxFailed: true } : {}),
    };
  }

  private timed(suite: Suite, baseline: Baseline, helpers: PromptHelpers | undefined): TimedSuite {
    const recorded = baseline.suites.get(suite.name);
    if (suite.kind === 'io') {
      const times = recorded?.times;
      return {
        ...suite,
        ...(recorded?.expectedJson !== undefined ? { expectedJson: recorded.expectedJson } : {}),
        ...(times ? { limits: times.map((t) => callLimit(this.time, t)) } : { limit: callLimit(this.time, undefined) }),
      };
    }
    return { ...suite, limit: scriptLimit(this.time, recorded?.elapsed), ...(helpers ? { helpers } : {}) };
  }

  private verdictOf(task: Task, result: RunResult, started: number): Verdict {
    let totals = this.suiteSizes.get(task);
    if (!totals) {
      // Counting an io suite parses its inputs (megabytes for HumanEval+): once per task, not per sample.
      totals = new Map(task.suites.map((suite) => [suite.name, suiteSize(suite)]));
      this.suiteSizes.set(task, totals);
    }
    const suites = suiteVerdicts(
      result,
      this.limits,
      totals,
      task.suites.map((suite) => suite.name),
    );
    const firstFailure = suites.find((suite) => suite.status !== 'pass')?.firstFailure ?? null;
    const loadFailure =
      result.kind === 'ran' && !result.load.ok
        ? (result.load.message ?? result.load.status ?? 'the program does not load')
        : undefined;
    return {
      status: combineStatuses(suites),
      suites,
      firstFailure,
      timeMs: performance.now() - started,
      ...(loadFailure !== undefined ? { loadFailure } : {}),
    };
  }

  /** A JavaScript or TypeScript reference made to count what it runs, in the compiler's process (runtimes/instrument.ts). */
  instrument(source: string, language: 'javascript' | 'typescript'): Promise<InstrumentOutcome> {
    return this.compiler.instrument(source, language === 'typescript');
  }

  runtime(language: Language): Runtime {
    let runtime = this.runtimes.get(language);
    if (!runtime) {
      const sandbox = this.options.sandbox ?? 'bwrap';
      const factory = this.options.runtimeFactory ?? defaultRuntime;
      const memoryChosen = this.options.limits?.memoryBytes !== undefined;
      const nodePath = this.options.nodePath?.length ? { nodePath: this.options.nodePath } : {};
      const untrustedTests = this.options.untrustedTests ? { untrustedTests: true } : {};
      runtime = factory(language, {
        workers: this.workerCount,
        sandbox,
        limits: this.limits,
        memoryChosen,
        compiler: this.compiler,
        ...nodePath,
        ...untrustedTests,
      });
      this.runtimes.set(language, runtime);
    }
    return runtime;
  }

  async close(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((runtime) => runtime.close()));
    this.runtimes.clear();
    if (this.options.compilerLimits) this.compiler.close();
  }
}

/** What the Harness tells a runtime factory. */
export interface RuntimeChoices {
  readonly workers?: number;
  readonly sandbox: SandboxMode;
  readonly limits: Limits;
  readonly memoryChosen?: boolean;
  readonly nodePath?: readonly string[];
  readonly compiler?: TypeScriptService;
  readonly untrustedTests?: boolean;
}

function defaultRuntime(language: Language, options: RuntimeChoices): Runtime {
  const nodeOptions = options.memoryChosen
    ? options
    : {
        ...options,
        limits: { ...options.limits, memoryBytes: Math.min(options.limits.memoryBytes, JAVASCRIPT_DEFAULT_HEAP) },
      };
  switch (language) {
    case 'python':
      return createPythonRuntime(options);
    case 'javascript':
      return createJavaScriptRuntime(nodeOptions);
    case 'typescript':
      return createTypeScriptRuntime(nodeOptions);
  }
}

/**
 * A timeout is re-run unless the candidate was computing for most of the time it was
 * given: then the machine did not starve it, and a second run would only repeat the wait.
 */
function hadTheCpu(result: RunResult, wallMs: number): boolean {
  const cpu = result.kind === 'ran' ? result.exit?.cpuSeconds : undefined;
  return cpu !== undefined && wallMs > 0 && cpu * 1000 >= 0.8 * wallMs;
}

/** Number of tests in a suite: inputs of an io suite; a script is one test. */
export function suiteSize(suite: Suite): number {
  if (suite.kind === 'script') return 1;
  try {
    // Counting only: NaN/Infinity (valid for Python's json) are replaced so JSON.parse accepts the text.
    const parsed: unknown = JSON.parse(suite.inputsJson.replace(/-?\bInfinity\b|\bNaN\b/g, '0'));
    return Array.isArray(parsed) ? parsed.length : 0;
  } catch {
    return 0;
  }
}
