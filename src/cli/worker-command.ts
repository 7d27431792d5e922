/**
 * `crucible worker --queue redis://host:port[/db]`: runs the programs that
 * `crucible serve --queue` puts on Redis, on this host's warm sandboxed pools. Start as
 * many as you like, on any hosts that reach the Redis server.
 */
import { Option, type Command } from 'commander';
import type { SandboxMode } from '../runtimes/sandbox.js';
import { positiveInt } from './shared-options.js';
import { untilStopped } from './interrupt.js';

interface WorkerFlags {
  readonly queue: string;
  readonly workers?: number;
  readonly concurrency?: number;
  readonly sandbox: SandboxMode;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the programs that `crucible serve --queue` puts on Redis (any number of workers, on any hosts)')
    .requiredOption('--queue <url>', 'the Redis server shared with crucible serve: redis://host:port[/db]')
    .option('--workers <n>', 'warm sandboxed workers per language (default: one per core)', positiveInt)
    .option(
      '--concurrency <n>',
      'jobs taken at once (default: four per worker, so the next program is at hand while results cross Redis)',
      positiveInt,
    )
    .addOption(
      new Option('--sandbox <mode>', 'isolation for untrusted code').choices(['bwrap', 'none']).default('bwrap'),
    )
    .action(runWorker);
}

export async function runWorker(flags: WorkerFlags): Promise<void> {
  // Loaded here, not with the command line (see runServe).
  const [{ assertSandboxUsable }, { warmPython }, { describeRedisUrl }, { startQueueWorker }] = await Promise.all([
    import('../runtimes/sandbox.js'),
    import('../server/executor.js'),
    import('../server/queue/protocol.js'),
    import('../server/queue/worker.js'),
  ]);
  const shown = describeRedisUrl(flags.queue);
  assertSandboxUsable(flags.sandbox);
  if (flags.sandbox === 'none')
    process.stderr.write(
      'crucible: warning: --sandbox none runs programs without isolation; use it only for code you trust.\n',
    );
  const worker = await startQueueWorker({
    url: flags.queue,
    sandbox: flags.sandbox,
    ...(flags.workers ? { workers: flags.workers } : {}),
    ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
  });
  process.stderr.write(
    `crucible worker ${worker.info.id}: taking jobs from ${shown} (${worker.info.workers} workers per language, ${worker.info.concurrency} programs at once)\n`,
  );
  // A failed warm-up is not fatal: the first job starts the workers again.
  void warmPython(worker.runner).catch(() => {});
  const why = await untilStopped();
  process.stderr.write(
    `crucible worker ${worker.info.id}: stopping after the running programs (${why}; ${worker.done} done)\n`,
  );
  await worker.close();
}
