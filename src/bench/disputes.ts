/**
 * After a run's samples are judged: the generated inputs each task's samples dispute
 * (verify/disputed-inputs.ts), for the report. It needs the pool, so it runs in `eval`,
 * never on one program alone (`serve`, `solve`).
 */
import type { Candidate } from '../core/task.js';
import type { CodeChecks } from '../domains/code/index.js';
import { GENERATED_SUITE } from '../verify/differential.js';
import { findDisputedInputs, type DisputedInput } from '../verify/disputed-inputs.js';
import type { Harness } from '../verify/harness.js';
import type { SampleResult } from './evaluate.js';

/** Disputed inputs per task id (only tasks that have some). `results`: the judged samples among `candidates`. */
export async function disputedInputsOfRun(
  harness: Harness,
  checks: ReadonlyMap<string, CodeChecks>,
  candidates: readonly Candidate[],
  results: readonly SampleResult[],
): Promise<Map<string, DisputedInput[]>> {
  const programOf = new Map(candidates.map((c) => [`${c.taskId}\u0000${c.index}`, c.program]));
  const byTask = new Map<string, SampleResult[]>();
  for (const r of results) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r]);
  const disputed = new Map<string, DisputedInput[]>();
  for (const [taskId, judged] of byTask) {
    const augmentation = checks.get(taskId)?.augmentation;
    if (!augmentation?.inputs) continue;
    const found = await findDisputedInputs(
      harness,
      augmentation,
      judged.map((r) => ({ program: programOf.get(`${r.task_id}\u0000${r.index}`)!, generated: generatedOf(r) })),
    );
    if (found.length) disputed.set(taskId, found);
  }
  return disputed;
}

/** The sample's generated-suite verdict when it passed every suite before it (suites are listed in the order judged). */
function generatedOf(r: SampleResult): SampleResult['suites'][string] | undefined {
  const names = Object.keys(r.suites);
  const before = names.slice(0, Math.max(0, names.indexOf(GENERATED_SUITE)));
  return before.every((name) => r.suites[name]!.status === 'pass') ? r.suites[GENERATED_SUITE] : undefined;
}
