/** `npx crucible serve`: npm exits on SIGTERM without passing it on; the server must not outlive it. */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { test } from 'node:test';
import { BIN } from './cli-support.js';

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a server started by npm stops when npm is gone, and so do its workers', { timeout: 120_000 }, async () => {
  // The shell stands for npm: it starts the server (with npm's environment) and is killed without a word.
  const parent = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" serve --port 0 --workers 1 & echo $!; wait`], {
    env: { ...process.env, npm_command: 'exec' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const pid = Number(
    await new Promise<string>((resolve) =>
      parent.stdout.once('data', (chunk: Buffer) => resolve(String(chunk).trim())),
    ),
  );
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.match(stderr, /listening on/);
  // Its warm sandboxed workers, once started: they must end with it (bwrap --die-with-parent).
  let workers: number[] = [];
  while (workers.length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    workers = childrenOf(pid);
  }
  assert.ok(workers.length > 0, 'the server started its workers');
  parent.kill('SIGKILL');
  const stopBy = Date.now() + 30_000;
  while (alive(pid) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 100));
  assert.equal(alive(pid), false, `the server outlived the npm that started it:\n${stderr}`);
  while (workers.some(alive) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(workers.filter(alive), [], 'its workers outlived it');
});
