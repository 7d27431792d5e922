/** Shared pieces of the server tests: a real server on a free loopback port, and JSON calls to it. */
import { LocalExecutor } from '../src/server/executor.js';
import { Metrics } from '../src/server/metrics.js';
import { startServer, type RunningServer, type ServeOptions } from '../src/server/serve.js';

export interface TestServer extends RunningServer {
  readonly executor: LocalExecutor;
  readonly metrics: Metrics;
  post(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; json: any; text: string }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; json: any; text: string }>;
}

export async function startTestServer(options: Partial<ServeOptions> & { workers?: number } = {}): Promise<TestServer> {
  const metrics = new Metrics();
  const executor = new LocalExecutor({ workers: options.workers ?? 1 }, metrics);
  const server = await startServer({ host: '127.0.0.1', port: 0, executor, metrics, ...options });
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  };
  return {
    ...server,
    executor,
    metrics,
    post: (path, body, headers) => call('POST', path, body, headers),
    get: (path, headers) => call('GET', path, undefined, headers),
    close: async () => {
      await server.close();
      await executor.close();
    },
  };
}

/** A Python program reading two integers from stdin and printing their sum (right) or difference (wrong). */
export const SUM_RIGHT = 'a, b = map(int, input().split())\nprint(a + b)\n';
export const SUM_WRONG = 'a, b = map(int, input().split())\nprint(a - b)\n';
