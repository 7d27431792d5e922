/**
 * What the hand-written checks of the built-in tasks (PGS) are made of, and the small
 * predicates several of them share. A task's own checks live beside its programs, in
 * tasks/<language>/<slug>/checks.ts. A precondition keeps generated inputs inside what
 * the prompt promises; a property is a fact about every right output that needs no
 * reference ("the output is a permutation of the input").
 */
import type { Property } from '../../core/task.js';

export interface TaskChecks {
  readonly precondition: (args: readonly any[]) => boolean;
  readonly properties: readonly Property[];
}

export const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
export const isStr = (x: unknown): x is string => typeof x === 'string';
export const ints = (xs: unknown): xs is number[] => Array.isArray(xs) && xs.every(isInt);
export const sortedAscending = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! <= x);
/** Same elements with the same counts, whatever the order; elements compare by their JSON. */
export const sameMultiset = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length &&
  JSON.stringify(a.map((x) => JSON.stringify(x)).sort()) === JSON.stringify(b.map((x) => JSON.stringify(x)).sort());
export const p = (name: string, holds: Property['holds']): Property => ({ name, holds });
/** A real calendar date written YYYY-MM-DD (setUTCFullYear, since Date.UTC maps years 0-99 to 1900-1999). */
export const isDate = (s: unknown, minYear = 1, maxYear = 9999) => {
  if (!isStr(s) || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return y >= minYear && y <= maxYear && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};
