import type { Task } from '../../../core/task.js';

/** The mutation operators, in the order the README documents them. */
export const MUTATION_OPERATORS = [
  'relational', // < ↔ <=, > ↔ >=, == ↔ != (=== ↔ !==)
  'arithmetic', // + ↔ -, * → // (Python) or / (JS), / and // → *, % → // or /, the augmented forms, ++ ↔ --
  'logical', // and ↔ or, && ↔ ||
  'negate-condition', // if/elif/while (and JS for/do/?:) condition c → not (c) / !(c)
  'remove-not', // not x → x, not in → in, is not → is, !x → x
  'constant', // integer literal c → c+1, c-1, 0
  'boolean', // True ↔ False, true ↔ false
  'return', // return x → return None / undefined
  'index', // a[i] → a[i + 1], a[i - 1]
] as const;
export type MutationOperator = (typeof MUTATION_OPERATORS)[number];

/** One edit of a program: the text in [start, end) becomes `replacement`. */
export interface MutationSite {
  readonly operator: MutationOperator;
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** The edits of the integer literal `text`: c+1, c-1 and 0, without repeats. */
export function constantReplacements(text: string): string[] {
  if (!/^(0|[1-9]\d*)$/.test(text)) return []; // decimal integers only: floats, hex and 1_000 keep their meaning simple
  const value = BigInt(text);
  const options = [value + 1n, value - 1n, 0n].filter((v) => v >= 0n && v !== value).map(String);
  return [...new Set(options)];
}

export interface Mutant {
  readonly operator: MutationOperator;
  /** 1-based line of the edit in the reference. */
  readonly line: number;
  /** Where the edit is in the reference: the text in [start, end) is replaced. */
  readonly start: number;
  readonly end: number;
  /** The edited text of the reference and what replaces it. */
  readonly original: string;
  readonly replacement: string;
  readonly program: string;
  /** The changed lines, before (-) and after (+). */
  readonly diff: string;
}

export interface TaskMutants {
  readonly task: Task;
  readonly mutants: readonly Mutant[];
  /** Edits found in the solution before any were dropped or capped. */
  readonly found: number;
  /** Dropped because the mutant does not parse. */
  readonly invalid: number;
  /** Dropped because the text equals the reference or another mutant, up to whitespace. */
  readonly duplicates: number;
  /** Why the task has no mutants at all (no reference, the reference does not tokenize). */
  readonly problem?: string;
}
