/**
 * Databases generated from a task's schema, for test-suite accuracy (Zhong, Yu & Klein, EMNLP
 * 2020): a query that agrees with the reference on the task's one database may still differ
 * on another with the same schema. Values come from the reference's own literals and their
 * boundary neighbours (so its predicates go both ways), from the task's database (so joins
 * find partners), NULLs where a column allows them, duplicates and ties (DISTINCT, COUNT and
 * ORDER BY mistakes show there), and empty tables. Keys stay unique — the declared ones, and
 * the columns the task's data never repeats — and foreign keys point at rows that exist, so
 * the databases are ones the schema (and the data's own keys) admit.
 *
 * Pure: the schema and the sampled values are read through the engine by the caller, and the
 * databases come back as rows, rendered as setup SQL (`setupSql`) to run in the sandbox.
 */
import { seededRandom } from '../../core/random.js';
import { tokenize } from './order.js';
import type { SqlDatabase, SqlDialect } from './task.js';

export type Cell = string | number | null;

export interface ColumnInfo {
  readonly name: string;
  /** The declared type, as SQLite reads its affinity: INTEGER, REAL, TEXT, NUMERIC or BLOB-ish. */
  readonly type: string;
  readonly notNull: boolean;
  readonly primaryKey: boolean;
  /**
   * Only the task's own values fit (a PostgreSQL date, boolean, enum, …): generated rows take
   * those or NULL, written as text literals for the engine to read in the column's type.
   */
  readonly sampledOnly?: boolean;
  /** The longest text the column holds (PostgreSQL's `character varying(n)`): longer values are cut. */
  readonly maxLength?: number;
}

export interface ForeignKey {
  readonly column: string;
  readonly table: string;
  readonly to: string;
}

export interface TableInfo {
  readonly name: string;
  /** The table's CREATE statement as the database holds it. */
  readonly createSql: string;
  readonly columns: readonly ColumnInfo[];
  readonly foreignKeys: readonly ForeignKey[];
}

/** Rows per table, each row in the table's column order. */
export type GeneratedDatabase = Readonly<Record<string, readonly (readonly Cell[])[]>>;

export interface GenerateOptions {
  readonly seed: number;
  readonly count: number;
  /** Rows per table at most (default 6): small databases shrink fast and read easily. */
  readonly maxRows?: number;
  /** The reference's literals (`referenceLiterals`). */
  readonly literals: readonly (string | number)[];
  /** Values seen in the task's database, per `table.column` (a few each). */
  readonly samples?: Readonly<Record<string, readonly Cell[]>>;
  /** Kept unique beyond the declared keys: the task's data never repeats these columns, or these sets of them, per table. */
  readonly unique?: ImpliedKeys;
}

/** Per table, the columns (each a list: one column, a pair, or all of them for whole rows) whose values never repeat. */
export type ImpliedKeys = ReadonlyMap<string, readonly (readonly string[])[]>;

type Affinity = 'integer' | 'real' | 'text' | 'numeric';

/** SQLite's affinity rules (§3.1 of its datatype page), in their order. */
export function affinity(type: string): Affinity {
  const t = type.toUpperCase();
  if (t.includes('INT')) return 'integer';
  if (/CHAR|CLOB|TEXT/.test(t)) return 'text';
  if (t === '' || t.includes('BLOB')) return 'text';
  if (/REAL|FLOA|DOUB/.test(t)) return 'real';
  return 'numeric';
}

/** The string and number literals of a query, each once, in order. */
export function referenceLiterals(sql: string): (string | number)[] {
  const found: (string | number)[] = [];
  const seen = new Set<string>();
  for (const token of tokenize(sql)) {
    const value =
      token.kind === 'string'
        ? token.text.slice(1, -1).replace(/''/g, "'")
        : token.kind === 'number'
          ? Number(token.text)
          : undefined;
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) continue;
    const key = `${typeof value}:${value}`;
    if (!seen.has(key)) {
      seen.add(key);
      found.push(value);
    }
  }
  return found;
}

/** Tables in an order where each comes after those its foreign keys point at (cycles broken where met). */
function creationOrder(tables: readonly TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));
  const done = new Set<string>();
  const order: TableInfo[] = [];
  const visit = (table: TableInfo, path: Set<string>) => {
    const key = table.name.toLowerCase();
    if (done.has(key) || path.has(key)) return;
    path.add(key);
    for (const fk of table.foreignKeys) {
      const target = byName.get(fk.table.toLowerCase());
      if (target) visit(target, path);
    }
    done.add(key);
    order.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return order;
}

export function generateDatabases(tables: readonly TableInfo[], options: GenerateOptions): GeneratedDatabase[] {
  const random = seededRandom(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const maxRows = options.maxRows ?? 6;
  const numbers = options.literals.filter((v): v is number => typeof v === 'number');
  const strings = options.literals.filter((v): v is string => typeof v === 'string');
  // Boundary neighbours: a comparison with a literal goes both ways on them.
  const nearNumbers = [...new Set(numbers.flatMap((n) => [n - 1, n, n + 1, Number.isInteger(n) ? n : Math.round(n)]))];
  const databases: GeneratedDatabase[] = [];
  for (let d = 0; d < options.count; d++) {
    const db: Record<string, Cell[][]> = {};
    for (const table of creationOrder(tables)) {
      // About one database in eight leaves a table empty (aggregates over nothing, outer joins).
      const rows = random() < 0.125 ? 0 : 1 + Math.floor(random() * maxRows);
      const made: Cell[][] = [];
      for (let r = 0; r < rows; r++) {
        const row = table.columns
          .map((column, c) => {
            const fk = table.foreignKeys.find((k) => k.column.toLowerCase() === column.name.toLowerCase());
            const target =
              fk && db[fk.table] ? tables.find((t) => t.name.toLowerCase() === fk.table.toLowerCase()) : undefined;
            if (fk && target) {
              const at = target.columns.findIndex((col) => col.name.toLowerCase() === fk.to.toLowerCase());
              const partners = db[target.name]!.map((row) => row[at] ?? null).filter((v) => v !== null);
              if (partners.length > 0 && random() < 0.9) return pick(partners);
            }
            // Each database's first row walks through the literals' neighbours and the sampled
            // values in turn, so that every boundary is met within a few databases, not by chance.
            if (r === 0 && !column.primaryKey) {
              const walked = walk(table, column, d + c);
              if (walked !== undefined) return walked;
            }
            return valueFor(table, column, made, c);
          })
          .map((value, c) => {
            const max = table.columns[c]!.maxLength;
            return typeof value === 'string' && max !== undefined ? value.slice(0, max) : value;
          });
        // A column the data keeps unique gets a fresh value where this one is taken; a row that
        // repeats a set of columns the data never repeats is left out, as is a declared key repeated
        // (the engine would refuse it).
        const implied = (options.unique?.get(table.name) ?? []).map((key) =>
          key.map((name) => table.columns.findIndex((c) => c.name === name)),
        );
        const freshened = implied.filter((key) => key.length === 1 && !table.columns[key[0]!]!.sampledOnly);
        for (const [c] of freshened)
          if (row[c!] !== null)
            row[c!] = fresh(
              row[c!]!,
              made.map((other) => other[c!] ?? null),
            );
        const declared = table.columns.flatMap((column, c) => (column.primaryKey ? [c] : []));
        const keyOf = (key: readonly number[], of: readonly Cell[]) => JSON.stringify(key.map((c) => of[c]));
        const repeats = (key: readonly number[]) =>
          key.length > 0 && made.some((other) => keyOf(key, other) === keyOf(key, row));
        if (repeats(declared) || implied.some((key) => !freshened.includes(key) && repeats(key))) continue;
        made.push(row);
      }
      db[table.name] = made;
    }
    databases.push(db);
  }
  return databases;

  function walk(table: TableInfo, column: ColumnInfo, step: number): Cell | undefined {
    const kind = affinity(column.type);
    const sampled = (options.samples?.[`${table.name}.${column.name}`] ?? []).filter((v) => v !== null);
    if (column.sampledOnly) return sampled.length > 0 ? sampled[step % sampled.length] : undefined;
    const values =
      kind === 'text' ? [...strings, ...sampled] : nearNumbers.map((n) => (kind === 'integer' ? Math.round(n) : n));
    return values.length > 0 ? values[step % values.length] : undefined;
  }

  function valueFor(table: TableInfo, column: ColumnInfo, made: readonly Cell[][], c: number): Cell {
    if (!column.notNull && !column.primaryKey && random() < 0.12) return null;
    // Duplicates and ties: a value another row of this table already has.
    const unique = options.unique?.get(table.name)?.some((key) => key.length === 1 && key[0] === column.name);
    if (!column.primaryKey && !unique && made.length > 0 && random() < 0.25)
      return made[Math.floor(random() * made.length)]![c] ?? null;
    const kind = affinity(column.type);
    const sampled = (options.samples?.[`${table.name}.${column.name}`] ?? []).filter((v) => v !== null);
    if (column.sampledOnly) return sampled.length > 0 ? pick(sampled) : null;
    // The literals first (they put rows on both sides of the predicates), then values of the task's database, then anything.
    const roll = random();
    if (kind === 'text') {
      if (strings.length > 0 && roll < 0.45) return pick(strings);
      if (sampled.length > 0 && roll < 0.85) return pick(sampled);
      return pick(['', 'a', 'b', 'ab', 'z']);
    }
    if (nearNumbers.length > 0 && roll < 0.5) {
      const n = pick(nearNumbers);
      return kind === 'integer' ? Math.round(n) : n;
    }
    if (sampled.length > 0 && roll < 0.8) return pick(sampled);
    const n = Math.floor(random() * 21) - 5;
    return kind === 'real' && random() < 0.5 ? n + 0.5 : n;
  }
}

/** `value`, or the first like it that `taken` does not hold: `'a'` → `'a2'`, 5 → one past the largest number. */
function fresh(value: string | number, taken: readonly Cell[]): Cell {
  if (!taken.includes(value)) return value;
  if (typeof value === 'number') return Math.max(...taken.filter((v): v is number => typeof v === 'number')) + 1;
  for (let n = 2; ; n++) if (!taken.includes(`${value}${n}`)) return `${value}${n}`;
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

function literal(value: Cell, asText = false): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' && !asText) return Number.isFinite(value) ? String(value) : 'NULL';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The schema's CREATE statements, then the database's rows as INSERTs. */
export function setupSql(tables: readonly TableInfo[], db: GeneratedDatabase): { schema: string; setup: string } {
  const schema = creationOrder(tables)
    .map((t) => `${t.createSql.trim().replace(/;$/, '')};`)
    .join('\n');
  const setup = creationOrder(tables)
    .flatMap((t) =>
      (db[t.name] ?? []).map(
        (row) =>
          `INSERT INTO ${quoteName(t.name)} VALUES (${row.map((v, c) => literal(v, t.columns[c]?.sampledOnly)).join(', ')});`,
      ),
    )
    .join('\n');
  return { schema, setup };
}

/** A generated database as the engine's request names it: its setup SQL, for the task's dialect. */
export function inlineDatabase(dialect: SqlDialect, tables: readonly TableInfo[], db: GeneratedDatabase): SqlDatabase {
  return { kind: 'inline', ...setupSql(tables, db), ...(dialect === 'postgres' ? { dialect } : {}) };
}

/** How many rows a database holds. */
export const rowCount = (db: GeneratedDatabase) => Object.values(db).reduce((n, rows) => n + rows.length, 0);

/**
 * The smallest database found on which `differs` still holds: rows are taken away a half, a
 * quarter, … at a time, then one at a time (ddmin's complements), table by table, until no
 * single row can go. Rows another row's foreign key points at may go too: the engine does not
 * enforce foreign keys unless asked, and the candidate and the reference see the same rows.
 */
export async function shrinkDatabase(
  db: GeneratedDatabase,
  differs: (candidate: GeneratedDatabase) => Promise<boolean>,
  maxTries = 200,
): Promise<{ database: GeneratedDatabase; tries: number }> {
  let current: Record<string, readonly (readonly Cell[])[]> = { ...db };
  let tries = 0;
  for (let changed = true; changed && tries < maxTries;) {
    changed = false;
    for (const table of Object.keys(current)) {
      let rows = current[table]!;
      for (
        let chunk = Math.max(1, Math.floor(rows.length / 2));
        chunk >= 1 && tries < maxTries;
        chunk = chunk === 1 ? 0 : Math.max(1, Math.floor(chunk / 2))
      ) {
        for (let start = 0; start < rows.length && tries < maxTries;) {
          const without = [...rows.slice(0, start), ...rows.slice(start + chunk)];
          tries++;
          if (await differs({ ...current, [table]: without })) {
            rows = without;
            current = { ...current, [table]: rows };
            changed = true;
          } else start += chunk;
        }
      }
    }
  }
  return { database: current, tries };
}
