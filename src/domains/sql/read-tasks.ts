/**
 * Reading SQL tasks from the formats users have:
 * - Crucible's task lines (JSONL, `"domain": "sql"`): `database` a path relative to the task
 *   file, in its folder or below it (task-paths.ts), or inline `schema` and `setup` SQL;
 * - text2sql-data (`geography.json` with its SQLite file beside it): one task per sentence,
 *   its variables substituted into `sql[0]` (the other `sql` entries are known-equivalent
 *   rewrites);
 * - Spider and BIRD (`dev.json` with `db_id`; databases under `database/<db_id>/<db_id>.sqlite`).
 * A `.json` file holding one task line is one task.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { pathInTaskFolder } from '../task-paths.js';
import type { SqlDatabase, SqlTask } from './task.js';

const TaskLine = z
  .object({
    task_id: z.string().min(1),
    domain: z.literal('sql'),
    dialect: z.enum(['sqlite', 'postgres']).default('sqlite'),
    database: z.string().min(1).optional(),
    schema: z.string().optional(),
    setup: z.string().default(''),
    question: z.string().default(''),
    reference: z.string().min(1),
    equivalents: z.array(z.string()).default([]),
    buggy: z.string().optional(),
    error: z.string().optional(),
    /** Written by `crucible sql bugs`: what kind of bug was injected, and what told it apart. */
    bug: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((line) => (line.database === undefined) !== (line.schema === undefined), {
    message: 'give either "database" (an SQLite file) or "schema" (with "setup"), not both',
  })
  .refine((line) => line.dialect !== 'postgres' || line.database === undefined, {
    message: 'a postgres task gives its database as "schema" and "setup" SQL (PostgreSQL here has no database files)',
  });

/** SQL task lines; `file` is where they were read from (databases are relative to it). */
export function readSqlTaskLines(text: string, file: string): SqlTask[] {
  const folder = dirname(resolve(file));
  return text.split('\n').flatMap((raw, i) => {
    if (!raw.trim()) return [];
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not JSON (${(error as Error).message})`);
    }
    const parsed = TaskLine.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${file}:${i + 1}: ${issue.path.length ? `"${issue.path.join('.')}": ` : ''}${issue.message}`);
    }
    const line = parsed.data;
    const database: SqlDatabase =
      line.database !== undefined
        ? {
            kind: 'file',
            path: pathInTaskFolder(line.database, { folder, where: `${file}:${i + 1}`, what: 'the database' }),
          }
        : {
            kind: 'inline',
            schema: line.schema!,
            setup: line.setup,
            ...(line.dialect === 'postgres' ? { dialect: 'postgres' as const } : {}),
          };
    return [
      {
        id: line.task_id,
        dialect: line.dialect,
        database,
        question: line.question,
        reference: line.reference,
        equivalents: line.equivalents,
        ...(line.buggy !== undefined ? { buggy: line.buggy } : {}),
        ...(line.error !== undefined ? { error: line.error } : {}),
        source: 'sql-jsonl',
      },
    ];
  });
}

const Text2SqlEntry = z.object({
  sql: z.array(z.string()).min(1),
  sentences: z.array(z.object({ text: z.string(), variables: z.record(z.string(), z.string()).default({}) })),
  variables: z.array(z.object({ name: z.string(), example: z.string() })).default([]),
});

/** Whether parsed JSON is a text2sql-data file (a list of entries with `sentences` and `sql`). */
export function isText2Sql(json: unknown): boolean {
  return Array.isArray(json) && json.length > 0 && Text2SqlEntry.safeParse(json[0]).success;
}

/**
 * text2sql-data's placeholders stand in double quotes (`= "state_name0"`), which SQLite
 * reads as identifiers first; each becomes a single-quoted string literal of its value, so a
 * gold query runs on an engine built without double-quoted strings (better-sqlite3's).
 */
export function substituteVariables(sql: string, values: Readonly<Record<string, string>>): string {
  return sql.replace(/"([A-Za-z_][A-Za-z0-9_]*)"/g, (whole, name: string) =>
    name in values ? `'${values[name]!.replace(/'/g, "''")}'` : whole,
  );
}

/** The SQLite database beside a text2sql-data file: `<stem>-db*.sqlite`, else `<stem>.sqlite`. */
function databaseBeside(file: string): string {
  const folder = dirname(resolve(file));
  const stem = basename(file).replace(/\.json$/, '');
  const found = readdirSync(folder)
    .filter((name) => name.endsWith('.sqlite') && (name.startsWith(`${stem}-db`) || name === `${stem}.sqlite`))
    .sort();
  if (found.length === 0)
    throw new Error(
      `${file}: no SQLite database beside it (looked for ${stem}-db*.sqlite and ${stem}.sqlite in ${folder})`,
    );
  // A name in the folder, but it may be a link to anywhere (a downloaded archive can hold one).
  return pathInTaskFolder(found[0]!, { folder, where: file, what: 'the database' });
}

/** One task per sentence: `<stem>/<query>/<sentence>`, from 0. */
export function readText2Sql(json: unknown, file: string): SqlTask[] {
  const entries = z.array(Text2SqlEntry).parse(json);
  const database: SqlDatabase = { kind: 'file', path: databaseBeside(file) };
  const stem = basename(file).replace(/\.json$/, '');
  return entries.flatMap((entry, q) =>
    entry.sentences.map((sentence, s) => {
      // A variable the sentence does not bind takes the entry's example value.
      const values = { ...Object.fromEntries(entry.variables.map((v) => [v.name, v.example])), ...sentence.variables };
      const question = Object.entries(values).reduce(
        (text, [name, value]) => text.replaceAll(name, value),
        sentence.text,
      );
      const [reference, ...equivalents] = entry.sql.map((sql) => substituteVariables(sql, values).trim());
      return {
        id: `${stem}/${q}/${s}`,
        dialect: 'sqlite' as const,
        database,
        question,
        reference: reference!,
        equivalents,
        source: 'text2sql-data',
      };
    }),
  );
}

const SpiderEntry = z.object({
  db_id: z.string(),
  question: z.string(),
  query: z.string().optional(),
  SQL: z.string().optional(),
});

/** Whether parsed JSON is a Spider or BIRD split (entries with `db_id`, `question` and `query` or `SQL`). */
export function isSpider(json: unknown): boolean {
  return (
    Array.isArray(json) &&
    json.length > 0 &&
    SpiderEntry.safeParse(json[0]).success &&
    ('query' in json[0] || 'SQL' in json[0])
  );
}

/** One task per entry: `<db_id>/<index>`; databases under `database/<db_id>/<db_id>.sqlite` beside the file (or `dev_databases/` as BIRD ships them). */
export function readSpider(json: unknown, file: string): SqlTask[] {
  const folder = dirname(resolve(file));
  return z
    .array(SpiderEntry)
    .parse(json)
    .map((entry, i) => {
      // db_id comes from the file: the path it makes goes through pathInTaskFolder, which refuses
      // one that leads out (a db_id of ../..) before looking at it. The candidates differ only
      // in their first folder, so they all lead out or none does.
      const candidates = ['database', 'dev_databases', 'train_databases'].map((dir) =>
        join(dir, entry.db_id, `${entry.db_id}.sqlite`),
      );
      const found = candidates.find((p) => existsSync(resolve(folder, p))) ?? candidates[0]!;
      const path = pathInTaskFolder(found, {
        folder,
        where: `${file}: entry ${i} (${entry.db_id})`,
        what: 'the database',
        otherwise: 'as Spider ships them (database/<db_id>/<db_id>.sqlite; BIRD: dev_databases/ or train_databases/)',
      });
      return {
        id: `${entry.db_id}/${i}`,
        dialect: 'sqlite' as const,
        database: { kind: 'file' as const, path },
        question: entry.question,
        reference: (entry.query ?? entry.SQL)!.trim(),
        equivalents: [],
        source: 'spider',
      };
    });
}

/** Whether a dataset file holds SQL tasks (any of the formats above), judged without reading it whole twice. */
export function isSqlTaskFile(file: string): boolean {
  if (!/\.jsonl?$/.test(file) || !existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) {
    const first = text.split('\n').find((line) => line.trim());
    try {
      return first !== undefined && (JSON.parse(first) as { domain?: unknown }).domain === 'sql';
    } catch {
      return false;
    }
  }
  try {
    const json: unknown = JSON.parse(text);
    return isOneTaskLine(json) || isText2Sql(json) || isSpider(json);
  } catch {
    return false;
  }
}

/** A `.json` file holding one task line (a task written by hand for `crucible solve`). */
const isOneTaskLine = (json: unknown) =>
  typeof json === 'object' && json !== null && (json as { domain?: unknown }).domain === 'sql';

/** The first task of each distinct reference: the sentences of a text2sql-data query share one. */
export function distinctReferences(tasks: readonly SqlTask[]): SqlTask[] {
  const seen = new Set<string>();
  return tasks.filter((t) => !seen.has(t.reference) && (seen.add(t.reference), true));
}

/** SQL tasks from a file of any of the formats above. */
export function readSqlTasks(file: string): SqlTask[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.jsonl')) return readSqlTaskLines(text, file);
  const json: unknown = JSON.parse(text);
  if (isOneTaskLine(json)) return readSqlTaskLines(JSON.stringify(json), file);
  if (isText2Sql(json)) return readText2Sql(json, file);
  if (isSpider(json)) return readSpider(json, file);
  throw new Error(
    `${file}: not an SQL task file (expected task lines with "domain": "sql", a text2sql-data file, or a Spider/BIRD split)`,
  );
}
