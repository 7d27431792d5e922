/**
 * A token-less server (loopback) obeys only its own clients: scripts, trainers and curl (no
 * Origin, no Sec-Fetch-Site, Content-Type: application/json) and the dashboard's own page.
 * A page the user happens to open may not drive it: a DNS-rebound page (Host: attacker.example)
 * can neither run code nor read the run store, a cross-site form or no-cors fetch is refused
 * whatever its Content-Type says, a page of another origin (another port is another origin) is
 * refused, and a body that is not declared JSON is a 415 that says what to send. After each
 * refusal, an ordinary request is judged right. Through the app itself (hono's app.request)
 * with a real sandboxed executor, and once through a real server (the Host header as node
 * reads it off the socket).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../src/server/app.js';
import { createDashboard } from '../src/server/dashboard.js';
import { LocalExecutor } from '../src/server/executor.js';
import { Metrics } from '../src/server/metrics.js';
import { PackVerifiers } from '../src/server/pack-verifiers.js';
import { TaskVerifier } from '../src/server/verify-task.js';
import { Store } from '../src/store/store.js';
import { startTestServer, SUM_RIGHT, SUM_WRONG } from './server-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-cross-site-'));
const db = join(dir, 'crucible.db');
const metrics = new Metrics();
const executor = new LocalExecutor({ workers: 1 }, metrics);
const tasks = new TaskVerifier({ metrics });
const packs = new PackVerifiers();
let app: ReturnType<typeof createApp>;
let runId: string;

/** The address the server is reached at in these tests (app.request needs none, but the page does). */
const SELF = '127.0.0.1:8080';

before(() => {
  const store = new Store(db);
  const run = store.startRun({ task: 'secret-task', strategy: 'repair', model: 'private-model' });
  runId = run.id;
  store.close();
  const dashboard = createDashboard({ store: db });
  app = createApp({
    executor,
    metrics,
    tasks,
    packs,
    dashboard,
    maxBodyBytes: 1 << 20,
    requestTimeoutSeconds: 60,
    version: 'test',
    allowedHosts: ['crucible.lan'],
  });
});
after(async () => {
  await Promise.all([tasks.close(), packs.close(), executor.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const STDIN_TESTS = [
  { stdin: '1 2\n', expected_stdout: '3\n' },
  { stdin: '-1 5\n', expected_stdout: '4\n' },
];
const verifyBody = (code: string) => JSON.stringify({ language: 'python', candidates: [code], tests: STDIN_TESTS });
/** A body sent with no Content-Type at all (as python's requests.post(data=...) and a fetch of a Blob send it). */
const bytes = (text: string) => new TextEncoder().encode(text);
/** A program whose output shows that it ran. */
const RAN = JSON.stringify({ language: 'python', code: 'print("ran on the host")' });

async function call(
  path: string,
  init: { method?: string; host?: string; headers?: Record<string, string>; body?: BodyInit },
): Promise<{ status: number; json: any; text: string; sentType: string | null }> {
  const host = init.host ?? SELF;
  const sent = new Request(`http://${host}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { host, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const sentType = sent.headers.get('content-type');
  const response = await app.request(sent);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, sentType };
}

/** What a script, a trainer (verl's requests) or curl sends: JSON, declared so, and no browser headers. */
const asScript = (path: string, body: string, host = SELF) =>
  call(path, { host, headers: { 'content-type': 'application/json', accept: 'application/json' }, body });

/** The next ordinary request is judged right: the right program passes, the wrong one fails. */
async function nextIsJudgedRight(): Promise<void> {
  const right = await asScript('/v1/verify', verifyBody(SUM_RIGHT));
  assert.equal(right.status, 200, right.text);
  assert.equal(right.json.results[0].status, 'pass');
  assert.equal(right.json.results[0].reward, 1);
  const wrong = await asScript('/v1/verify', verifyBody(SUM_WRONG));
  assert.equal(wrong.status, 200, wrong.text);
  assert.equal(wrong.json.results[0].status, 'fail');
  assert.equal(wrong.json.results[0].passed, 0);
}

describe('DNS rebinding: a page whose name now points at 127.0.0.1', () => {
  const rebound = 'attacker.example:8080';
  // To the browser this is the page's own origin: same-origin, so it may read the answers.
  const sameOriginToTheBrowser = { 'sec-fetch-site': 'same-origin', origin: `http://${rebound}` };

  it('cannot read the run store', async () => {
    const runs = await call('/dashboard/api/runs', { host: rebound, headers: sameOriginToTheBrowser });
    assert.equal(runs.status, 403, runs.text);
    assert.doesNotMatch(runs.text, /secret-task|private-model/);
    assert.match(runs.json.error, /attacker\.example/);
    assert.match(runs.json.error, /127\.0\.0\.1|localhost/);
    assert.match(runs.json.error, /--allowed-host/);
    const run = await call(`/dashboard/api/runs/${runId}`, { host: rebound, headers: sameOriginToTheBrowser });
    assert.equal(run.status, 403);
    const page = await call('/', { host: rebound });
    assert.equal(page.status, 403);
    const metricsPage = await call('/metrics', { host: rebound });
    assert.equal(metricsPage.status, 403);
    // The server's own names still read it.
    const mine = await call('/dashboard/api/runs', { headers: { 'sec-fetch-site': 'same-origin' } });
    assert.equal(mine.status, 200);
    assert.deepEqual(
      mine.json.runs.map((r: { id: string }) => r.id),
      [runId],
    );
  });

  it('cannot run code, JSON or not; the next request is judged right', async () => {
    const ran = await call('/run_code', {
      host: rebound,
      headers: { ...sameOriginToTheBrowser, 'content-type': 'application/json' },
      body: RAN,
    });
    assert.equal(ran.status, 403, ran.text);
    assert.doesNotMatch(ran.text, /ran on the host/);
    const verified = await call('/v1/verify', {
      host: rebound,
      headers: { ...sameOriginToTheBrowser, 'content-type': 'application/json' },
      body: verifyBody(SUM_RIGHT),
    });
    assert.equal(verified.status, 403);
    await nextIsJudgedRight();
  });

  it('a name that looks like loopback is judged as a name: 127.0.0.1.attacker.example and localhost.attacker.example are refused', async () => {
    for (const host of ['127.0.0.1.attacker.example:8080', 'localhost.attacker.example', '0x7f.attacker.example']) {
      const r = await call('/healthz', { host });
      assert.equal(r.status, 403, host);
    }
  });
});

describe('a cross-site page (the user opened it in the same browser)', () => {
  const evil = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  it('an HTML form POST (text/plain, no preflight) is refused as cross-site; the next request is judged right', async () => {
    const form = await call('/run_code', {
      headers: { ...evil, 'content-type': 'text/plain' },
      body: `${RAN.slice(0, -1)}, "x": "="}`,
    });
    assert.equal(form.status, 403, form.text);
    assert.match(form.json.error, /cross-site/);
    await nextIsJudgedRight();
  });

  it('a no-cors fetch with "text/plain; x=json" (a safelisted type that mentions json) is refused; the next request is judged right', async () => {
    const sneaky = await call('/run_code', {
      headers: { ...evil, 'content-type': 'text/plain; x=json' },
      body: RAN,
    });
    assert.equal(sneaky.status, 403, sneaky.text);
    assert.doesNotMatch(sneaky.text, /ran on the host/);
    await nextIsJudgedRight();
  });

  it('a no-cors fetch of a Blob (no Content-Type at all) is refused; the next request is judged right', async () => {
    // Bytes, not a string: a string body would be given text/plain.
    const blob = await call('/v1/verify', { headers: evil, body: bytes(verifyBody(SUM_RIGHT)) });
    assert.equal(blob.sentType, null);
    assert.equal(blob.status, 403, blob.text);
    await nextIsJudgedRight();
  });

  it('an older browser that sends only Origin is refused by it, and so is Origin: null (a sandboxed frame, a file: page)', async () => {
    for (const origin of ['https://evil.example', 'null']) {
      const r = await call('/run_code', { headers: { origin, 'content-type': 'application/json' }, body: RAN });
      assert.equal(r.status, 403, `${origin}: ${r.text}`);
      assert.match(r.json.error, /Origin/);
    }
    await nextIsJudgedRight();
  });
});

describe('another origin of the same host (a page on another port is same-site, not same-origin)', () => {
  it('a page at localhost:3000 is refused with JSON too; the next request is judged right', async () => {
    const r = await call('/v1/verify', {
      headers: { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      body: verifyBody(SUM_RIGHT),
    });
    assert.equal(r.status, 403, r.text);
    assert.match(r.json.error, /same-site|origin/i);
    assert.match(r.json.error, /--token|script/);
    await nextIsJudgedRight();
  });
});

describe('Content-Type: JSON endpoints take application/json and nothing else', () => {
  it('a body without Content-Type, or with another one, is a 415 that says what to send; the next request is judged right', async () => {
    for (const type of [
      undefined,
      'text/plain',
      'text/plain; x=json',
      'application/x-www-form-urlencoded',
      'text/json',
    ]) {
      for (const path of ['/run_code', '/v1/verify', '/submit', '/v1/rewards/gated']) {
        const r = await call(path, type ? { headers: { 'content-type': type }, body: RAN } : { body: bytes(RAN) });
        assert.equal(r.sentType, type ?? null);
        assert.equal(r.status, 415, `${path} with ${type}: ${r.text}`);
        assert.match(r.json.error, /Content-Type: application\/json/);
      }
    }
    const charset = await call('/run_code', {
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: RAN,
    });
    assert.equal(charset.status, 200, 'parameters and case do not matter');
    assert.equal(charset.json.run_result.stdout, 'ran on the host\n');
    await nextIsJudgedRight();
  });
});

describe('what the server is for keeps working', () => {
  it('the dashboard’s own page (same-origin, its Origin) judges through /v1/verify', async () => {
    const r = await call('/v1/verify', {
      headers: { origin: `http://${SELF}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: verifyBody(SUM_RIGHT),
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.results[0].status, 'pass');
  });

  it('every loopback name, any port (an SSH tunnel), the --host name and --allowed-host names; GET navigations from elsewhere', async () => {
    for (const host of [
      'localhost:8080',
      'LOCALHOST:9000',
      '127.0.0.1',
      '127.0.0.2:8080',
      '[::1]:8080',
      'crucible.lan:8080',
    ]) {
      const r = await asScript('/run_code', RAN, host);
      assert.equal(r.status, 200, `${host}: ${r.text}`);
      assert.equal(r.json.run_result.stdout, 'ran on the host\n');
      const page = await call('/v1/verify', {
        host,
        headers: { origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: verifyBody(SUM_RIGHT),
      });
      assert.equal(page.status, 200, `${host} from its own page: ${page.text}`);
    }
    // A link to the dashboard from another site (a wiki, a notebook) opens it: a GET changes nothing.
    const linked = await call('/', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    assert.equal(linked.status, 200);
  });

  it('a server with a token has no Host allow-list: the token is what guards it', async () => {
    const guarded = createApp({
      executor,
      metrics,
      tasks,
      packs,
      token: 's3cret',
      maxBodyBytes: 1 << 20,
      requestTimeoutSeconds: 60,
      version: 'test',
    });
    const r = await guarded.request('http://crucible.internal:8080/run_code', {
      method: 'POST',
      headers: { host: 'crucible.internal:8080', authorization: 'Bearer s3cret', 'content-type': 'application/json' },
      body: RAN,
    });
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as any).run_result.stdout, 'ran on the host\n');
  });
});

describe('through a real server', () => {
  it('the Host header node reads off the socket is the one checked, in origin-form and absolute-form', async () => {
    const server = await startTestServer();
    try {
      const { port } = server;
      const send = (path: string, host: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port, path, method: 'POST', headers: { host, 'content-type': 'application/json' } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(RAN);
        });
      assert.equal(await send('/run_code', `attacker.example:${port}`), 403);
      assert.equal(await send(`http://127.0.0.1:${port}/run_code`, `attacker.example:${port}`), 403);
      assert.equal(await send('/run_code', `127.0.0.1:${port}`), 200);
      const r = await server.post('/v1/verify', JSON.parse(verifyBody(SUM_RIGHT)));
      assert.equal(r.status, 200);
      assert.equal(r.json.results[0].status, 'pass');
    } finally {
      await server.close();
    }
  });
});
