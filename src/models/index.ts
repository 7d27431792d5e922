/** Language models: one `Model` interface over AI SDK providers and local GGUF files. */
export type {
  Capabilities,
  CallRecord,
  ChatMessage,
  Completion,
  EndpointKind,
  GenerateRequest,
  GenerateResult,
  JsonSchema,
  Model,
  StructuredOutput,
  TokenLogprob,
  TokenUsage,
  ToolCall,
  ToolDefinition,
  UsageTotals,
} from './types.js';
export { ENDPOINT_KINDS } from './types.js';
export { createModel, modelFromBackend, type ModelOptions } from './model.js';
export type { Backend, BackendRequest, BackendResponse, BackendCompletion, BackendCallOptions } from './backend.js';
export { resolveModel, type ResolvedModel } from './resolve.js';
export { parseSpec, SPEC_FORMS, type ParsedSpec } from './spec.js';
export {
  loadConfig,
  CONFIG_FILE,
  crucibleConfigSchema,
  type CrucibleConfig,
  type ModelEntry,
  type Price,
} from './config.js';
export { CAPABILITY_TABLE, capabilitiesFor, formatCapabilityTable } from './capabilities.js';
export { PriceTable, BUILTIN_PRICES } from './prices.js';
export { CACHE_MODES, DEFAULT_CACHE_DIR, type CacheMode } from './cache.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export {
  CacheMissError,
  LocalRuntimeMissingError,
  MissingApiKeyError,
  ModelCallError,
  ModelConfigError,
  ModelTimeoutError,
  UnreadableReplyError,
} from './errors.js';
export { createValidator, parseJsonReply, type OutputValidator } from './structured.js';
export { promptEventData, responseEventData } from './trace-data.js';
export {
  createReplayBackend,
  estimateTokens,
  fencedReply,
  loadReplayRecording,
  parseReplaySource,
  PromptIndex,
  ReplayBackend,
  type ReplayRecording,
  type ReplaySource,
} from './replay.js';
