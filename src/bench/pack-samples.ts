/**
 * Scoring samples of any pack, as `crucible eval` scores programs: each sample judged by the
 * pack on its task's checks, in the samples' order, with pass@k per suite from the same summary.
 */
import { readFileSync } from 'node:fs';
import pMap from 'p-map';
import type { Candidate } from '../core/task.js';
import type { Identified } from '../domains/subject.js';
import type { Checks, DomainPack } from '../domains/types.js';
import { sampleRow, type SampleResult } from './evaluate.js';

/**
 * Samples from a JSONL file of `{"task_id", "solution"}` (or `completion`) lines, numbered per
 * task in file order; a sample of a task the dataset lacks is an error naming the line.
 */
export function readPackSamples(path: string, tasks: readonly Identified[]): Candidate[] {
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
      const artifact = json.solution ?? json.completion;
      if (typeof json.task_id !== 'string' || typeof artifact !== 'string')
        throw new Error(
          `${path}:${i + 1}: a sample needs "task_id" and "solution" (what the model wrote), both strings`,
        );
      if (!known.has(json.task_id)) throw new Error(`${path}:${i + 1}: no task ${json.task_id} in the dataset`);
      const index = counts.get(json.task_id) ?? 0;
      counts.set(json.task_id, index + 1);
      return [{ taskId: json.task_id, index, program: artifact }];
    });
}

export async function evaluatePackSamples<T extends Identified, C extends Checks<T>>(
  pack: DomainPack<T, string, C>,
  checks: ReadonlyMap<string, C>,
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
      const result = sampleRow(candidate, report);
      options.onResult?.(result, ++done, candidates.length);
      return result;
    },
    { concurrency: Math.max(1, options.concurrency ?? 8) },
  );
  return results.filter((r): r is SampleResult => r !== undefined);
}
