/** The domain of a benchmark task, independent of where it was read from. */
export const LANGUAGES = ['python', 'javascript', 'typescript'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Input/output tests: the entry point is called on each input and its output compared
 * with the reference solution's output on the same input (EvalPlus style).
 */
export interface IoSuite {
  readonly kind: 'io';
  readonly name: string;
  readonly entry: string;
  /** JSON text of an array of argument lists. Kept as text: Python floats such as 1.0 and NaN must survive. */
  readonly inputsJson: string;
  readonly atol?: number;
  /** A special comparison (EvalPlus oracles): find_zero, set_eq, output_not_none, always, or_zero, surface_area, digit_distance. */
  readonly oracle?: string;
  /** A conversion applied to decoded inputs, e.g. "mbpp:2" (MBPP+ tuples and sets). */
  readonly inputAdapter?: string;
}

/** Test code that calls the program's functions by name (HumanEval `check`, MultiPL-E, asserts). */
export interface ScriptSuite {
  readonly kind: 'script';
  readonly name: string;
  readonly code: string;
  /** Run after `code`, e.g. `check(has_close_elements)`. */
  readonly invoke?: string;
}

export type Suite = IoSuite | ScriptSuite;

/**
 * A property of one call, e.g. "the output is sorted": a predicate over the decoded
 * arguments and output (plain data: lists, strings, numbers, objects). It runs in
 * Crucible, never beside the candidate, and never sees anything but data.
 */
export interface Property {
  readonly name: string;
  readonly holds: (args: readonly any[], output: any) => boolean;
}

export interface KnownWrong {
  readonly label: string;
  readonly program: string;
}

export interface Task {
  readonly id: string;
  readonly language: Language;
  /** What a model is shown. */
  readonly prompt: string;
  readonly entryPoint: string;
  /** A `completion` sample is appended to this text to form the program. */
  readonly completionPrefix: string;
  /** A complete program known to be right; io suites take their expected outputs from it. */
  readonly reference?: string;
  /**
   * Preconditions on the inputs, as code placed at the start of the reference's body
   * (EvalPlus `contract`): a generated input the contracted reference rejects is invalid.
   */
  readonly contract?: string;
  /**
   * Which arguments are valid, as a TypeScript predicate over decoded values (built-in
   * tasks): generated inputs that fail it are not used.
   */
  readonly precondition?: (args: readonly any[]) => boolean;
  /** Checks that need no reference (PGS): each must hold for every valid input and the output. */
  readonly properties?: readonly Property[];
  /** Programs known to be wrong (HumanEvalPack's buggy solutions, QuixBugs' bugs). */
  readonly knownWrong: readonly KnownWrong[];
  readonly suites: readonly Suite[];
  /** The dataset format the task came from. */
  readonly source: string;
}

/** One program to judge: a sample from a file, a reference, or a model's answer. */
export interface Candidate {
  readonly taskId: string;
  /** Position among the task's samples in the samples file, from 0. */
  readonly index: number;
  readonly program: string;
}
