/** Runs and traces in SQLite. */
export {
  DEFAULT_STORE_PATH,
  Store,
  UnknownRunError,
  type StoreOptions,
  type Run,
  type RunFilter,
  type RunFinish,
  type RunProgress,
  type RunStart,
  type RunUsage,
} from './store.js';
export { COMMAND_RUNS, describeResult, isCommandRun, type CommandRunName } from './command-runs.js';
export { describeEvent, formatRunList, formatRunTree } from './render.js';
