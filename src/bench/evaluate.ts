import pMap from 'p-map';
import type { Candidate, Task } from '../core/task.js';
import { STATUSES, type Failure, type Status } from '../core/verdict.js';
import { verifyProgram, type CodeChecks } from '../domains/code/index.js';
import type { Report } from '../domains/types.js';
import type { Harness } from '../domains/code/harness.js';
import { meanPassAtK, reportableKs } from './pass-at-k.js';

export interface SampleResult {
  readonly task_id: string;
  readonly index: number;
  /** What was judged (the report shows it); absent where there was nothing to judge. */
  readonly program?: string;
  readonly status: Status;
  readonly suites: Readonly<Record<string, SuiteResult>>;
  readonly first_failure: Failure | null;
  readonly time_ms: number;
  readonly type_errors?: readonly string[];
  /** TypeScript: why the type check was not done (the compiler ran past its time or heap). */
  readonly type_check_not_done?: string;
  /**
   * With generated inputs (--augment): the failing generated input shrunk to a minimal one
   * (functions), or the smallest generated database on which the query differs (SQL).
   */
  readonly counterexample?:
    | (Failure & { readonly original: string; readonly shrunk: string; readonly rounds: number })
    | {
        readonly database: Readonly<Record<string, readonly Record<string, unknown>[]>>;
        readonly expected: string;
        readonly actual: string;
        readonly message: string;
      };
  /** The gated reward (verify/gated-levels.ts), as /v1/verify gives it for the same checks; null on no-verdict. */
  readonly reward: number | null;
}

export interface SuiteResult {
  readonly status: Status;
  readonly passed: number;
  readonly total: number;
  readonly inline?: boolean;
  /** io suites: the position of the input where the first failure happened. */
  readonly failed_at?: number;
  readonly first_failure?: Failure | null;
  /** Generated inputs the sample ran out of time on but answered right at a hundredth of their size: set aside, not failed. */
  readonly slow?: readonly {
    readonly input: string;
    readonly smaller: string;
    readonly limit_seconds: number;
    readonly reference_seconds: number;
    readonly set_aside: number;
  }[];
}

export interface Summary {
  readonly tasks: number;
  readonly samples: number;
  /** pass_at_k[suite][k]: a sample passes a suite when it passes that suite and every suite before it (EvalPlus: "plus" = base + plus). */
  readonly pass_at_k: Record<string, Record<string, number>>;
  readonly status_counts: Record<Status, number>;
  readonly seconds: number;
  readonly samples_per_second: number;
}

export interface EvaluateOptions {
  /** Samples in flight at once; the pool queues beyond its size. Default 4 per worker. */
  readonly concurrency?: number;
  readonly onResult?: (result: SampleResult, done: number, total: number) => void;
  /** Once aborted, no new sample starts; the ones running finish and are returned. */
  readonly signal?: AbortSignal;
  /** Shrink a failing generated input to a minimal counterexample (with --augment). */
  readonly shrink?: boolean;
}

/**
 * Judges every candidate through the code pack on its task's checks (`taskChecks` for a
 * task's own suites, or prepared ones with generated inputs); results come back in the
 * candidates' order. After an abort, only the samples that were judged are returned (in order).
 */
export async function evaluateCandidates(
  harness: Harness,
  checks: ReadonlyMap<string, CodeChecks>,
  candidates: readonly Candidate[],
  options: EvaluateOptions = {},
): Promise<SampleResult[]> {
  const results: SampleResult[] = new Array(candidates.length);
  let done = 0;
  await pMap(
    candidates,
    async (candidate, i) => {
      if (options.signal?.aborted) return;
      const taskChecks = checks.get(candidate.taskId);
      if (!taskChecks) throw new Error(`sample for unknown task ${candidate.taskId}`);
      const report = await verifyProgram(harness, taskChecks, candidate.program, { shrink: options.shrink === true });
      results[i] = sampleRow(candidate, report);
      options.onResult?.(results[i]!, ++done, candidates.length);
    },
    { concurrency: Math.max(1, options.concurrency ?? 8) },
  );
  return options.signal?.aborted ? results.filter((result) => result !== undefined) : results;
}

/**
 * The row `eval` writes for one judged sample, in every pack: its verdict per suite, the first
 * failure, the minimal counterexample when one was found, and the gated reward.
 */
export function sampleRow(
  candidate: Candidate,
  report: Report & { readonly counterexample?: SampleResult['counterexample'] },
): SampleResult {
  const { verdict, counterexample } = report;
  const suites: Record<string, SuiteResult> = {};
  for (const suite of verdict.suites)
    suites[suite.name] = {
      status: suite.status,
      passed: suite.passed,
      total: suite.total,
      ...(suite.inline ? { inline: true } : {}),
      ...(suite.failedAt !== undefined ? { failed_at: suite.failedAt } : {}),
      ...(suite.firstFailure ? { first_failure: suite.firstFailure } : {}),
      ...(suite.slow
        ? {
            slow: suite.slow.map((s) => ({
              input: s.input,
              smaller: s.smaller,
              limit_seconds: s.limitSeconds,
              reference_seconds: s.referenceSeconds,
              set_aside: s.setAside,
            })),
          }
        : {}),
    };
  return {
    task_id: candidate.taskId,
    index: candidate.index,
    program: candidate.program,
    status: verdict.status,
    suites,
    first_failure: verdict.firstFailure,
    time_ms: Math.round(verdict.timeMs * 10) / 10,
    ...(verdict.typeErrors?.length ? { type_errors: verdict.typeErrors } : {}),
    ...(verdict.typeCheckNotDone ? { type_check_not_done: verdict.typeCheckNotDone } : {}),
    ...(counterexample ? { counterexample } : {}),
    reward: report.reward.reward,
  };
}

/** pass@k per suite (each counting the suites before it) and the statuses; a task needs only its id and its suites' names (any domain). */
export function summarize(
  tasks: readonly { readonly id: string; readonly suites: readonly { readonly name: string }[] }[],
  results: readonly SampleResult[],
  seconds: number,
): Summary {
  const byTask = new Map<string, SampleResult[]>();
  for (const result of results) byTask.set(result.task_id, [...(byTask.get(result.task_id) ?? []), result]);
  // The tasks' suites in order, then checks that are not suites (generated properties).
  const suiteNames = [
    ...new Set([
      ...tasks.filter((task) => byTask.has(task.id)).flatMap((task) => task.suites.map((s) => s.name)),
      ...results.flatMap((r) => Object.keys(r.suites)),
    ]),
  ];
  const ks = reportableKs([...byTask.values()].map((list) => list.length));
  const pass_at_k: Record<string, Record<string, number>> = {};
  suiteNames.forEach((suite, position) => {
    const upTo = suiteNames.slice(0, position + 1);
    const counts = [...byTask.values()].map(
      (list) =>
        [
          list.length,
          list.filter((r) => upTo.every((name) => (r.suites[name]?.status ?? 'pass') === 'pass')).length,
        ] as const,
    );
    pass_at_k[suite] = Object.fromEntries(ks.map((k) => [String(k), meanPassAtK(counts, k)]));
  });
  const status_counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const result of results) status_counts[result.status]++;
  return {
    tasks: byTask.size,
    samples: results.length,
    pass_at_k,
    status_counts,
    seconds: Math.round(seconds * 100) / 100,
    samples_per_second: seconds > 0 ? Math.round((results.length / seconds) * 10) / 10 : 0,
  };
}
