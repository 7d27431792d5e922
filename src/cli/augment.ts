/**
 * The checks `eval` scores each task on, through the code pack: the task's own suites, and
 * with `--augment` generated inputs judged against the reference (failures shrunk to a
 * minimal counterexample) and the task's properties on them.
 */
import type { Task } from '../core/task.js';
import { chooseSeed } from '../core/seed.js';
import { generatedSummary, prepareCodeChecks, taskChecks, type CodeChecks } from '../domains/code/index.js';
import type { Harness } from '../domains/code/harness.js';
import { percent, type CoverageFigures } from '../domains/code/coverage.js';
import type { GenerationRecord } from '../domains/code/differential.js';
import { KEPT_REASONS, type KeptReason } from '../domains/code/guided-selection.js';
import { createProgress } from './progress.js';

export interface AugmentFlags {
  readonly augment?: boolean;
  readonly seed?: number;
  readonly augmentInputs?: number;
  /** Mutants of each reference run so that the kept inputs kill them (0: off). */
  readonly augmentMutants?: number;
}

export interface EvalChecks {
  readonly checks: ReadonlyMap<string, CodeChecks>;
  /** With --augment: what was generated per task, for the JSON document and the footer. */
  readonly augment?: { readonly report: Record<string, unknown>; readonly footer: string };
}

/** `sampled`: the tasks that have samples; only they get generated inputs. */
export async function evalChecks(
  harness: Harness,
  tasks: readonly Task[],
  sampled: ReadonlySet<string>,
  flags: AugmentFlags,
): Promise<EvalChecks> {
  const checks = new Map(tasks.map((task) => [task.id, taskChecks(task)]));
  if (!flags.augment) return { checks };
  const seed = chooseSeed(flags.seed);
  const count = flags.augmentInputs ?? 100;
  process.stderr.write(
    `crucible: generating ${count} inputs per task with seed ${seed} (replay with --seed ${seed}` +
      `${flags.augmentMutants ? ` --augment-mutants ${flags.augmentMutants}` : ''})\n`,
  );
  const progress = createProgress('generate');
  const augmented: CodeChecks[] = [];
  try {
    // Tasks one after another: each runs its reference on the whole pool.
    for (const task of tasks.filter((t) => sampled.has(t.id))) {
      const prepared = await prepareCodeChecks(harness, task, {
        audience: 'scorer',
        seed,
        probes: count,
        promptExamples: false,
        ...(flags.augmentMutants ? { mutants: flags.augmentMutants } : {}),
      });
      for (const d of prepared.droppedProperties)
        process.stderr.write(
          `crucible: ${task.id}: property "${d.property}" dropped: the prompt's example ${d.example} breaks it\n`,
        );
      checks.set(task.id, prepared);
      augmented.push(prepared);
      progress.update(augmented.length, sampled.size);
    }
  } finally {
    progress.stop();
  }
  const summaries = new Map(augmented.map((c) => [c, generatedSummary(c)]));
  const skipped = augmented.filter((c) => summaries.get(c)!.kept === 0);
  const why = (c: CodeChecks) => summaries.get(c)!.skipped ?? 'no inputs were kept';
  const records = [...summaries.values()].flatMap((m) => (m.record ? [m.record] : []));
  return {
    checks,
    augment: {
      report: {
        seed,
        inputs_per_task: count,
        ...(flags.augmentMutants ? { mutants_per_task: flags.augmentMutants } : {}),
        kept_by: keptBy(records),
        tasks: Object.fromEntries(
          augmented.map((c) => {
            const made = summaries.get(c)!;
            return [
              c.task.id,
              {
                generated: made.kept,
                rejected: made.rejected,
                ...(made.inferredDomain !== undefined ? { inferred_domain: made.inferredDomain } : {}),
                ...(made.record
                  ? {
                      candidates: made.record.candidates,
                      kept_by: made.record.kept,
                      ...(made.record.coverage ? { reference_coverage: made.record.coverage } : {}),
                      ...(made.record.mutants ? { mutants: made.record.mutants } : {}),
                    }
                  : {}),
                ...(made.kept === 0 ? { skipped: why(c) } : {}),
              },
            ];
          }),
        ),
      },
      footer:
        `generated inputs: seed ${seed}, ${augmented.reduce((n, c) => n + summaries.get(c)!.kept, 0)} inputs over ${augmented.length - skipped.length} tasks` +
        (skipped.length
          ? `; ${skipped.length} tasks without (${why(skipped[0]!)}${skipped.length > 1 ? ', ...' : ''})`
          : '') +
        describeRecords(records),
    },
  };
}

/** Kept inputs per reason, summed over tasks. */
function keptBy(records: readonly GenerationRecord[]): Record<KeptReason, number> {
  return Object.fromEntries(
    KEPT_REASONS.map((r) => [r, records.reduce((n, record) => n + record.kept[r], 0)]),
  ) as Record<KeptReason, number>;
}

/** The footer's second line: why inputs were kept, and how much of the references they reach. */
function describeRecords(records: readonly GenerationRecord[]): string {
  const by = keptBy(records);
  const total = KEPT_REASONS.reduce((n, r) => n + by[r], 0);
  if (total === 0) return '';
  const shares = KEPT_REASONS.filter((r) => by[r] > 0)
    .map((r) => `${r} ${Math.round((100 * by[r]) / total)}%`)
    .join(', ');
  const measured = records.flatMap((r) => (r.coverage ? [r.coverage] : []));
  const sum = (pick: (c: CoverageFigures) => { covered: number; total: number }) =>
    measured.reduce((acc, c) => ({ covered: acc.covered + pick(c).covered, total: acc.total + pick(c).total }), {
      covered: 0,
      total: 0,
    });
  const coverage = measured.length
    ? `; the references' lines ${percent(sum((c) => c.lines))} and decision outcomes ${percent(sum((c) => c.branches))} reached (${measured.length} tasks)`
    : '';
  return `\n  kept for: ${shares}${coverage}`;
}
