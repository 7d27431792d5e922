/** Reading a dataset and its samples, shared by the commands that judge samples. */
import { builtinDataset, builtinSamples } from '../bench/builtin/index.js';
import { loadDataset } from '../bench/datasets/index.js';
import type { Label } from '../bench/labels.js';
import { loadLabelledSamples, loadSamples } from '../bench/samples.js';
import type { Candidate, Task } from '../core/task.js';

export interface InputFlags {
  readonly dataset?: string;
  readonly samples?: string;
  readonly labelSuite?: string;
}

export interface Inputs {
  readonly name: string;
  readonly tasks: readonly Task[];
  readonly candidates: readonly Candidate[];
  readonly labels?: readonly Label[];
}

export async function readInputs(flags: InputFlags): Promise<Inputs> {
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
  const labelled = await loadLabelledSamples(flags.samples, dataset, flags.labelSuite ? { testSuite: flags.labelSuite } : undefined).catch(
    () => undefined,
  );
  if (labelled && labelled.candidates.length > 0) {
    for (const warning of labelled.warnings) process.stderr.write(`crucible: ${warning}\n`);
    return { name: dataset.name, tasks: dataset.tasks, candidates: labelled.candidates, labels: labelled.labels };
  }
  const { candidates, warnings } = await loadSamples(flags.samples, dataset);
  for (const warning of warnings) process.stderr.write(`crucible: ${warning}\n`);
  if (candidates.length === 0) throw new Error(`no sample in ${flags.samples} matches a task of ${dataset.name}`);
  return { name: dataset.name, tasks: dataset.tasks, candidates };
}

