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
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOllamaToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface FakeOllamaMessage {
  readonly content?: string;
  readonly toolCalls?: readonly FakeOllamaToolCall[];
  /** Default `stop`. */
  readonly doneReason?: string;
  /** Default: about 4 characters per token. */
  readonly usage?: { readonly prompt_eval_count?: number; readonly eval_count?: number };
  readonly delayMs?: number;
}

export interface FakeOllamaFailure {
  readonly status: number;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
  readonly delayMs?: number;
}

export type FakeOllamaReply = string | FakeOllamaMessage | FakeOllamaFailure;

export interface FakeOllamaRequest {
  /** 1-based arrival order. */
  readonly seq: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, exactly as the client sent it. */
  readonly body: Record<string, any>;
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

export interface FakeOllamaServer {
  /** `127.0.0.1:PORT`, the form OLLAMA_HOST takes. */
  readonly host: string;
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly requests: readonly FakeOllamaRequest[];
  enqueue(...replies: FakeOllamaReply[]): void;
  /** Replies not yet used. */
  pending(): number;
  close(): Promise<void>;
}

const isFailure = (reply: FakeOllamaReply): reply is FakeOllamaFailure => typeof reply === 'object' && 'status' in reply;
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export async function startFakeOllamaServer(options: FakeOllamaServerOptions = {}): Promise<FakeOllamaServer> {
  const queue: FakeOllamaReply[] = [];
  const requests: FakeOllamaRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      // Ollama answers unknown routes with a plain-text 404.
      if (req.method !== 'POST' || path !== '/api/chat') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 page not found');
        return;
      }
      let body: Record<string, any>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return sendError(res, { status: 400, message: 'invalid character in request body' });
      }
      const model = String(body.model ?? '');
      if (options.models && !options.models.includes(model)) return sendError(res, { status: 404, message: `model "${model}" not found, try pulling it first` });
      const request: FakeOllamaRequest = {
        seq: requests.length + 1,
        path,
        headers: req.headers,
        body,
        messages: Array.isArray(body.messages) ? body.messages : [],
        stream: body.stream !== false,
        format: body.format,
        options: body.options && typeof body.options === 'object' ? body.options : {},
      };
      requests.push(request);
      void answer(request, res);
    });
  });

  async function answer(request: FakeOllamaRequest, res: ServerResponse): Promise<void> {
    const reply = options.script ? await options.script(request) : (queue.shift() ?? { status: 500, message: `fake server: no scripted reply left for request #${request.seq}` });
    if (typeof reply === 'object' && reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    if (isFailure(reply)) return sendError(res, reply);
    const message = typeof reply === 'string' ? { content: reply } : reply;
    const content = message.content ?? '';
    const toolCalls = message.toolCalls?.length ? { tool_calls: message.toolCalls.map((t) => ({ function: { name: t.name, arguments: t.arguments } })) } : {};
    const base = { model: String(request.body.model), created_at: new Date().toISOString() };
    const done = {
      done: true,
      done_reason: message.doneReason ?? 'stop',
      total_duration: 1_000_000,
      prompt_eval_count: message.usage?.prompt_eval_count ?? estimateTokens(request.messages.map((m) => m.content).join('\n')),
      eval_count: message.usage?.eval_count ?? estimateTokens(content + JSON.stringify(message.toolCalls ?? [])),
    };
    if (!request.stream) {
      const text = JSON.stringify({ ...base, message: { role: 'assistant', content, ...toolCalls }, ...done });
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    for (const piece of content.match(/[\s\S]{1,8}/g) ?? []) line({ ...base, message: { role: 'assistant', content: piece }, done: false });
    if (toolCalls.tool_calls) line({ ...base, message: { role: 'assistant', content: '', ...toolCalls }, done: false });
    line({ ...base, message: { role: 'assistant', content: '' }, ...done });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
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

function sendError(res: ServerResponse, failure: FakeOllamaFailure): void {
  const text = JSON.stringify({ error: failure.message ?? `fake server: scripted ${failure.status}` });
  const retry = failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
  res.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...retry });
  res.end(text);
}
