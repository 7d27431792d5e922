/**
 * A backend makes one call to one endpoint. Everything around the call (cache, retries,
 * concurrency, accounting, n-splitting, structured-output validation) lives in `model.ts`,
 * so every backend gets it the same way.
 */
import type {
  Capabilities,
  ChatMessage,
  EndpointKind,
  JsonSchema,
  TokenLogprob,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from './types.js';

export interface BackendRequest {
  readonly messages: readonly ChatMessage[];
  /** Completions wanted from this one call (1 unless the backend has native n). */
  readonly n: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
  readonly maxTokens?: number;
  /** `json`: JSON mode; with a schema the endpoint enforces it (json_schema / grammar). */
  readonly responseFormat?: {
    readonly type: 'json';
    readonly schema?: JsonSchema;
    readonly name?: string;
    readonly description?: string;
  };
  readonly grammar?: string;
  readonly tools?: Readonly<Record<string, ToolDefinition>>;
  readonly toolChoice?: 'auto' | 'required' | 'none';
  readonly logprobs?: boolean;
  /** Stream (n must be 1). */
  readonly stream?: boolean;
}

export interface BackendCompletion {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: string;
  readonly logprobs?: readonly TokenLogprob[];
}

export interface BackendResponse {
  readonly completions: readonly BackendCompletion[];
  readonly usage: TokenUsage;
}

export interface BackendCallOptions {
  readonly signal: AbortSignal;
  readonly onText?: (delta: string) => void;
}

export interface Backend {
  readonly kind: EndpointKind;
  readonly modelId: string;
  readonly capabilities: Capabilities;
  generate(request: BackendRequest, options: BackendCallOptions): Promise<BackendResponse>;
  close(): Promise<void>;
}
