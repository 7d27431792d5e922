/**
 * Debugging tasks made from correct queries (Squirrel's reverse engineering): each mutant of
 * a task's reference (mutants.ts, and hard-coded.ts's subqueries replaced by their value) that the task's checks tell apart from it becomes a
 * semantic-bug task, and each syntax fault the engine rejects becomes a syntax-bug task with
 * the engine's own message. A mutant no database tells apart is dropped: it may be
 * equivalent to the reference, and a task to fix it would have no right answer.
 */
import type { SqlRunner } from '../../runtimes/sql-pool.js';
import type { SqlChecks } from './checks.js';
import { hardCodedValues } from './hard-coded.js';
import { queryMutants } from './mutants.js';
import { queryOn } from './schema.js';
import type { SqlTask } from './task.js';
import { verifyQuery } from './verify.js';

export interface InjectedBug {
  readonly kind: 'semantic' | 'syntax';
  readonly operator: string;
  readonly buggy: string;
  /** Syntax bugs: the engine's message. */
  readonly error?: string;
  /** Semantic bugs: what told it from the reference first — the task's database, or only a generated one. */
  readonly caughtBy?: 'base' | 'generated';
}

/** Syntax faults a person makes: a keyword misspelt, a comma or a closing parenthesis dropped, a quote left open. */
export function syntaxFaults(sql: string): { operator: string; sql: string }[] {
  const faults: { operator: string; sql: string }[] = [];
  const once = (operator: string, pattern: RegExp, replace: string) => {
    const broken = sql.replace(pattern, replace);
    if (broken !== sql) faults.push({ operator, sql: broken });
  };
  once('keyword typo', /\bSELECT\b/i, 'SELEC');
  once('keyword typo', /\bFROM\b/i, 'FORM');
  once('keyword typo', /\bWHERE\b/i, 'WHER');
  once('missing comma', /,(?=[^']*(?:'[^']*'[^']*)*$)/, '');
  once('unbalanced parenthesis', /\)(?=[^)]*$)/, '');
  once('unterminated string', /'(?=[^']*$)/, '');
  return faults;
}

export async function injectBugs(runner: SqlRunner, checks: SqlChecks): Promise<InjectedBug[]> {
  const { task } = checks;
  const bugs: InjectedBug[] = [];
  const onTask = queryOn((request) => runner.run(request), task.database);
  for (const mutant of [...queryMutants(task.reference), ...(await hardCodedValues(onTask, task.reference))]) {
    const report = await verifyQuery(runner, checks, mutant.sql);
    if (report.passed || report.noVerdict !== undefined || report.verdict.status === 'error') continue;
    const base = report.verdict.suites.find((s) => s.name === 'base');
    bugs.push({
      kind: 'semantic',
      operator: mutant.operator,
      buggy: mutant.sql,
      caughtBy: base?.status === 'pass' ? 'generated' : 'base',
    });
  }
  for (const fault of syntaxFaults(task.reference)) {
    const result = await runner.run({ database: task.database, sql: fault.sql });
    if (result.status === 'error' && result.phase === 'prepare' && !result.refused)
      bugs.push({
        kind: 'syntax',
        operator: fault.operator,
        buggy: fault.sql,
        error: result.message ?? 'syntax error',
      });
  }
  return bugs;
}

/** A debugging task line for a bug (Crucible's SQL task format); `database` is how the output file names the task's database. */
export function bugTaskLine(task: SqlTask, bug: InjectedBug, index: number, database: Record<string, string>) {
  return {
    task_id: `${task.id}/bug-${index + 1}`,
    domain: 'sql',
    dialect: task.dialect,
    ...database,
    question: task.question,
    reference: task.reference,
    buggy: bug.buggy,
    ...(bug.error !== undefined ? { error: bug.error } : {}),
    bug: { kind: bug.kind, operator: bug.operator, ...(bug.caughtBy ? { caught_by: bug.caughtBy } : {}) },
  };
}
