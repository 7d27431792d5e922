/**
 * After a run's samples are judged: the generated inputs each task's samples dispute
 * (verify/disputed-inputs.ts) are set aside, and the samples that failed the generated
 * suite are judged again without them. It needs the pool, so it runs in `eval`, never on
 * one program alone (`serve`, `solve`).
 */
import type { Candidate } from '../core/task.js';
import { verifyProgram, withoutGeneratedInputs, type CodeChecks } from '../domains/code/index.js';
import { GENERATED_SUITE } from '../verify/differential.js';
import { findDisputedInputs, type DisputedInput } from '../verify/disputed-inputs.js';
import type { Harness } from '../verify/harness.js';
import { toSampleResult, type SampleResult } from './evaluate.js';

export interface SettledDisputes {
  /** The results, those judged again replaced. */
  readonly results: SampleResult[];
  /** Disputed inputs per task id (only tasks that have some). */
  readonly disputed: ReadonlyMap<string, readonly DisputedInput[]>;
}

/** `results`: the judged samples among `candidates` (an interrupted run judged only some). */
export async function settleDisputedInputs(
  harness: Harness,
  checks: ReadonlyMap<string, CodeChecks>,
  candidates: readonly Candidate[],
  results: readonly SampleResult[],
  options: { readonly shrink: boolean },
): Promise<SettledDisputes> {
  const settled = [...results];
  const disputed = new Map<string, readonly DisputedInput[]>();
  const candidateOf = new Map(candidates.map((c) => [`${c.taskId}\u0000${c.index}`, c]));
  const programOf = (r: SampleResult) => candidateOf.get(`${r.task_id}\u0000${r.index}`)!;
  const positions = new Map<string, number[]>();
  results.forEach((r, i) => positions.set(r.task_id, [...(positions.get(r.task_id) ?? []), i]));
  for (const [taskId, at] of positions) {
    const taskChecks = checks.get(taskId);
    if (!taskChecks?.augmentation?.inputs) continue;
    // A sample counts when it passed every suite before the generated one (suites are listed in the order judged).
    const generatedOf = (r: SampleResult) => {
      const names = Object.keys(r.suites);
      const before = names.slice(0, Math.max(0, names.indexOf(GENERATED_SUITE)));
      return before.every((name) => r.suites[name]!.status === 'pass') ? r.suites[GENERATED_SUITE] : undefined;
    };
    const found = await findDisputedInputs(
      harness,
      taskChecks.augmentation,
      at.map((i) => ({ program: programOf(results[i]!).program, generated: generatedOf(results[i]!) })),
    );
    if (found.length === 0) continue;
    disputed.set(taskId, found);
    const reduced = withoutGeneratedInputs(taskChecks, new Set(found.map((d) => d.input)));
    const again = at.filter((i) => (results[i]!.suites[GENERATED_SUITE]?.status ?? 'pass') !== 'pass');
    await Promise.all(
      again.map(async (i) => {
        const candidate = programOf(results[i]!);
        const report = await verifyProgram(harness, reduced, candidate.program, { shrink: options.shrink });
        settled[i] = toSampleResult(candidate, report);
      }),
    );
  }
  return { results: settled, disputed };
}
