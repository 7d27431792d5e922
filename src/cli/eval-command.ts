import { reportNoVerdicts } from './no-verdict.js';
import { writeFile } from 'node:fs/promises';
import { evalDocument } from '../bench/eval-document.js';
import { settleDisputedInputs } from '../bench/disputes.js';
import { evaluateCandidates, summarize, type SampleResult } from '../bench/evaluate.js';
import { compareWithLabels, formatAgreement, type Label } from '../bench/labels.js';
import { formatFirstFailures, formatSamples, formatSummary } from '../bench/report.js';
import type { Candidate } from '../core/task.js';
import { evalChecks } from './augment.js';
import type { DisputedInput } from '../domains/code/disputed-inputs.js';
import type { ModelEvalFlags } from './flags.js';
import { readInputs, type Inputs } from './inputs.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import { datasetLabel, judgedLabel, recorded, type CommandResult } from './recording.js';
import { harnessFromFlags } from './harness-from-flags.js';
import { interruptOnSigint } from './interrupt.js';
import type { EvalFlags } from './flags.js';

/** Small runs list every sample's verdict before the summary. */
const SAMPLE_LINES_UP_TO = 100;
/** Longer runs list this many samples of each status other than pass. */
const FAILURES_PER_STATUS = 3;

export async function runEval(flags: EvalFlags): Promise<void> {
  // With --model, a strategy generates the samples (eval-model.ts).
  if ((flags as ModelEvalFlags).agent) {
    if (!('model' in flags && flags.model))
      throw new Error("--agent needs --model (a model, or `fixes` to replay the dataset's own fixes)");
    return (await import('./eval-agent.js')).runAgentEval(flags as ModelEvalFlags);
  }
  if ('model' in flags && flags.model) return (await import('./eval-model.js')).runModelEval(flags as ModelEvalFlags);
  // A task file of a pack (domains/registry.ts) is judged by the pack; any other dataset holds functions.
  const { dataset } = flags;
  const registry = await import('../domains/registry.js');
  const module = dataset === undefined ? undefined : registry.packOfTaskFile(dataset, await registry.installedPacks());
  if (module) {
    const { judgePackSamples } = await import('./eval-pack.js');
    return recorded(flags, { command: 'eval', dataset: datasetLabel(flags), judged: judgedLabel(flags), flags }, () =>
      judgePackSamples(module, { ...flags, dataset: dataset! }),
    );
  }
  const inputs = await readInputs(flags);
  await recorded(flags, { command: 'eval', dataset: datasetLabel(flags), judged: judgedLabel(flags), flags }, () =>
    judgeSamples(flags, inputs),
  );
}

async function judgeSamples(flags: EvalFlags, inputs: Inputs): Promise<CommandResult> {
  const harness = harnessFromFlags(flags);
  // Inputs are generated only for the tasks that have samples (a few samples of a large dataset).
  const sampled = new Set(inputs.candidates.map((c) => c.taskId));
  const { checks, augment } = await evalChecks(harness, inputs.tasks, sampled, flags);
  const progress = createProgress('eval');
  const started = performance.now();
  // Ctrl-C once: stop starting samples, finish the running ones, report what was judged.
  const interrupt = interruptOnSigint('finishing the samples in flight');
  let results: SampleResult[];
  let disputed = new Map<string, DisputedInput[]>();
  try {
    results = await evaluateCandidates(harness, checks, inputs.candidates, {
      concurrency: 4 * harness.workerCount,
      onResult: (_, done, total) => progress.update(done, total),
      signal: interrupt.signal,
      shrink: augment !== undefined,
    });
    // Degenerate generated inputs most samples answer otherwise than the reference: set aside where the reference
    // treats the corner like any other input, reported either way.
    if (augment && !interrupt.signal.aborted)
      ({ results, disputed } = await settleDisputedInputs(harness, checks, inputs.candidates, results, {
        shrink: true,
      }));
  } finally {
    interrupt.dispose();
    progress.stop();
    await harness.close();
  }
  const interrupted = interrupt.signal.aborted;
  if (interrupted) process.exitCode = 130;
  const summary = summarize(
    [...checks.values()].map((c) => c.task),
    results,
    (performance.now() - started) / 1000,
  );
  if (results.length <= SAMPLE_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  else if (results.some((r) => r.status !== 'pass'))
    process.stdout.write(formatFirstFailures(results, FAILURES_PER_STATUS) + '\n\n');
  process.stdout.write(formatSummary(inputs.name, summary) + '\n');
  if (augment) process.stdout.write(augment.footer + disputedFooter(disputed) + '\n');
  if (interrupted)
    process.stdout.write(`interrupted: ${results.length} of ${inputs.candidates.length} samples judged\n`);
  reportNoVerdicts(
    summary.status_counts['no-verdict'],
    results.find((r) => r.status === 'no-verdict')?.first_failure?.message,
  );
  let agreement: ReturnType<typeof compareWithLabels> | undefined;
  if (inputs.labels) {
    const judged = judgedOnly(inputs, results);
    agreement = compareWithLabels(judged.candidates, judged.labels!, results);
    const file =
      flags.disagreements ??
      (flags.json ? flags.json.replace(/\.json$/, '') + '.disagreements.jsonl' : 'crucible-disagreements.jsonl');
    // A file asked for is always written; the default one only when there is something in it.
    const write = agreement.disagreements.length > 0 || flags.disagreements !== undefined || flags.json !== undefined;
    if (write)
      await writeFile(
        file,
        agreement.disagreements.map((d) => JSON.stringify(d)).join('\n') + (agreement.disagreements.length ? '\n' : ''),
      );
    process.stdout.write('\n' + formatAgreement(agreement, write ? file : undefined) + '\n');
  }
  const document = evalDocument(
    {
      dataset: { name: inputs.name, path: flags.dataset ?? null },
      samplesPath: flags.samples ?? null,
      harness,
      sandbox: flags.sandbox,
      interrupted,
      ...(augment ? { augment: { ...augment.report, disputed: Object.fromEntries(disputed) } } : {}),
      ...(agreement
        ? {
            labels: {
              compared: agreement.compared,
              agreement: agreement.rate,
              disagreements: agreement.disagreements.length,
            },
          }
        : {}),
    },
    summary,
    results,
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted, document, headline: document.summary };
}

/** The candidates (and labels) that have a result, in the results' order. */
function judgedOnly(inputs: Inputs, results: readonly SampleResult[]): { candidates: Candidate[]; labels?: Label[] } {
  if (results.length === inputs.candidates.length)
    return { candidates: [...inputs.candidates], ...(inputs.labels ? { labels: [...inputs.labels] } : {}) };
  const position = new Map(inputs.candidates.map((c, i) => [`${c.taskId}\u0000${c.index}`, i]));
  const kept = results.map((r) => position.get(`${r.task_id}\u0000${r.index}`)!);
  return {
    candidates: kept.map((i) => inputs.candidates[i]!),
    ...(inputs.labels ? { labels: kept.map((i) => inputs.labels![i]!) } : {}),
  };
}

/** The footer's line on disputed inputs (none: nothing). */
function disputedFooter(disputed: ReadonlyMap<string, readonly DisputedInput[]>): string {
  const all = [...disputed.values()].flat();
  if (all.length === 0) return '';
  const first = all.find((d) => d.setAside) ?? all[0]!;
  const aside = all.filter((d) => d.setAside).length;
  return (
    `\n  disputed: ${all.length} generated input${all.length === 1 ? '' : 's'} over ${disputed.size} task${disputed.size === 1 ? '' : 's'} ` +
    `where most samples that pass the given tests answer an empty, one-element or zero input otherwise than the reference ` +
    `(e.g. ${cut(first.input)}: the reference ${cut(first.reference)}, ${first.agreeing} of ${first.of} samples ${cut(first.samples)}); ` +
    `${aside} set aside, where the reference treats the corner as any other input; ${all.length - aside} held against the samples, ` +
    `where its code or its answers elsewhere single the corner out (why: JSON augment.disputed, the report)`
  );
}

const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
