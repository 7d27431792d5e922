/**
 * After a run's samples are judged: the generated inputs each task's samples dispute
 * (verify/disputed-inputs.ts). Those at a corner the reference does not treat apart are set
 * aside, and the samples that failed the generated suite are judged again without them;
 * the others stay held against the samples. It needs the pool, so it runs in `eval`, never
 * on one program alone (`serve`, `solve`).
 */
import type { Candidate } from '../core/task.js';
import { verifyProgram, withoutGeneratedInputs, type CodeChecks } from '../domains/code/index.js';
import { GENERATED_SUITE } from '../domains/code/differential.js';
import { findDisputedInputs, type DisputedInput } from '../domains/code/disputed-inputs.js';
import type { Harness } from '../domains/code/harness.js';
import { sampleRow, type SampleResult } from './evaluate.js';

export interface SettledDisputes {
  /** The results, those judged again replaced. */
  readonly results: SampleResult[];
  /** Disputed inputs per task id (only tasks that have some), set aside or not. */
  readonly disputed: Map<string, DisputedInput[]>;
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
  const disputed = new Map<string, DisputedInput[]>();
  const candidateOf = new Map(candidates.map((c) => [`${c.taskId}\u0000${c.index}`, c]));
  const candidateAt = (i: number) => candidateOf.get(`${results[i]!.task_id}\u0000${results[i]!.index}`)!;
  const positions = new Map<string, number[]>();
  results.forEach((r, i) => positions.set(r.task_id, [...(positions.get(r.task_id) ?? []), i]));
  for (const [taskId, at] of positions) {
    const taskChecks = checks.get(taskId);
    if (!taskChecks?.augmentation?.inputs) continue;
    const found = await findDisputedInputs(
      harness,
      taskChecks.augmentation,
      at.map((i) => ({ program: candidateAt(i).program, generated: generatedOf(results[i]!) })),
    );
    if (found.length === 0) continue;
    disputed.set(taskId, found);
    const aside = new Set(found.filter((d) => d.setAside).map((d) => d.input));
    if (aside.size === 0) continue;
    const reduced = withoutGeneratedInputs(taskChecks, aside);
    const again = at.filter((i) => (results[i]!.suites[GENERATED_SUITE]?.status ?? 'pass') !== 'pass');
    await Promise.all(
      again.map(async (i) => {
        const report = await verifyProgram(harness, reduced, candidateAt(i).program, { shrink: options.shrink });
        settled[i] = sampleRow(candidateAt(i), report);
      }),
    );
  }
  return { results: settled, disputed };
}

/** The sample's generated-suite verdict when it passed every suite before it (suites are listed in the order judged). */
function generatedOf(r: SampleResult): SampleResult['suites'][string] | undefined {
  const names = Object.keys(r.suites);
  const before = names.slice(0, Math.max(0, names.indexOf(GENERATED_SUITE)));
  return before.every((name) => r.suites[name]!.status === 'pass') ? r.suites[GENERATED_SUITE] : undefined;
}
