import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { LocalExecutor, type Executor } from './executor.js';
import { Metrics } from './metrics.js';
import { TaskVerifier } from './verify-task.js';
import type { HarnessOptions } from '../verify/harness.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly executor: Executor;
  readonly metrics?: Metrics;
  readonly token?: string | undefined;
  readonly maxBodyBytes?: number;
  readonly requestTimeoutSeconds?: number;
  readonly version?: string;
  /**
   * Options of the harness that judges function-style /v1/verify requests (in this process,
   * also with a queue executor). Default: the local executor's workers and sandbox.
   */
  readonly harness?: HarnessOptions;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Without a token the server listens only on loopback: anyone who can reach it runs code. */
export function checkExposure(host: string, token: string | undefined): void {
  if (!token && !isLoopback(host)) {
    throw new Error(
      `refusing to listen on ${host} without a bearer token: anyone who can reach it could run code. ` +
        'Pass --token <secret> (or set CRUCIBLE_TOKEN), or listen on 127.0.0.1.',
    );
  }
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  checkExposure(options.host, options.token);
  const metrics = options.metrics ?? new Metrics();
  const tasks = new TaskVerifier({ harness: options.harness ?? harnessOptionsOf(options.executor), metrics });
  const app = createApp({
    tasks,
    executor: options.executor,
    metrics,
    token: options.token,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 2 ** 20,
    requestTimeoutSeconds: options.requestTimeoutSeconds ?? 600,
    version: options.version ?? '0.1.0',
  });
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    await tasks.close();
    throw error;
  }
  // Many clients keep connections open (verl's requests, load generators).
  (server as import('node:http').Server).keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        (server as import('node:http').Server).closeAllConnections?.();
        server.close(() => resolve());
      });
      await tasks.close();
    },
  };
}

/** The harness of function-style tasks runs with the local pool's workers and sandbox (a queue server: the defaults). */
function harnessOptionsOf(executor: Executor): HarnessOptions {
  if (!(executor instanceof LocalExecutor)) return {};
  const { workers, sandbox } = executor.options;
  return { ...(workers ? { workers } : {}), ...(sandbox ? { sandbox } : {}) };
}
