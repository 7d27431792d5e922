/**
 * `audit --coverage`: how much of each reference the task's own test inputs reach, suite by
 * suite, beside what generated inputs reach (the inputs `eval --augment` would add, same
 * seed and budget). A suite that leaves lines or decision outcomes of the reference unrun
 * cannot catch a bug there; the weakest tasks are listed.
 */
import type { IoSuite, Task } from '../core/task.js';
import {
  coverageFigures,
  coverageMap,
  percent,
  referenceArcs,
  type CoverageFigures,
} from '../domains/code/coverage.js';
import { augmentTask, GENERATED_SUITE, splitJsonArray } from '../domains/code/differential.js';
import type { Harness } from '../domains/code/harness.js';

export interface TaskCoverage {
  readonly task_id: string;
  /** Per io suite of the task, and `generated` for the generated inputs. */
  readonly suites: Readonly<Record<string, CoverageFigures & { readonly inputs: number }>>;
  readonly skipped?: string;
}

export interface CoverageReport {
  readonly seed: number;
  readonly generated_inputs: number;
  /** Summed over the tasks measured, per suite name. */
  readonly totals: Readonly<Record<string, CoverageFigures>>;
  readonly tasks: readonly TaskCoverage[];
}

export async function auditCoverage(
  harness: Harness,
  tasks: readonly Task[],
  options: { readonly seed: number; readonly inputs: number },
  onProgress?: (done: number, total: number) => void,
): Promise<CoverageReport> {
  const measured: TaskCoverage[] = [];
  for (const task of tasks) {
    measured.push(await taskCoverage(harness, task, options));
    onProgress?.(measured.length, tasks.length);
  }
  const totals: Record<string, CoverageFigures> = {};
  for (const entry of measured)
    for (const [name, f] of Object.entries(entry.suites)) {
      const t = totals[name] ?? { lines: { covered: 0, total: 0 }, branches: { covered: 0, total: 0 } };
      totals[name] = {
        lines: { covered: t.lines.covered + f.lines.covered, total: t.lines.total + f.lines.total },
        branches: { covered: t.branches.covered + f.branches.covered, total: t.branches.total + f.branches.total },
      };
    }
  return { seed: options.seed, generated_inputs: options.inputs, totals, tasks: measured };
}

async function taskCoverage(
  harness: Harness,
  task: Task,
  options: { readonly seed: number; readonly inputs: number },
): Promise<TaskCoverage> {
  const skip = (skipped: string): TaskCoverage => ({ task_id: task.id, suites: {}, skipped });
  if (task.reference === undefined) return skip('the task has no reference');
  const map = await coverageMap(harness, task, task.reference);
  if (!map) return skip('the reference could not be read');
  const suites: Record<string, CoverageFigures & { inputs: number }> = {};
  for (const suite of task.suites.filter((s): s is IoSuite => s.kind === 'io')) {
    const texts = splitJsonArray(suite.inputsJson);
    const arcs = await referenceArcs(harness, task, task.reference, texts, 10);
    suites[suite.name] = { ...coverageFigures(map, arcs), inputs: texts.length };
  }
  const made = await augmentTask(harness, task, { seed: options.seed, count: options.inputs });
  if (made.record?.coverage) suites[GENERATED_SUITE] = { ...made.record.coverage, inputs: made.kept };
  return { task_id: task.id, suites };
}

export function formatCoverage(report: CoverageReport): string {
  const names = Object.keys(report.totals);
  const measured = report.tasks.filter((t) => !t.skipped);
  const lines = [
    `reference coverage (lines, decision outcomes) over ${measured.length} tasks; generated: ${report.generated_inputs} inputs, seed ${report.seed}`,
    ...names.map(
      (n) =>
        `  ${n.padEnd(12)} lines ${percent(report.totals[n]!.lines).padStart(4)}  decisions ${percent(report.totals[n]!.branches).padStart(4)}`,
    ),
  ];
  const share = (f: CoverageFigures) => (f.branches.total ? f.branches.covered / f.branches.total : 1);
  const weakest = measured
    .flatMap((t) => Object.entries(t.suites).map(([n, f]) => ({ id: t.task_id, n, f })))
    .filter((x) => x.n !== GENERATED_SUITE && share(x.f) < 1)
    .sort((a, b) => share(a.f) - share(b.f))
    .slice(0, 5);
  if (weakest.length)
    lines.push(
      `  weakest: ${weakest.map((w) => `${w.id} ${w.n} ${percent(w.f.branches)} of ${w.f.branches.total} outcomes`).join('; ')}`,
    );
  const skipped = report.tasks.filter((t) => t.skipped);
  if (skipped.length) lines.push(`  not measured: ${skipped.length} tasks (${skipped[0]!.skipped})`);
  return lines.join('\n');
}
