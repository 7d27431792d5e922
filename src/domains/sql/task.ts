/**
 * An SQL task: a question about a database, the reference query that answers it, and for
 * debugging tasks the buggy query to fix (with the engine's message when the bug is a syntax
 * fault). The database is an SQLite file, or inline schema and setup SQL for SQLite or
 * PostgreSQL (PGlite has no database files).
 */
export type SqlDialect = 'sqlite' | 'postgres';

export type SqlDatabase =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'inline'; readonly schema: string; readonly setup: string; readonly dialect?: 'postgres' };

export interface SqlTask {
  readonly id: string;
  readonly dialect: SqlDialect;
  readonly database: SqlDatabase;
  readonly question: string;
  readonly reference: string;
  /** Queries known to be equivalent to the reference (text2sql-data's other gold queries). */
  readonly equivalents: readonly string[];
  /** Debugging tasks: the query to fix, and the engine's message when it does not run. */
  readonly buggy?: string;
  readonly error?: string;
  /** Where the task came from: `sql-jsonl`, `text2sql-data`, `spider`. */
  readonly source: string;
}

/** The engines a set of tasks runs on, as a document names them: `sqlite`, `postgres`, or `sqlite + postgres`. */
export function sqlEngines(tasks: readonly Pick<SqlTask, 'dialect'>[]): string {
  const dialects = [...new Set(tasks.map((t) => t.dialect))].sort((a, b) => b.localeCompare(a));
  return dialects.length ? dialects.join(' + ') : 'sqlite';
}

/** The suites a query is judged on: the task's own database, then the generated ones. */
export const BASE = 'base';
export const GENERATED = 'generated';
/** Databases generated per task unless a command says how many. */
export const DEFAULT_DATABASES = 12;
