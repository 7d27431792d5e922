import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Executor } from '../runtimes/executor.js';
import type { LocalExecutor } from '../server/executor.js';
import type { SandboxMode } from '../runtimes/sandbox.js';
import { untilStopped } from './interrupt.js';
import { storeOption } from './record-options.js';
import { positiveInt, positiveNumber } from './shared-options.js';

interface ServeFlags {
  readonly host: string;
  readonly port: number;
  readonly token?: string;
  readonly allowedHost: readonly string[];
  readonly sessionHours: number;
  readonly workers?: number;
  readonly sandbox: SandboxMode;
  readonly maxBodyMb: number;
  readonly requestTimeout: number;
  readonly queue?: string;
  /** The run store the dashboard shows. */
  readonly db: string;
}

/** Browsers cap a cookie's Max-Age at 400 days. */
const sessionHours = (value: string) => {
  const n = Number(value);
  if (!(n > 0 && n <= 400 * 24))
    throw new InvalidArgumentError(
      'expected hours above 0, at most 9600 (400 days, the longest a browser keeps a cookie)',
    );
  return n;
};

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number 0-65535');
  return n;
};

export function withServeOptions(command: Command): Command {
  return command
    .option(
      '--host <address>',
      'address or name to listen on (without a token, everything it resolves to must be loopback: 127.0.0.0/8, ::1)',
      '127.0.0.1',
    )
    .option('--port <n>', 'port to listen on', port, 8080)
    .option('--token <secret>', 'bearer token required on every request (default: $CRUCIBLE_TOKEN)')
    .addOption(
      new Option(
        '--allowed-host <name>',
        'without a token: a Host name the server also answers to besides localhost, loopback addresses and --host (a name of yours that points here; repeat, or separate by commas)',
      )
        .argParser((value: string, previous: string[]) => [
          ...previous,
          ...value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        ])
        .default([], 'none'),
    )
    .option(
      '--session-hours <h>',
      "how long the dashboard's browser session lasts after the token is given (then the printed address is needed again)",
      sessionHours,
      12,
    )
    .option('--workers <n>', 'warm sandboxed workers per language (default: one per core)', positiveInt)
    .addOption(
      new Option('--sandbox <mode>', 'isolation for untrusted code').choices(['bwrap', 'none']).default('bwrap'),
    )
    .option('--max-body-mb <mb>', 'largest request body in MiB', positiveNumber, 64)
    .option('--request-timeout <seconds>', 'longest a request may take before it is answered 504', positiveNumber, 600)
    .option(
      '--queue <url>',
      'put the work on BullMQ queues on this Redis server (redis://host:port[/db]) for `crucible worker` processes to run, instead of running it here',
    )
    .addOption(storeOption());
}

export async function runServe(flags: ServeFlags): Promise<void> {
  // Loaded here, not with the command line: the server's modules take a second to load, which
  // `crucible --help` and every other command would pay.
  const [
    { LocalExecutor, warmPython },
    { Metrics },
    { describeRedisUrl },
    { QueueExecutor },
    { startServer },
    { assertSandboxUsable },
  ] = await Promise.all([
    import('../server/executor.js'),
    import('../server/metrics.js'),
    import('../server/queue/protocol.js'),
    import('../server/queue/queue-executor.js'),
    import('../server/serve.js'),
    import('../runtimes/sandbox.js'),
  ]);
  const metrics = new Metrics();
  let executor: Executor;
  let local: LocalExecutor | undefined;
  if (flags.queue) {
    // Programs run in the workers; --workers and --sandbox are theirs to set.
    executor = await QueueExecutor.connect({ url: flags.queue, metrics });
  } else {
    assertSandboxUsable(flags.sandbox);
    if (flags.sandbox === 'none')
      process.stderr.write(
        'crucible: warning: --sandbox none runs programs without isolation; use it only for code you trust.\n',
      );
    local = new LocalExecutor(
      { sandbox: flags.sandbox, ...(flags.workers ? { workers: flags.workers } : {}) },
      metrics,
    );
    executor = local;
  }
  const token = flags.token ?? process.env.CRUCIBLE_TOKEN ?? undefined;
  let server;
  try {
    server = await startServer({
      host: flags.host,
      port: flags.port,
      executor,
      metrics,
      token: token || undefined,
      allowedHosts: flags.allowedHost,
      sessionSeconds: Math.max(1, Math.round(flags.sessionHours * 3600)),
      maxBodyBytes: Math.floor(flags.maxBodyMb * 2 ** 20),
      requestTimeoutSeconds: flags.requestTimeout,
      // Function-style /v1/verify judges on this host, with the same flags.
      harness: { sandbox: flags.sandbox, ...(flags.workers ? { workers: flags.workers } : {}) },
      store: flags.db,
    });
  } catch (error) {
    await executor.close();
    throw error;
  }
  const where = flags.queue ? `; programs run by crucible worker processes on ${describeRedisUrl(flags.queue)}` : '';
  process.stderr.write(
    `crucible serve: listening on ${server.url} (${token ? 'bearer token required' : "no token: loopback only, other sites' pages refused"}; POST /run_code, /submit, /v1/verify; GET /healthz, /metrics, /openapi.json${where})\n` +
      `crucible serve: dashboard at ${server.dashboardUrl} (runs of ${flags.db})\n`,
  );
  // Warm the Python workers now so that the first requests do not pay for starting them.
  // A failed warm-up is not fatal: the first request starts the workers again.
  if (local) void warmPython(local.runner).catch(() => {});
  const why = await untilStopped();
  process.stderr.write(`crucible serve: stopping (${why})\n`);
  await server.close();
  await executor.close();
}
