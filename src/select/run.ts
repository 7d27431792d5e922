/**
 * Selection and calibration over a whole dataset: what `crucible select` and
 * `crucible calibrate` do, as library functions.
 */
import pMap from 'p-map';
import type { Candidate } from '../core/task.js';
import { calibrateThreshold, decide, type CalibrationItem, type Threshold } from './abstain.js';
import type { Checks, DomainPack, Probe } from '../domains/types.js';
import {
  CONFIDENCE_SCORE,
  selectForTask,
  type SelectingPack,
  type SelectOptions,
  type TaskSelection,
} from './select.js';

export interface TaskDecision extends TaskSelection {
  readonly decision: 'answer' | 'abstain';
  readonly reason?: string;
}

export interface SelectSummary {
  readonly tasks: number;
  readonly answered: number;
  readonly abstained: number;
  readonly seed: number;
  readonly threshold: number | null | undefined;
  readonly alpha?: number;
  readonly delta?: number;
}

export interface SelectRunOptions extends SelectOptions {
  /** A calibrated threshold; without one every task with a candidate is answered. */
  readonly threshold?: Threshold;
  readonly signal?: AbortSignal;
  readonly onTask?: (selection: TaskDecision, done: number, total: number) => void;
  /** Tasks selected at once (each runs its candidates in parallel on the pool). */
  readonly concurrency?: number;
}

/** Candidates grouped by task, in the order tasks appear in the dataset. */
export function candidatesByTask<T extends { readonly id: string }>(
  tasks: readonly T[],
  candidates: readonly Candidate[],
): { task: T; candidates: Candidate[] }[] {
  const byTask = new Map<string, Candidate[]>();
  for (const c of candidates) byTask.set(c.taskId, [...(byTask.get(c.taskId) ?? []), c]);
  return tasks.filter((t) => byTask.has(t.id)).map((task) => ({ task, candidates: byTask.get(task.id)! }));
}

/** Selection on every task of any domain: the pack's probes and observations (select.ts). */
export async function selectAll<T extends { readonly id: string }, C extends Checks<T>, P extends Probe>(
  pack: SelectingPack<T, C, P>,
  tasks: readonly T[],
  candidates: readonly Candidate[],
  options: SelectRunOptions,
): Promise<{ tasks: TaskDecision[]; summary: SelectSummary }> {
  if (options.threshold && options.threshold.score !== CONFIDENCE_SCORE) {
    throw new Error(
      `the threshold file was calibrated for the score "${options.threshold.score}", but this version computes "${CONFIDENCE_SCORE}"; run crucible calibrate again`,
    );
  }
  const groups = candidatesByTask(tasks, candidates);
  const results: TaskDecision[] = new Array(groups.length);
  let done = 0;
  await pMap(
    groups,
    async ({ task, candidates: mine }, i) => {
      if (options.signal?.aborted) return;
      const selection = await selectForTask(pack, task, mine, options);
      const decision =
        selection.selectedIndex === null
          ? { decision: 'abstain' as const, reason: 'no candidates' }
          : decide(selection.confidence, options.threshold, selection.why);
      results[i] = { ...selection, ...decision };
      options.onTask?.(results[i]!, ++done, groups.length);
    },
    { concurrency: Math.max(1, options.concurrency ?? 2) },
  );
  const finished = results.filter((r) => r !== undefined);
  const answered = finished.filter((r) => r.decision === 'answer').length;
  return {
    tasks: finished,
    summary: {
      tasks: finished.length,
      answered,
      abstained: finished.length - answered,
      seed: options.seed,
      threshold: options.threshold?.threshold,
      ...(options.threshold ? { alpha: options.threshold.alpha, delta: options.threshold.delta } : {}),
    },
  };
}

export interface CalibrationRun {
  readonly threshold: Threshold;
  /** Per task: the selection's confidence and whether the selected program passes the dataset's full tests. */
  readonly items: readonly (CalibrationItem & { readonly taskId: string; readonly selectedIndex: number })[];
}

/**
 * Selects on every task, labels each selection on the checks `labelChecks` gives (the
 * dataset's full tests: the calibration set is labelled data), and picks the threshold.
 */
export async function calibrate<T extends { readonly id: string }, C extends Checks<T>, P extends Probe>(
  pack: DomainPack<T, string, C, P>,
  tasks: readonly T[],
  candidates: readonly Candidate[],
  options: Omit<SelectRunOptions, 'threshold'> & {
    readonly alpha: number;
    readonly delta: number;
    /** What a selected artifact is labelled right or wrong on: a function's own suites, a pack's scorer's checks. */
    readonly labelChecks: (task: T) => C | Promise<C>;
  },
): Promise<CalibrationRun> {
  const { tasks: selections } = await selectAll(pack, tasks, candidates, options);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const programs = new Map(candidates.map((c) => [`${c.taskId}\u0000${c.index}`, c.program]));
  const items = await Promise.all(
    selections
      .filter((s) => s.selectedIndex !== null)
      .map(async (s) => {
        // Labelled as eval scores it.
        const report = await pack.verify(
          await options.labelChecks(byId.get(s.taskId)!),
          programs.get(`${s.taskId}\u0000${s.selectedIndex}`)!,
        );
        if (report.noVerdict !== undefined) return undefined; // the sandbox failed: no label either way
        return {
          taskId: s.taskId,
          selectedIndex: s.selectedIndex!,
          confidence: s.confidence,
          correct: report.verdict.status === 'pass',
        };
      }),
  );
  const labelled = items.filter((i) => i !== undefined);
  return { threshold: calibrateThreshold(labelled, options.alpha, options.delta, CONFIDENCE_SCORE), items: labelled };
}
