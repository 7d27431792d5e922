/**
 * The HTTP API end to end on a real server: /run_code and /submit outcomes, /v1/verify
 * verdicts and rewards (and SSE), advantages, health, metrics, OpenAPI, auth and limits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { batchGroupAdvantages } from '../src/rl/group-advantage.js';
import { gatedReward } from '../src/rl/gated-reward.js';
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { checkExposure, isLoopbackAddress, type Lookup } from '../src/server/serve.js';
import { BIN } from './cli-support.js';
import { startTestServer, SUM_RIGHT, SUM_WRONG, type TestServer } from './server-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2 });
});
after(() => server.close());

const runCode = (body: Record<string, unknown>) =>
  server.post('/run_code', { compile_timeout: 10, run_timeout: 10, files: {}, fetch_files: [], ...body });

describe('/run_code', () => {
  it('runs Python with stdin: Success, Finished, stdout', async () => {
    const r = await runCode({ code: SUM_RIGHT, stdin: '2 3\n', language: 'python' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'Success');
    assert.equal(r.json.run_result.status, 'Finished');
    assert.equal(r.json.run_result.return_code, 0);
    assert.equal(r.json.run_result.stdout, '5\n');
    assert.equal(r.json.compile_result, null);
  });

  it('runs nodejs and typescript programs reading stdin', async () => {
    const js = await runCode({
      language: 'nodejs',
      stdin: '4 5\n',
      code: 'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(" ").map(Number);\nconsole.log(a * b);',
    });
    assert.equal(js.json.run_result.stdout, '20\n');
    const ts = await runCode({
      language: 'typescript',
      stdin: 'x\ny\n',
      code: 'const rl = require("readline").createInterface({ input: process.stdin });\nconst seen: string[] = [];\nrl.on("line", (l: string) => seen.push(l));\nrl.on("close", () => console.log(seen.join("+")));',
    });
    assert.equal(ts.json.status, 'Success', JSON.stringify(ts.json));
    assert.equal(ts.json.run_result.stdout, 'x+y\n');
  });

  it('a failing program is Failed with its exit code and stderr, not SandboxError', async () => {
    const r = await runCode({ code: 'import sys\nprint("partial")\nsys.exit(3)', language: 'python' });
    assert.equal(r.json.status, 'Failed');
    assert.equal(r.json.run_result.status, 'Finished');
    assert.equal(r.json.run_result.return_code, 3);
    assert.equal(r.json.run_result.stdout, 'partial\n');
    const raised = await runCode({ code: 'raise KeyError("k")', language: 'python' });
    assert.match(raised.json.run_result.stderr, /KeyError: 'k'/);
    assert.equal(raised.json.run_result.return_code, 1);
  });

  it('a program past run_timeout is TimeLimitExceeded', async () => {
    const r = await runCode({ code: 'while True:\n    pass', language: 'python', run_timeout: 1 });
    assert.equal(r.json.status, 'Failed');
    assert.equal(r.json.run_result.status, 'TimeLimitExceeded');
    assert.equal(r.json.crucible.status, 'timeout');
  });

  it('files in, fetch_files out (base64)', async () => {
    const r = await runCode({
      language: 'python',
      code: 'open("out.txt", "w").write(open("data/in.txt").read().upper())',
      files: { 'data/in.txt': Buffer.from('hello').toString('base64') },
      fetch_files: ['out.txt'],
    });
    assert.equal(r.json.status, 'Success', JSON.stringify(r.json));
    assert.equal(Buffer.from(r.json.files['out.txt'], 'base64').toString(), 'HELLO');
  });

  it('a language this server does not run is SandboxError (HTTP 200, as SandboxFusion)', async () => {
    const r = await runCode({ code: 'int main(){}', language: 'cpp' });
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'SandboxError');
    assert.match(r.json.message, /cpp is not run by this server/);
  });

  it('malformed input is a 400 that names the field', async () => {
    const r = await server.post('/run_code', { language: 'python' });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /^code: /);
    const lang = await server.post('/run_code', { code: 'x', language: 'klingon' });
    assert.equal(lang.status, 400);
    assert.match(lang.json.error, /unknown language "klingon"/);
    const notJson = await server.post('/run_code', '{"code": ');
    assert.equal(notJson.status, 400);
    assert.match(notJson.json.error, /not valid JSON/);
  });
});

describe('/submit', () => {
  const body = (completion: string, extra: Record<string, unknown> = {}) => ({
    dataset: 'code_contests',
    id: 17,
    completion,
    config: {
      language: 'python',
      provided_data: {
        id: 17,
        content: '',
        test: [
          { input: { stdin: '1 2\n' }, output: { stdout: '3\n' } },
          { input: { stdin: '5 5\n' }, output: { stdout: '10\n' } },
        ],
      },
      extra,
    },
  });

  it('extracts fenced code and accepts a right program', async () => {
    const r = await server.post('/submit', body('Here:\n```python\n' + SUM_RIGHT + '```\n'));
    assert.equal(r.status, 200);
    assert.equal(r.json.accepted, true);
    assert.equal(r.json.extracted_type, 'fenced');
    assert.equal(r.json.extracted_code, SUM_RIGHT);
    assert.equal(r.json.tests.length, 2);
    assert.ok(r.json.tests.every((t: { passed: boolean }) => t.passed));
  });

  it('rejects a wrong program; fails fast unless run_all_cases', async () => {
    const fast = await server.post('/submit', body('```python\n' + SUM_WRONG + '```'));
    assert.equal(fast.json.accepted, false);
    assert.equal(fast.json.tests.length, 1);
    const all = await server.post('/submit', body('```python\n' + SUM_WRONG + '```', { run_all_cases: true }));
    assert.equal(all.json.tests.length, 2);
  });

  it('without provided_data: 400 saying to send the tests', async () => {
    const r = await server.post('/submit', { dataset: 'x', id: 1, completion: 'print(1)', config: {} });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /provided_data/);
  });
});

describe('/v1/verify', () => {
  const tests = [
    { stdin: '1 2\n', expected_stdout: '3\n', public: true },
    { stdin: '10 20\n', expected_stdout: '30\n', public: true },
    { stdin: '0 0\n', expected_stdout: '0\n' },
  ];

  it('tests are hidden unless marked public; a program failing them all earns only the levels it passed, as an exact fraction', async () => {
    const r = await server.post('/v1/verify', {
      language: 'python',
      candidates: ['print(4)'],
      tests: tests.map(({ stdin, expected_stdout }) => ({ stdin, expected_stdout })),
    });
    assert.equal(r.status, 200, r.text);
    const [v] = r.json.results;
    assert.equal(v.status, 'fail');
    // parses, loads and runs; no public tests (vacuous: no weight), every hidden one failed.
    assert.equal(v.reward, 0.75);
    assert.equal(v.first_failed_level, 'hidden');
    const marked = await server.post('/v1/verify', { language: 'python', candidates: ['print(4)'], tests });
    assert.equal(marked.json.results[0].reward, 0.6, 'three of five levels, exactly');
  });

  it('judges many candidates × many tests: verdicts, failing inputs, pass rate and gated reward', async () => {
    const r = await server.post('/v1/verify', {
      language: 'python',
      candidates: [
        SUM_RIGHT,
        { id: 'wrong', code: SUM_WRONG },
        { id: 'syntax', code: 'def (' },
        { id: 'crash', code: 'raise SystemExit(2)' },
      ],
      tests,
    });
    assert.equal(r.status, 200, r.text);
    const [right, wrong, syntax, crash] = r.json.results;
    assert.equal(right.status, 'pass');
    assert.equal(right.passed, 3);
    assert.equal(right.reward, 1);
    assert.equal(right.pass_rate, 1);

    assert.equal(wrong.id, 'wrong');
    assert.equal(wrong.status, 'fail');
    assert.equal(wrong.passed, 1, 'only 0 0 gives a - b == a + b');
    assert.equal(wrong.first_failure.index, 0);
    assert.equal(wrong.first_failure.input, '1 2\n');
    assert.equal(wrong.first_failure.actual, '-1\n');
    assert.equal(wrong.minimal_failure.input, '1 2\n', 'the shortest failing input');
    const expected = gatedReward({
      parses: 1,
      loads: { passed: 3, total: 3 },
      runs: { passed: 3, total: 3 },
      publicTests: { passed: 0, total: 2 },
      hidden: { passed: 1, total: 1 },
    });
    assert.equal(wrong.reward, expected.reward);
    assert.equal(wrong.first_failed_level, 'publicTests');

    assert.equal(syntax.status, 'error');
    assert.equal(syntax.reward, 0, 'does not parse: the first gate is closed');
    assert.equal(syntax.gates.parses, 0);
    assert.equal(crash.status, 'error');
    assert.equal(crash.first_failed_level, 'loads');
    assert.equal(r.json.summary.executions, 12);
  });

  it('a sandbox failure is no-verdict with reward null, never 0 or 1', async () => {
    const broken = await startTestServer();
    try {
      const pool = broken.executor.runner.pool('python');
      await pool.close();
      const r = await broken.post('/v1/verify', { language: 'python', candidates: [SUM_RIGHT], tests });
      assert.equal(r.status, 200);
      const [v] = r.json.results;
      assert.equal(v.status, 'no-verdict');
      assert.equal(v.reward, null);
      assert.equal(v.pass_rate, null);
      assert.match(v.reason, /sandbox failed/);
      const metrics = await broken.get('/metrics');
      assert.match(metrics.text, /crucible_no_verdict_total [1-9]/);
    } finally {
      await broken.close();
    }
  });

  it('streams progress and each verdict as server-sent events', async () => {
    const response = await fetch(server.url + '/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ language: 'python', candidates: [SUM_RIGHT, SUM_WRONG], tests }),
    });
    assert.equal(response.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    const text = await response.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
      event: m[1],
      data: JSON.parse(m[2]!),
    }));
    const verdicts = events.filter((e) => e.event === 'verdict');
    assert.equal(verdicts.length, 2);
    assert.deepEqual(verdicts.map((v) => v.data.status).sort(), ['fail', 'pass']);
    const progress = events.filter((e) => e.event === 'progress');
    assert.ok(progress.length >= 1);
    assert.deepEqual(progress.at(-1)!.data, { done: 6, total: 6 });
    assert.equal(events.at(-1)!.event, 'done');
    assert.equal(events.at(-1)!.data.executions, 6);
  });

  it('rejects an empty batch with a clear 400', async () => {
    const r = await server.post('/v1/verify', { language: 'python', candidates: [], tests });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /candidates is empty/);
  });
});

describe('/v1/rewards', () => {
  it('advantages come from rl/ (GRPO here), in request order', async () => {
    const rollouts = [
      { group: 'a', reward: 1 },
      { group: 'a', reward: 0 },
      { group: 'b', reward: 0.5 },
      { group: 'b', reward: 0.25 },
    ];
    const r = await server.post('/v1/rewards/advantages', { method: 'grpo', rollouts });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.advantages, batchGroupAdvantages(rollouts));
  });

  it('a bad rollout is a 400 naming it', async () => {
    const r = await server.post('/v1/rewards/advantages', {
      method: 'grpo',
      rollouts: [{ group: 'a', reward: 'high' }],
    });
    assert.equal(r.status, 400);
    assert.match(r.json.error, /rollouts\.0\.reward/);
  });

  it('gated reward from level scores', async () => {
    const levels = { parses: 1, loads: 1, runs: 0.5, publicTests: { passed: 1, total: 2 }, hidden: 'no-verdict' };
    const r = await server.post('/v1/rewards/gated', { levels });
    assert.equal(r.json.reward, null);
  });
});

describe('service endpoints', () => {
  it('healthz, metrics and the OpenAPI document', async () => {
    const health = await server.get('/healthz');
    assert.equal(health.json.status, 'ok');
    const metrics = await server.get('/metrics');
    assert.match(metrics.text, /crucible_executions_total\{language="python",status="ok"\} [1-9]/);
    assert.match(metrics.text, /crucible_execution_seconds_bucket\{language="python",le="\+Inf"\} [1-9]/);
    assert.match(metrics.text, /crucible_queue_depth 0/);
    const doc = await server.get('/openapi.json');
    assert.equal(doc.json.openapi, '3.1.0');
    for (const path of ['/run_code', '/submit', '/v1/verify', '/v1/rewards/advantages'])
      assert.ok(doc.json.paths[path]?.post?.requestBody, path);
  });

  it('bearer token: required when configured, except /healthz', async () => {
    const guarded = await startTestServer({ token: 's3cret' });
    try {
      const body = { code: 'print(1)', language: 'python' };
      assert.equal((await guarded.post('/run_code', body)).status, 401);
      assert.equal((await guarded.post('/run_code', body, { authorization: 'Bearer wrong' })).status, 401);
      const ok = await guarded.post('/run_code', body, { authorization: 'Bearer s3cret' });
      assert.equal(ok.json.run_result.stdout, '1\n');
      assert.equal((await guarded.get('/healthz')).status, 200);
      assert.equal((await guarded.get('/metrics')).status, 401);
    } finally {
      await guarded.close();
    }
  });

  it('refuses to listen beyond loopback without a token', async () => {
    await assert.rejects(
      checkExposure('0.0.0.0', undefined),
      /refusing to listen on 0\.0\.0\.0 without a bearer token/,
    );
    await assert.rejects(checkExposure('::', undefined), /without a bearer token/);
    assert.equal(await checkExposure('0.0.0.0', 'token'), '0.0.0.0');
    // Loopback needs no token, and the server listens on the address that was checked.
    assert.equal(await checkExposure('127.0.0.1', undefined), '127.0.0.1');
    assert.equal(await checkExposure('127.8.9.10', undefined), '127.8.9.10');
    assert.equal(await checkExposure('::1', undefined), '::1');
    assert.equal(await checkExposure('::ffff:127.0.0.1', undefined), '::ffff:127.0.0.1');
    assert.ok(isLoopbackAddress(await checkExposure('localhost', undefined)));
  });

  it('a name is loopback only if everything it resolves to is, however it is spelled', async () => {
    // A resolver standing in for DNS, where such names could point anywhere.
    const dns: Lookup = async (host) => {
      const table: Record<string, string[]> = {
        '127.0.0.1.example': ['93.184.215.14'],
        '127.evil': ['10.1.2.3'],
        'half.example': ['127.0.0.1', '192.0.2.7'],
        'mapped.example': ['::ffff:10.0.0.1'],
        'loop.example': ['127.0.0.1', '::1', '::ffff:127.0.0.2'],
      };
      if (!table[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return table[host]!.map((address) => ({ address }));
    };
    await assert.rejects(
      checkExposure('127.0.0.1.example', undefined, dns),
      /^Error: refusing to listen on 127\.0\.0\.1\.example \(93\.184\.215\.14\) without a bearer token.*Pass --token/,
    );
    await assert.rejects(checkExposure('127.evil', undefined, dns), /refusing to listen on 127\.evil \(10\.1\.2\.3\)/);
    await assert.rejects(
      checkExposure('half.example', undefined, dns),
      /refusing to listen on half\.example \(192\.0\.2\.7\)/,
    );
    await assert.rejects(checkExposure('mapped.example', undefined, dns), /without a bearer token/);
    assert.equal(await checkExposure('loop.example', undefined, dns), '127.0.0.1');
    assert.equal(await checkExposure('127.0.0.1.example', 'token', dns), '93.184.215.14');
    // The system's resolver (dns.lookup, as listen() uses): these names do not resolve, or not to loopback.
    for (const host of ['127.0.0.1.example', '127.evil', 'localhost.invalid']) {
      await assert.rejects(
        checkExposure(host, undefined),
        /does not resolve.*Give an IP address such as 127\.0\.0\.1|without a bearer token/,
        host,
      );
    }
    // inet_aton spellings are judged by the address they mean, which is what the server binds.
    for (const host of ['0x7f.1', '127.1', '2130706433', '0x0a.1']) {
      const meant = await lookup(host).then(
        (a) => a.address,
        () => undefined,
      );
      if (meant !== undefined && isLoopbackAddress(meant))
        assert.equal(await checkExposure(host, undefined), meant, host);
      else await assert.rejects(checkExposure(host, undefined), /without a bearer token|does not resolve/, host);
    }
  });

  it('crucible serve --host with a name that does not resolve: exit 2 with what to do', async () => {
    const env = { ...process.env };
    delete env.CRUCIBLE_TOKEN;
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [BIN, 'serve', '--host', '127.0.0.1.invalid', '--port', '0'],
        { env, timeout: 60_000 },
        (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /crucible: cannot listen on 127\.0\.0\.1\.invalid: the name does not resolve \([A-Z_]+\)\. Give an IP address such as 127\.0\.0\.1/,
    );
  });

  it('body size and request time limits: 413 and 504 with what to do', async () => {
    const small = await startTestServer({ maxBodyBytes: 1000, requestTimeoutSeconds: 1 });
    try {
      const big = await small.post('/run_code', { code: 'x'.repeat(5000), language: 'python' });
      assert.equal(big.status, 413);
      assert.match(big.json.error, /split the batch, or raise --max-body-mb/);
      const slow = await small.post('/v1/verify', {
        language: 'python',
        candidates: ['import time\ntime.sleep(3)'],
        tests: [{ expected_stdout: '' }],
      });
      assert.equal(slow.status, 504);
      assert.match(slow.json.error, /limit of 1s/);
    } finally {
      await small.close();
    }
  });
});
