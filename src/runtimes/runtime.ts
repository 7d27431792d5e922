import type { Language, Suite } from '../core/task.js';
import type { PromptHelpers } from '../verify/prompt-helpers.js';

/** Resource limits for one candidate (its whole batch of tests). */
export interface Limits {
  /** Address-space (Python) or heap (JavaScript) limit in bytes. */
  readonly memoryBytes: number;
  /** CPU seconds for the candidate's whole run. */
  readonly cpuSeconds: number;
  /** Bytes the candidate may print (stdout + stderr together) or write to its scratch folder per file. */
  readonly outputBytes: number;
  /** Largest single return value, encoded, in bytes. */
  readonly replyBytes: number;
  /** Time to load (parse and execute the top level of) the program. */
  readonly loadSeconds: number;
}

export const DEFAULT_LIMITS: Limits = {
  memoryBytes: 4 * 2 ** 30,
  cpuSeconds: 120,
  outputBytes: 1 << 20,
  replyBytes: 1536 * 2 ** 20,
  loadSeconds: 10,
};

/** A suite with its time limits: per input for io suites, for the whole script otherwise. */
export type TimedSuite = Suite & {
  readonly limits?: readonly number[];
  readonly limit?: number;
  readonly expectedJson?: string;
  /**
   * Script suites: the prompt's own definitions of the helpers the test calls (`poly` in
   * HumanEval/32), run in the test's scope so that its calls reach them, not a candidate's
   * redefinition (verify/prompt-helpers.ts).
   */
  readonly helpers?: PromptHelpers;
};

export interface RunRequest {
  readonly program: string;
  readonly suites: readonly TimedSuite[];
  /** Record outputs and times instead of comparing (used to run a reference). */
  readonly record?: boolean;
  readonly limits?: Partial<Limits>;
  /**
   * Nobody will read the result (a server's client went away): a run still waiting for a
   * worker never starts, and a running one is stopped (its workers are replaced). The
   * result is then a no-verdict.
   */
  readonly signal?: AbortSignal;
}

/** Outcome of one suite as the judge saw it, before exit information is folded in. */
export type RawSuiteStatus = 'pass' | 'fail' | 'error' | 'timeout' | 'memory' | 'output-limit' | 'crashed' | 'skipped' | 'no-verdict';

export interface SuiteOutcome {
  readonly name: string;
  readonly status: RawSuiteStatus;
  readonly passed: number;
  readonly total: number;
  readonly firstFailure: { input: string | null; expected: string | null; actual: string | null; message: string } | null;
  readonly inline?: boolean;
  /** io suites: the position of the input where the first failure happened. */
  readonly failedAt?: number;
  /**
   * Record mode: JSON text of the outputs, and per-input seconds. An input that raised is
   * recorded as `{"$raised": name}`; after a timeout or crash the list stops short.
   */
  readonly outputs?: string;
  readonly times?: readonly number[];
  readonly elapsed?: number;
}

export interface CandidateExit {
  readonly code: number | null;
  readonly signal: number | null;
  readonly outputBytes: number;
  readonly cpuSeconds?: number;
  readonly maxRssBytes?: number;
}

export interface RunResult {
  readonly load: { readonly ok: boolean; readonly status?: RawSuiteStatus; readonly message?: string };
  readonly suites: readonly SuiteOutcome[];
  readonly exit?: CandidateExit;
  /** Set when the sandbox itself failed: the result says nothing about the program. */
  readonly noVerdict?: string;
  /** The whole run went past its deadline and was stopped from outside. */
  readonly hung?: boolean;
}

/** Runs programs of one language: one loaded program, a batch of tests, one result. */
export interface Runtime {
  readonly language: Language;
  run(request: RunRequest): Promise<RunResult>;
  close(): Promise<void>;
}
