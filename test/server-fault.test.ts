/**
 * Faults in the middle of a batch: a worker process killed while a 2,000-test batch runs
 * (the benchmark does 10,000) costs no verdict — every test gets exactly one, and right —
 * and a program printing 10 MiB is cut with output-limit instead of hanging.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestServer, SUM_RIGHT, type TestServer } from './server-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2 });
});
after(() => server.close());

it('a worker killed mid-batch: every test still gets exactly one verdict', async () => {
  const tests = Array.from({ length: 2000 }, (_, i) => ({
    stdin: `${i} ${i + 1}\n`,
    expected_stdout: `${2 * i + 1}\n`,
  }));
  const pool = server.executor.runner.pool('python');
  let killed = 0;
  const killer = setInterval(() => {
    if (killed >= 2) return;
    const pids = pool.pids;
    if (pool.busy === 0 || pids.length === 0) return;
    process.kill(-pids[killed % pids.length]!, 'SIGKILL');
    killed++;
  }, 700);
  try {
    const response = await server.post('/v1/verify', { language: 'python', candidates: [SUM_RIGHT], tests });
    assert.equal(response.status, 200);
    const [verdict] = response.json.results;
    assert.ok(killed >= 1, 'a worker was killed during the batch');
    assert.equal(verdict.tests.length, tests.length);
    assert.deepEqual(
      verdict.tests.map((t: { index: number }) => t.index).sort((a: number, b: number) => a - b),
      tests.map((_, i) => i),
    );
    assert.equal(verdict.status, 'pass', JSON.stringify(verdict.first_failure));
    assert.equal(verdict.passed, tests.length);
    assert.equal(response.json.summary.executions, tests.length);
  } finally {
    clearInterval(killer);
  }
});

it('10 MiB of output: truncated at the cap with output-limit, no hang', async () => {
  for (const [language, code] of [
    ['python', 'import sys\nsys.stdout.write("z" * (10 << 20))'],
    ['nodejs', 'process.stdout.write("z".repeat(10 << 20))'],
  ]) {
    const started = performance.now();
    const r = await server.post('/run_code', { code, language, run_timeout: 10 });
    assert.equal(r.status, 200);
    assert.equal(r.json.crucible.status, 'output-limit', language);
    assert.equal(r.json.status, 'Failed');
    assert.equal(r.json.run_result.status, 'Finished');
    assert.ok(r.json.run_result.stdout.length > 0 && r.json.run_result.stdout.length <= 1 << 20);
    assert.ok(performance.now() - started < 9000, 'stopped at the cap, not at the time limit');
  }
});
