/**
 * A database's schema and a few of its values, read through the sandboxed engine (the file
 * may come from a request): tables with their CREATE statements, columns, keys and foreign
 * keys, and up to `SAMPLES` distinct values per column for generated databases to reuse.
 */
import type { SqlRequest, SqlResult } from '../../runtimes/sql-pool.js';
import type { Cell, ImpliedKeys, TableInfo } from './generate.js';
import type { SqlDialect } from './task.js';

export type RunQuery = (sql: string) => Promise<SqlResult>;

const SAMPLES = 5;

const quoteString = (text: string) => `'${text.replace(/'/g, "''")}'`;
const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function rows(run: RunQuery, sql: string): Promise<SqlResult['rows']> {
  const result = await run(sql);
  if (result.status !== 'ok')
    throw new Error(`reading the schema (${sql}): ${result.status}${result.message ? `: ${result.message}` : ''}`);
  return result.rows;
}

export async function readSchema(run: RunQuery, dialect: SqlDialect = 'sqlite'): Promise<TableInfo[]> {
  if (dialect === 'postgres') return readPostgresSchema(run);
  const tables = await rows(
    run,
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
  );
  return Promise.all(
    tables.map(async ([name, createSql]) => {
      const table = String(name);
      const [columns, keys] = await Promise.all([
        rows(run, `SELECT name, type, "notnull", pk FROM pragma_table_info(${quoteString(table)}) ORDER BY cid`),
        rows(run, `SELECT "from", "table", "to" FROM pragma_foreign_key_list(${quoteString(table)})`),
      ]);
      return {
        name: table,
        createSql: String(createSql),
        columns: columns.map(([column, type, notNull, pk]) => ({
          name: String(column),
          type: String(type ?? ''),
          notNull: notNull === 1,
          primaryKey: Number(pk) > 0,
        })),
        // A foreign key with no target column names the target's primary key.
        foreignKeys: keys.map(([from, target, to]) => ({
          column: String(from),
          table: String(target),
          to: to === null ? '' : String(to),
        })),
      };
    }),
  );
}

/** PostgreSQL's tables types and keys, from its catalog (the database's schema is the search path's first). */
async function readPostgresSchema(run: RunQuery): Promise<TableInfo[]> {
  const tables = await rows(
    run,
    "SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.oid",
  );
  return Promise.all(
    tables.map(async ([oid, name]) => {
      const table = String(name);
      const [columns, keys, foreign] = await Promise.all([
        rows(
          run,
          `SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute WHERE attrelid = ${Number(oid)} AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
        ),
        rows(
          run,
          `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = ${Number(oid)} AND i.indisprimary`,
        ),
        // Single-column foreign keys (a composite one is not followed).
        rows(
          run,
          `SELECT a.attname, t.relname, b.attname FROM pg_constraint k JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1] JOIN pg_class t ON t.oid = k.confrelid JOIN pg_attribute b ON b.attrelid = k.confrelid AND b.attnum = k.confkey[1] WHERE k.conrelid = ${Number(oid)} AND k.contype = 'f' AND cardinality(k.conkey) = 1`,
        ),
      ]);
      const primary = new Set(keys.map(([column]) => String(column)));
      const infos = columns.map(([column, type, notNull]) => ({
        name: String(column),
        ...postgresType(String(type)),
        notNull: notNull === 1,
        primaryKey: primary.has(String(column)),
      }));
      // Written without its foreign keys: a generated database need not keep them once shrunk.
      const definitions = columns.map(
        ([column, type, notNull]) => `${quoteName(String(column))} ${String(type)}${notNull === 1 ? ' NOT NULL' : ''}`,
      );
      if (primary.size > 0) definitions.push(`PRIMARY KEY (${[...primary].map(quoteName).join(', ')})`);
      return {
        name: table,
        createSql: `CREATE TABLE ${quoteName(table)} (\n  ${definitions.join(',\n  ')}\n)`,
        columns: infos,
        foreignKeys: foreign.map(([from, target, to]) => ({
          column: String(from),
          table: String(target),
          to: String(to),
        })),
      };
    }),
  );
}

/**
 * A PostgreSQL type as the generator reads it: numbers and text by SQLite's affinity names;
 * any other type (dates, booleans, enums, arrays, …) takes only the task's own values.
 */
function postgresType(type: string): { type: string; sampledOnly?: true; maxLength?: number } {
  if (/^(smallint|integer|bigint)$/.test(type)) return { type: 'INTEGER' };
  if (/^(real|double precision)$/.test(type)) return { type: 'REAL' };
  if (/^numeric/.test(type)) return { type: 'NUMERIC' };
  const text = /^(?:text|character varying|character)(?:\((\d+)\))?$/.exec(type);
  if (text) return { type: 'TEXT', ...(text[1] ? { maxLength: Number(text[1]) } : {}) };
  return { type, sampledOnly: true };
}

/** Up to SAMPLES distinct non-null values of every column, keyed `table.column`. */
export async function sampleValues(run: RunQuery, tables: readonly TableInfo[]): Promise<Record<string, Cell[]>> {
  const samples: Record<string, Cell[]> = {};
  await Promise.all(
    tables.flatMap((table) =>
      table.columns.map(async (column) => {
        const found = await rows(
          run,
          `SELECT DISTINCT ${quoteName(column.name)} FROM ${quoteName(table.name)} WHERE ${quoteName(column.name)} IS NOT NULL LIMIT ${SAMPLES}`,
        );
        samples[`${table.name}.${column.name}`] = found
          .map(([v]) => (typeof v === 'string' || typeof v === 'number' ? v : null))
          .filter((v) => v !== null);
      }),
    ),
  );
  return samples;
}

/** Column pairs are looked for only in tables this narrow (a pair each is a query). */
const PAIRS_UP_TO_COLUMNS = 8;

/**
 * What the task's data never repeats, per table: columns with at least two values, all
 * distinct; where there is no such column (and no declared key), pairs of columns; and rows,
 * no two the same. A schema often leaves a key undeclared (GeoQuery's state names, a river's
 * states, its pairs of bordering states), and a right query may lean on it; generated
 * databases keep such a column, pair or row unique, as the data does.
 */
export async function impliedUnique(run: RunQuery, tables: readonly TableInfo[]): Promise<ImpliedKeys> {
  const keys = new Map<string, string[][]>();
  await Promise.all(
    tables.map(async (table) => {
      const columns = table.columns.filter((c) => !c.primaryKey);
      const counts = columns.flatMap((c) => [`COUNT(${quoteName(c.name)})`, `COUNT(DISTINCT ${quoteName(c.name)})`]);
      const name = quoteName(table.name);
      const distinct = (list: string) => `(SELECT COUNT(*) FROM (SELECT DISTINCT ${list} FROM ${name}) AS d)`;
      const [row] = await rows(run, `SELECT ${[...counts, 'COUNT(*)', distinct('*')].join(', ')} FROM ${name}`);
      const found: string[][] = [];
      columns.forEach((column, i) => {
        const [values, different] = [Number(row?.[2 * i]), Number(row?.[2 * i + 1])];
        if (values >= 2 && different === values) found.push([column.name]);
      });
      const [all, distinctRows] = [Number(row?.[2 * columns.length]), Number(row?.[2 * columns.length + 1])];
      const keyed = found.length > 0 || table.columns.some((c) => c.primaryKey);
      if (!keyed && all >= 2 && table.columns.length >= 2 && table.columns.length <= PAIRS_UP_TO_COLUMNS) {
        const pairs = table.columns.flatMap((a, i) => table.columns.slice(i + 1).map((b) => [a.name, b.name]));
        const [pairCounts] = await rows(
          run,
          `SELECT ${pairs.map(([a, b]) => distinct(`${quoteName(a!)}, ${quoteName(b!)}`)).join(', ')}`,
        );
        pairs.forEach((pair, i) => Number(pairCounts?.[i]) === all && found.push(pair));
      }
      if (all >= 2 && distinctRows === all) found.push(table.columns.map((c) => c.name));
      if (found.length > 0) keys.set(table.name, found);
    }),
  );
  return keys;
}

/** A runner bound to one database, for the functions above. */
export function queryOn(run: (request: SqlRequest) => Promise<SqlResult>, database: SqlRequest['database']): RunQuery {
  return (sql) => run({ database, sql });
}
