/** `crucible runs` (list the recorded runs) and `crucible show RUN` (one run as a tree). */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Store as StoreClass } from '../store/index.js';
import { storeOption } from './record-options.js';
import { positiveInt } from './shared-options.js';

interface StoreFlags {
  readonly db: string;
  readonly json?: boolean;
}

/** Loaded when a command reads the store, not with the command line: `--help` and the other commands need no SQLite. */
const loadStore = () => import('../store/index.js');

/** Reading must not create an empty database as a side effect. */
function openExisting(Store: typeof StoreClass, path: string): StoreClass | undefined {
  return existsSync(path) ? new Store(path) : undefined;
}

export async function runRuns(flags: StoreFlags & { readonly limit: number }): Promise<void> {
  const { Store, formatRunList } = await loadStore();
  const store = openExisting(Store, flags.db);
  const runs = store ? store.listRuns({ limit: flags.limit }) : [];
  store?.close();
  process.stdout.write((flags.json ? JSON.stringify(runs, null, 1) : formatRunList(runs)) + '\n');
}

export async function runShow(id: string, flags: StoreFlags): Promise<void> {
  const { Store, formatRunTree } = await loadStore();
  const store = openExisting(Store, flags.db);
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
    .addOption(storeOption())
    .option('--limit <n>', 'how many runs', positiveInt, 50)
    .option('--json', 'print the runs as JSON')
    .action(runRuns);
  program
    .command('show')
    .description(
      'print one run as a tree of its events (prompts, responses, candidates, verdicts, feedback, decisions)',
    )
    .argument('<run>', 'a run id, or the start of one')
    .addOption(storeOption())
    .option('--json', 'print the run and its events as JSON')
    .action(runShow);
}
