/** `crucible runs` (list the recorded runs) and `crucible show RUN` (one run as a tree). */
import type { Command } from 'commander';
import { DEFAULT_STORE_PATH, Store, formatRunList, formatRunTree } from '../store/index.js';
import { existsSync } from 'node:fs';
import { positiveInt } from './shared-options.js';

interface StoreFlags {
  readonly db: string;
  readonly json?: boolean;
}

function openExisting(path: string): Store | undefined {
  // Reading must not create an empty database as a side effect.
  return existsSync(path) ? new Store(path) : undefined;
}

export function runRuns(flags: StoreFlags & { readonly limit: number }): void {
  const store = openExisting(flags.db);
  const runs = store ? store.listRuns({ limit: flags.limit }) : [];
  store?.close();
  process.stdout.write((flags.json ? JSON.stringify(runs, null, 1) : formatRunList(runs)) + '\n');
}

export function runShow(id: string, flags: StoreFlags): void {
  const store = openExisting(flags.db);
  if (!store) throw new Error(`no runs recorded yet (${flags.db} does not exist)`);
  try {
    const found = store.getRun(id);
    if (!found) throw new Error(`no run "${id}" in ${flags.db}; \`crucible runs\` lists them`);
    process.stdout.write((flags.json ? JSON.stringify(found, null, 1) : formatRunTree(found.run, found.events)) + '\n');
  } finally {
    store.close();
  }
}

export function registerRunsCommands(program: Command): void {
  program
    .command('runs')
    .description('list recorded runs, newest first')
    .option('--db <file>', 'the run store', DEFAULT_STORE_PATH)
    .option('--limit <n>', 'how many runs', positiveInt, 50)
    .option('--json', 'print the runs as JSON')
    .action(runRuns);
  program
    .command('show')
    .description('print one run as a tree of its events (prompts, responses, candidates, verdicts, feedback, decisions)')
    .argument('<run>', 'a run id, or the start of one')
    .option('--db <file>', 'the run store', DEFAULT_STORE_PATH)
    .option('--json', 'print the run and its events as JSON')
    .action(runShow);
}
