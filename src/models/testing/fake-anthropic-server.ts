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
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeToolUse {
  readonly name: string;
  readonly input: unknown;
  readonly id?: string;
}

export interface FakeAnthropicMessage {
  readonly text?: string;
  readonly toolUse?: readonly FakeToolUse[];
  /** Default `tool_use` when there are tool blocks, else `end_turn`. */
  readonly stopReason?: string;
  /** Default: about 4 characters per token. */
  readonly usage?: { readonly input_tokens?: number; readonly output_tokens?: number };
  readonly delayMs?: number;
}

export interface FakeAnthropicFailure {
  readonly status: number;
  /** Anthropic's error type; default from the status (529 → `overloaded_error`). */
  readonly type?: string;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
  /** Streaming requests: answer 200 and send the error as the first SSE event, as the API does when overloaded mid-flight. */
  readonly inStream?: boolean;
  readonly delayMs?: number;
}

export type FakeAnthropicReply = string | FakeAnthropicMessage | FakeAnthropicFailure;

export interface FakeAnthropicRequest {
  /** 1-based arrival order. */
  readonly seq: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, exactly as the client sent it. */
  readonly body: Record<string, any>;
  /** The `system` blocks' text, joined. */
  readonly system: string;
  /** Each message with its text blocks joined. */
  readonly messages: ReadonlyArray<{ readonly role: string; readonly text: string }>;
  readonly stream: boolean;
}

export interface FakeAnthropicServerOptions {
  /** Answer every request from this function instead of the queue. */
  readonly script?: (request: FakeAnthropicRequest) => FakeAnthropicReply | Promise<FakeAnthropicReply>;
}

export interface FakeAnthropicServer {
  /** Base URL ending in /v1: the value for ANTHROPIC_BASE_URL. */
  readonly url: string;
  readonly requests: readonly FakeAnthropicRequest[];
  enqueue(...replies: FakeAnthropicReply[]): void;
  /** Replies not yet used. */
  pending(): number;
  close(): Promise<void>;
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

const isFailure = (reply: FakeAnthropicReply): reply is FakeAnthropicFailure => typeof reply === 'object' && 'status' in reply;
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Text of a `system` or message `content` field: a string, or blocks of which the text ones count. */
export function anthropicText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block: { type?: string; text?: string }) => (block.type === 'text' ? (block.text ?? '') : '')).join('');
}

export async function startFakeAnthropicServer(options: FakeAnthropicServerOptions = {}): Promise<FakeAnthropicServer> {
  const queue: FakeAnthropicReply[] = [];
  const requests: FakeAnthropicRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, { status: 404, message: `fake server: no route ${req.method} ${path}` });
      // The checks the real API makes before anything else.
      if (!req.headers['x-api-key']) return sendError(res, { status: 401, message: 'x-api-key header is required' });
      if (!req.headers['anthropic-version']) return sendError(res, { status: 400, message: 'anthropic-version header is required' });
      let body: Record<string, any>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return sendError(res, { status: 400, message: 'fake server: body is not JSON' });
      }
      if (!Number.isInteger(body.max_tokens)) return sendError(res, { status: 400, message: 'max_tokens: Field required' });
      const request: FakeAnthropicRequest = {
        seq: requests.length + 1,
        path,
        headers: req.headers,
        body,
        system: anthropicText(body.system),
        messages: (Array.isArray(body.messages) ? body.messages : []).map((m: { role: string; content: unknown }) => ({ role: m.role, text: anthropicText(m.content) })),
        stream: body.stream === true,
      };
      requests.push(request);
      void answer(request, res);
    });
  });

  async function answer(request: FakeAnthropicRequest, res: ServerResponse): Promise<void> {
    const reply = options.script
      ? await options.script(request)
      : (queue.shift() ?? { status: 500, type: 'api_error', message: `fake server: no scripted reply left for request #${request.seq}` });
    if (typeof reply === 'object' && reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
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
      ...(message.toolUse ?? []).map((t, k) => ({ type: 'tool_use', id: t.id ?? `toolu_fake_${request.seq}_${k}`, name: t.name, input: t.input })),
    ];
    const usage = {
      input_tokens: message.usage?.input_tokens ?? estimateTokens(request.system + request.messages.map((m) => m.text).join('\n')),
      output_tokens: message.usage?.output_tokens ?? estimateTokens((message.text ?? '') + (message.toolUse ?? []).map((t) => JSON.stringify(t.input)).join('')),
    };
    const stopReason = message.stopReason ?? (message.toolUse?.length ? 'tool_use' : 'end_turn');
    const head = { id: `msg_fake_${request.seq}`, type: 'message', role: 'assistant', model: String(request.body.model) };
    if (!request.stream) {
      const text = JSON.stringify({ ...head, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(sse('message_start', { type: 'message_start', message: { ...head, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } }));
    res.write(sse('ping', { type: 'ping' }));
    for (const [index, block] of blocks.entries()) {
      const isText = block.type === 'text';
      res.write(sse('content_block_start', { type: 'content_block_start', index, content_block: isText ? { type: 'text', text: '' } : { ...block, input: {} } }));
      const whole = isText ? (block as { text: string }).text : JSON.stringify((block as { input: unknown }).input);
      for (const piece of whole.match(/[\s\S]{1,8}/g) ?? []) {
        const delta = isText ? { type: 'text_delta', text: piece } : { type: 'input_json_delta', partial_json: piece };
        res.write(sse('content_block_delta', { type: 'content_block_delta', index, delta }));
      }
      res.write(sse('content_block_stop', { type: 'content_block_stop', index }));
    }
    res.write(sse('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
    res.end(sse('message_stop', { type: 'message_stop' }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function errorBody(failure: FakeAnthropicFailure) {
  const type = failure.type ?? ERROR_TYPES[failure.status] ?? (failure.status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message: failure.message ?? `fake server: scripted ${failure.status} ${type}` } };
}

function sendError(res: ServerResponse, failure: FakeAnthropicFailure): void {
  const text = JSON.stringify(errorBody(failure));
  const retry = failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
  res.writeHead(failure.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...retry });
  res.end(text);
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
