/**
 * A candidate query's result against the reference's (README.md beside this file, "Comparing
 * results"). Pure functions over what the SQL runner returns (runtimes/sql-pool.ts): rows of
 * JSON values (runtimes/protocol.ts `SqlValue`).
 *
 * - Column names are ignored; the column count and order are kept.
 * - Rows are a multiset (duplicates count), unless the reference orders at its top level: then
 *   rows whose sort keys tie may come in any order among themselves, the groups of tied rows
 *   in the reference's order, and a group a LIMIT or OFFSET cuts may be any of its rows. The
 *   groups are the engine's (sort-keys.ts `orderFromEngine`, in `ResultTable.order`); without
 *   them, what the text shows (`textOrder`).
 * - NULL equals NULL. Text, blobs and integers are equal when identical. Two floats (numbers
 *   with a fraction, or beyond ±2^53) are equal within a relative tolerance of 1e-6 (absolute
 *   1e-12 near zero), so `AVG` computed in another order still matches while a COUNT off by one
 *   never does. An integer and a float with a fraction are equal only within float rounding
 *   (relative 1e-12): 4415590 (integer division) is not the mean 4415590.67, 1.5e-7 apart. An
 *   INTEGER and a REAL of the same value are equal (JSON has one kind of number; SQL compares
 *   them equal too). TEXT '1' is not the number 1.
 */
import type { SqlRow, SqlValue } from '../../runtimes/protocol.js';
import { readTopLevel } from './order.js';

export interface ResultTable {
  readonly columns: readonly string[];
  readonly rows: readonly SqlRow[];
  /** The reference's: how its rows are ordered, from the engine (sort-keys.ts); without it, read from the reference's text. */
  readonly order?: ResultOrder;
}

/**
 * How a reference's rows are ordered, for comparing a candidate's with them:
 * - `runs`: consecutive rows that tie on every sort key, covering the result in order. A
 *   candidate has the same rows in each run's places, in any order among themselves; a run
 *   that a LIMIT or OFFSET cut from a larger tied group may hold any of `choices` (the whole
 *   group's rows) instead. An unordered result is one run; rows ordered row by row, runs of one.
 * - `places`: for sort keys the rows do not determine (SQLite's `SELECT DISTINCT a … ORDER BY
 *   b` with several b per a: which one orders a row is the engine's choice), the places (tied
 *   groups, in order) each row could take: a candidate's order is right when some choice of
 *   places gives it.
 */
export type ResultOrder =
  | { readonly runs: readonly TieRun[] }
  | { readonly places: readonly { readonly row: SqlRow; readonly at: readonly number[] }[] };

export interface TieRun {
  readonly start: number;
  readonly end: number;
  readonly choices?: readonly SqlRow[];
}

/** Rows in any order: one run. */
export const anyOrder = (rows: number): ResultOrder => ({ runs: rows > 0 ? [{ start: 0, end: rows }] : [] });
/** Rows in exactly this order: runs of one. */
export const rowByRow = (rows: number): ResultOrder => ({
  runs: Array.from({ length: rows }, (_, i) => ({ start: i, end: i + 1 })),
});

export type Comparison =
  | { readonly equal: true }
  | {
      readonly equal: false;
      /** For a person and a model: `column count 2 vs 3`, `row ('texas', 5) missing`, `order differs at row 4`. */
      readonly why: string;
      readonly kind: 'columns' | 'missing' | 'extra' | 'order';
      /** The row named (`missing`: the reference's; `extra`: the candidate's). */
      readonly row?: SqlRow;
      /** 1-based position: of that row in its result, or where the order first differs. */
      readonly at?: number;
    };

export const RELATIVE_TOLERANCE = 1e-6;
export const ABSOLUTE_TOLERANCE = 1e-12;
/**
 * An integer against a number with a fraction: what float arithmetic's own rounding leaves
 * (double precision is 2.2e-16 a step; thousands of steps stay below this), not what integer
 * arithmetic drops (a truncated mean of values below 1e12 is off by more).
 */
export const ROUNDING_TOLERANCE = 1e-12;
/** Unmatched rows left after the exact and sorted passes are paired by augmenting paths up to this many pairs tried. */
const MATCHING_BUDGET = 4_000_000;
/** Augmenting paths are searched by recursion: at most this many rows a side. */
const MATCHING_DEPTH = 2_000;

type Tagged = { readonly $blob: string } | { readonly $int: string } | { readonly $real: string };

function numeric(v: SqlValue): number | undefined {
  if (typeof v === 'number') return v;
  if (v !== null && typeof v === 'object' && '$int' in v) return Number(v.$int);
  return undefined;
}

/** An integer known exactly: a number a double holds exactly, or a big INTEGER. */
const exactInteger = (v: SqlValue) =>
  typeof v === 'number' ? Number.isSafeInteger(v) : v !== null && typeof v === 'object' && '$int' in v;
/** A number with a fraction: only a float has one (a REAL without one reads as an integer: JSON has one kind of number). */
const fractional = (v: SqlValue) => typeof v === 'number' && !Number.isInteger(v);

export function sameValue(a: SqlValue, b: SqlValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return false;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) {
    if (typeof a === 'object' && typeof b === 'object')
      return (a as { $int: string }).$int === (b as { $int: string }).$int;
    if (typeof a === 'number' && typeof b === 'number' && exactInteger(a) && exactInteger(b)) return false;
    // The tolerance is for floats: an integer and a fraction are the same value only within rounding.
    const tolerance =
      (exactInteger(a) && fractional(b)) || (fractional(a) && exactInteger(b))
        ? ROUNDING_TOLERANCE
        : RELATIVE_TOLERANCE;
    return Math.abs(x - y) <= Math.max(tolerance * Math.max(Math.abs(x), Math.abs(y)), ABSOLUTE_TOLERANCE);
  }
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  const [ka] = Object.keys(a);
  const [kb] = Object.keys(b);
  return ka === kb && ka !== undefined && (a as Record<string, unknown>)[ka] === (b as Record<string, unknown>)[ka];
}

export function sameRow(a: SqlRow, b: SqlRow): boolean {
  return a.length === b.length && a.every((v, i) => sameValue(v, b[i]!));
}

/** A value as SQL writes it: 'text' (quotes doubled), NULL, X'hex', numbers as they are. */
export function formatValue(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  if (typeof v === 'number') return String(v);
  const tagged = v as Tagged;
  if ('$blob' in tagged) return `X'${Buffer.from(tagged.$blob, 'base64').toString('hex').toUpperCase()}'`;
  if ('$int' in tagged) return tagged.$int;
  return tagged.$real === 'Infinity' ? '1e999' : '-1e999';
}

const SHOWN = 300;

export function formatRow(row: SqlRow): string {
  const text = `(${row.map(formatValue).join(', ')})`;
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…)` : text;
}

/** The row's identity for exact matching: its values' JSON (numbers as JSON writes them). */
const exactKey = (row: SqlRow) => JSON.stringify(row);
/** What must match exactly for two rows to be equal: every value that is not a number. */
const fixedKey = (row: SqlRow) => JSON.stringify(row.map((v) => (numeric(v) === undefined ? v : 0)));

function byNumbers(a: SqlRow, b: SqlRow): number {
  for (let i = 0; i < a.length; i++) {
    const x = numeric(a[i]!) ?? 0;
    const y = numeric(b[i]!) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Pairs equal rows of two results as multisets; returns the positions left unpaired on each
 * side, in their results' order. Identical rows pair first, by key; the rest (numbers within
 * the tolerance) in groups of equal non-number values, by a maximum matching (for groups of
 * more than MATCHING_DEPTH rows, sorted neighbours first). Pairing identical rows first can
 * only miss a pairing when one number is within the tolerance of two others that differ by
 * more than it: a right result could then be called wrong, never a wrong one right.
 */
export function unmatchedRows(
  reference: readonly SqlRow[],
  candidate: readonly SqlRow[],
): { missing: number[]; extra: number[] } {
  const waiting = new Map<string, number[]>();
  candidate.forEach((row, i) => {
    const key = exactKey(row);
    const list = waiting.get(key);
    if (list) list.push(i);
    else waiting.set(key, [i]);
  });
  // The first occurrences pair first, so a duplicate too many is the later one.
  const taken = new Map<string, number>();
  const leftRef: number[] = [];
  reference.forEach((row, i) => {
    const key = exactKey(row);
    const list = waiting.get(key);
    const used = taken.get(key) ?? 0;
    if (list && used < list.length) taken.set(key, used + 1);
    else leftRef.push(i);
  });
  const leftCand = [...waiting.entries()]
    .flatMap(([key, list]) => list.slice(taken.get(key) ?? 0))
    .sort((a, b) => a - b);
  if (leftRef.length === 0 || leftCand.length === 0) return { missing: leftRef, extra: leftCand };

  const groups = new Map<string, { ref: number[]; cand: number[] }>();
  const group = (key: string) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { ref: [], cand: [] }));
    return g;
  };
  for (const i of leftRef) group(fixedKey(reference[i]!)).ref.push(i);
  for (const i of leftCand) group(fixedKey(candidate[i]!)).cand.push(i);
  const missing: number[] = [];
  const extra: number[] = [];
  let budget = MATCHING_BUDGET;
  for (const { ref, cand } of groups.values()) {
    let restRef = ref;
    let restCand = cand;
    if (Math.min(ref.length, cand.length) > MATCHING_DEPTH) {
      // Too many to search: sorted by their numbers, most pairs are neighbours.
      const r = [...ref].sort((a, b) => byNumbers(reference[a]!, reference[b]!));
      const c = [...cand].sort((a, b) => byNumbers(candidate[a]!, candidate[b]!));
      restRef = [];
      restCand = [];
      let i = 0;
      let j = 0;
      while (i < r.length && j < c.length) {
        const a = reference[r[i]!]!;
        const b = candidate[c[j]!]!;
        if (sameRow(a, b)) {
          i++;
          j++;
        } else if (byNumbers(a, b) < 0) restRef.push(r[i++]!);
        else restCand.push(c[j++]!);
      }
      restRef.push(...r.slice(i));
      restCand.push(...c.slice(j));
    }
    const paired = pairByAugmentingPaths(restRef, restCand, reference, candidate, budget);
    budget = paired.budget;
    missing.push(...restRef.filter((x) => !paired.ref.has(x)));
    extra.push(...restCand.filter((x) => !paired.cand.has(x)));
  }
  return { missing: missing.sort((a, b) => a - b), extra: extra.sort((a, b) => a - b) };
}

/**
 * A maximum matching (Kuhn's algorithm) within a budget of row comparisons; past it, or for
 * groups too large to search this way, what was paired so far (so a right result could be
 * called wrong, never the reverse).
 */
function pairByAugmentingPaths(
  ref: number[],
  cand: number[],
  reference: readonly SqlRow[],
  candidate: readonly SqlRow[],
  budget: number,
) {
  const pairedRef = new Set<number>();
  const pairedCand = new Set<number>();
  if (ref.length === 0 || cand.length === 0 || Math.min(ref.length, cand.length) > MATCHING_DEPTH)
    return { ref: pairedRef, cand: pairedCand, budget };
  const owner = new Map<number, number>();
  const tryRow = (x: number, seen: Set<number>): boolean => {
    for (const y of cand) {
      if (seen.has(y)) continue;
      if (--budget < 0) return false;
      if (!sameRow(reference[x]!, candidate[y]!)) continue;
      seen.add(y);
      const holder = owner.get(y);
      if (holder === undefined || tryRow(holder, seen)) {
        owner.set(y, x);
        return true;
      }
    }
    return false;
  };
  for (const x of ref) {
    if (budget <= 0) break;
    tryRow(x, new Set());
  }
  for (const [y, x] of owner) {
    pairedCand.add(y);
    pairedRef.add(x);
  }
  return { ref: pairedRef, cand: pairedCand, budget };
}

function count(rows: readonly SqlRow[], row: SqlRow): number {
  let n = 0;
  for (const r of rows) if (sameRow(r, row)) n++;
  return n;
}

/** Compares as multisets; the first difference named. */
function compareRows(reference: readonly SqlRow[], candidate: readonly SqlRow[]): Comparison {
  const { missing, extra } = unmatchedRows(reference, candidate);
  const sizes = `the reference has ${reference.length} rows, the candidate ${candidate.length}`;
  if (missing.length > 0) {
    const row = reference[missing[0]!]!;
    const has = count(candidate, row);
    const times = has > 0 ? `the reference has it ${count(reference, row)} times, the candidate ${has}` : sizes;
    return { equal: false, kind: 'missing', why: `row ${formatRow(row)} missing (${times})`, row, at: missing[0]! + 1 };
  }
  if (extra.length > 0) {
    const row = candidate[extra[0]!]!;
    const had = count(reference, row);
    const times = had > 0 ? `the candidate has it ${count(candidate, row)} times, the reference ${had}` : sizes;
    return { equal: false, kind: 'extra', why: `row ${formatRow(row)} extra (${times})`, row, at: extra[0]! + 1 };
  }
  return { equal: true };
}

/**
 * The candidate's result against the reference's, under `order` (the reference's: its
 * `order` from the engine, or `textOrder`). Column count first, then the rows as a multiset
 * (so a missing row is named as missing even when the reference is ordered; a run cut by a
 * LIMIT counts with the rows of its group the candidate chose), then the order.
 */
export function compareResults(
  reference: ResultTable,
  candidate: ResultTable,
  order: ResultOrder = anyOrder(reference.rows.length),
): Comparison {
  const width = (t: ResultTable) => (t.columns.length > 0 ? t.columns.length : (t.rows[0]?.length ?? 0));
  const [refWidth, candWidth] = [width(reference), width(candidate)];
  if (refWidth !== candWidth)
    return {
      equal: false,
      kind: 'columns',
      why: `column count ${candWidth} vs ${refWidth} (the candidate's vs the reference's)`,
    };
  const cand = candidate.rows;
  if ('places' in order) {
    const rows = compareRows(reference.rows, cand);
    return rows.equal ? inSomePlaces(order.places, cand) : rows;
  }
  const expected = takingChoices(reference.rows, cand, order.runs);
  const rows = compareRows(expected, cand);
  if (!rows.equal) return rows;
  for (const { start, end } of order.runs) {
    const same =
      end - start === 1
        ? sameRow(expected[start]!, cand[start]!)
        : compareRows(expected.slice(start, end), cand.slice(start, end)).equal;
    if (!same) {
      let i = start;
      while (i < end && sameRow(expected[i]!, cand[i]!)) i++;
      return orderDiffers(Math.min(i, end - 1));
    }
  }
  return { equal: true };
}

const orderDiffers = (at: number): Comparison => ({
  equal: false,
  kind: 'order',
  why: `order differs at row ${at + 1}`,
  at: at + 1,
});

/** The reference's rows, where a run cut from a larger tied group holds the candidate's rows in its places when they are rows of that group. */
function takingChoices(reference: readonly SqlRow[], candidate: readonly SqlRow[], runs: readonly TieRun[]): SqlRow[] {
  const expected = [...reference];
  for (const { start, end, choices } of runs) {
    if (!choices || end > candidate.length) continue;
    const chosen = candidate.slice(start, end);
    if (unmatchedRows(choices, chosen).extra.length === 0) expected.splice(start, end - start, ...chosen);
  }
  return expected;
}

/** Whether each row can take a place no earlier than the row before it (the earliest that can: if any choice works, that one does). */
function inSomePlaces(places: Extract<ResultOrder, { places: unknown }>['places'], candidate: readonly SqlRow[]) {
  const byKey = new Map(places.map((p) => [exactKey(p.row), p.at]));
  let last = -1;
  for (let i = 0; i < candidate.length; i++) {
    const at = byKey.get(exactKey(candidate[i]!)) ?? places.find((p) => sameRow(p.row, candidate[i]!))?.at ?? [];
    const place = at.find((p) => p >= last);
    if (place === undefined) return orderDiffers(i);
    last = place;
  }
  return { equal: true } as const;
}

/** Which values tie under ORDER BY: NULL with NULL, numbers by value, text by the term's collation (SQLite's NOCASE and RTRIM; others byte for byte). */
export function tieKey(value: SqlValue, collation: string | undefined): string {
  if (typeof value === 'string') {
    if (collation === 'nocase') return `s${value.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;
    if (collation === 'rtrim') return `s${value.replace(/ +$/, '')}`;
    return `s${value}`;
  }
  const n = numeric(value);
  if (n !== undefined) return `n${typeof value === 'object' && value !== null ? (value as { $int: string }).$int : n}`;
  return JSON.stringify(value);
}

/** Runs of consecutive rows whose keys (`key(row)`) are equal. */
export function runsOfEqualKeys(rows: readonly SqlRow[], key: (row: SqlRow) => string): TieRun[] {
  const runs: TieRun[] = [];
  for (let start = 0; start < rows.length;) {
    const k = key(rows[start]!);
    let end = start + 1;
    while (end < rows.length && key(rows[end]!) === k) end++;
    runs.push({ start, end });
    start = end;
  }
  return runs;
}

/**
 * The order the reference's text shows, for a result without the engine's (`order`): rows
 * that tie on the leading sort keys that are output columns, in any order among themselves;
 * past the first key the output does not show, nothing is known, so any order is consistent
 * with a valid one. Unordered: one run.
 */
export function textOrder(referenceSql: string, reference: ResultTable): ResultOrder {
  const { ordered, terms } = readTopLevel(referenceSql, reference.columns);
  const shown = terms.findIndex((t) => t.column === undefined);
  const keys = shown < 0 ? terms : terms.slice(0, shown);
  if (!ordered || keys.length === 0) return anyOrder(reference.rows.length);
  return {
    runs: runsOfEqualKeys(reference.rows, (row) =>
      JSON.stringify(keys.map((t) => tieKey(row[t.column!] ?? null, t.collation))),
    ),
  };
}

/** The candidate's result against the reference query's: ordered as the engine found (`reference.order`), else as the reference's SQL says. */
export function compareToReference(referenceSql: string, reference: ResultTable, candidate: ResultTable): Comparison {
  return compareResults(reference, candidate, reference.order ?? textOrder(referenceSql, reference));
}
