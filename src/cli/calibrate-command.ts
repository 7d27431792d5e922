import { writeFile } from 'node:fs/promises';
import { testedLevels } from '../select/abstain.js';
import { calibrate } from '../select/run.js';
import { VERSION } from '../core/version.js';
import { chooseSeed } from '../core/seed.js';
import { readInputs, type InputFlags, type Inputs } from './inputs.js';
import { createProgress } from './progress.js';
import type { RecordFlags } from './record-options.js';
import { datasetLabel, judgedLabel, recorded, type CommandResult } from './recording.js';
import { codePack } from '../domains/code/index.js';
import { harnessFromFlags } from './harness-from-flags.js';
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
  const inputs = await readInputs(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(`crucible: seed ${seed} (replay with --seed ${seed})\n`);
  await recorded(
    flags,
    { command: 'calibrate', dataset: datasetLabel(flags), judged: judgedLabel(flags), seed, flags },
    () => calibrateOn(flags, inputs, seed),
  );
}

async function calibrateOn(flags: CalibrateFlags, inputs: Inputs, seed: number): Promise<CommandResult> {
  const harness = harnessFromFlags(flags);
  const progress = createProgress('calibrate');
  let run: Awaited<ReturnType<typeof calibrate>>;
  try {
    run = await calibrate(codePack(harness), inputs.tasks, inputs.candidates, {
      seed,
      alpha: flags.alpha,
      delta: flags.delta,
      ...(flags.inputs ? { inputs: flags.inputs } : {}),
      concurrency: harness.workerCount,
      onTask: (_, done, total) => progress.update(done, total),
    });
  } finally {
    progress.stop();
    await harness.close();
  }
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
