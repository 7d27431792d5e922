/** The mutation part of `crucible audit`, as a person reads it. */
import type { MutationReport, TaskMutationScore } from './score.js';

/** How many of the weakest tasks the text lists (--json has them all). */
const WEAKEST_SHOWN = 10;

export function formatMutationReport(report: MutationReport): string[] {
  const fixed = (x: number | null) => (x === null ? 'n/a' : x.toFixed(2));
  const unscored = report.tasks.filter((t) => t.score === null);
  const row = (label: string, value: string) => `  ${`${label}:`.padEnd(25)}${value}`;
  const lines = [
    `mutation score (at most ${report.mutants_per_task} mutants of each reference, seed ${report.seed}):`,
    row(
      'mean score',
      `${fixed(report.mean_score)} over ${report.tasks_scored} tasks (${report.mutants.killed} of ${report.mutants.judged} mutants killed)`,
    ),
    row(`weak tasks (< ${report.weak_below.toFixed(2)})`, String(report.weak_tasks)),
  ];
  if (report.mutants.no_verdict > 0)
    lines.push(row('no-verdict mutants', `${report.mutants.no_verdict} (left out of the scores)`));
  if (unscored.length > 0) lines.push(row('tasks without a score', `${unscored.length} (${reasons(unscored)})`));
  lines.push(`  note: ${report.note}`);

  const weakest = report.tasks
    .filter((t): t is TaskMutationScore & { score: number } => t.score !== null && t.score < 1)
    .sort((a, b) => a.score - b.score || a.task_id.localeCompare(b.task_id))
    .slice(0, WEAKEST_SHOWN);
  if (weakest.length > 0) {
    lines.push('', `weakest tasks (one surviving mutant each; every survivor is in --json):`);
    const width = Math.max(...weakest.map((t) => t.task_id.length));
    for (const task of weakest) {
      lines.push(`  ${task.task_id.padEnd(width)}  ${task.score.toFixed(2)} (${task.killed}/${task.judged} killed)`);
      const survivor = task.survivors[0];
      if (survivor) {
        const [header, ...body] = survivor.diff.split('\n');
        lines.push(`    ${header} ${survivor.operator}`, ...body.map((line) => `    ${line}`));
      }
    }
  }
  return lines;
}

function reasons(tasks: readonly TaskMutationScore[]): string {
  const counts = new Map<string, number>();
  for (const t of tasks) {
    const reason = t.problem ?? (t.mutants === 0 ? 'no place to mutate' : 'no mutant judged');
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, n]) => `${n}: ${reason.split('\n')[0]}`).join('; ');
}
