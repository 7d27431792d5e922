/**
 * A fake Anthropic Messages API for tests: real HTTP on loopback, answering `POST /v1/messages`
 * as JSON or, when the body says `stream: true`, as SSE events — the shapes `@ai-sdk/anthropic`
 * parses — with scripted replies, so that tests run the production provider code.
 *
 *   const server = await startFakeAnthropicServer();
 *   server.enqueue({ status: 529 }, 'after the retry');
 *   // env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }
 *
 * A reply is text, a message (text and/or `tool_use` blocks: the SDK asks for structured
 * output from older models through a forced tool named `json`), or a failure.
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

export interface FakeToolUse {
  readonly name: string;
  readonly input: unknown;
  readonly id?: string;
}

export interface FakeAnthropicMessage extends FakeDelay {
  readonly text?: string;
  readonly toolUse?: readonly FakeToolUse[];
  /** Default `tool_use` when there are tool blocks, else `end_turn`. */
  readonly stopReason?: string;
  /** Default: about 4 characters per token. */
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number };
}

export interface FakeAnthropicFailure extends FakeHttpFailure, FakeDelay {
  /** Anthropic's error type; default from the status (529 → `overloaded_error`). */
  readonly type?: string;
  /** Streaming requests: answer 200 and send the error as the first SSE event, as the API does when overloaded mid-flight. */
  readonly inStream?: boolean;
}

export type FakeAnthropicReply = string | FakeAnthropicMessage | FakeAnthropicFailure;

export interface FakeAnthropicRequest extends FakeHttpRequest {
  /** The `system` blocks' text, joined. */
  readonly system: string;
  /** Each message with its text blocks joined. */
  readonly messages: ReadonlyArray<{ readonly role: string; readonly text: string }>;
}

export interface FakeAnthropicServerOptions {
  /** Answer every request from this function instead of the queue. */
  readonly script?: (request: FakeAnthropicRequest) => FakeAnthropicReply | Promise<FakeAnthropicReply>;
}

export interface FakeAnthropicServer extends FakeHttpServer<FakeAnthropicRequest, FakeAnthropicReply> {
  /** Base URL ending in /v1: the value for ANTHROPIC_BASE_URL. */
  readonly url: string;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Text of a `system` or message `content` field: a string, or blocks of which the text ones count. */
export function anthropicText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: string; text?: string }) => (block.type === 'text' ? (block.text ?? '') : ''))
    .join('');
}

export async function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<FakeAnthropicServer> {
  const queue = replyQueue<FakeAnthropicReply>();
  const requests: FakeAnthropicRequest[] = [];

  const http = await listenOnLoopback((req, res, path, text) => {
    if (req.method !== 'POST' || path !== '/v1/messages')
      return sendError(res, { status: 404, message: `fake server: no route ${req.method} ${path}` });
    // The checks the real API makes before anything else.
    if (!req.headers['x-api-key']) return sendError(res, { status: 401, message: 'x-api-key header is required' });
    if (!req.headers['anthropic-version'])
      return sendError(res, { status: 400, message: 'anthropic-version header is required' });
    const body = parseJsonObject(text);
    if (!body) return sendError(res, { status: 400, message: 'fake server: body is not JSON' });
    if (!Number.isInteger(body.max_tokens))
      return sendError(res, { status: 400, message: 'max_tokens: Field required' });
    const request: FakeAnthropicRequest = {
      ...requestFields(requests, req, path, body),
      system: anthropicText(body.system),
      messages: (Array.isArray(body.messages) ? body.messages : []).map((m: { role: string; content: unknown }) => ({
        role: m.role,
        text: anthropicText(m.content),
      })),
      stream: body.stream === true,
    };
    requests.push(request);
    void answer(request, res);
  });

  async function answer(request: FakeAnthropicRequest, res: ServerResponse): Promise<void> {
    const reply: FakeAnthropicReply = options.script ? await options.script(request) : queue.take(request.seq);
    if (!(await waitUnlessClosed(res, typeof reply === 'object' ? reply.delayMs : 0))) return;
    if (isFailure(reply)) {
      if (reply.inStream && request.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(sse('error', { type: 'error', error: errorBody(reply).error }));
      } else sendError(res, reply);
      return;
    }
    const message = typeof reply === 'string' ? { text: reply } : reply;
    const blocks = [
      ...(message.text !== undefined || !message.toolUse?.length ? [{ type: 'text', text: message.text ?? '' }] : []),
      ...(message.toolUse ?? []).map((t, k) => ({
        type: 'tool_use',
        id: t.id ?? `toolu_fake_${request.seq}_${k}`,
        name: t.name,
        input: t.input,
      })),
    ];
    const usage = {
      input_tokens:
        message.usage?.input_tokens ?? estimateTokens(request.system + request.messages.map((m) => m.text).join('\n')),
      output_tokens:
        message.usage?.output_tokens ??
        estimateTokens((message.text ?? '') + (message.toolUse ?? []).map((t) => JSON.stringify(t.input)).join('')),
    };
    const stopReason = message.stopReason ?? (message.toolUse?.length ? 'tool_use' : 'end_turn');
    const head = {
      id: `msg_fake_${request.seq}`,
      type: 'message',
      role: 'assistant',
      model: String(request.body.model),
    };
    if (!request.stream) {
      sendJson(res, 200, { ...head, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(
      sse('message_start', {
        type: 'message_start',
        message: {
          ...head,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      }),
    );
    res.write(sse('ping', { type: 'ping' }));
    for (const [index, block] of blocks.entries()) {
      const isText = block.type === 'text';
      res.write(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: isText ? { type: 'text', text: '' } : { ...block, input: {} },
        }),
      );
      const whole = isText ? (block as { text: string }).text : JSON.stringify((block as { input: unknown }).input);
      for (const piece of pieces(whole, 8)) {
        const delta = isText ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece };
        res.write(sse('content_block_delta', { type: 'content_block_delta', index, delta }));
      }
      res.write(sse('content_block_stop', { type: 'content_block_stop', index }));
    }
    res.write(
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      }),
    );
    res.end(sse('message_stop', { type: 'message_stop' }));
  }

  return {
    url: `http://127.0.0.1:${http.port}/v1`,
    requests,
    enqueue: queue.enqueue,
    pending: queue.pending,
    close: http.close,
  };
}

function errorBody(failure: FakeAnthropicFailure) {
  const type =
    failure.type ?? ERROR_TYPES[failure.status] ?? (failure.status >= 500 ? 'api_error' : 'invalid_request_error');
  return {
    type: 'error',
    error: { type, message: failure.message ?? `fake server: scripted ${failure.status} ${type}` },
  };
}

function sendError(res: ServerResponse, failure: FakeAnthropicFailure): void {
  sendFailure(res, failure, errorBody(failure));
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
