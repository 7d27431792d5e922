/**
 * A private, throwaway redis-server on loopback for the queue's tests and benchmarks, and
 * the small process helpers they share: a free port, waiting for a condition, stopping a
 * child politely and then not.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface LocalRedis {
  readonly url: string;
  /** A client on it (errors ignored: the server is stopped under it at the end). */
  readonly client: Redis;
  stop(): Promise<void>;
}

/** Starts `binary` (default `redis-server`) without persistence in a temporary folder; resolves once it answers PING. */
export async function startLocalRedis(binary = process.env.REDIS_SERVER ?? 'redis-server'): Promise<LocalRedis> {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `${binary} is not installed, and the queue needs it: run scripts/setup.sh (Debian/Ubuntu: sudo apt-get install redis-server)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'crucible-redis-'));
  const port = await freePort();
  const server = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}/0`;
  const client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', () => {});
  const stop = async () => {
    client.disconnect();
    await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntil(`${binary} to answer`, async () => (await client.ping()) === 'PONG', 20);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, client, stop };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it gives something other than undefined or false; errors count as not yet. */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  seconds = 60,
): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch {}
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the child has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
