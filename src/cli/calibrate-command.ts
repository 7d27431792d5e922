import { writeFile } from 'node:fs/promises';
import { testedLevels } from '../select/abstain.js';
import { calibrate } from '../select/run.js';
import { VERSION } from '../core/version.js';
import { chooseSeed } from '../core/seed.js';
import { readInputs, type InputFlags, type Inputs } from './inputs.js';
import { createProgress } from './progress.js';
import type { RecordFlags } from './record-options.js';
import { datasetLabel, judgedLabel, recorded, type CommandResult } from './recording.js';
import { codePack, taskChecks } from '../domains/code/index.js';
import type { AnyPackModule } from '../domains/registry.js';
import type { Identified } from '../domains/subject.js';
import type { Candidate } from '../core/task.js';
import { harnessFromFlags, openPackFromFlags } from './harness-from-flags.js';
import type { HarnessFlags } from './shared-options.js';

export interface CalibrateFlags extends HarnessFlags, InputFlags, RecordFlags {
  readonly alpha: number;
  readonly delta: number;
  readonly out: string;
  readonly seed?: number;
  readonly inputs?: number;
}

export async function runCalibrate(flags: CalibrateFlags): Promise<void> {
  if (!flags.samples) throw new Error('calibrate needs --samples: the candidates whose selections are labelled');
  // A task file of a pack (domains/registry.ts) is calibrated on by its pack; any other dataset holds functions.
  const registry = await import('../domains/registry.js');
  const { dataset } = flags;
  const module = dataset === undefined ? undefined : registry.packOfTaskFile(dataset, await registry.installedPacks());
  const inputs = module ? await packInputs(module, flags) : await readInputs(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(`crucible: seed ${seed} (replay with --seed ${seed})\n`);
  await recorded(
    flags,
    { command: 'calibrate', dataset: datasetLabel(flags), judged: judgedLabel(flags), seed, flags },
    () => (module ? calibrateOnPack(module, flags, inputs, seed) : calibrateOnFunctions(flags, inputs as Inputs, seed)),
  );
}

type Calibration = Awaited<ReturnType<typeof calibrate>>;
type Labelled = {
  readonly name: string;
  readonly tasks: readonly Identified[];
  readonly candidates: readonly Candidate[];
};

async function packInputs(module: AnyPackModule, flags: CalibrateFlags): Promise<Labelled> {
  const tasks: Identified[] = module.readTasks(flags.dataset!);
  const { readPackSamples } = await import('../bench/pack-samples.js');
  return { name: flags.dataset!, tasks, candidates: readPackSamples(flags.samples!, tasks) };
}

/** Functions: each selection labelled by the task's own suites. */
async function calibrateOnFunctions(flags: CalibrateFlags, inputs: Inputs, seed: number): Promise<CommandResult> {
  if (inputs.tasks.every((t) => t.suites.length === 0))
    throw new Error('calibration needs a dataset with tests to label the selected programs; this one has none');
  const harness = harnessFromFlags(flags);
  const progress = createProgress('calibrate');
  let run: Calibration;
  try {
    run = await calibrate(codePack(harness), inputs.tasks, inputs.candidates, {
      ...calibrateOptions(flags, seed, harness.workerCount, progress.update),
      labelChecks: taskChecks,
    });
  } finally {
    progress.stop();
    await harness.close();
  }
  return finish(flags, inputs, seed, run);
}

/** A pack's tasks: each selection labelled on the scorer's checks, as eval scores it. */
async function calibrateOnPack(
  module: AnyPackModule,
  flags: CalibrateFlags,
  inputs: Labelled,
  seed: number,
): Promise<CommandResult> {
  const open = await openPackFromFlags(module, flags);
  const progress = createProgress('calibrate');
  let run: Calibration;
  try {
    run = await calibrate(open.pack, inputs.tasks, inputs.candidates, {
      ...calibrateOptions(flags, seed, open.concurrency, progress.update),
      ...(flags.inputs === undefined && module.probes ? { inputs: module.probes } : {}),
      labelChecks: (task) => open.pack.prepare(task, { audience: 'scorer', seed }),
    });
  } finally {
    progress.stop();
    await open.close();
  }
  return finish(flags, inputs, seed, run);
}

function calibrateOptions(
  flags: CalibrateFlags,
  seed: number,
  concurrency: number,
  onTask: (done: number, total: number) => void,
) {
  return {
    seed,
    alpha: flags.alpha,
    delta: flags.delta,
    ...(flags.inputs ? { inputs: flags.inputs } : {}),
    concurrency,
    onTask: (_: unknown, done: number, total: number) => onTask(done, total),
  };
}

async function finish(flags: CalibrateFlags, inputs: Labelled, seed: number, run: Calibration): Promise<CommandResult> {
  const t = run.threshold;
  const correct = run.items.filter((i) => i.correct).length;
  // The threshold file is the run's document: select --threshold reads it (ThresholdSchema keeps
  // the threshold's own fields). Beside them, for the report: where it was calibrated, every
  // threshold tested with its figures (the risk–coverage curve), and each task's label.
  const document = {
    ...t,
    crucible: VERSION,
    created: new Date().toISOString(),
    dataset: { name: inputs.name, path: flags.dataset ?? null },
    samples_path: flags.samples ?? null,
    seed,
    levels: testedLevels(run.items, t.delta),
    calibration: run.items,
  };
  await writeFile(flags.out, JSON.stringify(document, null, 1) + '\n');
  process.stdout.write(
    [
      `${inputs.name}: calibrated on ${t.calibrationTasks} tasks (the selected program is right on ${correct})`,
      t.threshold === null
        ? `no threshold keeps the error among answered tasks under α=${t.alpha} with probability ≥ ${1 - t.delta}: select will abstain on every task`
        : `threshold ${t.threshold.toFixed(4)}: answers ${t.answered} of ${t.calibrationTasks} calibration tasks, ${t.wrong} wrong; certified error ≤ ${t.errorBound.toFixed(4)} (α=${t.alpha}, δ=${t.delta})`,
      `written to ${flags.out}; use it with crucible select --threshold ${flags.out}`,
    ].join('\n') + '\n',
  );
  return { interrupted: false, document, headline: { ...t, seed, correct } };
}
