/**
 * Scoring SQL samples (queries) with the SQL pack, as `crucible eval` scores programs: each
 * sample judged on its task's checks (the task's database, and with --augment the generated
 * ones), in the samples' order, with pass@k per suite from the same summary.
 */
import { readFileSync } from 'node:fs';
import pMap from 'p-map';
import type { Candidate } from '../core/task.js';
import { BASE, GENERATED, type SqlChecks, type SqlPack, type SqlReport, type SqlTask } from '../domains/sql/index.js';
import type { SampleResult, SuiteResult } from './evaluate.js';

/** The suites an SQL task is scored on, in order (for pass@k): `generated` with generated databases only. */
export const sqlSuites = (task: SqlTask, generated: boolean) => ({
  id: task.id,
  suites: [{ name: BASE }, ...(generated ? [{ name: GENERATED }] : [])],
});

/**
 * Samples from a JSONL file of `{"task_id", "solution"}` (or `completion`) lines, numbered per
 * task in file order; a sample of a task the dataset lacks is an error naming the line.
 */
export function readSqlSamples(path: string, tasks: readonly SqlTask[]): Candidate[] {
  const known = new Set(tasks.map((t) => t.id));
  const counts = new Map<string, number>();
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (!line.trim()) return [];
      let json: { task_id?: unknown; solution?: unknown; completion?: unknown };
      try {
        json = JSON.parse(line);
      } catch (error) {
        throw new Error(`${path}:${i + 1}: not JSON (${(error as Error).message})`);
      }
      const query = json.solution ?? json.completion;
      if (typeof json.task_id !== 'string' || typeof query !== 'string')
        throw new Error(`${path}:${i + 1}: a sample needs "task_id" and "solution" (the query), both strings`);
      if (!known.has(json.task_id)) throw new Error(`${path}:${i + 1}: no task ${json.task_id} in the dataset`);
      const index = counts.get(json.task_id) ?? 0;
      counts.set(json.task_id, index + 1);
      return [{ taskId: json.task_id, index, program: query }];
    });
}

/** Without samples: each task's reference and its known-equivalent rewrites, which should all pass. */
export function referenceSamples(tasks: readonly SqlTask[]): Candidate[] {
  return tasks.flatMap((task) =>
    [task.reference, ...task.equivalents].map((program, index) => ({ taskId: task.id, index, program })),
  );
}

export function toSqlSampleResult(candidate: Candidate, report: SqlReport): SampleResult {
  const { verdict, counterexample } = report;
  const suites: Record<string, SuiteResult> = Object.fromEntries(
    verdict.suites.map((s) => [
      s.name,
      {
        status: s.status,
        passed: s.passed,
        total: s.total,
        ...(s.failedAt !== undefined ? { failed_at: s.failedAt } : {}),
        first_failure: s.firstFailure,
      },
    ]),
  );
  return {
    task_id: candidate.taskId,
    index: candidate.index,
    program: candidate.program,
    status: verdict.status,
    suites,
    first_failure: verdict.firstFailure,
    time_ms: verdict.timeMs,
    ...(counterexample ? { counterexample } : {}),
    reward: report.reward.reward,
  };
}

export async function evaluateSqlSamples(
  pack: SqlPack,
  checks: ReadonlyMap<string, SqlChecks>,
  candidates: readonly Candidate[],
  options: {
    readonly concurrency?: number;
    readonly shrink?: boolean;
    readonly signal?: AbortSignal;
    readonly onResult?: (result: SampleResult, done: number, total: number) => void;
  } = {},
): Promise<SampleResult[]> {
  let done = 0;
  const results: (SampleResult | undefined)[] = await pMap(
    candidates,
    async (candidate) => {
      if (options.signal?.aborted) return undefined;
      const report = await pack.verify(checks.get(candidate.taskId)!, candidate.program, {
        shrink: options.shrink === true,
      });
      const result = toSqlSampleResult(candidate, report);
      options.onResult?.(result, ++done, candidates.length);
      return result;
    },
    { concurrency: Math.max(1, options.concurrency ?? 8) },
  );
  return results.filter((r): r is SampleResult => r !== undefined);
}
