/** Crucible's library surface: everything the `crucible` command does, as functions. */
export type { Candidate, IoSuite, KnownWrong, Language, Property, ScriptSuite, Suite, Task } from './core/task.js';
export { LANGUAGES } from './core/task.js';
export type { Failure, Status, SuiteVerdict, Verdict } from './core/verdict.js';
export { STATUSES, combineStatuses } from './core/verdict.js';

export { Harness, type HarnessOptions } from './domains/code/harness.js';
export { DEFAULT_TIME_POLICY, type TimePolicy } from './domains/code/time-limits.js';

export type { Limits, RunRequest, RunResult, Runtime } from './runtimes/runtime.js';
export { DEFAULT_LIMITS } from './runtimes/runtime.js';
export { createPythonRuntime } from './runtimes/python-runtime.js';
export { createJavaScriptRuntime, createTypeScriptRuntime } from './runtimes/javascript-runtime.js';
export { typeCheck } from './runtimes/typescript.js';

export { loadDataset, type Dataset, type DatasetFormat } from './datasets/index.js';
export { loadLabelledSamples, loadSamples } from './datasets/samples.js';
export { evaluateCandidates, summarize, type SampleResult, type Summary } from './bench/evaluate.js';
export { auditDataset, type AuditReport } from './bench/audit.js';
export { compareWithLabels, type Agreement } from './bench/labels.js';
export { meanPassAtK, passAtK, reportableKs } from './bench/pass-at-k.js';
export { builtinDataset, builtinSamples } from './bench/builtin/index.js';

export * as rl from './rl/index.js';

export {
  inputSpace,
  generateInputs,
  signatureOf,
  type InputSpace,
  type GeneratedInputs,
} from './domains/code/generate/inputs.js';
export { findPromptExamples, publicSuites } from './domains/code/generate/examples.js';
export {
  augmentTask,
  minimalCounterexample,
  GENERATED_SUITE,
  type Augmentation,
  type Counterexample,
} from './domains/code/differential.js';
export {
  checkProperties,
  shrinkPropertyViolation,
  soundProperties,
  PROPERTIES_SUITE,
} from './domains/code/properties.js';
export { shrinkFailingInput } from './domains/code/shrink.js';
export { observe, type Observation } from './domains/code/probe.js';
export { selectForTask, CONFIDENCE_SCORE, type TaskSelection, type CandidateScore } from './select/select.js';
export { selectAll, calibrate, type TaskDecision, type SelectSummary } from './select/run.js';
export { calibrateThreshold, decide, ThresholdSchema, type Threshold } from './select/abstain.js';
export { lowerBound, upperBound } from './select/clopper-pearson.js';

export { ProgramRunner, type ProgramPoolOptions } from './runtimes/program-pool.js';
export {
  DEFAULT_PROGRAM_LIMITS,
  type ProgramLimits,
  type ProgramRequest,
  type ProgramResult,
  type ProgramStatus,
} from './runtimes/program-worker.js';
export { createApp, type AppOptions } from './server/app.js';
export { startServer, type RunningServer, type ServeOptions } from './server/serve.js';
export type { Executor, ProgramJob } from './runtimes/executor.js';
export { LocalExecutor } from './server/executor.js';
export { Metrics } from './server/metrics.js';

export * as models from './models/index.js';
export { createModel, type Model, type GenerateRequest, type GenerateResult, type Completion } from './models/index.js';
export { Store, formatRunTree, formatRunList, type Run } from './store/index.js';
export {
  TRACE_EVENT_KINDS,
  RUN_STATUSES,
  type TraceEvent,
  type NewTraceEvent,
  type TraceEventKind,
  type RunStatus,
} from './core/trace.js';
export { BudgetTracker, parseBudget, budgetSchema, type Budget, type BudgetUsage } from './core/budget.js';
export * as strategies from './strategies/index.js';
export { solveTask, STRATEGIES, type Strategy, type StrategyResult } from './strategies/index.js';
export { renderFeedback, pickMinimal, type FailureFact } from './feedback/index.js';
export { TaskVerifier } from './server/verify-task.js';
export * as domains from './domains/index.js';
