/**
 * A candidate query's result against the reference's (README.md beside this file, "Comparing
 * results"). Pure functions over what the SQL runner returns (runtimes/sql-pool.ts): rows of
 * JSON values (runtimes/protocol.ts `SqlValue`).
 *
 * - Column names are ignored; the column count and order are kept.
 * - Rows are a multiset (duplicates count), unless the reference orders at its top level
 *   (order.ts `orderRule`): then in order, where rows whose sort keys tie (when every key is
 *   an output column) may come in any order among themselves.
 * - NULL equals NULL. Text, blobs and integers are equal when identical; two numbers of
 *   which either is not an exact integer (a REAL with a fraction, or beyond ±2^53) are equal
 *   within a relative tolerance of 1e-6 (absolute 1e-12 near zero), so `AVG` computed in
 *   another order still matches while a COUNT off by one never does. An INTEGER and a REAL
 *   of the same value are equal (JSON has one kind of number; SQL compares them equal too).
 *   TEXT '1' is not the number 1.
 */
import type { SqlRow, SqlValue } from '../../runtimes/protocol.js';
import { orderRule, type OrderRule } from './order.js';

export interface ResultTable {
  readonly columns: readonly string[];
  readonly rows: readonly SqlRow[];
}

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

/** A number compared exactly: an integer a double holds exactly. */
const exactInteger = (n: number) => Number.isSafeInteger(n);

export function sameValue(a: SqlValue, b: SqlValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return false;
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined && y !== undefined) {
    if (typeof a === 'object' && typeof b === 'object')
      return (a as { $int: string }).$int === (b as { $int: string }).$int;
    if (typeof a === 'number' && typeof b === 'number' && exactInteger(a) && exactInteger(b)) return false;
    return Math.abs(x - y) <= Math.max(RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y)), ABSOLUTE_TOLERANCE);
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

const keysOf = (row: SqlRow, keys: readonly number[]) => keys.map((k) => row[k] ?? null);

/**
 * The candidate's result against the reference's, under `rule` (from the reference's SQL:
 * `compareToReference`). Column count first, then the rows as a multiset (so a missing row is
 * named as missing even when the reference is ordered), then the order.
 */
export function compareResults(reference: ResultTable, candidate: ResultTable, rule: OrderRule): Comparison {
  const width = (t: ResultTable) => (t.columns.length > 0 ? t.columns.length : (t.rows[0]?.length ?? 0));
  const [refWidth, candWidth] = [width(reference), width(candidate)];
  if (refWidth !== candWidth)
    return {
      equal: false,
      kind: 'columns',
      why: `column count ${candWidth} vs ${refWidth} (the candidate's vs the reference's)`,
    };
  const rows = compareRows(reference.rows, candidate.rows);
  if (!rows.equal || !rule.ordered) return rows;
  const { rows: ref } = reference;
  const { rows: cand } = candidate;
  const differs = (at: number): Comparison => ({
    equal: false,
    kind: 'order',
    why: `order differs at row ${at + 1}`,
    at: at + 1,
  });
  if (rule.keys === null) {
    for (let i = 0; i < ref.length; i++) if (!sameRow(ref[i]!, cand[i]!)) return differs(i);
    return { equal: true };
  }
  // Runs of rows whose sort keys tie: the keys must come in the reference's order, the rows of a run in any.
  const keys = rule.keys;
  for (let start = 0; start < ref.length;) {
    const key = keysOf(ref[start]!, keys);
    let end = start + 1;
    while (end < ref.length && sameRow(keysOf(ref[end]!, keys), key)) end++;
    for (let i = start; i < end; i++) if (!sameRow(keysOf(cand[i]!, keys), key)) return differs(i);
    const run = compareRows(ref.slice(start, end), cand.slice(start, end));
    if (!run.equal) {
      let i = start;
      while (i < end && sameRow(ref[i]!, cand[i]!)) i++;
      return differs(i);
    }
    start = end;
  }
  return { equal: true };
}

/** The candidate's result against the reference query's: ordered as the reference's SQL says (order.ts). */
export function compareToReference(referenceSql: string, reference: ResultTable, candidate: ResultTable): Comparison {
  return compareResults(reference, candidate, orderRule(referenceSql, reference.columns));
}
