/**
 * Reading what the AI SDK does not surface from an OpenAI chat-completions body: choices
 * after the first (native `n`) and token log-probabilities.
 */
import type { BackendCompletion } from './backend.js';
import type { TokenLogprob, ToolCall } from './types.js';

interface RawChoice {
  index?: number;
  finish_reason?: string | null;
  message?: {
    content?: string | null;
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  };
  logprobs?: { content?: Array<{ token?: string; logprob?: number }> | null } | null;
}

function choicesOf(body: unknown): RawChoice[] {
  const choices = (body as { choices?: unknown } | undefined)?.choices;
  if (!Array.isArray(choices)) return [];
  return [...(choices as RawChoice[])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

// The same names the AI SDK maps finish reasons to, so all completions of a call read alike.
const FINISH_REASONS: Record<string, string> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  content_filter: 'content-filter',
};

function parseArguments(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function logprobsOf(body: unknown, index: number): TokenLogprob[] {
  const content = choicesOf(body)[index]?.logprobs?.content ?? [];
  return content
    .filter((t) => typeof t.token === 'string' && typeof t.logprob === 'number')
    .map((t) => ({ token: t.token!, logprob: t.logprob! }));
}

/** Choices 1…n-1 of a chat-completions body. */
export function extraChoices(body: unknown, withLogprobs: boolean): BackendCompletion[] {
  return choicesOf(body)
    .slice(1)
    .map((choice, i) => {
      const toolCalls: ToolCall[] = (choice.message?.tool_calls ?? []).map((call, k) => ({
        id: call.id ?? `call_${i + 1}_${k}`,
        name: call.function?.name ?? '',
        input: parseArguments(call.function?.arguments),
      }));
      return {
        text: choice.message?.content ?? '',
        toolCalls,
        finishReason: FINISH_REASONS[choice.finish_reason ?? ''] ?? 'other',
        ...(withLogprobs ? { logprobs: logprobsOf(body, i + 1) } : {}),
      };
    });
}
