/**
 * What a model is shown of an SQL task, and what it is told when its query is wrong. The
 * database is shown as its CREATE statements, each followed by a few of its rows — the
 * "CREATE TABLE + SELECT 3" prompt that Rajkumar, Li & Bahdanau (2022) found best for
 * text-to-SQL. A wrong query is shown the smallest database on which it differs from the
 * reference, whole, with the rows expected and its own.
 */
import type { SqlRunner, SqlValue } from '../../runtimes/sql-pool.js';
import type { FailureFact } from '../../feedback/facts.js';
import type { Report } from '../types.js';
import { formatValue } from './compare.js';
import { queryOn, readSchema } from './schema.js';
import type { SqlTask } from './task.js';

export const SHOWN_ROWS = 3;
const MAX_CELL = 60;

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const clipCell = (text: string) => (text.length > MAX_CELL ? `${text.slice(0, MAX_CELL)}…` : text);

/**
 * The task's database as a model reads it: each table's CREATE statement and its first rows.
 * Read through the sandboxed engine (the file may come from anyone); throws when it cannot be read.
 */
export async function describeDatabase(runner: SqlRunner, task: SqlTask, shownRows = SHOWN_ROWS): Promise<string> {
  const run = queryOn((request) => runner.run(request), task.database);
  const tables = await readSchema(run, task.dialect);
  const parts = await Promise.all(
    tables.map(async (table) => {
      const [count, rows] = await Promise.all([
        run(`SELECT COUNT(*) FROM ${quoteName(table.name)}`),
        run(`SELECT * FROM ${quoteName(table.name)} LIMIT ${shownRows}`),
      ]);
      const total = count.status === 'ok' ? Number(count.rows[0]?.[0] ?? 0) : undefined;
      const create = `${table.createSql.trim().replace(/;?$/, ';')}`;
      if (rows.status !== 'ok' || rows.rows.length === 0) return total === 0 ? `${create}\n/* no rows */` : create;
      const lines = rows.rows.map((row) => row.map((v) => clipCell(formatValue(v))).join('\t'));
      const of = total !== undefined && total > rows.rows.length ? ` of ${total}` : '';
      return `${create}\n/*\n${rows.rows.length}${of} rows of ${table.name}:\n${rows.columns.join('\t')}\n${lines.join('\n')}\n*/`;
    }),
  );
  return parts.join('\n\n');
}

/** The instruction: the database, the question, and for a debugging task the query to fix. */
/** How the task's engine is called in a prompt. */
export const dialectName = (task: SqlTask) => (task.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite');

export function sqlTaskText(task: SqlTask, database: string): string {
  const lines = [
    task.buggy === undefined
      ? `Write one ${dialectName(task)} query that answers the question below on this database.`
      : `The ${dialectName(task)} query below is meant to answer the question on this database, but it is wrong. Fix it.`,
    '',
    `\`\`\`sql\n${database}\n\`\`\``,
  ];
  if (task.question) lines.push('', `Question: ${task.question}`);
  if (task.buggy !== undefined) {
    lines.push('', `The query to fix:\n\`\`\`sql\n${task.buggy}\n\`\`\``);
    if (task.error) lines.push(`The engine says: ${task.error}`);
  }
  lines.push(
    '',
    `Reply with ${task.buggy === undefined ? 'the query' : 'the corrected query'} in one \`\`\`sql code block: one SELECT statement.`,
  );
  return lines.join('\n');
}

/** Whether a task says what its query is for: a question, or a query to fix. */
export function hasInstruction(task: SqlTask): boolean {
  return task.question.trim() !== '' || task.buggy !== undefined;
}

/** A database written as `{TABLE: [{column: value}]}` (a counterexample's), one table after another. */
export function formatDatabase(database: Readonly<Record<string, readonly Record<string, unknown>[]>>): string {
  const tables = Object.entries(database).filter(([, rows]) => rows.length > 0);
  if (tables.length === 0) return 'every table is empty';
  const shown = tables.map(([name, rows]) => {
    const columns = Object.keys(rows[0]!);
    const values = rows.map((row) => columns.map((c) => formatValue(row[c] as SqlValue)).join(', '));
    return `${name} (${columns.join(', ')}):\n${values.map((v) => `  (${v})`).join('\n')}`;
  });
  return `${shown.join('\n')}\nEvery other table is empty.`;
}

/**
 * The one failing fact to show next: the smallest generated database on which the query
 * differs (the whole of it fits the prompt), else its failure on the task's database.
 */
export function sqlFeedback(report: Report): { text: string; fact: FailureFact } | undefined {
  const fact = report.failures.find((f) => f.shrunk) ?? report.failures[0];
  if (!fact) return undefined;
  const onTask = fact.input === null;
  const lines: string[] = [];
  if (fact.actual === null) {
    lines.push(`Your query fails on ${onTask ? "the task's database" : 'this database'}: ${fact.message}`);
    if (!onTask) lines.push('', formatDatabase(JSON.parse(fact.input!)));
  } else {
    lines.push(
      onTask
        ? "Your query gives the wrong rows on the task's database."
        : `Your query gives the wrong rows on this database${fact.shrunk ? ' (the smallest we found on which it differs from a right query)' : ''}:`,
    );
    if (!onTask) lines.push('', formatDatabase(JSON.parse(fact.input!)));
    lines.push('', `Expected rows:\n${fact.expected ?? '(unknown)'}`, '', `Your query returned:\n${fact.actual}`);
    if (fact.message) lines.push('', `Difference: ${fact.message}`);
  }
  lines.push(
    '',
    'Fix the query so that it answers the question on every database with this schema, not only this one. Reply with the corrected query in one ```sql code block.',
  );
  return { text: lines.join('\n'), fact };
}
