/**
 * A fake Ollama server for tests: real HTTP on loopback, answering the native `POST /api/chat`
 * as one JSON object (`stream: false`) or as NDJSON lines (Ollama streams unless told not to),
 * in the shapes `ollama-ai-provider-v2` parses, with scripted replies.
 *
 *   const server = await startFakeOllamaServer();
 *   server.enqueue({ status: 503 }, 'after the retry');
 *   // env: { OLLAMA_HOST: server.host }
 *
 * Errors have Ollama's body, `{"error": "text"}`. With `models` set, any other model gets the
 * 404 Ollama sends for a model that was never pulled.
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

export interface FakeOllamaToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface FakeOllamaMessage extends FakeDelay {
  readonly content?: string;
  readonly toolCalls?: readonly FakeOllamaToolCall[];
  /** Default `stop`. */
  readonly doneReason?: string;
  /** Default: about 4 characters per token. */
  readonly usage?: { readonly prompt_eval_count?: number; readonly eval_count?: number };
}

export type FakeOllamaFailure = FakeHttpFailure & FakeDelay;

export type FakeOllamaReply = string | FakeOllamaMessage | FakeOllamaFailure;

export interface FakeOllamaRequest extends FakeHttpRequest {
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>;
  /** Ollama streams when `stream` is absent. */
  readonly stream: boolean;
  /** `"json"` or a JSON schema: what Ollama constrains decoding to. */
  readonly format: unknown;
  /** Sampling settings as Ollama reads them (`seed`, `temperature`, `num_predict`, `stop`, ...). */
  readonly options: Readonly<Record<string, unknown>>;
}

export interface FakeOllamaServerOptions {
  /** Answer every request from this function instead of the queue. */
  readonly script?: (request: FakeOllamaRequest) => FakeOllamaReply | Promise<FakeOllamaReply>;
  /** Models "pulled" on this server; default: any name is answered. */
  readonly models?: readonly string[];
}

export interface FakeOllamaServer extends FakeHttpServer<FakeOllamaRequest, FakeOllamaReply> {
  /** `127.0.0.1:PORT`, the form OLLAMA_HOST takes. */
  readonly host: string;
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
}

export async function startFakeOllamaServer(options: FakeOllamaServerOptions = {}): Promise<FakeOllamaServer> {
  const queue = replyQueue<FakeOllamaReply>();
  const requests: FakeOllamaRequest[] = [];

  const http = await listenOnLoopback((req, res, path, text) => {
    // Ollama answers unknown routes with a plain-text 404.
    if (req.method !== 'POST' || path !== '/api/chat') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found');
      return;
    }
    const body = parseJsonObject(text);
    if (!body) return sendError(res, { status: 400, message: 'invalid character in request body' });
    const model = String(body.model ?? '');
    if (options.models && !options.models.includes(model))
      return sendError(res, { status: 404, message: `model "${model}" not found, try pulling it first` });
    const request: FakeOllamaRequest = {
      ...requestFields(requests, req, path, body),
      messages: Array.isArray(body.messages) ? body.messages : [],
      stream: body.stream !== false,
      format: body.format,
      options: body.options && typeof body.options === 'object' ? body.options : {},
    };
    requests.push(request);
    void answer(request, res);
  });

  async function answer(request: FakeOllamaRequest, res: ServerResponse): Promise<void> {
    const reply: FakeOllamaReply = options.script ? await options.script(request) : queue.take(request.seq);
    if (!(await waitUnlessClosed(res, typeof reply === 'object' ? reply.delayMs : 0))) return;
    if (isFailure(reply)) return sendError(res, reply);
    const message = typeof reply === 'string' ? { content: reply } : reply;
    const content = message.content ?? '';
    const toolCalls = message.toolCalls?.length
      ? { tool_calls: message.toolCalls.map((t) => ({ function: { name: t.name, arguments: t.arguments } })) }
      : {};
    const base = { model: String(request.body.model), created_at: new Date().toISOString() };
    const done = {
      done: true,
      done_reason: message.doneReason ?? 'stop',
      total_duration: 1_000_000,
      prompt_eval_count:
        message.usage?.prompt_eval_count ?? estimateTokens(request.messages.map((m) => m.content).join('\n')),
      eval_count: message.usage?.eval_count ?? estimateTokens(content + JSON.stringify(message.toolCalls ?? [])),
    };
    if (!request.stream) {
      sendJson(res, 200, { ...base, message: { role: 'assistant', content, ...toolCalls }, ...done }, JSON_UTF8);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    for (const piece of pieces(content, 8))
      line({ ...base, message: { role: 'assistant', content: piece }, done: false });
    if (toolCalls.tool_calls) line({ ...base, message: { role: 'assistant', content: '', ...toolCalls }, done: false });
    line({ ...base, message: { role: 'assistant', content: '' }, ...done });
    res.end();
  }

  return {
    host: `127.0.0.1:${http.port}`,
    url: `http://127.0.0.1:${http.port}`,
    requests,
    enqueue: queue.enqueue,
    pending: queue.pending,
    close: http.close,
  };
}

const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };

function sendError(res: ServerResponse, failure: FakeOllamaFailure): void {
  sendFailure(res, failure, { error: failure.message ?? `fake server: scripted ${failure.status}` }, JSON_UTF8);
}
