/** The options of `crucible skeletons` (the code, which loads the harness and tree-sitter, is in skeletons-command.ts). */
import type { Command } from 'commander';
import { DEFAULT_LIBRARY } from '../skeletons/paths.js';
import { storeOption } from './record-options.js';
import { positiveInt, withHarnessOptions } from './shared-options.js';
import type { SkeletonsAddFlags, SkeletonsFlags } from './flags.js';

const libraryOption = (command: Command) =>
  command.option('--library <file>', 'the skeleton library (JSON Lines)', DEFAULT_LIBRARY);

export function registerSkeletonsCommands(program: Command): void {
  const skeletons = program
    .command('skeletons')
    .description('a library of validated function skeletons, to find and reuse verified code');
  withHarnessOptions(
    libraryOption(
      skeletons
        .command('add')
        .description(
          "add verified functions: a dataset's references (each verified on its tests first), a verified solve run's program, or the functions a verified agent run changed",
        )
        .option('--dataset <file>', 'a dataset with references (HumanEval, MBPP+, MultiPL-E, …)')
        .option('--run <id>', 'a verified solve or agent run (its id, or the start of one)')
        .option('--limit <n>', 'only the first n tasks of --dataset', positiveInt)
        .addOption(storeOption()),
    ),
  ).action(async (flags: SkeletonsAddFlags) => (await import('./skeletons-command.js')).runSkeletonsAdd(flags));
  libraryOption(skeletons.command('list').description('list the skeletons')).action(async (flags: SkeletonsFlags) =>
    (await import('./skeletons-command.js')).runSkeletonsList(flags),
  );
  libraryOption(
    skeletons
      .command('search')
      .description('the skeletons closest to a text (a task prompt, a signature, words)')
      .argument('<text>', 'what to look for')
      .option('--k <n>', 'how many', positiveInt, 5)
      .option('--json', 'print the skeletons as JSON'),
  ).action(async (text: string, flags: SkeletonsFlags & { k: number; json?: boolean }) =>
    (await import('./skeletons-command.js')).runSkeletonsSearch(text, flags),
  );
}
