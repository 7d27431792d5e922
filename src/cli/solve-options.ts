/**
 * The options of `crucible solve` (and those `eval --model` shares). Defined apart from the
 * command's code, which loads the models, the strategies and the harness: `--help` needs none
 * of them (see shared-options.ts).
 */
import { Option, type Command } from 'commander';
import { DEFAULT_CACHE_DIR, STRATEGY_NAMES } from '../core/constants.js';
import { storeOption } from './record-options.js';
import { positiveInt, seedNumber, withHarnessOptions } from './shared-options.js';
import type { SolveFlags } from './flags.js';

export const DEFAULT_BUDGET = 'calls=20,wall=10min';

/** `oracleDefault`: solve uses a task's reference as an oracle unless told not to; eval keeps it for scoring unless told to. */
export function withStrategyOptions(command: Command, settings: { oracleDefault: boolean; seed: boolean }): Command {
  const oracleDefault = settings.oracleDefault;
  command
    .addOption(new Option('--strategy <name>', 'how to search').choices(STRATEGY_NAMES).default('repair'))
    .option(
      '--budget <limits>',
      'what the strategy may spend per task: calls, tokens, cost (USD), wall, sandbox (seconds)',
      DEFAULT_BUDGET,
    )
    .option('--offline', 'replay model replies from the cache only; a request never recorded is an error');
  if (settings.seed)
    command.option('--seed <n>', 'seed for model sampling and generated inputs (printed; replays a run)', seedNumber);
  return command
    .option('--candidates <n>', 'sample, best-of-n: programs sampled (default 4)', positiveInt)
    .option('--attempts <n>', 'repair: most attempts (default 5); formact: most review rounds (default 3)', positiveInt)
    .addOption(
      new Option(
        '--severity <level>',
        'formact: the least severe review issue that sends the document back (default error)',
      ).choices(['error', 'warning']),
    )
    .option('--templates <dir>', 'formact: a folder of HTML templates to retrieve from (default: the shipped ones)')
    .option('--rollouts <n>', 'advermcts: solver rollouts (default 16)', positiveInt)
    .option('--threshold <file>', 'best-of-n: a threshold from crucible calibrate; abstain below it')
    .option(
      '--library <file>',
      'graft: the skeleton library to patch from (default .crucible/skeletons.jsonl; crucible skeletons add fills it)',
    )
    .option('--no-model-tests', 'repair: do not ask the model for tests of its own')
    .option(
      oracleDefault ? '--no-oracle' : '--oracle',
      oracleDefault
        ? "do not use the task's reference solution as an oracle on generated inputs"
        : "use each task's reference solution as an oracle on generated inputs (it is otherwise kept for scoring only)",
    )
    .addOption(storeOption())
    .option('--cache-dir <dir>', 'model response cache', DEFAULT_CACHE_DIR)
    .option('--config <file>', 'crucible.config.json with model entries and prices');
}

export function registerSolveCommand(program: Command): void {
  withHarnessOptions(
    withStrategyOptions(
      program
        .command('solve')
        .description(
          'write a program for one task with a model, verify it on what the task shows, and return it only when verified',
        )
        .requiredOption(
          '--task <task>',
          'a task file (JSON: language, prompt, entry_point, optional tests and reference; or an SQL task line), DATASET_FILE:TASK_ID (SQL task files too), or a built-in task id',
        )
        .requiredOption(
          '--model <spec>',
          'e.g. http://127.0.0.1:8000/v1#qwen, openai:gpt-4o-mini, anthropic:claude-..., ollama:qwen2.5-coder, gguf:./model.gguf, replay:samples.jsonl?dataset=DATASET (recorded solutions), or a config name',
        )
        .option(
          '--inputs <n>',
          'generated inputs for the checks (default 50; SQL: generated databases, default 12)',
          positiveInt,
        )
        .option(
          '--json <file>',
          'write status, program, reward (gated, on the visible checks), reason, attempts and usage as JSON',
        )
        .option(
          '--html <file>',
          'write a self-contained HTML report of the run here: its prompts, replies, candidates, verdicts, feedback and decisions as a tree (crucible report --run RUN_ID makes the same)',
        )
        .option('--out <file>', 'write the program to this file (only when there is one)'),
      { oracleDefault: true, seed: true },
    ),
  ).action(async (flags: SolveFlags) => (await import('./solve-command.js')).runSolve(flags));
}
