/**
 * Minimal counterexamples: from a failing input, take fast-check's simpler variants in
 * batches, run the whole batch in one sandbox call, move to the first variant that still
 * fails, and repeat until no variant fails. Only variants no larger than the current input
 * (as JSON text) are tried, so the result is never larger than where it started.
 */
import { shrinksOf } from './generate/arbitraries.js';
import { encodeArgs } from './generate/encode.js';
import type { ValueType } from './generate/types.js';

/** Runs a batch of argument lists (JSON texts) and returns the position of the first that fails, if any. */
export type FirstFailure = (args: readonly unknown[][], texts: readonly string[]) => Promise<number | undefined>;

export interface ShrinkOptions {
  /** Variants run per sandbox call. */
  readonly batchSize?: number;
  readonly maxRounds?: number;
}

export interface Shrunk {
  readonly args: readonly unknown[];
  readonly text: string;
  /** Batches run (sandbox calls made, per program). */
  readonly rounds: number;
  /** Times a smaller failing input was found. */
  readonly steps: number;
}

export async function shrinkFailingInput(
  failing: readonly unknown[],
  types: readonly ValueType[],
  firstFailure: FirstFailure,
  options: ShrinkOptions = {},
): Promise<Shrunk> {
  const batchSize = options.batchSize ?? 48;
  const maxRounds = options.maxRounds ?? 40;
  let current = [...failing];
  let text = encodeArgs(current, types);
  let rounds = 0;
  let steps = 0;
  let variants = shrinksOf(current, types);
  let seen = new Set<string>([text]);
  while (rounds < maxRounds) {
    const batch: unknown[][] = [];
    const texts: string[] = [];
    for (const variant of iterate(variants)) {
      const variantText = encodeArgs(variant, types);
      if (variantText.length > text.length || seen.has(variantText)) continue;
      seen.add(variantText);
      batch.push(variant);
      texts.push(variantText);
      if (batch.length >= batchSize) break;
    }
    if (batch.length === 0) break; // every simpler variant passes: a local minimum
    rounds++;
    const at = await firstFailure(batch, texts);
    if (at === undefined) continue; // none of these fail; try the next, less simple ones
    current = batch[at]!;
    text = texts[at]!;
    steps++;
    variants = shrinksOf(current, types);
    seen = new Set<string>([text]);
  }
  return { args: current, text, rounds, steps };
}

/** Lets a for-of loop stop early without closing the generator, so the next batch resumes it. */
function iterate<T>(generator: Generator<T>): Iterable<T> {
  return { [Symbol.iterator]: () => ({ next: () => generator.next() }) };
}
