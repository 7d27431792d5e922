/**
 * Abandoned requests stop their work. A client that disconnects mid-run, or a request
 * already answered 504, frees its worker at once: its queued runs never start, its running
 * program is killed and the worker replaced. With one worker, the next client is answered
 * well before the abandoned program's own time limit would have freed it (times are
 * compared with that limit, not with tight absolute bounds, so load does not matter).
 * Time limits a server cannot honour (above --request-timeout) are a 400 that says so.
 * Beneath, the program pool: an aborted run is stopped at once, or never starts if it waits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Task } from '../src/core/task.js';
import { ProgramRunner } from '../src/runtimes/program-pool.js';
import { Harness } from '../src/domains/code/harness.js';
import { addTaskOf } from './contracts/runtime-contract.js';
import { startTestServer, SUM_RIGHT, type TestServer } from './server-support.js';

/** The abandoned programs' time limit: the next answer must come well before it. */
const ABANDONED_SECONDS = 60;
const SPIN = 'while True:\n    pass';
const { task: TASK, right: RIGHT, wrong: WRONG } = addTaskOf('python');

async function until(what: string, check: () => boolean, seconds = 30): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Seconds until `server` answers an ordinary program (it must be answered right). */
async function nextAnswer(server: TestServer): Promise<number> {
  const started = performance.now();
  const r = await server.post('/run_code', { code: 'print(6 * 7)', language: 'python', run_timeout: 10 });
  assert.equal(r.status, 200);
  assert.equal(r.json.status, 'Success', JSON.stringify(r.json));
  assert.equal(r.json.run_result.stdout, '42\n');
  return (performance.now() - started) / 1000;
}

describe('a client that disconnects mid-run (one worker)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workers: 1 });
    await nextAnswer(server); // the worker is started: the abandoned program runs at once
  });
  after(() => server.close());

  /**
   * Sends `body`, disconnects once its program runs, and times the next request from the
   * disconnection; after it, nothing of the abandoned request is left running or queued.
   */
  async function abandonThenNext(
    path: string,
    body: unknown,
  ): Promise<{ seconds: number; queuedAtDisconnect: number }> {
    const pool = server.executor.runner.pool('python');
    const client = new AbortController();
    const pending = fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: client.signal,
    }).catch(() => undefined);
    await until('the abandoned program to start', () => pool.busy === 1);
    await new Promise((r) => setTimeout(r, 300));
    const queuedAtDisconnect = pool.queued;
    client.abort();
    await pending;
    const abandoned = performance.now();
    await nextAnswer(server);
    const seconds = (performance.now() - abandoned) / 1000;
    assert.ok(seconds < ABANDONED_SECONDS / 4, `the next answer came ${seconds.toFixed(1)} s after the disconnection`);
    assert.deepEqual(
      { busy: pool.busy, queued: pool.queued },
      { busy: 0, queued: 0 },
      'nothing of the abandoned request is left',
    );
    return { seconds, queuedAtDisconnect };
  }

  it('/run_code: the next request is answered long before the abandoned program would end', async () => {
    await abandonThenNext('/run_code', { code: SPIN, language: 'python', run_timeout: ABANDONED_SECONDS });
  });

  it('/submit: the running test is stopped and the queued ones never start', async () => {
    const test = { input: { stdin: '' }, output: { stdout: '' } };
    const { queuedAtDisconnect } = await abandonThenNext('/submit', {
      dataset: 'x',
      id: 1,
      completion: '```python\n' + SPIN + '\n```',
      config: {
        language: 'python',
        run_timeout: ABANDONED_SECONDS,
        provided_data: { test: [test, test, test] },
        extra: { run_all_cases: true },
      },
    });
    assert.equal(queuedAtDisconnect, 2, 'two tests were waiting for the worker');
  });

  it('/v1/verify: the running test is stopped and the rest never start', async () => {
    await abandonThenNext('/v1/verify', {
      language: 'python',
      candidates: [SPIN, SPIN],
      tests: [{ expected_stdout: '' }, { expected_stdout: '' }],
      limits: { time_seconds: ABANDONED_SECONDS },
    });
  });

  it('/v1/verify with a task: candidates not started when the client leaves never start', async () => {
    // One judge worker; each slow candidate takes 3 s of its 4 s call limit.
    const task = {
      id: 'echo',
      language: 'python',
      prompt: 'def echo(x):\n    """x"""\n',
      entry_point: 'echo',
      tests: [{ input: '1', output: '1' }],
    };
    const fast = 'def echo(x):\n    return x\n';
    const slow = 'def echo(x):\n    import time\n    time.sleep(3)\n    return x\n';
    const judge = async () => {
      const r = await server.post('/v1/verify', { task, candidates: [fast] });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.results[0].status, 'pass', JSON.stringify(r.json));
    };
    await judge(); // the judge workers are started and the task prepared
    const candidates = Array.from({ length: 6 }, () => slow);
    const client = new AbortController();
    const pending = fetch(server.url + '/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task, candidates }),
      signal: client.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000)); // the first slow candidate is being judged
    client.abort();
    await pending;
    // Requests share the judge in turn, so each of the next five would wait for one more slow
    // candidate (3 s) if they ran: only the one running at the disconnection may finish.
    const abandoned = performance.now();
    for (let i = 0; i < 5; i++) await judge();
    const seconds = (performance.now() - abandoned) / 1000;
    assert.ok(seconds < 8, `the next five answers took ${seconds.toFixed(1)} s after the disconnection`);
  });

  it('abandoned runs are not counted as executions or sandbox failures; the requests are 499', async () => {
    const metrics = (await server.get('/metrics')).text;
    assert.match(metrics, /crucible_no_verdict_total 0\n/);
    assert.doesNotMatch(metrics, /status="timeout"/);
    assert.match(metrics, /crucible_http_requests_total\{route="\/run_code",code="499"\} 1\n/);
  });
});

describe('the request time limit', () => {
  const LIMIT = 12;
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workers: 1, requestTimeoutSeconds: LIMIT });
  });
  after(() => server.close());

  it('a 504 frees the worker: the next request is answered long before the abandoned program would end', async () => {
    await nextAnswer(server); // a warm worker: the tests start at once
    // The first test sleeps 8 s, the second spins from then on with a limit of LIMIT s: at the
    // 504 (LIMIT s in) it has about 8 s to go, and one more test waits behind it.
    const program =
      'import sys, time\nx = sys.stdin.read().strip()\nif x == "spin":\n    while True: pass\ntime.sleep(float(x))';
    const tests = ['8', 'spin', 'spin'].map((stdin) => ({ stdin, expected_stdout: '' }));
    const slow = await server.post('/v1/verify', {
      language: 'python',
      candidates: [program],
      tests,
      limits: { time_seconds: LIMIT },
    });
    assert.equal(slow.status, 504);
    assert.match(slow.json.error, /limit of 12s/);
    const seconds = await nextAnswer(server);
    assert.ok(seconds < LIMIT / 3, `the next answer took ${seconds.toFixed(1)} s`);
    const pool = server.executor.runner.pool('python');
    assert.deepEqual(
      { busy: pool.busy, queued: pool.queued },
      { busy: 0, queued: 0 },
      'nothing of the abandoned request is left',
    );
  });

  it('a time limit above --request-timeout is a 400 that says what to do; at the limit it runs', async () => {
    const over = await server.post('/run_code', { code: 'print(1)', language: 'python', run_timeout: LIMIT + 1 });
    assert.equal(over.status, 400);
    assert.match(
      over.json.error,
      /^run_timeout is 13 s, more than this server can honour: it answers every request within 12 s \(its --request-timeout\)\. Send run_timeout of at most 12/,
    );
    const compile = await server.post('/run_code', { code: 'print(1)', language: 'python', compile_timeout: 30 });
    assert.equal(compile.status, 400);
    assert.match(compile.json.error, /^compile_timeout is 30 s/);
    const submit = await server.post('/submit', {
      dataset: 'x',
      id: 1,
      completion: SUM_RIGHT,
      config: { run_timeout: 100, provided_data: { test: [{ input: { stdin: '1 2' }, output: { stdout: '3' } }] } },
    });
    assert.equal(submit.status, 400);
    assert.match(submit.json.error, /^config\.run_timeout is 100 s/);
    const verify = await server.post('/v1/verify', {
      language: 'python',
      candidates: [SUM_RIGHT],
      tests: [{ stdin: '1 2', expected_stdout: '3' }],
      limits: { time_seconds: 12.5 },
    });
    assert.equal(verify.status, 400);
    assert.match(verify.json.error, /^limits\.time_seconds is 12\.5 s/);
    // What verl sends (compile_timeout = run_timeout, 10-30 s) fits; so does the limit itself.
    for (const timeout of [10, LIMIT]) {
      const ok = await server.post('/run_code', {
        code: SUM_RIGHT,
        stdin: '1 2',
        language: 'python',
        compile_timeout: timeout,
        run_timeout: timeout,
      });
      assert.equal(ok.status, 200);
      assert.equal(ok.json.run_result.stdout, '3\n');
    }
    const doc = await server.get('/openapi.json');
    assert.match(doc.json.info.description, /--request-timeout \(12 s\)/);
  });
});

describe('the program pool: abandoned runs (one worker)', () => {
  const SPINS = { python: SPIN, javascript: 'for (;;) {}' } as const;
  const NORMAL = {
    python: 'print(sum(map(int, input().split())))',
    javascript: 'console.log(require("fs").readFileSync(0, "utf8").split(" ").map(Number).reduce((a, b) => a + b));',
  } as const;
  let runner: ProgramRunner;
  before(() => {
    runner = new ProgramRunner({ workers: 1, javascriptHeapBytes: 256 * 2 ** 20 });
  });
  after(() => runner.close());

  for (const language of ['python', 'javascript'] as const) {
    it(`${language}: a running program is stopped when its signal aborts, long before its own limit; its worker is replaced`, async () => {
      const pool = runner.pool(language);
      assert.equal((await runner.run(language, { code: NORMAL[language], stdin: '1 2' })).stdout, '3\n'); // a started worker: the program runs at once
      const controller = new AbortController();
      const run = runner.run(language, { code: SPINS[language], limits: { wallSeconds: 120 } }, controller.signal);
      await until('the program to start', () => pool.busy === 1);
      await new Promise((r) => setTimeout(r, 300));
      const [pid] = pool.pids;
      const stopped = performance.now();
      controller.abort();
      const result = await run;
      assert.equal(result.cancelled, true, JSON.stringify(result));
      assert.equal(result.status, 'no-verdict');
      assert.ok(performance.now() - stopped < 30_000, 'stopped at once, not at its 120 s limit');
      await until('the old worker process to end', () => {
        try {
          process.kill(pid!, 0);
          return false;
        } catch {
          return true; // the old worker process is gone
        }
      });
      const next = await runner.run(language, { code: NORMAL[language], stdin: '20 22' });
      assert.equal(next.stdout, '42\n', JSON.stringify(next));
      assert.notEqual(pool.pids[0], pid, 'a fresh worker ran it');
    });
  }

  it('a run waiting for the only worker leaves the line when its signal aborts, and never starts', async () => {
    const pool = runner.pool('python');
    const busy = runner.run('python', { code: 'import time\ntime.sleep(3)\nprint("done")' });
    await until('the program to start', () => pool.busy === 1);
    const controller = new AbortController();
    const waiting = runner.run('python', { code: 'print("must not run")' }, controller.signal);
    assert.equal(pool.queued, 1);
    controller.abort();
    const result = await waiting;
    assert.equal(result.cancelled, true);
    assert.equal(result.stdout, '');
    assert.equal(pool.queued, 0);
    assert.equal(pool.busy, 1, 'answered while the worker is still busy with the first program');
    assert.equal((await busy).stdout, 'done\n');
  });
});

describe('the harness: an abandoned judgement (one worker)', () => {
  // The runtime contract's Python task, its script suite only (no reference to run first).
  const { reference: _, ...withoutReference } = TASK;
  const task: Task = { ...withoutReference, id: 'abandon/add', suites: TASK.suites.filter((s) => s.kind === 'script') };
  const harness = new Harness({ workers: 1, untrustedTests: true, time: { scriptFloorSeconds: ABANDONED_SECONDS } });
  after(() => harness.close());

  it('a running judgement is stopped when its signal aborts, one waiting never starts, and the next is judged right', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const running = harness.judge(task, `def add(a, b):\n${SPIN.replace(/^/gm, '    ')}\n`, {
      signal: controller.signal,
    });
    const waiting = harness.judge(task, RIGHT, { signal: controller.signal });
    setTimeout(() => controller.abort(), 1000);
    const [stopped, never] = await Promise.all([running, waiting]);
    assert.equal(stopped.status, 'no-verdict');
    assert.equal(never.status, 'no-verdict');
    assert.match(never.firstFailure?.message ?? '', /abandoned/);
    assert.ok((performance.now() - started) / 1000 < ABANDONED_SECONDS / 4, 'stopped long before its own limit');
    assert.equal((await harness.judge(task, RIGHT)).status, 'pass');
    assert.equal((await harness.judge(task, WRONG)).status, 'fail');
  });
});
