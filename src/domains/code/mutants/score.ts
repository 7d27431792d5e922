/** Judging mutants with the harness: a mutant is killed when the task's tests fail it. */
import pMap from 'p-map';
import type { Status } from '../../../core/verdict.js';
import type { Task } from '../../../core/task.js';
import type { MutationOperator, TaskMutants } from './types.js';

/** Below this score a task's tests are called weak. */
export const WEAK_SCORE = 0.8;

export interface Survivor {
  readonly operator: MutationOperator;
  readonly line: number;
  /** A header line ("@@ line N @@"), then the reference's lines (-) and the mutant's (+). */
  readonly diff: string;
  /** The whole mutant: the program the task's tests passed. */
  readonly program: string;
}

export interface TaskMutationScore {
  readonly task_id: string;
  readonly mutants: number;
  /** Mutants with a verdict (no-verdicts, where the sandbox failed, say nothing and are left out). */
  readonly judged: number;
  readonly killed: number;
  /** killed / judged; null when nothing was judged. */
  readonly score: number | null;
  readonly no_verdict: number;
  readonly dropped_invalid: number;
  readonly dropped_duplicate: number;
  /** Mutants the tests let through, in the order of the program. */
  readonly survivors: readonly Survivor[];
  readonly problem?: string;
}

export interface MutationReport {
  readonly mutants_per_task: number;
  readonly seed: number;
  readonly weak_below: number;
  /** Tasks with a score (at least one judged mutant). */
  readonly tasks_scored: number;
  /** Mean of the task scores; null when no task has one. */
  readonly mean_score: number | null;
  readonly weak_tasks: number;
  readonly mutants: { readonly judged: number; readonly killed: number; readonly no_verdict: number };
  readonly note: string;
  readonly tasks: readonly TaskMutationScore[];
}

export const EQUIVALENT_MUTANTS_NOTE =
  "a surviving mutant may be equivalent to the reference (no test could kill it; this cannot be decided in general), so a score is a lower bound on the tests' strength";

/** A mutant's status on the task's own suites, as eval scores a sample (the code pack's `mutantJudge`). */
export type MutantJudge = (task: Task, program: string) => Promise<Status>;

/**
 * Judges every mutant of every task, `lanes` at a time (the harness queues them on its
 * workers), and scores each task by killed / judged.
 */
export async function scoreMutants(
  judge: MutantJudge,
  generated: readonly TaskMutants[],
  settings: { readonly max: number; readonly seed: number; readonly lanes?: number },
  onProgress?: (done: number, total: number) => void,
): Promise<MutationReport> {
  const jobs = generated.flatMap((entry, taskIndex) =>
    entry.mutants.map((mutant, mutantIndex) => ({ entry, taskIndex, mutantIndex, mutant })),
  );
  const statuses: Status[][] = generated.map((entry) => new Array<Status>(entry.mutants.length));
  let done = 0;
  await pMap(
    jobs,
    async (job) => {
      statuses[job.taskIndex]![job.mutantIndex] = await judge(job.entry.task, job.mutant.program);
      onProgress?.(++done, jobs.length);
    },
    { concurrency: settings.lanes ?? 8 },
  );

  const tasks = generated.map((entry, i) => taskScore(entry, statuses[i]!));
  const scored = tasks.filter((t) => t.score !== null);
  const sum = (pick: (t: TaskMutationScore) => number) => tasks.reduce((total, t) => total + pick(t), 0);
  return {
    mutants_per_task: settings.max,
    seed: settings.seed,
    weak_below: WEAK_SCORE,
    tasks_scored: scored.length,
    mean_score: scored.length === 0 ? null : scored.reduce((total, t) => total + t.score!, 0) / scored.length,
    weak_tasks: scored.filter((t) => t.score! < WEAK_SCORE).length,
    mutants: { judged: sum((t) => t.judged), killed: sum((t) => t.killed), no_verdict: sum((t) => t.no_verdict) },
    note: EQUIVALENT_MUTANTS_NOTE,
    tasks,
  };
}

function taskScore(entry: TaskMutants, statuses: readonly Status[]): TaskMutationScore {
  const judged = statuses.filter((s) => s !== 'no-verdict').length;
  const killed = statuses.filter((s) => s !== 'no-verdict' && s !== 'pass').length;
  return {
    task_id: entry.task.id,
    mutants: entry.mutants.length,
    judged,
    killed,
    score: judged === 0 ? null : killed / judged,
    no_verdict: statuses.length - judged,
    dropped_invalid: entry.invalid,
    dropped_duplicate: entry.duplicates,
    survivors: entry.mutants
      .filter((_, i) => statuses[i] === 'pass')
      .map(({ operator, line, diff, program }) => ({ operator, line, diff, program })),
    ...(entry.problem !== undefined ? { problem: entry.problem } : {}),
  };
}
