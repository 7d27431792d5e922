import { VERSION } from '../core/version.js';
import type { Threshold } from '../select/abstain.js';
import { readThreshold } from './threshold-file.js';
import { selectAll, type TaskDecision } from '../select/run.js';
import type { Candidate } from '../core/task.js';
import { chooseSeed } from '../core/seed.js';
import { readInputs, type InputFlags, type Inputs } from './inputs.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import type { RecordFlags } from './record-options.js';
import { datasetLabel, judgedLabel, recorded, type CommandResult } from './recording.js';
import { codePack } from '../domains/code/index.js';
import { harnessFromFlags } from './harness-from-flags.js';
import type { AnyPackModule } from '../domains/registry.js';
import type { Identified } from '../domains/subject.js';
import type { HarnessFlags } from './shared-options.js';

export interface SelectFlags extends HarnessFlags, InputFlags, RecordFlags {
  readonly threshold?: string;
  readonly seed?: number;
  readonly inputs?: number;
  readonly json?: string;
}

/** Every task is listed when there are at most this many; otherwise the abstentions and a summary. */
const TASK_LINES_UP_TO = 40;

export async function runSelect(flags: SelectFlags): Promise<void> {
  const threshold = flags.threshold ? await readThreshold(flags.threshold) : undefined;
  const { dataset } = flags;
  // A task file of a pack (domains/registry.ts) is selected on by its pack; any other dataset holds functions.
  const registry = await import('../domains/registry.js');
  const module = dataset === undefined ? undefined : registry.packOfTaskFile(dataset, await registry.installedPacks());
  const inputs = module ? undefined : await readInputs(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(`crucible: seed ${seed} (replay with --seed ${seed})\n`);
  await recorded(
    flags,
    { command: 'select', dataset: datasetLabel(flags), judged: judgedLabel(flags), seed, flags },
    () => (inputs ? selectOnTasks(flags, inputs, seed, threshold) : selectOnPack(module!, flags, seed, threshold)),
  );
}

type SelectRun = Awaited<ReturnType<typeof selectAll>>;

function runOptions(
  flags: SelectFlags,
  seed: number,
  threshold: Threshold | undefined,
  concurrency: number,
  onTask: (done: number, total: number) => void,
) {
  return {
    seed,
    ...(flags.inputs ? { inputs: flags.inputs } : {}),
    ...(threshold ? { threshold } : {}),
    concurrency,
    onTask: (_: unknown, done: number, total: number) => onTask(done, total),
  };
}

async function selectOnTasks(
  flags: SelectFlags,
  inputs: Inputs,
  seed: number,
  threshold: Threshold | undefined,
): Promise<CommandResult> {
  const harness = harnessFromFlags(flags);
  const progress = createProgress('select');
  let run: SelectRun;
  try {
    run = await selectAll(
      codePack(harness),
      inputs.tasks,
      inputs.candidates,
      runOptions(flags, seed, threshold, harness.workerCount, progress.update),
    );
  } finally {
    progress.stop();
    await harness.close();
  }
  return finish(flags, inputs.name, run, threshold, inputs.candidates);
}

/** A pack's tasks: what the samples do on the pack's probes (SQL: the task's database and generated ones) is the behaviour compared. */
async function selectOnPack(
  module: AnyPackModule,
  flags: SelectFlags,
  seed: number,
  threshold: Threshold | undefined,
): Promise<CommandResult> {
  const dataset = flags.dataset!;
  if (!flags.samples) throw new Error(`select needs --samples: what to choose among, several per task of ${dataset}`);
  const [{ readPackSamples }, { openPackFromFlags }] = await Promise.all([
    import('../bench/pack-samples.js'),
    import('./harness-from-flags.js'),
  ]);
  const tasks: Identified[] = module.readTasks(dataset);
  const candidates = readPackSamples(flags.samples, tasks);
  const open = await openPackFromFlags(module, flags);
  const progress = createProgress('select');
  let run: SelectRun;
  try {
    run = await selectAll(open.pack, tasks, candidates, {
      ...runOptions(flags, seed, threshold, open.concurrency, progress.update),
      ...((flags.inputs ?? module.probes) ? { inputs: flags.inputs ?? module.probes } : {}),
    });
  } finally {
    progress.stop();
    await open.close();
  }
  return finish(flags, dataset, run, threshold, candidates);
}

async function finish(
  flags: SelectFlags,
  name: string,
  run: SelectRun,
  threshold: Threshold | undefined,
  candidates: readonly Candidate[],
): Promise<CommandResult> {
  process.stdout.write(formatSelections(name, run.tasks, run.summary, threshold) + '\n');
  const programs = new Map(candidates.map((c) => [programKey(c.taskId, c.index), c.program]));
  const document = {
    crucible: VERSION,
    created: new Date().toISOString(),
    dataset: { name, path: flags.dataset ?? null },
    samples_path: flags.samples ?? null,
    threshold: threshold ?? null,
    summary: run.summary,
    tasks: run.tasks.map((t) => toJson(t, programs)),
  };
  await writeJsonDocument(flags.json, document);
  return { interrupted: false, document, headline: { ...run.summary } };
}

const programKey = (taskId: string, index: number) => `${taskId}\u0000${index}`;

/** `programs`: each candidate's program by programKey; the document has it once, on the candidate. */
function toJson(t: TaskDecision, programs: ReadonlyMap<string, string>) {
  return {
    task_id: t.taskId,
    decision: t.decision,
    selected_index: t.selectedIndex,
    confidence: Math.round(t.confidence * 1e4) / 1e4,
    ...(t.reason ? { reason: t.reason } : {}),
    why: t.why,
    public_examples: t.publicExamples,
    generated_inputs: t.generatedInputs,
    plausible_inputs: t.plausibleInputs,
    clusters: t.clusters,
    candidates: t.candidates.map((c) => {
      const program = programs.get(programKey(t.taskId, c.index));
      return {
        index: c.index,
        public_passed: c.publicPassed,
        public_total: c.publicTotal,
        agreement: Math.round(c.agreement * 1e4) / 1e4,
        cluster_size: c.clusterSize,
        breaks_property: c.breaksProperty,
        ...(c.suspect ? { suspect: c.suspect } : {}),
        ...(program !== undefined ? { program } : {}),
      };
    }),
    disagreements: t.disagreements,
  };
}

function formatSelections(
  name: string,
  tasks: readonly TaskDecision[],
  summary: { tasks: number; answered: number; abstained: number },
  threshold?: Threshold,
): string {
  const shown =
    tasks.length <= TASK_LINES_UP_TO ? tasks : tasks.filter((t) => t.decision === 'abstain').slice(0, TASK_LINES_UP_TO);
  const width = Math.max(8, ...shown.map((t) => t.taskId.length));
  const lines = shown.map((t) => {
    const pick = t.selectedIndex === null ? '-' : `#${t.selectedIndex}`;
    const what = t.decision === 'answer' ? `answer   ${t.why}` : `abstained: ${t.reason}`;
    return `${t.taskId.padEnd(width)}  ${pick.padStart(4)}  ${t.confidence.toFixed(3)}  ${what}`;
  });
  const header = `${'task'.padEnd(width)}  pick  conf.  decision`;
  const more =
    tasks.length > shown.length ? [`(${tasks.length} tasks; only the abstentions are listed, all are in --json)`] : [];
  const rule = threshold
    ? threshold.threshold === null
      ? `threshold: none meets α=${threshold.alpha} (δ=${threshold.delta}) on ${threshold.calibrationTasks} calibration tasks`
      : `threshold ${threshold.threshold.toFixed(3)} (α=${threshold.alpha}, δ=${threshold.delta}, calibrated on ${threshold.calibrationTasks} tasks)`
    : 'no threshold (--threshold FILE from crucible calibrate): every task is answered';
  return [
    `${name}: selection`,
    ...(shown.length ? [header, ...lines] : []),
    ...more,
    '',
    rule,
    `answered ${summary.answered} of ${summary.tasks} tasks, abstained on ${summary.abstained}`,
  ].join('\n');
}
