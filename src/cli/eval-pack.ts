/**
 * `crucible eval` on a pack's task file (domains/registry.ts: SQL, games, docs, …): the samples
 * (or what the pack judges without them) scored by the pack on its runtime, and with --augment
 * on the probes it generates, into the same summary, pass@k and JSON document as functions.
 */
import { evalDocument } from '../bench/eval-document.js';
import { readPackSamples, evaluatePackSamples } from '../bench/pack-samples.js';
import { summarize, type SampleResult } from '../bench/evaluate.js';
import { formatFirstFailures, formatSamples, formatSummary } from '../bench/report.js';
import { chooseSeed } from '../core/seed.js';
import type { Candidate } from '../core/task.js';
import { installedPacks, type AnyPackModule } from '../domains/registry.js';
import type { Identified } from '../domains/subject.js';
import type { Checks } from '../domains/types.js';
import type { EvalFlags } from './flags.js';
import { openPackFromFlags } from './harness-from-flags.js';
import { interruptOnSigint } from './interrupt.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import type { CommandResult } from './recording.js';

const SAMPLE_LINES_UP_TO = 100;
const FAILURES_PER_STATUS = 3;

export interface PackEvalFlags extends EvalFlags {
  readonly dataset: string;
  /** `execution` (the default), or a judge of the pack's that needs no runtime (SQL's `static`). */
  readonly judge?: string;
}

export async function judgePackSamples(module: AnyPackModule, flags: PackEvalFlags): Promise<CommandResult> {
  const tasks: Identified[] = module.readTasks(flags.dataset);
  const candidates = flags.samples ? readPackSamples(flags.samples, tasks) : module.samplesWithout?.of(tasks);
  if (!candidates)
    throw new Error(
      `${flags.dataset} holds ${module.name} tasks, which bring no samples of their own: give --samples FILE, a JSONL of {"task_id", "solution"}`,
    );
  const sampled = new Set(candidates.map((c) => c.taskId));
  const judged = tasks.filter((t) => sampled.has(t.id)).slice(0, flags.limit ?? Infinity);
  const kept = new Set(judged.map((t) => t.id));
  const samples = candidates.filter((c) => kept.has(c.taskId));
  const unscorable = module.unscorable?.(judged, flags.dataset);
  if (unscorable) throw new Error(unscorable);
  if (flags.judge !== undefined && flags.judge !== 'execution') return judgeStatically(module, flags, judged, samples);

  const open = await openPackFromFlags(module, flags);
  const seed = chooseSeed(flags.seed);
  const probes = flags.augment ? (flags.augmentInputs ?? undefined) : 0;
  if (flags.augment)
    process.stderr.write(
      `crucible: generating probes for ${judged.length} ${module.name} tasks with seed ${seed} (replay with --seed ${seed})\n`,
    );
  const preparing = createProgress('checks');
  const progress = createProgress('eval');
  const interrupt = interruptOnSigint('finishing the samples in flight');
  const started = performance.now();
  const checks = new Map<string, Checks<Identified>>();
  let results: SampleResult[];
  try {
    for (const [i, task] of judged.entries()) {
      checks.set(
        task.id,
        await open.pack.prepare(task, { audience: 'scorer', seed, ...(probes !== undefined ? { probes } : {}) }),
      );
      preparing.update(i + 1, judged.length);
    }
    preparing.stop();
    results = await evaluatePackSamples(open.pack, checks, samples, {
      concurrency: open.concurrency,
      shrink: flags.augment === true,
      signal: interrupt.signal,
      onResult: (_, done, total) => progress.update(done, total),
    });
  } finally {
    interrupt.dispose();
    preparing.stop();
    progress.stop();
    await open.close();
  }
  const interrupted = interrupt.signal.aborted;
  if (interrupted) process.exitCode = 130;
  const summary = summarize(
    judged.map((task) => ({ id: task.id, suites: open.suites(checks.get(task.id)!) })),
    results,
    (performance.now() - started) / 1000,
  );
  if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  else if (results.some((r) => r.status !== 'pass'))
    process.stdout.write(formatFirstFailures(results, FAILURES_PER_STATUS) + '\n\n');
  const name = `${flags.dataset}${flags.samples ? '' : ` (${module.samplesWithout!.what})`}`;
  process.stdout.write(formatSummary(name, summary) + '\n');
  const unusable = [...checks.values()].flatMap((c) => open.unusable(c) ?? []);
  if (unusable.length)
    process.stdout.write(`${unusable.length} task(s) cannot be judged as given, e.g. ${unusable[0]}\n`);
  const document = evalDocument(
    {
      dataset: { name, path: flags.dataset },
      samplesPath: flags.samples ?? null,
      harness: { settings: { domain: module.name, ...open.settings(judged) } },
      sandbox: flags.sandbox,
      interrupted,
      ...(flags.augment ? { augment: { seed, ...open.augmented?.(checks) } } : {}),
    },
    summary,
    results,
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted, document, headline: document.summary };
}

/** A judge of the pack's that needs no runtime (`--judge static` on SQL): one suite, named for the judge. */
async function judgeStatically(
  module: AnyPackModule,
  flags: PackEvalFlags,
  tasks: readonly Identified[],
  samples: readonly Candidate[],
): Promise<CommandResult> {
  const name = flags.judge!;
  const judge = module.judges?.[name];
  if (!judge) {
    const others = (await installedPacks()).filter((p) => p.judges?.[name]).map((p) => p.name);
    throw new Error(
      `--judge ${name} does not judge ${module.name} tasks${others.length ? ` (it judges ${others.join(', ')} tasks)` : ''}; leave it out to judge by running the samples`,
    );
  }
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const started = performance.now();
  const results: SampleResult[] = [];
  for (const sample of samples) {
    const t0 = performance.now();
    const { status, failure } = await judge(byId.get(sample.taskId)!, sample.program);
    results.push({
      task_id: sample.taskId,
      index: sample.index,
      program: sample.program,
      status,
      suites: { [name]: { status, passed: status === 'pass' ? 1 : 0, total: 1, first_failure: failure } },
      first_failure: failure,
      time_ms: performance.now() - t0,
      reward: null,
    });
  }
  const summary = summarize(
    tasks.map((task) => ({ id: task.id, suites: [{ name }] })),
    results,
    (performance.now() - started) / 1000,
  );
  if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  process.stdout.write(formatSummary(`${flags.dataset} (${name} judge)`, summary) + '\n');
  const document = evalDocument(
    {
      dataset: { name: flags.dataset, path: flags.dataset },
      samplesPath: flags.samples ?? null,
      harness: { settings: { domain: module.name, judge: name } },
      sandbox: undefined,
      interrupted: false,
    },
    summary,
    results,
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted: false, document, headline: document.summary };
}
