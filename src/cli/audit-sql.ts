/**
 * `crucible audit` on SQL tasks: the harness measured on the dataset itself — every reference
 * must pass its own checks, every known rewrite must pass (a rewrite that fails is a fact
 * about the dataset or about us, listed), and with --mutants every injected bug must fail
 * (the rates say how many the task's database alone catches and how many only generated ones).
 */
import { injectBugs } from '../domains/sql/bugs.js';
import { distinctReferences, readSqlTasks, sqlPack, type SqlChecks } from '../domains/sql/index.js';
import { sqlRunnerFromFlags } from './harness-from-flags.js';
import type { AuditFlags } from './audit-command.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import type { CommandResult } from './recording.js';

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

export async function auditSql(flags: AuditFlags & { readonly dataset: string }): Promise<CommandResult> {
  const tasks = distinctReferences(readSqlTasks(flags.dataset)).slice(0, flags.limit ?? Infinity);
  const runner = sqlRunnerFromFlags(flags);
  const pack = sqlPack(runner);
  // A fixed seed: an audit of the same dataset gives the same figures.
  const seed = 1;
  const progress = createProgress('audit');
  const failingReferences: { task_id: string; why: string }[] = [];
  const failingRewrites: { task_id: string; sql: string; why: string }[] = [];
  let rewrites = 0;
  const bugs = { injected: 0, caughtByBase: 0, caught: 0, syntax: 0 };
  try {
    for (const [i, task] of tasks.entries()) {
      const checks: SqlChecks = await pack.prepare(task, { audience: 'scorer', seed });
      progress.update(i + 1, tasks.length);
      if (!checks.base) {
        failingReferences.push({ task_id: task.id, why: checks.referenceProblem ?? checks.incomplete ?? 'no result' });
        continue;
      }
      for (const sql of task.equivalents) {
        rewrites++;
        const report = await pack.verify(checks, sql, { shrink: true });
        if (!report.passed)
          failingRewrites.push({
            task_id: task.id,
            sql,
            why: report.counterexample?.message ?? report.verdict.firstFailure?.message ?? report.verdict.status,
          });
      }
      if (flags.mutants) {
        // injectBugs keeps only bugs the checks tell apart; the rates count what the base database alone did.
        for (const bug of await injectBugs(runner, checks)) {
          if (bug.kind === 'syntax') bugs.syntax++;
          else {
            bugs.injected++;
            bugs.caught++;
            if (bug.caughtBy === 'base') bugs.caughtByBase++;
          }
        }
      }
    }
  } finally {
    progress.stop();
    await runner.close();
  }
  const lines = [
    `${flags.dataset}: ${tasks.length} distinct queries, ${tasks.length - failingReferences.length} references pass their own checks (${pct(tasks.length - failingReferences.length, tasks.length)})`,
    ...failingReferences.slice(0, 10).map((f) => `  reference of ${f.task_id}: ${f.why}`),
    `known rewrites: ${rewrites - failingRewrites.length} of ${rewrites} pass`,
    ...failingRewrites.map((f) => `  ${f.task_id}: ${f.sql.slice(0, 120)} — ${f.why.slice(0, 200)}`),
    ...(flags.mutants
      ? [
          `injected bugs told apart from their reference: ${bugs.injected} (${bugs.caughtByBase} on the task's own database, ${pct(bugs.caughtByBase, bugs.injected)}; ${bugs.injected - bugs.caughtByBase} only on generated ones), and ${bugs.syntax} syntax faults the engine rejects`,
        ]
      : []),
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const document = {
    dataset: flags.dataset,
    seed,
    references: { total: tasks.length, failing: failingReferences },
    rewrites: { total: rewrites, failing: failingRewrites },
    ...(flags.mutants ? { bugs } : {}),
  };
  await writeJsonDocument(flags.json, document, 'audit');
  return {
    interrupted: false,
    document,
    headline: {
      references: tasks.length,
      failing_references: failingReferences.length,
      rewrites,
      failing_rewrites: failingRewrites.length,
    },
  };
}
