/**
 * The reference's order as the engine has it: which of its rows tie on every sort key, and, where
 * a LIMIT or OFFSET cuts a group of tied rows, every row of that group. The sort keys are read
 * by running the reference once more with its ORDER BY terms the output does not show added
 * as result columns (`SELECT e.name, e.salary FROM … ORDER BY e.salary DESC`), and without
 * its LIMIT/OFFSET/FETCH, so the rows around a cut are seen; the engine sorts, and only which
 * keys are equal is read here (tieKey). The same text works on SQLite and PostgreSQL: both take
 * an ORDER BY term's expression as a result column, in the same scope.
 *
 * Where the keys cannot be recovered — a compound query (or VALUES) sorted by an expression
 * not found among its columns, a term that names an output alias inside an expression (SQLite
 * only: `ORDER BY pay + 1`), an OFFSET that is not a number, a query that no longer runs or
 * whose rows change with the added columns, more rows than are read — the order is what the
 * text shows (compare.ts `textOrder`): any order consistent with a valid one. SELECT DISTINCT
 * whose added keys make more rows (the key is not a function of the row) gives each row the
 * places its keys could sort it in (`places`).
 */
import type { SqlLimits, SqlResult, SqlRow } from '../../runtimes/sql-pool.js';
import { DEFAULT_SQL_LIMITS } from '../../runtimes/sql-pool.js';
import {
  compareResults,
  runsOfEqualKeys,
  textOrder,
  tieKey,
  type ResultOrder,
  type ResultTable,
  type TieRun,
} from './compare.js';
import { readTopLevel, type TopLevel } from './order.js';

/** Runs one query on the database the reference ran on. */
export type RunOnDatabase = (sql: string, limits?: Partial<SqlLimits>) => Promise<SqlResult>;

/** Rows read past the reference's last one, to find where a group cut by its LIMIT ends. */
const ROWS_PAST_THE_CUT = 1000;

/** The reference's result (`ok`) with its order from the engine; any other result as it is. */
export async function withEngineOrder(
  run: RunOnDatabase,
  sql: string,
  result: SqlResult,
): Promise<SqlResult & Pick<ResultTable, 'order'>> {
  if (result.status !== 'ok') return result;
  return { ...result, order: await orderFromEngine(run, sql, result) };
}

export async function orderFromEngine(run: RunOnDatabase, sql: string, reference: ResultTable): Promise<ResultOrder> {
  const top = readTopLevel(sql, reference.columns);
  const fallback = textOrder(sql, reference);
  const n = reference.rows.length;
  const hidden = top.terms.filter((t) => t.column === undefined);
  // The text shows all there is: no keys hidden and nothing cut, or too few rows to misorder.
  if (n === 0 || (top.cut === undefined && (!top.ordered || hidden.length === 0 || n === 1))) return fallback;
  const offset = top.cut?.offset ?? 0;
  if (top.cut !== undefined && top.cut.offset === undefined) return fallback;
  const width = reference.columns.length || reference.rows[0]!.length;
  const keyed = keyedQuery(sql, top, width);
  if (keyed === undefined) return fallback;
  const result = await run(keyed.sql, { rows: Math.min(DEFAULT_SQL_LIMITS.rows, offset + n + ROWS_PAST_THE_CUT) });
  // Cut by the row or byte limit, its rows are still the first in the engine's order.
  if ((result.status !== 'ok' && result.status !== 'output-limit') || result.rows.some((r) => r.length !== keyed.width))
    return fallback;
  const complete = result.status === 'ok';
  const keyOf = (row: SqlRow) => JSON.stringify(keyed.keys.map((k, i) => tieKey(row[k] ?? null, keyed.collations[i])));
  const order =
    top.distinct && hidden.length > 0 && repeatsRows(result.rows, width)
      ? placesOf(result.rows, width, keyOf, complete)
      : runsOf(result.rows, width, keyOf, complete, offset, n);
  // The reference's own rows must be right under the order found, or the keys were not its.
  if (order === undefined || !compareResults(reference, reference, order).equal) return fallback;
  return order;
}

/**
 * The reference with the ORDER BY terms the output does not show as result columns after its
 * own, and without its LIMIT/OFFSET/FETCH; each term's key column (`keys`), and how many columns
 * it has. Undefined when the terms cannot be added (a compound query, VALUES).
 */
export function keyedQuery(
  sql: string,
  top: TopLevel,
  width: number,
): { sql: string; keys: number[]; collations: (string | undefined)[]; width: number } | undefined {
  const hidden = top.terms.filter((t) => t.column === undefined);
  let text = sql.slice(0, top.bodyEnd);
  if (hidden.length > 0) {
    if (top.columnsEnd === undefined || hidden.some((t) => t.text === '')) return undefined;
    const at = top.columnsEnd;
    text = `${text.slice(0, at).trimEnd()}, ${hidden.map((t) => t.text).join(', ')} ${text.slice(at)}`;
  }
  return {
    sql: text,
    keys: top.terms.map((t) => t.column ?? width + hidden.indexOf(t)),
    collations: top.terms.map((t) => t.collation),
    width: width + hidden.length,
  };
}

const shown = (row: SqlRow, width: number) => row.slice(0, width);

/** Whether two rows are the same once the added key columns are dropped: SELECT DISTINCT made more rows. */
function repeatsRows(rows: readonly SqlRow[], width: number): boolean {
  const seen = new Set<string>();
  return rows.some((row) => {
    const key = JSON.stringify(shown(row, width));
    return seen.has(key) || (seen.add(key), false);
  });
}

/**
 * The runs of the window the reference returned (`offset`, `n` rows) over the keyed rows, in
 * their groups of tied keys; a group cut at either end of the window gives its run the whole
 * group's rows to choose from. Undefined when the rows read stop before a cut group ends.
 */
function runsOf(
  rows: readonly SqlRow[],
  width: number,
  keyOf: (row: SqlRow) => string,
  complete: boolean,
  offset: number,
  n: number,
): ResultOrder | undefined {
  if (rows.length < offset + n) return undefined;
  const runs: TieRun[] = [];
  for (const group of runsOfEqualKeys(rows, keyOf)) {
    if (group.end <= offset || group.start >= offset + n) continue;
    const cut = group.start < offset || group.end > offset + n;
    if (cut && group.end === rows.length && !complete) return undefined;
    runs.push({
      start: Math.max(group.start, offset) - offset,
      end: Math.min(group.end, offset + n) - offset,
      ...(cut ? { choices: rows.slice(group.start, group.end).map((row) => shown(row, width)) } : {}),
    });
  }
  return { runs };
}

/** For each distinct row, the tied groups (in order) its keys put it in. Only from every row: a row past those read could sort earlier. */
function placesOf(
  rows: readonly SqlRow[],
  width: number,
  keyOf: (row: SqlRow) => string,
  complete: boolean,
): ResultOrder | undefined {
  if (!complete) return undefined;
  const places = new Map<string, { row: SqlRow; at: number[] }>();
  runsOfEqualKeys(rows, keyOf).forEach((group, place) => {
    for (const row of rows.slice(group.start, group.end)) {
      const visible = shown(row, width);
      const key = JSON.stringify(visible);
      const entry = places.get(key) ?? { row: visible, at: [] };
      if (entry.at.at(-1) !== place) entry.at.push(place);
      places.set(key, entry);
    }
  });
  return { places: [...places.values()] };
}
