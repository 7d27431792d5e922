/** Runs and traces in SQLite. */
export {
  COMMAND_RUNS,
  DEFAULT_STORE_PATH,
  Store,
  UnknownRunError,
  type CommandRunName,
  type StoreOptions,
  type Run,
  type RunFilter,
  type RunFinish,
  type RunProgress,
  type RunStart,
  type RunUsage,
} from './store.js';
export { describeResult, isCommandRun } from './command-runs.js';
export { describeEvent, formatRunList, formatRunTree } from './render.js';
