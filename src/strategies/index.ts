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
export {
  ANY_DOMAIN_STRATEGIES,
  STRATEGIES,
  strategiesFor,
  strategyMisfit,
  STRATEGY_NAMES,
  isStrategyName,
  type StrategyName,
} from './registry.js';
export { solveTask, type SolveOptions, type SolveOutcome, type SolveTarget } from './run.js';
export { codeOnly, codeSubject, isCodeSubject, type CodeSubject, type Identified, type Subject } from './subject.js';
export { memoryTrace, storeTrace, type MemoryTrace } from '../store/trace.js';
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
