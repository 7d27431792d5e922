/**
 * What the fake model servers share: loopback HTTP with the request body read, JSON replies and
 * errors, the queue of scripted replies, delays that end early when the client hangs up, and
 * token estimates. Each server keeps its own protocol's shapes and routes.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What every fake server records of a request it answers. */
export interface FakeHttpRequest {
  /** 1-based arrival order. */
  readonly seq: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, exactly as the client sent it. */
  readonly body: Record<string, any>;
  readonly stream: boolean;
}

/** The fields of `FakeHttpRequest` every server fills alike; `seq` follows the requests recorded so far. */
export function requestFields(
  recorded: readonly unknown[],
  req: IncomingMessage,
  path: string,
  body: Record<string, any>,
) {
  return { seq: recorded.length + 1, path, headers: req.headers, body };
}

/** A scripted error reply: the status, the error's text and an optional `retry-after`. */
export interface FakeHttpFailure {
  readonly status: number;
  readonly message?: string;
  readonly retryAfterSeconds?: number;
}

export interface FakeDelay {
  /** Wait before answering (a slow server). */
  readonly delayMs?: number;
}

/** The part of a fake server's handle that does not depend on the protocol. */
export interface FakeHttpServer<Request, Reply> {
  readonly requests: readonly Request[];
  enqueue(...replies: Reply[]): void;
  /** Replies not yet used. */
  pending(): number;
  close(): Promise<void>;
}

export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 at a free port; `handle` gets each request once its body is read. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse, path: string, body: string) => void,
): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, (req.url ?? '/').split('?')[0]!, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets of the client would otherwise hold close() open.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The body as a JSON object, or undefined (each server answers that with its own 400). */
export function parseJsonObject(text: string): Record<string, any> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, any>) : undefined;
  } catch {
    return undefined;
  }
}

/** `headers` may override the content type (Ollama adds a charset). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A scripted failure with the protocol's error `body`, and `retry-after` when the script sets one. */
export function sendFailure(
  res: ServerResponse,
  failure: FakeHttpFailure,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const retry = failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
  sendJson(res, failure.status, body, { ...headers, ...retry });
}

export const isFailure = <Reply>(reply: Reply): reply is Extract<Reply, FakeHttpFailure> =>
  typeof reply === 'object' && reply !== null && 'status' in reply;

/** Replies in the order they were enqueued; past the end, `fallback` or a 500 that says the script ran out. */
export function replyQueue<Reply>(fallback?: Reply) {
  const queue: Reply[] = [];
  return {
    enqueue: (...replies: Reply[]) => void queue.push(...replies),
    pending: () => queue.length,
    take: (seq: number): Reply | FakeHttpFailure =>
      queue.shift() ?? fallback ?? { status: 500, message: `fake server: no scripted reply left for request #${seq}` },
  };
}

/** Waits `ms`, cut short if the client hangs up; true while the reply can still be written. */
export async function waitUnlessClosed(res: ServerResponse, ms = 0): Promise<boolean> {
  if (ms > 0) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      res.on('close', done);
      function done() {
        clearTimeout(timer);
        res.off('close', done);
        resolve();
      }
    });
  }
  return !res.destroyed;
}

/** Usage when a reply does not script it: about 4 characters per token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** `text` cut into pieces of `size` characters, as a stream sends it. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
