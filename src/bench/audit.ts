import { formatCoverage, type CoverageReport } from './audit-coverage.js';
import pMap from 'p-map';
import type { Task } from '../core/task.js';
import type { Failure, Status } from '../core/verdict.js';
import { codePack, mutantJudge, taskChecks, verifyProgram, type CodeChecks } from '../domains/code/index.js';
import type { Harness } from '../domains/code/harness.js';
import {
  DEFAULT_MUTANTS_PER_TASK,
  formatMutationReport,
  generateMutants,
  scoreMutants,
  type MutationOptions,
  type MutationReport,
} from '../domains/code/mutation.js';

export interface AuditEntry {
  readonly task_id: string;
  readonly kind: 'reference' | 'known-wrong';
  readonly label: string;
  readonly status: Status;
  readonly first_failure: Failure | null;
  /** The program judged (the reference, or the known-wrong program). */
  readonly program: string;
}

export interface AuditReport {
  readonly references: { total: number; passed: number; no_verdict: number };
  readonly known_wrong: { total: number; failed: number; no_verdict: number };
  /** Right programs the harness fails, among those it judged. */
  readonly false_negative_rate: number;
  /** Wrong programs the harness passes, among those it judged. */
  readonly false_positive_rate: number;
  /** Every case where the harness disagrees with what is known (no-verdicts included). */
  readonly disagreements: readonly AuditEntry[];
  /** With --mutants: how many mutants of each reference the task's tests kill. */
  readonly mutation?: MutationReport;
  /** With --coverage: how much of each reference each suite, and generated inputs, reach. */
  readonly coverage?: CoverageReport;
}

/**
 * Runs every reference (must pass) and every known-wrong program (must fail), and
 * reports the harness's own false-negative and false-positive rates.
 */
export async function auditDataset(
  harness: Harness,
  tasks: readonly Task[],
  onProgress?: (done: number, total: number) => void,
): Promise<AuditReport> {
  const jobs: Array<{ checks: CodeChecks; kind: AuditEntry['kind']; label: string; program: string }> = [];
  for (const task of tasks) {
    // Judged through the code pack on the task's own suites, as `eval` scores a sample.
    const checks = taskChecks(task);
    if (task.reference !== undefined)
      jobs.push({ checks, kind: 'reference', label: 'reference', program: task.reference });
    for (const wrong of task.knownWrong)
      jobs.push({ checks, kind: 'known-wrong', label: wrong.label, program: wrong.program });
  }
  const entries: AuditEntry[] = new Array(jobs.length);
  let done = 0;
  await pMap(
    jobs,
    async (job, i) => {
      const { verdict } = await verifyProgram(harness, job.checks, job.program);
      entries[i] = {
        task_id: job.checks.task.id,
        kind: job.kind,
        label: job.label,
        status: verdict.status,
        first_failure: verdict.firstFailure,
        program: job.program,
      };
      onProgress?.(++done, jobs.length);
    },
    { concurrency: 8 },
  );
  const references = entries.filter((e) => e.kind === 'reference');
  const wrongs = entries.filter((e) => e.kind === 'known-wrong');
  const judgedReferences = references.filter((e) => e.status !== 'no-verdict');
  const judgedWrongs = wrongs.filter((e) => e.status !== 'no-verdict');
  return {
    references: {
      total: references.length,
      passed: references.filter((e) => e.status === 'pass').length,
      no_verdict: references.length - judgedReferences.length,
    },
    known_wrong: {
      total: wrongs.length,
      failed: judgedWrongs.filter((e) => e.status !== 'pass').length,
      no_verdict: wrongs.length - judgedWrongs.length,
    },
    false_negative_rate: rate(judgedReferences.filter((e) => e.status !== 'pass').length, judgedReferences.length),
    false_positive_rate: rate(judgedWrongs.filter((e) => e.status === 'pass').length, judgedWrongs.length),
    disagreements: entries.filter((e) =>
      e.kind === 'reference' ? e.status !== 'pass' : e.status === 'pass' || e.status === 'no-verdict',
    ),
  };
}

const rate = (bad: number, total: number) => (total === 0 ? 0 : bad / total);

/**
 * Test-suite strength: mutants of each task's reference, judged against the task's own
 * tests. Tasks whose reference fails (`failingReferences`, from the audit) are left
 * unscored: their tests would kill anything. `onProgress` counts judged mutants.
 */
export async function auditMutants(
  harness: Harness,
  tasks: readonly Task[],
  options: MutationOptions & { readonly failingReferences?: ReadonlySet<string> } = {},
  onProgress?: (done: number, total: number) => void,
): Promise<MutationReport> {
  const failing = options.failingReferences ?? new Set<string>();
  const generated = await generateMutants(
    tasks.filter((task) => !failing.has(task.id)),
    options,
  );
  const byTask = new Map(generated.map((entry) => [entry.task, entry]));
  const problem = 'the reference does not pass its own tests';
  const all = tasks.map(
    (task) => byTask.get(task) ?? { task, mutants: [], found: 0, invalid: 0, duplicates: 0, problem },
  );
  return scoreMutants(
    mutantJudge(codePack(harness)),
    all,
    { max: options.max ?? DEFAULT_MUTANTS_PER_TASK, seed: options.seed ?? 0 },
    onProgress,
  );
}

/** Ids of the tasks whose reference the audit saw fail (or could not judge). */
export function failingReferences(report: AuditReport): Set<string> {
  return new Set(report.disagreements.filter((d) => d.kind === 'reference').map((d) => d.task_id));
}

export function formatAudit(name: string, report: AuditReport): string {
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const lines = [
    `audit of ${name}`,
    `  references passing:      ${report.references.passed}/${report.references.total}` +
      (report.references.no_verdict ? ` (${report.references.no_verdict} no-verdict)` : ''),
    `  known-wrong failing:     ${report.known_wrong.failed}/${report.known_wrong.total}` +
      (report.known_wrong.no_verdict ? ` (${report.known_wrong.no_verdict} no-verdict)` : ''),
    `  false-negative rate:     ${pct(report.false_negative_rate)}`,
    `  false-positive rate:     ${pct(report.false_positive_rate)}`,
  ];
  if (report.disagreements.length > 0) {
    lines.push('', 'disagreements:');
    for (const d of report.disagreements) {
      lines.push(
        `  ${d.task_id} ${d.kind}${d.kind === 'known-wrong' ? ` (${d.label})` : ''}: ${d.status} — ${d.first_failure?.message ?? 'passed'}`,
      );
    }
  }
  if (report.mutation) lines.push('', ...formatMutationReport(report.mutation));
  if (report.coverage) lines.push('', formatCoverage(report.coverage));
  return lines.join('\n');
}
