/** The backend for HTTP endpoints, through the AI SDK's `generateText` / `streamText`. */
import {
  generateText,
  jsonSchema,
  streamText,
  tool,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type OutputInterface,
  type ToolSet,
} from 'ai';
import type { Backend, BackendCallOptions, BackendCompletion, BackendRequest, BackendResponse } from './backend.js';
import { extraChoices, logprobsOf } from './openai-body.js';
import { COMPATIBLE_PROVIDER_NAME, createLanguageModel, type Environment } from './providers.js';
import type { ResolvedModel } from './resolve.js';
import type { ChatMessage, TokenUsage, ToolCall } from './types.js';

export async function createSdkBackend(model: ResolvedModel, env: Environment): Promise<Backend> {
  const languageModel = await createLanguageModel(model, env);
  return {
    kind: model.kind,
    modelId: model.modelId,
    capabilities: model.capabilities,
    generate: (request, options) =>
      request.stream
        ? streamOnce(model, languageModel, request, options)
        : generateOnce(model, languageModel, request, options),
    close: async () => {},
  };
}

/**
 * Sends the response format but leaves the text alone: validation and repair are ours
 * (model.ts), so that a mismatch is data with a precise message rather than an SDK exception.
 */
function rawTextOutput(format: NonNullable<BackendRequest['responseFormat']>): OutputInterface<string, string, never> {
  return {
    name: 'crucible-json',
    responseFormat: Promise.resolve({
      type: 'json',
      ...(format.schema ? { schema: format.schema as never } : {}),
      ...(format.name ? { name: format.name } : {}),
      ...(format.description ? { description: format.description } : {}),
    }),
    parseCompleteOutput: async ({ text }) => text,
    parsePartialOutput: async () => undefined,
    createElementStreamTransform: () => undefined,
  };
}

/** A turn as the AI SDK has it: tool calls and results as their own parts, so every provider sends them natively. */
function sdkMessage(m: ChatMessage): ModelMessage {
  if (m.role === 'tool')
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: m.toolCallId ?? '',
          toolName: m.toolName ?? '',
          output: { type: 'text', value: m.content },
        },
      ],
    };
  if (m.role === 'assistant' && m.toolCalls?.length)
    return {
      role: 'assistant',
      content: [
        ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
        ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.input })),
      ],
    };
  return { role: m.role as 'user' | 'assistant', content: m.content };
}

function callSettings(
  model: ResolvedModel,
  languageModel: LanguageModel,
  request: BackendRequest,
  signal: AbortSignal,
) {
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages: ModelMessage[] = request.messages.filter((m) => m.role !== 'system').map(sdkMessage);
  const tools: ToolSet | undefined = request.tools
    ? Object.fromEntries(
        Object.entries(request.tools).map(([name, def]) => [
          name,
          tool({
            ...(def.description ? { description: def.description } : {}),
            inputSchema: jsonSchema(def.inputSchema as never),
          }),
        ]),
      )
    : undefined;
  return {
    model: languageModel,
    ...(system ? { system } : {}),
    messages,
    maxRetries: 0, // retries are ours: configurable delays, and the cache sees one logical call
    abortSignal: signal,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { topP: request.topP } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.stop?.length ? { stopSequences: [...request.stop] } : {}),
    ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
    ...(request.responseFormat ? { output: rawTextOutput(request.responseFormat) } : {}),
    ...(tools ? { tools, ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}) } : {}),
    providerOptions: providerOptions(model, request),
  };
}

/**
 * Fields the SDK's common settings do not carry. OpenAI-compatible: n, logprobs, grammars,
 * the config's extraBody. Ollama: its provider puts temperature, top_p and the token limit
 * at the top of the body and drops seed and stop, but Ollama reads all of them only from
 * `options`.
 */
function providerOptions(model: ResolvedModel, request: BackendRequest): Record<string, Record<string, never>> {
  if (model.kind === 'ollama')
    return { ollama: { options: ollamaOptions(request) } as unknown as Record<string, never> };
  if (model.kind !== 'openai-compatible') return {};
  const body: Record<string, unknown> = { ...model.entry?.extraBody };
  if (request.n > 1) body.n = request.n;
  if (request.logprobs && !request.stream) body.logprobs = true;
  if (request.grammar && model.capabilities.grammar === 'llama.cpp') body.grammar = request.grammar;
  if (request.grammar && model.capabilities.grammar === 'vllm') body.structured_outputs = { grammar: request.grammar };
  return { [COMPATIBLE_PROVIDER_NAME]: body as Record<string, never> };
}

function ollamaOptions(request: BackendRequest): Record<string, unknown> {
  return {
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.stop?.length ? { stop: [...request.stop] } : {}),
    ...(request.maxTokens !== undefined ? { num_predict: request.maxTokens } : {}),
  };
}

function toolCallsOf(calls: ReadonlyArray<{ toolCallId: string; toolName: string; input: unknown }>): ToolCall[] {
  return calls.map((c) => ({ id: c.toolCallId, name: c.toolName, input: c.input }));
}

async function generateOnce(
  model: ResolvedModel,
  languageModel: LanguageModel,
  request: BackendRequest,
  options: BackendCallOptions,
): Promise<BackendResponse> {
  const result = await generateText(callSettings(model, languageModel, request, options.signal));
  const body = result.response.body;
  const first: BackendCompletion = {
    text: result.text,
    toolCalls: toolCallsOf(result.toolCalls),
    finishReason: result.finishReason,
    ...(request.logprobs ? { logprobs: logprobsOf(body, 0) } : {}),
  };
  const completions = request.n > 1 ? [first, ...extraChoices(body, Boolean(request.logprobs))] : [first];
  return {
    completions,
    usage: tokenUsage(result.usage),
  };
}

async function streamOnce(
  model: ResolvedModel,
  languageModel: LanguageModel,
  request: BackendRequest,
  options: BackendCallOptions,
): Promise<BackendResponse> {
  const result = streamText({ ...callSettings(model, languageModel, request, options.signal), onError: () => {} });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      options.onText?.(part.text);
    } else if (part.type === 'error') {
      throw part.error;
    } else if (part.type === 'abort') {
      throw options.signal.reason ?? new Error('stream aborted');
    }
  }
  const [toolCalls, finishReason, usage] = await Promise.all([result.toolCalls, result.finishReason, result.usage]);
  return {
    completions: [{ text, toolCalls: toolCallsOf(toolCalls), finishReason }],
    usage: tokenUsage(usage),
  };
}

function tokenUsage(usage: LanguageModelUsage): TokenUsage {
  const cached = usage.inputTokenDetails?.cacheReadTokens;
  return {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    ...(cached ? { cachedInputTokens: cached } : {}),
  };
}
