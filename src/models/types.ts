/**
 * The one contract between Crucible and a language model. Strategies depend on these
 * types only; which SDK or binding answers a request is the backend's business.
 */
import type { ZodType } from 'zod';

export const ENDPOINT_KINDS = ['openai-compatible', 'openai', 'anthropic', 'ollama', 'gguf', 'replay'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  /** An assistant turn's tool calls, sent back so the model sees what it called. */
  readonly toolCalls?: readonly ToolCall[];
  /** A tool message (`content` is the tool's result): the call it answers. */
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/** A plain JSON Schema object (draft 7 / 2020-12 subset the endpoints accept). */
export type JsonSchema = Record<string, unknown>;

/** Ask for JSON matching a schema; what comes back is validated, and repaired once if it does not match. */
export interface StructuredOutput {
  /** A zod schema, or a JSON Schema object (validated through zod's `fromJSONSchema`). */
  readonly schema: ZodType | JsonSchema;
  readonly name?: string;
  readonly description?: string;
}

export interface ToolDefinition {
  readonly description?: string;
  /** JSON Schema of the tool's arguments. */
  readonly inputSchema: JsonSchema;
}

export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  /** How many completions to return (default 1). Native `n` where the endpoint has it, else n calls with seeds seed, seed+1, … */
  readonly n?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
  readonly maxTokens?: number;
  readonly output?: StructuredOutput;
  /** A GBNF grammar (local GGUF; llama.cpp or vLLM servers when configured with `grammar`). */
  readonly grammar?: string;
  /** Tools the model may call; calls come back in `Completion.toolCalls` (never executed here). */
  readonly tools?: Readonly<Record<string, ToolDefinition>>;
  readonly toolChoice?: 'auto' | 'required' | 'none';
  /** Ask for per-token log-probabilities (where `capabilities.logprobs`). */
  readonly logprobs?: boolean;
  /** Receive text as it is generated (completion index, new text). Streams over SSE. */
  readonly onText?: (index: number, delta: string) => void;
  readonly signal?: AbortSignal;
  /** Free-form label recorded with each call (e.g. "repair#2"); not part of the cache key. */
  readonly label?: string;
}

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The parsed arguments, or the raw text when they are not JSON. */
  readonly input: unknown;
}

export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
}

export interface Completion {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** stop | length | tool-calls | content-filter | error | other */
  readonly finishReason: string;
  readonly logprobs?: readonly TokenLogprob[];
  /** With `output`: the validated value (after at most one repair). */
  readonly value?: unknown;
  /** With `output`: why no valid value was obtained (the last validation error). */
  readonly outputError?: string;
  /** With `output`: a repair request was needed for this completion. */
  readonly repaired?: boolean;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /**
   * Of inputTokens, those not computed again: read from a prompt cache (an endpoint's) or kept in
   * a local model's KV cache from the call before (a shared prefix). Absent when unknown.
   */
  readonly cachedInputTokens?: number;
}

/** One request to an endpoint (or one cache lookup): what budgets and traces count. */
export interface CallRecord {
  readonly model: string;
  readonly requestHash: string;
  readonly label?: string;
  readonly usage: TokenUsage;
  /** US dollars; null when the price of this model is unknown (add it to the price table). */
  readonly costUsd: number | null;
  readonly latencyMs: number;
  readonly cached: boolean;
  /** HTTP attempts made (1 + retries); 0 when served from the cache. */
  readonly attempts: number;
  readonly completions: number;
}

export interface GenerateResult {
  readonly completions: readonly Completion[];
  /** Every endpoint call made for this request, including structured-output repairs. */
  readonly calls: readonly CallRecord[];
  readonly usage: TokenUsage;
  readonly costUsd: number | null;
  readonly latencyMs: number;
}

export interface Capabilities {
  /** One request returns n completions (`n` in the body). */
  readonly nativeN: boolean;
  /** How structured output is obtained: the server enforces a JSON schema, a JSON mode without schema, or a grammar. */
  readonly structuredOutput: 'json-schema' | 'json-mode' | 'grammar' | 'prompt';
  /** How a GBNF grammar reaches the decoder, if at all. */
  readonly grammar: 'native' | 'llama.cpp' | 'vllm' | false;
  readonly seed: boolean;
  readonly logprobs: boolean;
  readonly tools: boolean;
  readonly streaming: boolean;
}

export interface UsageTotals {
  readonly calls: number;
  readonly cachedCalls: number;
  readonly inputTokens: number;
  /** Of inputTokens, those read from a prompt or KV cache (see TokenUsage). */
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number | null;
}

export interface Model {
  /** The spec as resolved (config names resolve to their spec). */
  readonly spec: string;
  readonly kind: EndpointKind;
  /** The model name sent to the endpoint. */
  readonly modelId: string;
  readonly capabilities: Capabilities;
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** Everything this Model instance has spent so far. */
  totals(): UsageTotals;
  /** Release sockets / native memory. */
  close(): Promise<void>;
}
