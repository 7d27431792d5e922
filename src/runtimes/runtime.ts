import type { Language, Suite } from '../core/task.js';
import type { ChannelAbuse } from './line-process.js';
import { STATUSES, type Failure } from '../core/verdict.js';
import type { PromptHelpers } from '../core/prompt-helpers.js';

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

/**
 * Outcome of one suite as the judge saw it, before exit information is folded in: a Status,
 * or one of two that only the candidate's exit explains (verify/outcome.ts maps them):
 * `crashed`, the candidate's process died during the suite, and `skipped`, not run because an
 * earlier suite stopped the candidate. The judges never write `no-verdict` themselves.
 */
export const RAW_SUITE_STATUSES = [...STATUSES, 'crashed', 'skipped'] as const;
export type RawSuiteStatus = (typeof RAW_SUITE_STATUSES)[number];

export interface SuiteOutcome {
  readonly name: string;
  readonly status: RawSuiteStatus;
  readonly passed: number;
  readonly total: number;
  readonly firstFailure: Failure | null;
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

/** Whether the program loaded; when not, how it failed (`crashed`: its process died, and its exit says why). */
export interface LoadOutcome {
  readonly ok: boolean;
  readonly status?: RawSuiteStatus;
  readonly message?: string;
}

export interface CandidateExit {
  readonly code: number | null;
  readonly signal: number | null;
  readonly outputBytes: number;
  readonly cpuSeconds?: number;
  readonly maxRssBytes?: number;
  /** The worker died without reporting the exit, and its stderr says it ran out of memory (one heap per worker: JavaScript). */
  readonly outOfMemory?: true;
  /** The worker was killed for what the candidate wrote on the worker's own channel to Crucible (its fd 1). */
  readonly channelAbuse?: ChannelAbuse;
}

/** The judge reported on the program (which may not have loaded). */
export interface Ran {
  readonly kind: 'ran';
  readonly load: LoadOutcome;
  readonly suites: readonly SuiteOutcome[];
  /** How the candidate's execution ended; absent when nothing was waited for (a compile error, a worker killed to stop it). */
  readonly exit?: CandidateExit;
}

/** The sandbox itself failed (or the run was abandoned): the result says nothing about the program. */
export interface NoVerdict {
  readonly kind: 'no-verdict';
  readonly why: string;
}

/** No result came within the run's deadline: the pair was stopped from outside (the judge waits only on the candidate). */
export interface Hung {
  readonly kind: 'hung';
  readonly seconds: number;
}

export type RunResult = Ran | NoVerdict | Hung;

/** Runs programs of one language: one loaded program, a batch of tests, one result. */
export interface Runtime {
  readonly language: Language;
  run(request: RunRequest): Promise<RunResult>;
  close(): Promise<void>;
}
