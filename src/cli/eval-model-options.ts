/** Options only: eval-model.ts has the code, which `eval --help` must not load (see shared-options.ts). */
import type { Command } from 'commander';
import { positiveInt } from './shared-options.js';
import { withStrategyOptions } from './solve-options.js';

/** The options `eval` takes for generating with a model (added to the eval command). */
export function withModelEvalOptions(command: Command): Command {
  return withStrategyOptions(
    command
      .option(
        '--model <spec>',
        'generate the samples: solve each task with this model and --strategy (instead of --samples)',
      )
      .option('--limit <n>', 'only the first n tasks (with --samples: the first n that have samples)', positiveInt)
      .option(
        '--agent',
        "with --model: each task (HumanEvalPack's buggy solutions, QuixBugs) is a small repository the agent fixes; it passes when the repository's tests pass (--model fixes replays the dataset's own fixes)",
      ),
    { oracleDefault: false, seed: false },
  );
}
