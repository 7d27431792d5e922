/**
 * `crucible audit` on SQL tasks (the pack's audit, ../pack-module.ts): the harness measured on the dataset itself — every reference
 * must pass its own checks, every known rewrite must pass (a rewrite that fails is a fact
 * about the dataset or about us, listed), and with --mutants every injected bug must fail
 * (the rates say how many the task's database alone catches and how many only generated ones).
 */
import type { SqlRunner } from '../../runtimes/sql-pool.js';
import type { AuditOptions, PackAudit } from '../pack-module.js';
import { injectBugs } from './bugs.js';
import { distinctReferences, sqlPack, type SqlChecks, type SqlTask } from './index.js';

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

export async function auditSql(runner: SqlRunner, all: readonly SqlTask[], options: AuditOptions): Promise<PackAudit> {
  const tasks = distinctReferences(all).slice(0, options.limit ?? Infinity);
  const pack = sqlPack(runner);
  // A fixed seed: an audit of the same dataset gives the same figures.
  const seed = 1;
  const failingReferences: { task_id: string; why: string }[] = [];
  const failingRewrites: { task_id: string; sql: string; why: string }[] = [];
  let rewrites = 0;
  const bugs = { injected: 0, caughtByBase: 0, caught: 0, syntax: 0 };
  for (const [i, task] of tasks.entries()) {
    const checks: SqlChecks = await pack.prepare(task, { audience: 'scorer', seed });
    options.onTask?.(i + 1, tasks.length);
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
    if (options.mutants) {
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
  const lines = [
    `${options.name}: ${tasks.length} distinct queries, ${tasks.length - failingReferences.length} references pass their own checks (${pct(tasks.length - failingReferences.length, tasks.length)})`,
    ...failingReferences.slice(0, 10).map((f) => `  reference of ${f.task_id}: ${f.why}`),
    `known rewrites: ${rewrites - failingRewrites.length} of ${rewrites} pass`,
    ...failingRewrites.map((f) => `  ${f.task_id}: ${f.sql.slice(0, 120)} — ${f.why.slice(0, 200)}`),
    ...(options.mutants
      ? [
          `injected bugs told apart from their reference: ${bugs.injected} (${bugs.caughtByBase} on the task's own database, ${pct(bugs.caughtByBase, bugs.injected)}; ${bugs.injected - bugs.caughtByBase} only on generated ones), and ${bugs.syntax} syntax faults the engine rejects`,
        ]
      : []),
  ];
  const document = {
    dataset: options.name,
    seed,
    references: { total: tasks.length, failing: failingReferences },
    rewrites: { total: rewrites, failing: failingRewrites },
    ...(options.mutants ? { bugs } : {}),
  };
  return {
    lines,
    document,
    headline: {
      references: tasks.length,
      failing_references: failingReferences.length,
      rewrites,
      failing_rewrites: failingRewrites.length,
    },
  };
}
