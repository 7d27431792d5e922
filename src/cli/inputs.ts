/** Reading a dataset and its samples, shared by the commands that judge samples. */
import { builtinDataset, builtinSamples } from '../bench/builtin/index.js';
import { loadDataset } from '../datasets/index.js';
import type { Label } from '../bench/labels.js';
import { loadLabelledSamples, loadSamples } from '../datasets/samples.js';
import type { Candidate, Task } from '../core/task.js';

export interface InputFlags {
  readonly dataset?: string;
  readonly samples?: string;
  readonly labelSuite?: string;
  /** Skip samples whose task id is not in the dataset (else that is an error). */
  readonly allowMissing?: boolean;
  /** Only the first N tasks that have samples (a quick try of a large dataset). */
  readonly limit?: number;
}

export interface Inputs {
  readonly name: string;
  readonly tasks: readonly Task[];
  readonly candidates: readonly Candidate[];
  readonly labels?: readonly Label[];
}

export async function readInputs(flags: InputFlags): Promise<Inputs> {
  return limitTasks(await readAllInputs(flags), flags.limit);
}

/** The first `limit` tasks (in the dataset's order) that have samples, with their samples and labels. */
function limitTasks(inputs: Inputs, limit: number | undefined): Inputs {
  if (limit === undefined) return inputs;
  const sampled = new Set(inputs.candidates.map((c) => c.taskId));
  const kept = new Set(
    inputs.tasks
      .filter((t) => sampled.has(t.id))
      .slice(0, limit)
      .map((t) => t.id),
  );
  if (kept.size === sampled.size) return inputs;
  const at = inputs.candidates.flatMap((c, i) => (kept.has(c.taskId) ? [i] : []));
  return {
    name: `${inputs.name}, its first ${kept.size} tasks (--limit)`,
    tasks: inputs.tasks.filter((t) => kept.has(t.id)),
    candidates: at.map((i) => inputs.candidates[i]!),
    ...(inputs.labels ? { labels: at.map((i) => inputs.labels![i]!) } : {}),
  };
}

async function readAllInputs(flags: InputFlags): Promise<Inputs> {
  if (!flags.dataset) {
    if (flags.samples) throw new Error('--samples needs --dataset (the built-in suite brings its own samples)');
    const dataset = builtinDataset();
    return { name: 'built-in suite', tasks: dataset.tasks, candidates: builtinSamples() };
  }
  const dataset = await loadDataset(flags.dataset);
  if (!flags.samples) {
    const withReference = dataset.tasks.filter((task) => task.reference !== undefined);
    if (withReference.length === 0) {
      throw new Error(`${dataset.name} has no reference solutions to evaluate; pass --samples with model outputs.`);
    }
    const candidates = withReference.map((task) => ({ taskId: task.id, index: 0, program: task.reference! }));
    return { name: `${dataset.name} (reference solutions)`, tasks: dataset.tasks, candidates };
  }
  const labelled = await loadLabelledSamples(
    flags.samples,
    dataset,
    flags.labelSuite ? { testSuite: flags.labelSuite } : undefined,
  ).catch(() => undefined);
  if (labelled && labelled.candidates.length > 0) {
    refuseUnknown(labelled.unknownTaskIds, dataset.tasks, dataset.name, flags);
    for (const warning of labelled.warnings) process.stderr.write(`crucible: ${warning}\n`);
    return { name: dataset.name, tasks: dataset.tasks, candidates: labelled.candidates, labels: labelled.labels };
  }
  const { candidates, warnings, unknownTaskIds } = await loadSamples(flags.samples, dataset);
  refuseUnknown(unknownTaskIds, dataset.tasks, dataset.name, flags);
  for (const warning of warnings) process.stderr.write(`crucible: ${warning}\n`);
  if (candidates.length === 0) throw new Error(`no sample in ${flags.samples} matches a task of ${dataset.name}`);
  return { name: dataset.name, tasks: dataset.tasks, candidates };
}

/**
 * Samples for tasks the dataset does not have would leave pass@k averaged over what matched:
 * an error naming them and the nearest real ids, unless --allow-missing.
 */
function refuseUnknown(
  unknown: readonly string[],
  tasks: readonly Task[],
  datasetName: string,
  flags: InputFlags,
): void {
  if (unknown.length === 0 || flags.allowMissing) return;
  const ids = tasks.map((t) => t.id);
  const shown = unknown.slice(0, 5).map((id) => {
    const near = nearest(id, ids);
    return `${JSON.stringify(id)}${near ? ` (nearest: ${near})` : ''}`;
  });
  const more = unknown.length > 5 ? `, … (${unknown.length - 5} more)` : '';
  throw new Error(
    `${unknown.length} task id${unknown.length === 1 ? '' : 's'} of the samples ${unknown.length === 1 ? 'is' : 'are'} not in ${datasetName}: ${shown.join(', ')}${more}. ` +
      'Fix the ids, or pass --allow-missing to skip those samples.',
  );
}

/** The dataset id closest to `id` by edit distance (ignoring case and spaces), if any is close. */
function nearest(id: string, ids: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');
  const target = norm(id);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of ids) {
    const d = editDistance(target, norm(candidate), bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}
