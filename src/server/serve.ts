import { VERSION } from '../core/version.js';
import { serve, type ServerType } from '@hono/node-server';
import { lookup } from 'node:dns/promises';
import { isIP, type AddressInfo } from 'node:net';
import { isLoopbackAddress } from './loopback.js';
import { createApp } from './app.js';
import { createDashboard } from './dashboard.js';
import type { Executor } from '../runtimes/executor.js';
import { LocalExecutor } from './executor.js';
import { Metrics } from './metrics.js';
import { PackVerifiers } from './pack-verifiers.js';
import { installedPacks, type RuntimeOptions } from '../domains/registry.js';
import { TaskVerifier } from './verify-task.js';
import type { HarnessOptions } from '../domains/code/harness.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly executor: Executor;
  readonly metrics?: Metrics;
  readonly token?: string | undefined;
  /** Without a token: Host names the server answers to besides localhost, loopback addresses and `host` (`--allowed-host`). */
  readonly allowedHosts?: readonly string[];
  readonly maxBodyBytes?: number;
  readonly requestTimeoutSeconds?: number;
  readonly version?: string;
  /**
   * Options of the harness that judges function-style /v1/verify requests (in this process,
   * also with a queue executor). Default: the local executor's workers and sandbox.
   */
  readonly harness?: HarnessOptions;
  /** Resolves --host (default: dns.lookup, as listen() does); tests give their own. */
  readonly lookup?: Lookup;
  /** The run store the dashboard at `/` lists (`--db`); none: the dashboard has no runs. */
  readonly store?: string;
  /** How long a dashboard session lasts, in seconds (`--session-hours`; default 12 h). */
  readonly sessionSeconds?: number;
}

export interface RunningServer {
  readonly url: string;
  /** The dashboard's address, with the token once (it sets a session cookie and drops it from the address). */
  readonly dashboardUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

export { isLoopbackAddress };

export type Lookup = (host: string) => Promise<ReadonlyArray<{ address: string }>>;

const systemLookup: Lookup = (host) => lookup(host, { all: true });

/**
 * The address to listen on for `host`, resolved as listen() would (dns.lookup: /etc/hosts,
 * then DNS) and then used as it is, so that what was checked is what is bound. Without a
 * token the server must be reachable only from this machine (anyone who can reach it runs
 * code): every address the name resolves to must be loopback. A name that looks like one
 * (127.0.0.1.example) is judged by where it points, not by how it is spelled.
 */
export async function checkExposure(
  host: string,
  token: string | undefined,
  resolve: Lookup = systemLookup,
): Promise<string> {
  let addresses: ReadonlyArray<{ address: string }>;
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(
      `cannot listen on ${host}: the name does not resolve (${code}). Give an IP address such as 127.0.0.1, or a name this machine resolves (see /etc/hosts).`,
    );
  }
  if (addresses.length === 0)
    throw new Error(`cannot listen on ${host}: the name resolves to no address. Give an IP address such as 127.0.0.1.`);
  const exposed = addresses.filter((a) => !isLoopbackAddress(a.address));
  if (!token && exposed.length > 0) {
    const where = isIP(host) ? host : `${host} (${exposed.map((a) => a.address).join(', ')})`;
    throw new Error(
      `refusing to listen on ${where} without a bearer token: anyone who can reach it could run code. ` +
        'Pass --token <secret> (or set CRUCIBLE_TOKEN), or listen on 127.0.0.1.',
    );
  }
  return addresses[0]!.address;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const address = await checkExposure(options.host, options.token, options.lookup);
  const metrics = options.metrics ?? new Metrics();
  const tasks = new TaskVerifier({ harness: options.harness ?? poolOptionsOf(options.executor), metrics });
  const packs = new PackVerifiers(await installedPacks(), poolOptionsOf(options.executor));
  const dashboard = createDashboard({
    token: options.token,
    store: options.store,
    ...(options.sessionSeconds !== undefined ? { sessionSeconds: options.sessionSeconds } : {}),
  });
  // With a store (crucible serve), build the page's script now rather than at the first visit.
  if (options.store !== undefined) dashboard.warm();
  const app = createApp({
    tasks,
    packs,
    dashboard,
    executor: options.executor,
    metrics,
    token: options.token,
    allowedHosts: [options.host, ...(options.allowedHosts ?? [])],
    maxBodyBytes: options.maxBodyBytes ?? 64 * 2 ** 20,
    requestTimeoutSeconds: options.requestTimeoutSeconds ?? 600,
    version: options.version ?? VERSION,
  });
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: address, port: options.port }, () => resolve(s));
      s.once('error', reject);
    });
  } catch (error) {
    dashboard.close();
    await Promise.all([tasks.close(), packs.close()]);
    throw error;
  }
  // Many clients keep connections open (verl's requests, load generators).
  (server as import('node:http').Server).keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  const shown = address.includes(':') ? `[${address}]` : address;
  const url = `http://${shown}:${port}`;
  return {
    url,
    dashboardUrl: options.token ? `${url}/?token=${encodeURIComponent(options.token)}` : `${url}/`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        (server as import('node:http').Server).closeAllConnections?.();
        server.close(() => resolve());
      });
      dashboard.close();
      await Promise.all([tasks.close(), packs.close()]);
    },
  };
}

/**
 * The harness of function-style tasks and the packs' runtimes run with the local pool's workers
 * and sandbox (a queue server: the defaults).
 */
function poolOptionsOf(executor: Executor): HarnessOptions & Partial<RuntimeOptions> {
  if (!(executor instanceof LocalExecutor)) return {};
  const { workers, sandbox } = executor.options;
  return { ...(workers ? { workers } : {}), ...(sandbox ? { sandbox } : {}) };
}
