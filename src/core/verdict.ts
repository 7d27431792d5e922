/** Every outcome of judging a program is data. `no-verdict` means the sandbox failed, not the program. */
export const STATUSES = ['pass', 'fail', 'error', 'timeout', 'memory', 'output-limit', 'no-verdict'] as const;
export type Status = (typeof STATUSES)[number];

export interface Failure {
  /** repr of the arguments (Python) or their JSON (JavaScript). */
  readonly input: string | null;
  readonly expected: string | null;
  readonly actual: string | null;
  readonly message: string;
}

export interface SuiteVerdict {
  readonly name: string;
  readonly status: Status;
  readonly passed: number;
  readonly total: number;
  readonly firstFailure: Failure | null;
  /** The tests had to run beside the candidate (arguments were objects); see README. */
  readonly inline?: boolean;
  /** io suites: the position (from 0) of the input where the first failure happened. */
  readonly failedAt?: number;
  /** Generated inputs the program ran out of time on but answered right cut to a hundredth of their size or less (verify/slow-inputs.ts): reported, not failed. */
  readonly slow?: readonly SlowInput[];
}

/** A generated input set aside as slow rather than failed. */
export interface SlowInput {
  /** The generated input the program ran out of time on (JSON text of the argument list). */
  readonly input: string;
  /** The same input cut to a hundredth (or tenths of that, when the hundredth ran out of time too), which the program answered right. */
  readonly smaller: string;
  /** The program's time limit on the input, and the reference's time on it, in seconds. */
  readonly limitSeconds: number;
  readonly referenceSeconds: number;
  /** Other generated inputs at least as large, set aside with it unjudged. */
  readonly setAside: number;
}

export interface Verdict {
  readonly status: Status;
  readonly suites: readonly SuiteVerdict[];
  readonly firstFailure: Failure | null;
  readonly timeMs: number;
  /** TypeScript diagnostics; they fail a candidate only when asked (--strict-types). */
  readonly typeErrors?: readonly string[];
  /** Why the type check was not done: the compiler ran past its time or memory limit. */
  readonly typeCheckNotDone?: string;
  /** The program did not load (the loader's message): the gated reward's first levels. */
  readonly loadFailure?: string;
}

/** The overall status: the first suite that did not pass decides, so base failures come first. */
export function combineStatuses(suites: readonly SuiteVerdict[]): Status {
  for (const suite of suites) if (suite.status !== 'pass') return suite.status;
  return 'pass';
}
