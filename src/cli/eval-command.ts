import { reportNoVerdicts } from './no-verdict.js';
import { writeFile } from 'node:fs/promises';
import { evaluateCandidates, summarize, type SampleResult } from '../bench/evaluate.js';
import { compareWithLabels, formatAgreement, type Label } from '../bench/labels.js';
import { formatFirstFailures, formatSamples, formatSummary } from '../bench/report.js';
import type { Candidate } from '../core/task.js';
import { augmentTasks, type AugmentFlags } from './augment.js';
import { runModelEval, type ModelEvalFlags } from './eval-model.js';
import { readInputs, type InputFlags, type Inputs } from './inputs.js';
import { createProgress } from './progress.js';
import { harnessFromFlags, type HarnessFlags } from './shared-options.js';
import { interruptOnSigint } from './interrupt.js';

export interface EvalFlags extends HarnessFlags, InputFlags, AugmentFlags {
  readonly json?: string;
  readonly disagreements?: string;
}

/** Small runs list every sample's verdict before the summary. */
const SAMPLE_LINES_UP_TO = 100;
/** Longer runs list this many samples of each status other than pass. */
const FAILURES_PER_STATUS = 3;

export async function runEval(flags: EvalFlags): Promise<void> {
  // With --model, a strategy generates the samples (eval-model.ts).
  if ('model' in flags && flags.model) return runModelEval(flags as ModelEvalFlags);
  const inputs = await readInputs(flags);
  const harness = harnessFromFlags(flags);
  // Inputs are generated only for the tasks that have samples (a few samples of a large dataset).
  const sampled = new Set(inputs.candidates.map((c) => c.taskId));
  const augmentation = flags.augment ? await augmentTasks(harness, inputs.tasks.filter((t) => sampled.has(t.id)), flags) : undefined;
  const augmented = new Map((augmentation?.tasks ?? []).map((task) => [task.id, task]));
  const tasks = new Map(inputs.tasks.map((task) => [task.id, augmented.get(task.id) ?? task]));
  const progress = createProgress('eval');
  const started = performance.now();
  // Ctrl-C once: stop starting samples, finish the running ones, report what was judged.
  const interrupt = interruptOnSigint('finishing the samples in flight');
  let results: SampleResult[];
  try {
    results = await evaluateCandidates(harness, tasks, inputs.candidates, {
      concurrency: 4 * harness.workerCount,
      onResult: (_, done, total) => progress.update(done, total),
      signal: interrupt.signal,
    });
    if (augmentation) results = await augmentation.explain(results, inputs.candidates);
  } finally {
    interrupt.dispose();
    progress.stop();
    await harness.close();
  }
  const interrupted = interrupt.signal.aborted;
  if (interrupted) process.exitCode = 130;
  const summary = summarize([...tasks.values()], results, (performance.now() - started) / 1000);
  if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  else if (results.some((r) => r.status !== 'pass')) process.stdout.write(formatFirstFailures(results, FAILURES_PER_STATUS) + '\n\n');
  process.stdout.write(formatSummary(inputs.name, summary) + '\n');
  if (augmentation) process.stdout.write(augmentation.footer() + '\n');
  if (interrupted) process.stdout.write(`interrupted: ${results.length} of ${inputs.candidates.length} samples judged\n`);
  reportNoVerdicts(summary.status_counts['no-verdict'], results.find((r) => r.status === 'no-verdict')?.first_failure?.message);
  let agreement: ReturnType<typeof compareWithLabels> | undefined;
  if (inputs.labels) {
    const judged = judgedOnly(inputs, results);
    agreement = compareWithLabels(judged.candidates, judged.labels!, results);
    const file = flags.disagreements ?? (flags.json ? flags.json.replace(/\.json$/, '') + '.disagreements.jsonl' : 'crucible-disagreements.jsonl');
    // A file asked for is always written; the default one only when there is something in it.
    const write = agreement.disagreements.length > 0 || flags.disagreements !== undefined || flags.json !== undefined;
    if (write) await writeFile(file, agreement.disagreements.map((d) => JSON.stringify(d)).join('\n') + (agreement.disagreements.length ? '\n' : ''));
    process.stdout.write('\n' + formatAgreement(agreement, write ? file : undefined) + '\n');
  }
  if (flags.json) {
    const document = {
      crucible: '0.1.0',
      created: new Date().toISOString(),
      dataset: { name: inputs.name, path: flags.dataset ?? null },
      samples_path: flags.samples ?? null,
      settings: { workers: harness.workerCount, sandbox: flags.sandbox, limits: harness.limits, time: harness.time },
      ...(augmentation ? { augment: augmentation.report } : {}),
      summary: {
        ...summary,
        ...(interrupted ? { interrupted: true } : {}),
        ...(agreement ? { labels: { compared: agreement.compared, agreement: agreement.rate, disagreements: agreement.disagreements.length } } : {}),
      },
      samples: results,
    };
    await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    process.stdout.write(`\nresults written to ${flags.json}\n`);
  }
}

/** The candidates (and labels) that have a result, in the results' order. */
function judgedOnly(inputs: Inputs, results: readonly SampleResult[]): { candidates: Candidate[]; labels?: Label[] } {
  if (results.length === inputs.candidates.length) return { candidates: [...inputs.candidates], ...(inputs.labels ? { labels: [...inputs.labels] } : {}) };
  const position = new Map(inputs.candidates.map((c, i) => [`${c.taskId}\u0000${c.index}`, i]));
  const kept = results.map((r) => position.get(`${r.task_id}\u0000${r.index}`)!);
  return {
    candidates: kept.map((i) => inputs.candidates[i]!),
    ...(inputs.labels ? { labels: kept.map((i) => inputs.labels![i]!) } : {}),
  };
}
