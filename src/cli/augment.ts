/** `eval --augment`: generated inputs on top of the dataset's tests, with minimal counterexamples. */
import type { SampleResult } from '../bench/evaluate.js';
import type { Candidate, Property, Task } from '../core/task.js';
import { augmentTask, GENERATED_SUITE, minimalCounterexample, type Augmentation } from '../verify/differential.js';
import type { Harness } from '../verify/harness.js';
import { checkProperties, PROPERTIES_SUITE, shrinkPropertyViolation, soundProperties } from '../verify/properties.js';
import { createProgress } from './progress.js';

export interface AugmentFlags {
  readonly augment?: boolean;
  readonly seed?: number;
  readonly augmentInputs?: number;
}

/** A seed when none is given: printed, so the run can be replayed with --seed. */
export function chooseSeed(seed: number | undefined): number {
  return seed ?? Math.floor(Math.random() * 2 ** 31);
}

export async function augmentTasks(harness: Harness, tasks: readonly Task[], flags: AugmentFlags) {
  const seed = chooseSeed(flags.seed);
  const count = flags.augmentInputs ?? 100;
  process.stderr.write(`crucible: generating ${count} inputs per task with seed ${seed} (replay with --seed ${seed})\n`);
  const progress = createProgress('generate');
  const augmentations = new Map<string, Augmentation>();
  let done = 0;
  try {
    // Tasks one after another: each runs its reference on the whole pool.
    for (const task of tasks) {
      augmentations.set(task.id, await augmentTask(harness, task, { seed, count }));
      progress.update(++done, tasks.length);
    }
  } finally {
    progress.stop();
  }
  const all = [...augmentations.values()];
  const skipped = all.filter((a) => a.kept === 0);
  return {
    tasks: all.map((a) => a.augmented),
    report: {
      seed,
      inputs_per_task: count,
      tasks: Object.fromEntries(all.map((a) => [a.task.id, { generated: a.kept, rejected: a.rejected, ...(a.reason ? { skipped: a.reason } : {}) }])),
    },
    footer: () =>
      `generated inputs: seed ${seed}, ${all.reduce((n, a) => n + a.kept, 0)} inputs over ${all.length - skipped.length} tasks` +
      (skipped.length ? `; ${skipped.length} tasks without (${skipped[0]!.reason}${skipped.length > 1 ? ', ...' : ''})` : ''),
    /**
     * Checks the tasks' properties on the generated inputs (a "properties" suite), and
     * shrinks every failing generated input to a minimal counterexample.
     */
    explain: async (results: SampleResult[], candidates: readonly Candidate[]): Promise<SampleResult[]> => {
      const programs = new Map(candidates.map((c) => [`${c.taskId}\u0000${c.index}`, c.program]));
      const sound = new Map(all.map((a) => [a.task.id, soundProperties(a.task)]));
      for (const [id, s] of sound) for (const d of s.dropped) process.stderr.write(`crucible: ${id}: property "${d.property}" dropped: the prompt's example ${d.example} breaks it\n`);
      return Promise.all(results.map((r) => explainOne(harness, r, programs.get(`${r.task_id}\u0000${r.index}`)!, augmentations.get(r.task_id), sound.get(r.task_id)?.kept ?? [])));
    },
  };
}

async function explainOne(harness: Harness, r: SampleResult, program: string, augmentation: Augmentation | undefined, properties: readonly Property[]): Promise<SampleResult> {
  if (!augmentation) return r;
  let result = r;
  const generated = r.suites[GENERATED_SUITE];
  if (generated?.status === 'fail') {
    const verdict = {
      suites: [{ name: GENERATED_SUITE, status: generated.status, passed: generated.passed, total: generated.total, firstFailure: null, ...(generated.failed_at !== undefined ? { failedAt: generated.failed_at } : {}) }],
    };
    const counterexample = await minimalCounterexample(harness, augmentation, program, verdict);
    if (counterexample) result = { ...result, counterexample };
  }
  if (properties.length === 0 || !augmentation.inputs || r.status === 'no-verdict') return result;
  const verdict = await checkProperties(harness, augmentation.augmented, program, properties, augmentation.inputs);
  const suite = { status: verdict.status, passed: verdict.passed, total: verdict.total, ...(verdict.failedAt !== undefined ? { failed_at: verdict.failedAt } : {}) };
  result = { ...result, suites: { ...result.suites, [PROPERTIES_SUITE]: suite } };
  if (verdict.status === 'pass') return result;
  result = { ...result, status: result.status === 'pass' ? 'fail' : result.status, first_failure: result.first_failure ?? verdict.firstFailure };
  const broken = properties.find((p) => p.name === verdict.property);
  if (result.counterexample || !broken || verdict.failedAt === undefined) return result;
  const counterexample = await shrinkPropertyViolation(harness, augmentation.augmented, program, broken, augmentation.inputs.args[verdict.failedAt]!, augmentation.space.types);
  return counterexample ? { ...result, counterexample } : result;
}
