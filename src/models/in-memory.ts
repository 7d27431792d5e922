/**
 * An in-memory model backend: scripted replies, no HTTP. It plugs in below the Model layer
 * (`modelFromBackend`), so the Model's own logic — retries, the response cache, timeouts,
 * cancellation, n-splitting, structured-output validation and repair, usage and cost —
 * runs exactly as it does over a real endpoint.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError } from 'ai';
import type { Backend, BackendCallOptions, BackendCompletion, BackendRequest, BackendResponse } from './backend.js';
import { CAPABILITY_TABLE } from './capabilities.js';
import { modelFromBackend, type ModelOptions } from './model.js';
import type { ResolvedModel } from './resolve.js';
import type { Capabilities, EndpointKind, Model, TokenLogprob } from './types.js';

/** One completion as the script gives it. */
export interface ScriptedCompletion {
  readonly text?: string;
  /** Tool calls, returned (never executed) in `Completion.toolCalls`. */
  readonly toolCalls?: ReadonlyArray<{ readonly name: string; readonly input: unknown; readonly id?: string }>;
  /** Default `tool-calls` when there are tool calls and no text, else `stop`. */
  readonly finishReason?: string;
  /** Default: about 4 characters per token, of the prompt and of the text. */
  readonly usage?: { readonly input?: number; readonly output?: number };
  /** Default, when the request asks for them: one "token" per 4 characters, each with a negative log-probability. */
  readonly logprobs?: readonly TokenLogprob[];
  /** Wait this long before answering (honours the Model's timeout and the caller's signal). */
  readonly delayMs?: number;
}

/** An endpoint error, thrown as the AI SDK throws HTTP errors: 429, 408 and 5xx are retried by the Model. */
export interface ScriptedFailure {
  readonly status: number;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
  readonly delayMs?: number;
}

export type ScriptedReply = string | ScriptedCompletion | ScriptedFailure;

/** A request as the backend received it: the Model's backend request, numbered from 1. */
export interface InMemoryRequest extends BackendRequest {
  readonly seq: number;
}

export interface InMemoryModelOptions {
  /** Replies in order; a request for n completions (native n) takes n of them. */
  readonly replies?: readonly ScriptedReply[];
  /** Answers every request instead of the queue: one reply (used for each of n), or one per completion. */
  readonly script?: (
    request: InMemoryRequest,
  ) => ScriptedReply | readonly ScriptedReply[] | Promise<ScriptedReply | readonly ScriptedReply[]>;
  /** The endpoint kind it stands in for (default `openai-compatible`): its capability row, its pricing (free kinds cost 0). */
  readonly kind?: EndpointKind;
  /** Overrides of the kind's capability row (e.g. `{ nativeN: false }`). */
  readonly capabilities?: Partial<Capabilities>;
  /** The model name; the spec is `memory:<name>` (default `scripted`). */
  readonly name?: string;
}

/** The backend and its script: what was asked, and what is left to answer. */
export interface InMemoryBackend extends Backend {
  readonly requests: readonly InMemoryRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  /** Replies not used yet. */
  pending(): number;
}

export const isScriptedFailure = (reply: ScriptedReply): reply is ScriptedFailure =>
  typeof reply === 'object' && reply !== null && 'status' in reply;

/** An in-memory Backend; wrap it with `modelFromBackend` (or use `inMemoryModel`). */
export function inMemoryBackend(options: InMemoryModelOptions = {}): InMemoryBackend {
  const kind = options.kind ?? 'openai-compatible';
  const capabilities: Capabilities = { ...CAPABILITY_TABLE[kind], ...options.capabilities };
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: InMemoryRequest[] = [];

  async function repliesFor(request: InMemoryRequest): Promise<ScriptedReply[]> {
    if (options.script) {
      const scripted = await options.script(request);
      const list = Array.isArray(scripted) ? [...(scripted as readonly ScriptedReply[])] : [scripted as ScriptedReply];
      return list.length === 1 && !isScriptedFailure(list[0]!)
        ? Array.from({ length: request.n }, () => list[0]!)
        : list;
    }
    const first = queue.shift();
    if (first === undefined || isScriptedFailure(first)) return first === undefined ? [] : [first];
    const replies = [first];
    for (let i = 1; i < request.n; i++) {
      const next = queue.shift();
      if (next === undefined) break;
      replies.push(next);
    }
    return replies;
  }

  async function generate(backendRequest: BackendRequest, call: BackendCallOptions): Promise<BackendResponse> {
    call.signal.throwIfAborted();
    const request: InMemoryRequest = { ...backendRequest, seq: requests.length + 1 };
    requests.push(request);
    const replies = await repliesFor(request);
    const delay = replies.reduce((most, r) => Math.max(most, typeof r === 'object' ? (r.delayMs ?? 0) : 0), 0);
    if (delay > 0) await sleep(delay, undefined, { signal: call.signal });
    call.signal.throwIfAborted();
    const failure = replies.find(isScriptedFailure);
    if (failure) throw httpError(failure, request);
    if (replies.length < request.n) {
      // Not an HTTP error: nothing retries it, and the message names the request.
      throw new Error(
        `in-memory model: no scripted reply left for request #${request.seq} (wanted ${request.n}, had ${replies.length}; last user message: ${JSON.stringify(lastUserText(request))})`,
      );
    }
    const completions = (replies as Array<string | ScriptedCompletion>).map((reply) => completionOf(reply, request));
    if (request.stream && call.onText)
      for (const c of completions) for (const piece of pieces(c.text, 8)) call.onText(piece);
    const scripted = replies.map((r) => (typeof r === 'string' ? {} : (r as ScriptedCompletion)));
    const promptTokens = estimateTokens(request.messages.map((m) => m.content).join('\n'));
    return {
      completions,
      usage: {
        inputTokens: scripted.find((s) => s.usage?.input !== undefined)?.usage?.input ?? promptTokens,
        outputTokens: scripted.reduce(
          (sum, s, i) => sum + (s.usage?.output ?? estimateTokens(completionText(completions[i]!))),
          0,
        ),
      },
    };
  }

  return {
    kind,
    modelId: options.name ?? 'scripted',
    capabilities,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    generate,
    close: async () => {},
  };
}

/** A Model over an in-memory backend, plus the script's handle (`requests`, `enqueue`, `pending`). */
export interface InMemoryModel extends Model {
  readonly backend: InMemoryBackend;
  readonly requests: readonly InMemoryRequest[];
  enqueue(...replies: ScriptedReply[]): void;
  pending(): number;
  /** The text of the last user message of each request, in order. */
  lastUserMessages(): string[];
}

/**
 * A Model answering from a script (or from `backend`, shared with other models: the
 * script options are then the backend's). Defaults differ from `createModel` in two ways only,
 * both for tests: the response cache is `off` unless `cache` (and `cacheDir`) are given, and
 * retries wait 1 ms (the retry count is the Model's default unless `retry` says otherwise).
 */
export function inMemoryModel(
  options: InMemoryModelOptions & ModelOptions & { readonly backend?: InMemoryBackend } = {},
): InMemoryModel {
  // Several models may share one backend (and its script), as several runs share one endpoint.
  const backend = options.backend ?? inMemoryBackend(options);
  const resolved: ResolvedModel = {
    kind: backend.kind,
    modelId: backend.modelId,
    spec: `memory:${backend.modelId}`,
    capabilities: backend.capabilities,
  };
  const model = modelFromBackend(resolved, backend, {
    cache: 'off',
    ...options,
    retry: { baseDelayMs: 1, maxDelayMs: 10, ...options.retry },
  });
  return {
    spec: model.spec,
    kind: model.kind,
    modelId: model.modelId,
    capabilities: model.capabilities,
    generate: (request) => model.generate(request),
    totals: () => model.totals(),
    close: () => model.close(),
    backend,
    requests: backend.requests,
    enqueue: backend.enqueue,
    pending: backend.pending,
    lastUserMessages: () => backend.requests.map(lastUserText),
  };
}

function completionOf(reply: string | ScriptedCompletion, request: InMemoryRequest): BackendCompletion {
  const c: ScriptedCompletion = typeof reply === 'string' ? { text: reply } : reply;
  const text = c.text ?? '';
  const toolCalls = (c.toolCalls ?? []).map((t, k) => ({
    id: t.id ?? `call_${request.seq}_${k}`,
    name: t.name,
    input: t.input,
  }));
  const finishReason = c.finishReason ?? (toolCalls.length && !text ? 'tool-calls' : 'stop');
  return {
    text,
    toolCalls,
    finishReason,
    ...(request.logprobs ? { logprobs: c.logprobs ?? fakeTokenLogprobs(text) } : {}),
  };
}

function completionText(c: BackendCompletion): string {
  return c.text + c.toolCalls.map((t) => JSON.stringify(t.input)).join('');
}

function httpError(failure: ScriptedFailure, request: InMemoryRequest): APICallError {
  const message = failure.message ?? `in-memory model: scripted ${failure.status}`;
  const status = failure.status;
  return new APICallError({
    message,
    url: 'memory://in-memory-model',
    requestBodyValues: request,
    statusCode: status,
    responseHeaders:
      failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {},
    responseBody: JSON.stringify({ error: { message } }),
    isRetryable: status === 429 || status === 408 || status >= 500,
  });
}

function lastUserText(request: BackendRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** One token per 4 characters, with log-probabilities -0.125 … -1 (as the fake OpenAI server's). */
function fakeTokenLogprobs(text: string): TokenLogprob[] {
  return pieces(text, 4).map((token, i) => ({ token, logprob: -0.125 * ((i % 8) + 1) }));
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
