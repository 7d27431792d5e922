/**
 * `crucible eval --agent --dataset FILE --model M`: the agent on a dataset of repository tasks
 * (HumanEvalFix in Python or JavaScript, QuixBugs: src/agents/repo-tasks.ts), each a small
 * repository written to a temporary folder; a task passes when the repository's own tests
 * all pass at the end. `--model fixes` replays the dataset's fixes as the model's edits (the
 * runtime measured without a model). The report is eval's: pass@1 over the tasks' tests.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pMap from 'p-map';
import { REPLAYED_FIXES, replayedFixModel } from '../agents/replayed-fix.js';
import { readRepoTasks, writeRepo, type RepoTask } from '../agents/repo-tasks.js';
import { solveRepository, type RepositoryResult } from '../agents/solve-repository.js';
import { modelEvalDocument } from '../bench/eval-document.js';
import { summarize, type SampleResult } from '../bench/evaluate.js';
import { formatSamples, formatSummary } from '../bench/report.js';
import { parseBudget } from '../core/budget.js';
import { chooseSeed } from '../core/seed.js';
import type { Model } from '../models/index.js';
import type { RunUsage, Store } from '../store/index.js';
import type { ModelEvalFlags } from './flags.js';
import { interruptOnSigint } from './interrupt.js';
import { writeJsonDocument } from './json-document.js';
import { createProgress } from './progress.js';
import { datasetLabel, recorded, type CommandResult } from './recording.js';
import { checkNodePath } from '../runtimes/recipes.js';
import { openModel } from './strategy-flags.js';

/** A task's tests may loop (a buggy program): each test run stops after this long. */
const TEST_SECONDS = 30;
const SUITE = 'tests';

interface TaskRun {
  readonly task: RepoTask;
  readonly result: RepositoryResult;
  readonly program: string | undefined;
  readonly seconds: number;
}

export async function runAgentEval(flags: ModelEvalFlags): Promise<void> {
  if (!flags.dataset)
    throw new Error(
      'eval --agent needs --dataset: HumanEvalPack (Python or JavaScript) or QuixBugs JSONL, each task becomes a repository',
    );
  if (flags.samples) throw new Error('--samples and --agent are two ways to get answers: give one of them');
  const dataset = flags.dataset;
  const tasks = (await readRepoTasks(dataset)).slice(0, flags.limit ?? Infinity);
  const budget = parseBudget(flags.budget);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(
    `crucible: the agent with ${flags.model} on ${tasks.length} repository tasks of ${dataset}, budget ${flags.budget} per task, seed ${seed}\n`,
  );
  await recorded(flags, { command: 'eval', dataset: datasetLabel(flags), judged: flags.model, seed, flags }, (store) =>
    solveAll(flags, tasks, { budget: flags.budget, seed, store }),
  );
}

async function solveAll(
  flags: ModelEvalFlags,
  tasks: readonly RepoTask[],
  settings: { budget: string; seed: number; store: Store | undefined },
): Promise<CommandResult> {
  const replay = flags.model === REPLAYED_FIXES;
  const shared: Model | undefined = replay ? undefined : await openModel(flags);
  const budget = parseBudget(settings.budget);
  const { store } = settings;
  const progress = createProgress('agent');
  const interrupt = interruptOnSigint('finishing the tasks in flight');
  const started = performance.now();
  const runs: TaskRun[] = [];
  try {
    // Two tasks at once: each alternates between the model and the sandbox.
    await pMap(
      tasks,
      async (task) => {
        if (interrupt.signal.aborted) return;
        const model = shared ?? replayedFixModel(task);
        const dir = await mkdtemp(join(tmpdir(), 'crucible-repo-task-'));
        const t0 = performance.now();
        try {
          await writeRepo(task, dir);
          const result = await solveRepository({
            repo: dir,
            task: task.instruction,
            model,
            budget,
            testCommand: task.testCommand,
            sandbox: flags.sandbox,
            limits: { seconds: TEST_SECONDS },
            nodePath: flags.nodePath ? checkNodePath(flags.nodePath) : undefined,
            store,
            label: `${flags.dataset}:${task.id}`,
            seed: settings.seed,
            signal: interrupt.signal,
          });
          const program = await readFile(join(result.workspace.root, task.module), 'utf8').catch(() => undefined);
          await result.workspace.close();
          runs.push({ task, result, program, seconds: (performance.now() - t0) / 1000 });
          progress.update(runs.length, tasks.length);
        } finally {
          if (!shared) await model.close();
          await rm(dir, { recursive: true, force: true });
        }
      },
      { concurrency: 2 },
    );
  } finally {
    interrupt.dispose();
    progress.stop();
    await shared?.close();
  }
  // In the dataset's order (tasks finish in any order).
  const order = new Map(tasks.map((t, i) => [t.id, i]));
  runs.sort((a, b) => order.get(a.task.id)! - order.get(b.task.id)!);
  const results = runs.map(sampleOf);
  const summary = summarize(
    runs.map((r) => ({ id: r.task.id, suites: [{ name: SUITE }] })),
    results,
    (performance.now() - started) / 1000,
  );
  const title = `${flags.dataset} (agent, ${replay ? "the dataset's fixes replayed" : (shared?.spec ?? flags.model)})`;
  if (results.length <= 100) process.stdout.write(formatSamples(results) + '\n\n');
  process.stdout.write(formatSummary(title, summary) + '\n');
  const timing = agentTiming(runs);
  process.stdout.write(
    `per task: ${timing.median_seconds.toFixed(2)} s median; sandbox ${(100 * timing.sandbox_share).toFixed(0)}% of the time, the runtime (workspace, tools, model calls) the rest\n`,
  );
  const interrupted = interrupt.signal.aborted;
  if (interrupted) process.exitCode = 130;
  const document = modelEvalDocument(
    {
      dataset: { name: flags.dataset!, path: flags.dataset ?? null },
      generation: { model: replay ? REPLAYED_FIXES : shared!.spec, strategy: 'agent', budget, seed: settings.seed },
      harness: { settings: { tests: 'each repository’s own', seconds_per_test_run: TEST_SECONDS } },
      sandbox: flags.sandbox,
      interrupted,
    },
    { ...summary, strategy: { agent: timing } },
    runs.map((r, i) => ({
      ...results[i]!,
      strategy: {
        status: r.result.outcome.status,
        reason: r.result.outcome.summary,
        attempts: r.result.outcome.toolCalls,
        usage: r.result.outcome.usage,
        run: r.result.runId ?? null,
        diff: r.result.diff,
      },
    })),
  );
  await writeJsonDocument(flags.json, document);
  return { interrupted, document, headline: document.summary, usage: totalUsage(runs) };
}

function sampleOf(run: TaskRun): SampleResult {
  const after = run.result.after;
  const passed = after?.passed ?? 0;
  const total = passed + (after?.failed ?? 0);
  const status = run.result.status === 'verified' ? 'pass' : 'fail';
  return {
    task_id: run.task.id,
    index: 0,
    ...(run.program !== undefined ? { program: run.program } : {}),
    status,
    suites: { [SUITE]: { status, passed, total } },
    first_failure:
      status === 'pass'
        ? null
        : {
            input: null,
            expected: null,
            actual: null,
            message: after?.failures || `the tests do not pass (${passed} of ${total}): ${run.result.outcome.summary}`,
          },
    time_ms: Math.round(run.seconds * 1000),
    reward: total > 0 ? passed / total : 0,
  };
}

/** Time per task, and how much of it the sandbox took (tests and commands) against the runtime around it. */
function agentTiming(runs: readonly TaskRun[]) {
  const seconds = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const median = seconds.length ? seconds[Math.floor((seconds.length - 1) / 2)]! : 0;
  const total = seconds.reduce((a, b) => a + b, 0);
  const sandbox = runs.reduce((n, r) => n + r.result.outcome.usage.sandboxSeconds + r.result.testSeconds, 0);
  return {
    median_seconds: Math.round(median * 1000) / 1000,
    total_seconds: Math.round(total * 100) / 100,
    sandbox_seconds: Math.round(sandbox * 100) / 100,
    sandbox_share: total > 0 ? Math.round((sandbox / total) * 1000) / 1000 : 0,
  };
}

function totalUsage(runs: readonly TaskRun[]): RunUsage {
  const sum = (of: (r: TaskRun) => number) => runs.reduce((n, r) => n + of(r), 0);
  return {
    modelCalls: sum((r) => r.result.outcome.usage.calls),
    inputTokens: sum((r) => r.result.outcome.usage.inputTokens),
    outputTokens: sum((r) => r.result.outcome.usage.outputTokens),
    costUsd: runs.some((r) => r.result.outcome.usage.costUsd === null)
      ? null
      : sum((r) => r.result.outcome.usage.costUsd ?? 0),
    sandboxSeconds: sum((r) => r.result.outcome.usage.sandboxSeconds + r.result.testSeconds),
  };
}
