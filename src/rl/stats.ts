/**
 * Shared input checks and group statistics for the `rl/` estimators. Every check throws a
 * BadRequestError that says which value is wrong and what to do about it.
 */
import { BadRequestError } from '../core/errors.js';

export type StdKind = 'sample' | 'population';

/** Throws unless every value is a finite number; `label(i)` names the i-th value in the message. */
export function assertFinite(values: readonly number[], label: (i: number) => string): void {
  values.forEach((value, i) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new BadRequestError(`${label(i)} must be a finite number (got ${String(value)}); fix or drop that rollout`);
    }
  });
}

export function assertNonEmpty(values: readonly unknown[], what: string): void {
  if (values.length === 0) throw new BadRequestError(`${what} is empty: send at least one rollout`);
}

export function assertEpsilon(epsilon: number): void {
  if (!Number.isFinite(epsilon) || epsilon < 0)
    throw new BadRequestError(`epsilon must be a finite number ≥ 0 (got ${epsilon})`);
}

/** True when every value is the same (a group that carries no signal). */
export function allEqual(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

/** Largest value, by a loop (spreading a large batch into Math.max can overflow the stack). */
export function maxOf(values: readonly number[]): number {
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  return top;
}

export function minOf(values: readonly number[]): number {
  let bottom = Infinity;
  for (const v of values) if (v < bottom) bottom = v;
  return bottom;
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Standard deviation of already-centred values: population divides by n, sample by n − 1
 * (0 for a single value, which callers treat as a degenerate group).
 */
export function stdOfCentred(centred: readonly number[], kind: StdKind): number {
  const n = centred.length;
  const denominator = kind === 'sample' ? n - 1 : n;
  if (denominator <= 0) return 0;
  let squares = 0;
  for (const d of centred) squares += d * d;
  return Math.sqrt(squares / denominator);
}

/** Indices of items by key, keys in first-seen order. */
export function indicesBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(i);
    else groups.set(k, [i]);
  });
  return groups;
}
