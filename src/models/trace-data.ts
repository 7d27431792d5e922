/** A model call as trace-event data (core/trace.ts shapes), for strategies that record what they ask and get. */
import type { traceDataSchemas } from '../core/trace.js';
import type { z } from 'zod';
import type { GenerateRequest, GenerateResult, Model } from './types.js';

export function promptEventData(model: Model, request: GenerateRequest): z.input<typeof traceDataSchemas.prompt> {
  return {
    model: model.spec,
    // Tool turns whole: the trace shows what the model was sent.
    messages: request.messages.map((m) => ({
      role: m.role,
      content: m.content,
      ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}),
      ...(m.toolName !== undefined ? { toolName: m.toolName, toolCallId: m.toolCallId } : {}),
    })),
    settings: {
      n: request.n ?? 1,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
      ...(request.output ? { structured: true } : {}),
      ...(request.grammar ? { grammar: request.grammar } : {}),
    },
  };
}

export function responseEventData(model: Model, result: GenerateResult): z.input<typeof traceDataSchemas.response> {
  return {
    model: model.spec,
    texts: result.completions.map((c) => c.text),
    usage: result.usage,
    costUsd: result.costUsd,
    latencyMs: result.latencyMs,
    cached: result.calls.length > 0 && result.calls.every((c) => c.cached),
    requestHashes: result.calls.map((c) => c.requestHash),
    ...(result.completions.some((c) => c.toolCalls.length)
      ? { toolCalls: result.completions.map((c) => c.toolCalls) }
      : {}),
    ...(result.completions.some((c) => c.outputError)
      ? { outputErrors: result.completions.map((c) => c.outputError ?? null) }
      : {}),
  };
}
