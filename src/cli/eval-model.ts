/**
 * `crucible eval --model SPEC --strategy S`: samples are generated instead of read. Each
 * task is solved by the strategy within the budget (seeing only what a solver may see),
 * and each answer is then scored on what the solver never saw with the usual report
 * (model-eval-domains.ts: a function on the dataset's hidden tests, an SQL query on the
 * task's database and generated ones). An abstention scores as a failure in pass@1;
 * coverage and the error rate among answered tasks are reported beside it.
 */
import { summarize, type SampleResult } from '../bench/evaluate.js';
import { formatSamples, formatSummary } from '../bench/report.js';
import { parseBudget, type Budget } from '../core/budget.js';
import type { Store, RunUsage } from '../store/index.js';
import {
  strategyMisfit,
  solveTask,
  type Identified,
  type StrategyOptions,
  type StrategyResult,
} from '../strategies/index.js';
import { chooseSeed } from '../core/seed.js';
import type { ModelEvalFlags } from './flags.js';
import { modelEvalDomain, type ModelEvalDomain, type ScoredSuite } from './model-eval-domains.js';
import { createProgress } from './progress.js';
import { openModel, strategyOptions } from './strategy-flags.js';
import { interruptOnSigint } from './interrupt.js';
import { modelEvalDocument } from '../bench/eval-document.js';
import { writeJsonDocument } from './json-document.js';
import { datasetLabel, recorded, type CommandResult } from './recording.js';

interface TaskOutcome {
  readonly task: Identified;
  readonly result: StrategyResult;
  readonly runId?: string;
  readonly sample: SampleResult;
}

/** Small runs list every task's result before the summary. */
const TASK_LINES_UP_TO = 100;

export async function runModelEval(flags: ModelEvalFlags): Promise<void> {
  if (flags.samples) throw new Error('--samples and --model are two ways to get samples: give one of them');
  if (flags.augment)
    throw new Error(
      '--augment judges recorded samples; with --model the strategy generates its own inputs (use --oracle to let it check against the references)',
    );
  const budget = parseBudget(flags.budget);
  const options = await strategyOptions(flags);
  const seed = chooseSeed(flags.seed);
  const domain = await modelEvalDomain(flags, seed);
  const misfit = strategyMisfit(flags.strategy, domain.writes, `a ${domain.domain} dataset`);
  if (misfit) {
    await domain.close();
    throw new Error(misfit);
  }
  process.stderr.write(
    `crucible: ${flags.strategy} with ${flags.model} on ${domain.tasks.length} tasks of ${domain.dataset}, budget ${flags.budget} per task, seed ${seed} (replay with --seed ${seed} --offline)\n`,
  );
  await recorded(flags, { command: 'eval', dataset: datasetLabel(flags), judged: flags.model, seed, flags }, (store) =>
    solveAndScore(flags, { domain, budget, options, seed, store }),
  );
}

interface Generation {
  readonly domain: ModelEvalDomain;
  readonly budget: Budget;
  readonly options: StrategyOptions;
  readonly seed: number;
  /** The eval's own store: each task's solve run is recorded beside the eval's (unless --no-record). */
  readonly store: Store | undefined;
}

async function solveAndScore(
  flags: ModelEvalFlags,
  { domain, budget, options, seed, store }: Generation,
): Promise<CommandResult> {
  const model = await openModel(flags).catch(async (error) => {
    await domain.close();
    throw error;
  });
  const progress = createProgress('solve');
  const interrupt = interruptOnSigint('stopping the task in flight');
  const started = performance.now();
  const outcomes: TaskOutcome[] = [];
  const suites = new Map<string, readonly ScoredSuite[]>();
  const { tasks } = domain;
  try {
    for (const task of tasks) {
      if (interrupt.signal.aborted) break;
      const { result, runId } = await solveTask({
        subject: await domain.subject(task),
        strategy: flags.strategy,
        model,
        budget,
        seed,
        ...(store ? { store } : {}),
        options,
        signal: interrupt.signal,
        taskLabel: `${domain.dataset}:${task.id}`,
      });
      suites.set(task.id, await domain.suites(task));
      const sample =
        result.program !== undefined
          ? await domain.score(task, result.program)
          : abstainedSample(task, suites.get(task.id)!, result);
      outcomes.push({ task, result, ...(runId ? { runId } : {}), sample });
      progress.update(outcomes.length, tasks.length);
    }
  } finally {
    interrupt.dispose();
    progress.stop();
    await Promise.all([domain.close(), model.close()]);
  }
  const results = outcomes.map((o) => o.sample);
  const summary = summarize(
    outcomes.map((o) => ({ id: o.task.id, suites: suites.get(o.task.id)! })),
    results,
    (performance.now() - started) / 1000,
  );
  if (results.length <= TASK_LINES_UP_TO) process.stdout.write(formatSamples(results) + '\n\n');
  process.stdout.write(formatSummary(`${domain.dataset} (${flags.strategy}, ${model.spec})`, summary) + '\n');
  const selective = selectiveSummary(outcomes);
  process.stdout.write(formatSelective(selective) + '\n');
  const interrupted = interrupt.signal.aborted;
  if (interrupted) {
    process.exitCode = 130;
    process.stdout.write(`interrupted: ${outcomes.length} of ${tasks.length} tasks solved\n`);
  }
  const document = modelEvalDocument(
    {
      dataset: { name: domain.dataset, path: flags.dataset ?? null },
      generation: { model: model.spec, strategy: flags.strategy, budget, seed, oracle: Boolean(flags.oracle) },
      harness: domain.judge,
      sandbox: flags.sandbox,
      interrupted,
    },
    { ...summary, strategy: selective },
    outcomes.map((o) => ({
      ...o.sample,
      strategy: {
        status: o.result.status,
        reason: o.result.reason,
        attempts: o.result.attempts,
        usage: o.result.usage,
        run: o.runId ?? null,
      },
    })),
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted, document, headline: document.summary, usage: totalUsage(outcomes) };
}

/** What the strategy spent on all tasks, as the run store keeps it. */
function totalUsage(outcomes: readonly TaskOutcome[]): RunUsage {
  const sum = (of: (usage: StrategyResult['usage']) => number) => outcomes.reduce((n, o) => n + of(o.result.usage), 0);
  return {
    modelCalls: sum((u) => u.calls),
    inputTokens: sum((u) => u.inputTokens),
    outputTokens: sum((u) => u.outputTokens),
    costUsd: totalCost(outcomes),
    sandboxSeconds: sum((u) => u.sandboxSeconds),
  };
}

/** Dollars spent on all tasks; null when any task's cost is unknown. */
function totalCost(outcomes: readonly TaskOutcome[]): number | null {
  return outcomes.reduce<number | null>(
    (sum, o) => (sum === null || o.result.usage.costUsd === null ? null : sum + o.result.usage.costUsd),
    0,
  );
}

/** An abstention, scored: it fails every suite (it returned no answer). */
function abstainedSample(task: Identified, suites: readonly ScoredSuite[], result: StrategyResult): SampleResult {
  return {
    task_id: task.id,
    index: 0,
    status: 'fail',
    suites: Object.fromEntries(suites.map((s) => [s.name, { status: 'fail' as const, passed: 0, total: s.total }])),
    first_failure: { input: null, expected: null, actual: null, message: `${result.status}: ${result.reason}` },
    time_ms: 0,
    reward: 0,
  };
}

export interface SelectiveSummary {
  readonly tasks: number;
  readonly verified: number;
  readonly unverified: number;
  readonly abstained: number;
  /** Answered tasks whose program passes the hidden tests. */
  readonly answeredCorrect: number;
  /** Share of tasks answered. */
  readonly coverage: number;
  /** Among answered tasks, the share that is wrong on the hidden tests. */
  readonly errorAmongAnswered: number | null;
  readonly modelCalls: number;
  readonly tokens: number;
  readonly costUsd: number | null;
}

export function selectiveSummary(outcomes: readonly TaskOutcome[]): SelectiveSummary {
  const answered = outcomes.filter((o) => o.result.program !== undefined);
  const correct = answered.filter((o) => o.sample.status === 'pass').length;
  return {
    tasks: outcomes.length,
    verified: outcomes.filter((o) => o.result.status === 'verified').length,
    unverified: outcomes.filter((o) => o.result.status === 'unverified').length,
    abstained: outcomes.filter((o) => o.result.status === 'abstained').length,
    answeredCorrect: correct,
    coverage: outcomes.length ? answered.length / outcomes.length : 0,
    errorAmongAnswered: answered.length ? (answered.length - correct) / answered.length : null,
    modelCalls: outcomes.reduce((n, o) => n + o.result.usage.calls, 0),
    tokens: outcomes.reduce((n, o) => n + o.result.usage.tokens, 0),
    costUsd: totalCost(outcomes),
  };
}

function formatSelective(s: SelectiveSummary): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    `strategy: ${s.verified} verified, ${s.unverified} unverified, ${s.abstained} abstained of ${s.tasks} tasks (coverage ${pct(s.coverage)}; abstentions count as failures above)`,
    `answered: ${s.answeredCorrect} right on the hidden tests${s.errorAmongAnswered === null ? '' : `, error among answered ${pct(s.errorAmongAnswered)}`}`,
    `spent: ${s.modelCalls} model calls, ${s.tokens} tokens, ${s.costUsd === null ? 'cost unknown' : `$${s.costUsd.toFixed(4)}`}`,
  ].join('\n');
}
