/**
 * A fake OpenAI-compatible server for tests: real HTTP on loopback, speaking chat
 * completions (JSON and SSE streaming, `n`, tool calls, `response_format`, `logprobs`,
 * usage) with scripted replies, so that tests exercise the production provider code.
 *
 *   const server = await startFakeOpenAIServer();
 *   server.enqueue('first answer', { status: 429 }, 'after the retry');
 *   // model spec: `${server.url}#fake-model`
 *   ...
 *   await server.close();
 *
 * Replies come from a queue (one reply per choice, so `n: 3` takes three) or from a
 * function of the request. A failure reply (`{ status }`) answers the whole request.
 */
import type { ServerResponse } from 'node:http';
import {
  estimateTokens,
  isFailure,
  listenOnLoopback,
  parseJsonObject,
  pieces,
  replyQueue,
  requestFields,
  sendFailure,
  sendJson,
  waitUnlessClosed,
  type FakeDelay,
  type FakeHttpFailure,
  type FakeHttpRequest,
  type FakeHttpServer,
} from './fake-http.js';

export interface FakeToolCall {
  readonly name: string;
  /** An object (sent as JSON text) or raw text (sent as is, e.g. to script malformed arguments). */
  readonly arguments: unknown;
  readonly id?: string;
}

export interface FakeChoice {
  readonly content?: string;
  readonly toolCalls?: readonly FakeToolCall[];
  /** Default `tool_calls` when there are tool calls, else `stop`. */
  readonly finishReason?: string;
}

export type FakeFailure = FakeHttpFailure;

interface ReplyTiming extends FakeDelay {
  /** Streaming: wait between chunks. */
  readonly chunkDelayMs?: number;
  /** Override the usage the server reports (default: about 4 characters per token). */
  readonly usage?: {
    readonly prompt_tokens?: number;
    readonly completion_tokens?: number;
    /** Of the prompt tokens, those the server read from its prompt cache. */
    readonly cached_tokens?: number;
  };
}

export type FakeReply = string | (FakeChoice & ReplyTiming) | (FakeFailure & ReplyTiming);

export interface FakeChatRequest extends FakeHttpRequest {
  readonly messages: ReadonlyArray<{ role: string; content: unknown }>;
  readonly n: number;
}

export type FakeScript = (
  request: FakeChatRequest,
) => FakeReply | readonly FakeReply[] | Promise<FakeReply | readonly FakeReply[]>;

export interface FakeServerOptions {
  /** Answer every request from this function instead of the queue. */
  readonly script?: FakeScript;
  /** Reply used when the queue is empty (default: a 500 that says the script ran out). */
  readonly fallback?: FakeReply;
  /** Model ids listed by GET /v1/models. */
  readonly models?: readonly string[];
}

export interface FakeOpenAIServer extends FakeHttpServer<FakeChatRequest, FakeReply> {
  /** Base URL ending in /v1; a model spec is `${url}#any-name`. */
  readonly url: string;
  /** Most chat requests ever in flight at once. */
  readonly maxInFlight: number;
}

const asChoice = (reply: FakeReply): FakeChoice & ReplyTiming =>
  typeof reply === 'string' ? { content: reply } : (reply as FakeChoice & ReplyTiming);

export async function startFakeOpenAIServer(options: FakeServerOptions = {}): Promise<FakeOpenAIServer> {
  const queue = replyQueue<FakeReply>(options.fallback);
  const requests: FakeChatRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const http = await listenOnLoopback((req, res, path, text) => {
    if (req.method === 'GET' && /\/models$/.test(path)) {
      sendJson(res, 200, {
        object: 'list',
        data: (options.models ?? ['fake-model']).map((id) => ({ id, object: 'model', owned_by: 'fake' })),
      });
      return;
    }
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(path)) {
      sendJson(res, 404, { error: { message: `fake server: no route ${req.method} ${path}`, type: 'not_found' } });
      return;
    }
    const body = parseJsonObject(text);
    if (!body) {
      sendJson(res, 400, { error: { message: 'fake server: body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    const request: FakeChatRequest = {
      ...requestFields(requests, req, path, body),
      messages: Array.isArray(body.messages) ? body.messages : [],
      n: Number.isInteger(body.n) && body.n > 0 ? body.n : 1,
      stream: body.stream === true,
    };
    requests.push(request);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    void answer(request, res);
  });

  async function repliesFor(request: FakeChatRequest): Promise<FakeReply[]> {
    if (options.script) {
      const scripted = await options.script(request);
      const list = Array.isArray(scripted) ? [...(scripted as FakeReply[])] : [scripted as FakeReply];
      if (list.length === 1 && !isFailure(list[0]!)) return Array.from({ length: request.n }, () => list[0]!);
      return list;
    }
    const take = (): FakeReply => queue.take(request.seq);
    const first = take();
    if (isFailure(first)) return [first];
    const replies = [first];
    for (let i = 1; i < request.n; i++) replies.push(take());
    return replies;
  }

  async function answer(request: FakeChatRequest, res: ServerResponse): Promise<void> {
    const replies = await repliesFor(request);
    const timing = typeof replies[0] === 'object' ? (replies[0] as ReplyTiming) : {};
    if (!(await waitUnlessClosed(res, timing.delayMs))) return;
    const failure = replies.find(isFailure);
    if (failure) {
      const type =
        failure.status === 429
          ? 'rate_limit_exceeded'
          : failure.status >= 500
            ? 'server_error'
            : 'invalid_request_error';
      sendFailure(res, failure, {
        error: { message: failure.message ?? `fake server: scripted ${failure.status}`, type, code: failure.status },
      });
      return;
    }
    const choices = replies.map(asChoice);
    const promptText = request.messages
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    const completionText = choices
      .map((c) => (c.content ?? '') + (c.toolCalls ?? []).map((t) => argumentsText(t.arguments)).join(''))
      .join('');
    const usage = {
      prompt_tokens: timing.usage?.prompt_tokens ?? estimateTokens(promptText),
      completion_tokens: timing.usage?.completion_tokens ?? estimateTokens(completionText),
    };
    const full = {
      ...usage,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      ...(timing.usage?.cached_tokens !== undefined
        ? { prompt_tokens_details: { cached_tokens: timing.usage.cached_tokens } }
        : {}),
    };
    const model = String(request.body.model ?? 'fake-model');
    const id = `chatcmpl-fake-${request.seq}`;
    if (request.stream) {
      await streamChoices(
        res,
        id,
        model,
        choices,
        request.body.stream_options?.include_usage ? full : undefined,
        timing.chunkDelayMs ?? 0,
      );
      return;
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: choices.map((choice, index) => ({
        index,
        message: {
          role: 'assistant',
          content: choice.content ?? (choice.toolCalls?.length ? null : ''),
          ...(choice.toolCalls?.length
            ? { tool_calls: choice.toolCalls.map((call, k) => toolCallJson(call, index, k)) }
            : {}),
        },
        finish_reason: finishReason(choice),
        logprobs: request.body.logprobs ? { content: fakeLogprobs(choice.content ?? '') } : null,
      })),
      usage: full,
    });
  }

  return {
    url: `http://127.0.0.1:${http.port}/v1`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    enqueue: queue.enqueue,
    pending: queue.pending,
    close: http.close,
  };
}

function finishReason(choice: FakeChoice): string {
  return choice.finishReason ?? (choice.toolCalls?.length ? 'tool_calls' : 'stop');
}

function argumentsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

function toolCallJson(call: FakeToolCall, choice: number, k: number) {
  return {
    id: call.id ?? `call_${choice}_${k}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call.arguments) },
  };
}

/** Deterministic pseudo log-probabilities: one "token" per 4 characters. */
export function fakeLogprobs(
  text: string,
): Array<{ token: string; logprob: number; bytes: number[]; top_logprobs: [] }> {
  return pieces(text, 4).map((token, i) => ({
    token,
    logprob: -0.125 * ((i % 8) + 1),
    bytes: [...Buffer.from(token)],
    top_logprobs: [],
  }));
}

async function streamChoices(
  res: ServerResponse,
  id: string,
  model: string,
  choices: ReadonlyArray<FakeChoice>,
  usage: Record<string, unknown> | undefined,
  chunkDelayMs: number,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const created = Math.floor(Date.now() / 1000);
  const send = async (choicesPart: unknown[], extra: Record<string, unknown> = {}) => {
    if (res.destroyed) return;
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: choicesPart, ...extra })}\n\n`,
    );
    await waitUnlessClosed(res, chunkDelayMs);
  };
  for (const [index, choice] of choices.entries()) {
    await send([{ index, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    for (const piece of pieces(choice.content ?? '', 8)) {
      await send([{ index, delta: { content: piece }, finish_reason: null }]);
    }
    for (const [k, call] of (choice.toolCalls ?? []).entries()) {
      const args = argumentsText(call.arguments);
      const half = Math.ceil(args.length / 2);
      const json = toolCallJson(call, index, k);
      // Arguments arrive in pieces, as vLLM and llama.cpp send them.
      await send([
        {
          index,
          delta: {
            tool_calls: [
              {
                index: k,
                id: json.id,
                type: 'function',
                function: { name: call.name, arguments: args.slice(0, half) },
              },
            ],
          },
          finish_reason: null,
        },
      ]);
      await send([
        {
          index,
          delta: { tool_calls: [{ index: k, function: { arguments: args.slice(half) } }] },
          finish_reason: null,
        },
      ]);
    }
    await send([{ index, delta: {}, finish_reason: finishReason(choice) }]);
  }
  if (usage) await send([], { usage });
  if (!res.destroyed) res.end('data: [DONE]\n\n');
}
