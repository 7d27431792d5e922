/**
 * The options of `crucible agent`. Defined apart from the command's code (agent-command.ts,
 * which loads the models, the sandbox and tree-sitter): `--help` needs none of them.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { DEFAULT_CACHE_DIR } from '../core/constants.js';
import { storeOption } from './record-options.js';
import { positiveInt, seedNumber } from './shared-options.js';
import type { AgentFlags } from './flags.js';

export const DEFAULT_AGENT_BUDGET = 'calls=40,wall=20min';

export function registerAgentCommand(program: Command): void {
  program
    .command('agent')
    .description(
      'work on a repository with a model: read, search and edit its files and run its tests in a sandbox, on a copy; print the diff and the tests before and after (--apply writes the diff into the folder)',
    )
    .requiredOption('--repo <dir>', 'the repository (it is copied; the folder itself changes only with --apply)')
    .option('--task <text>', 'what to do')
    .option('--issue <file>', 'what to do, from a file (an issue text)')
    .requiredOption(
      '--model <spec>',
      'e.g. http://127.0.0.1:8000/v1#qwen, openai:gpt-4o-mini, anthropic:claude-..., ollama:qwen2.5-coder, gguf:./model.gguf, or a config name',
    )
    .option(
      '--test <command>',
      "the repository's test command (default: what it shows: npm test, unittest with test_*.py files, node --test with *.test.js)",
    )
    .option(
      '--budget <limits>',
      'what the agent may spend: calls, tokens, cost (USD), wall, sandbox (seconds)',
      DEFAULT_AGENT_BUDGET,
    )
    .option('--turns <n>', 'most model turns', positiveInt, 40)
    .option('--apply', 'write the changes into --repo at the end (after printing them)')
    .option('--json <file>', 'write status, diff, the tests before and after, and the run id as JSON')
    .option('--seed <n>', 'seed for model sampling (printed; replays a run with --offline)', seedNumber)
    .option('--offline', 'replay model replies from the cache only; a request never recorded is an error')
    .addOption(
      new Option('--sandbox <mode>', 'isolation for the commands it runs').choices(['bwrap', 'none']).default('bwrap'),
    )
    .option(
      '--node-path <dir>',
      'a node_modules folder whose packages the repository may require when its tests run (read-only; repeatable)',
      (dir: string, dirs: string[] = []) => [...dirs, dir],
    )
    .addOption(storeOption())
    .option('--cache-dir <dir>', 'model response cache', DEFAULT_CACHE_DIR)
    .option('--config <file>', 'crucible.config.json with model entries and prices')
    .action(async (flags: AgentFlags) => (await import('./agent-command.js')).runAgentCommand(flags));
}
