/** `serve --queue` and `worker` with no Redis there: a clear error and a non-zero exit at once, never a retry loop. */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { crucible } from './cli-support.js';

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('serve --queue and worker with Redis down fail at once, saying what to do', { timeout: 120_000 }, async () => {
  const url = `redis://127.0.0.1:${await closedPort()}`;
  for (const args of [
    ['serve', '--queue', url, '--port', '0'],
    ['worker', '--queue', url],
  ]) {
    const { code, stderr } = await crucible(args);
    assert.equal(code, 2, stderr);
    assert.match(
      stderr,
      /cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/? \(ECONNREFUSED\): start redis-server there/,
    );
    assert.doesNotMatch(stderr, /listening/);
    assert.ok(stderr.split('\n').filter(Boolean).length <= 2, `one message, not a retry loop:\n${stderr}`);
  }
});
