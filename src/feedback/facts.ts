/**
 * What a failed check tells a model, as data: which check, the input, what was expected
 * and what the program did. PGS feeds back one fact: the one whose input has the fewest
 * tokens (its pilot found the shortest counterexample beats the median and the longest).
 */
import type { Failure } from '../core/verdict.js';

/** A failure (core/verdict.ts: input null when no input is involved, as a program that does not load) and the check it failed. */
export interface FailureFact extends Failure {
  /** The check that failed, in words: "prompt example 2", "property: output is sorted", … */
  readonly check: string;
  /** The input was shrunk to a minimal one that still fails. */
  readonly shrunk?: boolean;
}

/**
 * An endpoint-independent token count (the model's own tokenizer is rarely at hand): words,
 * numbers and each punctuation mark count one. Only the order matters for picking.
 */
export function tokenCount(text: string): number {
  return text.match(/[A-Za-z_]+|\d+|[^\sA-Za-z_\d]/g)?.length ?? 0;
}

/**
 * The fact to feed back: no input first (a program that does not load), then the fewest
 * tokens, then the shortest text, then the text's order, then the earliest: the input
 * chosen does not depend on the order the facts came in.
 */
export function pickMinimal<T extends FailureFact>(facts: readonly T[]): T | undefined {
  let best: { fact: T; key: readonly (number | string)[] } | undefined;
  facts.forEach((fact, i) => {
    const key = fact.input === null ? [0, 0, '', i] : [1 + tokenCount(fact.input), fact.input.length, fact.input, i];
    if (!best || compareKeys(key, best.key) < 0) best = { fact, key };
  });
  return best?.fact;
}

function compareKeys(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** `f(1, [2])` from an argument list written as JSON `[1,[2]]` or a Python tuple `(1, [2])`. */
export function callText(entry: string, input: string): string {
  const trimmed = input.trim();
  const inner = /^[[(]/.test(trimmed) && /[\])]$/.test(trimmed) ? trimmed.slice(1, -1).replace(/,\s*$/, '') : trimmed;
  return `${entry}(${inner})`;
}
