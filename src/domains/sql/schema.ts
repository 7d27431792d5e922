/**
 * A database's schema and a few of its values, read through the sandboxed engine (the file
 * may come from a request): tables with their CREATE statements, columns, keys and foreign
 * keys, and up to `SAMPLES` distinct values per column for generated databases to reuse.
 */
import type { SqlRequest, SqlResult } from '../../runtimes/sql-pool.js';
import type { Cell, TableInfo } from './generate.js';

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

export async function readSchema(run: RunQuery): Promise<TableInfo[]> {
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

/**
 * The columns the task's data never repeats (`table.column`): at least two values, all
 * distinct. A schema often leaves a key undeclared (GeoQuery's state names), and a right
 * query may lean on it; generated databases keep such a column unique, as the data does.
 */
export async function impliedUnique(run: RunQuery, tables: readonly TableInfo[]): Promise<Set<string>> {
  const unique = new Set<string>();
  await Promise.all(
    tables.map(async (table) => {
      const columns = table.columns.filter((c) => !c.primaryKey);
      if (columns.length === 0) return;
      const counts = columns.flatMap((c) => [`COUNT(${quoteName(c.name)})`, `COUNT(DISTINCT ${quoteName(c.name)})`]);
      const [row] = await rows(run, `SELECT ${counts.join(', ')} FROM ${quoteName(table.name)}`);
      columns.forEach((column, i) => {
        const [values, distinct] = [Number(row?.[2 * i]), Number(row?.[2 * i + 1])];
        if (values >= 2 && distinct === values) unique.add(`${table.name}.${column.name}`);
      });
    }),
  );
  return unique;
}

/** A runner bound to one database, for the functions above. */
export function queryOn(run: (request: SqlRequest) => Promise<SqlResult>, database: SqlRequest['database']): RunQuery {
  return (sql) => run({ database, sql });
}
