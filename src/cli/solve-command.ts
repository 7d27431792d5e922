/** `crucible solve`: one task, one model, one strategy, one budget → a verified program or "abstained: why". */
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { parseBudget, type Budget } from '../core/budget.js';
import { createModel, DEFAULT_CACHE_DIR } from '../models/index.js';
import { DEFAULT_STORE_PATH, Store } from '../store/index.js';
import { buildSolverView, describeChecks, solveTask, STRATEGY_NAMES, type StrategyName, type StrategyOptions, type StrategyResult } from '../strategies/index.js';
import { chooseSeed } from './augment.js';
import { readThreshold } from './select-command.js';
import { positiveInt, seedNumber, withHarnessOptions, harnessFromFlags, type HarnessFlags } from './shared-options.js';
import { readTaskSource } from './task-source.js';

export const DEFAULT_BUDGET = 'calls=20,wall=10min';

export interface SolveFlags extends HarnessFlags, StrategyFlags {
  readonly task: string;
  readonly json?: string;
  readonly out?: string;
  readonly inputs?: number;
}

/** Flags shared by `solve` and `eval --model`. */
export interface StrategyFlags {
  readonly model: string;
  readonly strategy: StrategyName;
  readonly budget: string;
  readonly offline?: boolean;
  readonly seed?: number;
  readonly candidates?: number;
  readonly attempts?: number;
  readonly rollouts?: number;
  readonly threshold?: string;
  readonly modelTests?: boolean;
  readonly oracle?: boolean;
  readonly db: string;
  readonly cacheDir: string;
  readonly config?: string;
}

/** `oracleDefault`: solve uses a task's reference as an oracle unless told not to; eval keeps it for scoring unless told to. */
export function withStrategyOptions(command: Command, settings: { oracleDefault: boolean; seed: boolean }): Command {
  const oracleDefault = settings.oracleDefault;
  command
    .addOption(new Option('--strategy <name>', 'how to search').choices(STRATEGY_NAMES).default('repair'))
    .option('--budget <limits>', 'what the strategy may spend per task: calls, tokens, cost (USD), wall, sandbox (seconds)', DEFAULT_BUDGET)
    .option('--offline', 'replay model replies from the cache only; a request never recorded is an error');
  if (settings.seed) command.option('--seed <n>', 'seed for model sampling and generated inputs (printed; replays a run)', seedNumber);
  return command
    .option('--candidates <n>', 'sample, best-of-n: programs sampled (default 4)', positiveInt)
    .option('--attempts <n>', 'repair: most attempts (default 5)', positiveInt)
    .option('--rollouts <n>', 'advermcts: solver rollouts (default 16)', positiveInt)
    .option('--threshold <file>', 'best-of-n: a threshold from crucible calibrate; abstain below it')
    .option('--no-model-tests', 'repair: do not ask the model for tests of its own')
    .option(oracleDefault ? '--no-oracle' : '--oracle', oracleDefault ? "do not use the task's reference solution as an oracle on generated inputs" : "use each task's reference solution as an oracle on generated inputs (it is otherwise kept for scoring only)")
    .option('--db <file>', 'the run store', DEFAULT_STORE_PATH)
    .option('--cache-dir <dir>', 'model response cache', DEFAULT_CACHE_DIR)
    .option('--config <file>', 'crucible.config.json with model entries and prices');
}

export async function strategyOptions(flags: StrategyFlags): Promise<StrategyOptions> {
  return {
    ...(flags.candidates ? { samples: flags.candidates } : {}),
    ...(flags.attempts ? { attempts: flags.attempts } : {}),
    ...(flags.rollouts ? { rollouts: flags.rollouts } : {}),
    ...(flags.modelTests === false ? { modelTests: false } : {}),
    ...(flags.threshold ? { threshold: await readThreshold(flags.threshold) } : {}),
  };
}

export function openModel(flags: StrategyFlags) {
  return createModel(flags.model, { cache: flags.offline ? 'offline' : 'read-write', cacheDir: flags.cacheDir, ...(flags.config ? { configPath: flags.config } : {}) });
}

export function parseBudgetFlag(text: string): Budget {
  return parseBudget(text);
}

export async function runSolve(flags: SolveFlags): Promise<void> {
  const budget = parseBudgetFlag(flags.budget);
  const source = await readTaskSource(flags.task);
  const options = await strategyOptions(flags);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(`crucible: ${flags.strategy} on ${source.task.id} with ${flags.model}, seed ${seed} (replay with --seed ${seed}${flags.offline ? '' : ' --offline'})\n`);
  const model = await openModel(flags);
  const harness = harnessFromFlags(flags);
  const store = new Store(flags.db);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  try {
    const view = await buildSolverView(harness, source.task, {
      seed,
      ...(flags.oracle === false ? { oracle: false } : {}),
      examples: source.examples,
      publicTests: source.publicTests,
      ...(flags.inputs ? { inputs: flags.inputs } : {}),
    });
    process.stderr.write(`crucible: checks: ${describeChecks(view)}\n`);
    const { result, runId } = await solveTask({ task: source.task, strategy: flags.strategy, model, harness, budget, seed, store, options, view, signal: interrupt.signal, taskLabel: source.label });
    process.stdout.write(formatResult(result, runId) + '\n');
    if (flags.out && result.program !== undefined) await writeFile(flags.out, result.program);
    if (flags.json) {
      const document = { status: result.status, program: result.program ?? null, reason: result.reason, attempts: result.attempts, usage: result.usage, run: runId ?? null, task: source.label, strategy: flags.strategy, model: model.spec, seed };
      await writeFile(flags.json, JSON.stringify(document, null, 1) + '\n');
    }
    if (result.status !== 'verified') process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSigint);
    store.close();
    await Promise.all([harness.close(), model.close()]);
  }
}

export function formatResult(result: StrategyResult, runId: string | undefined): string {
  const lines: string[] = [];
  if (result.program !== undefined) lines.push(result.program.trimEnd(), '');
  lines.push(result.status === 'abstained' ? `abstained: ${result.reason}` : `${result.status}: ${result.reason}`);
  lines.push(`cost: ${formatUsage(result)}${runId ? ` · run ${runId} (crucible show ${runId})` : ''}`);
  return lines.join('\n');
}

export function formatUsage(result: Pick<StrategyResult, 'usage' | 'attempts'>): string {
  const u = result.usage;
  const dollars = u.costUsd === null ? 'cost unknown' : `$${u.costUsd.toFixed(4)}`;
  return `${u.calls} model call${u.calls === 1 ? '' : 's'}${u.cachedCalls ? ` (${u.cachedCalls} from the cache)` : ''}, ${u.tokens} tokens (${u.inputTokens} in, ${u.outputTokens} out), ${dollars}; ${result.attempts} program${result.attempts === 1 ? '' : 's'} judged; ${u.wallSeconds.toFixed(1)} s wall, ${u.sandboxSeconds.toFixed(1)} s sandbox`;
}

export function registerSolveCommand(program: Command): void {
  withHarnessOptions(
    withStrategyOptions(
      program
        .command('solve')
        .description('write a program for one task with a model, verify it on what the task shows, and return it only when verified')
        .requiredOption('--task <task>', 'a task file (JSON: language, prompt, entry_point, optional tests and reference), DATASET_FILE:TASK_ID, or a built-in task id')
        .requiredOption('--model <spec>', 'e.g. http://127.0.0.1:8000/v1#qwen, openai:gpt-4o-mini, anthropic:claude-..., ollama:qwen2.5-coder, gguf:./model.gguf, replay:samples.jsonl?dataset=DATASET (recorded solutions), or a config name')
        .option('--inputs <n>', 'generated inputs for the checks (default 50)', positiveInt)
        .option('--json <file>', 'write status, program, reason, attempts and usage as JSON')
        .option('--out <file>', 'write the program to this file (only when there is one)'),
      { oracleDefault: true, seed: true },
    ),
  ).action(runSolve);
}
