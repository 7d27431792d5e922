/** Search under a budget: a task in, a verified program or "abstained: why" out, every step traced. */
export type {
  ResultStatus,
  Strategy,
  StrategyContext,
  StrategyOptions,
  StrategyResult,
  StrategyUsage,
  Trace,
} from './types.js';
export { STRATEGIES, STRATEGY_NAMES, isStrategyName, type StrategyName } from './registry.js';
export { solveTask, type SolveOptions, type SolveOutcome } from './run.js';
export { memoryTrace, storeTrace, type MemoryTrace } from './trace.js';
export {
  prepareCodeChecks,
  verifyProgram,
  withModelTests,
  extractProgram,
  codeOf,
  type CodeChecks,
  type CodePrepareOptions,
  type Extracted,
} from '../domains/code/index.js';
export { validateModelTests, ModelTestsSchema } from './model-tests.js';
export { dccd, CODE_JSON_GBNF, CodeSchema } from './dccd.js';
export { advermcts } from './advermcts/index.js';
