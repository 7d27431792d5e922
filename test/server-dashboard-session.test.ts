/**
 * The dashboard's session, in process (hono's app.request) with a real sandboxed executor:
 * each login with the token gets a random session id of its own, kept by the server, in an
 * HttpOnly, SameSite=Strict cookie with a Max-Age; logging out or the session's age ends it,
 * and so does a restart. The cookie of the old scheme (a fixed HMAC of the token, the same for
 * every login and every run of the server) opens nothing. After each refusal a live session
 * still reads the runs and judges a program through /v1/verify as the check form does.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../src/server/app.js';
import { createDashboard, type DashboardOptions } from '../src/server/dashboard.js';
import { LocalExecutor } from '../src/server/executor.js';
import { Metrics } from '../src/server/metrics.js';
import { PackVerifiers } from '../src/server/pack-verifiers.js';
import { TaskVerifier } from '../src/server/verify-task.js';
import { Store } from '../src/store/store.js';
import { SUM_RIGHT, SUM_WRONG } from './server-support.js';

const TOKEN = 'a-token-for-the-session-tests';
const ORIGIN = 'http://127.0.0.1:8080';
const COOKIE = 'crucible_dashboard_8080';
const dir = mkdtempSync(join(tmpdir(), 'crucible-session-'));
const db = join(dir, 'crucible.db');
const metrics = new Metrics();
const executor = new LocalExecutor({ workers: 1 }, metrics);
const tasks = new TaskVerifier({ metrics });
const packs = new PackVerifiers();
let runId: string;

before(() => {
  const store = new Store(db);
  runId = store.startRun({ task: 'HumanEval/0', strategy: 'repair', model: 'm' }).id;
  store.close();
});
after(async () => {
  await Promise.all([tasks.close(), packs.close(), executor.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A server's app with its dashboard (a fresh one is a restarted server). */
function server(options: Partial<DashboardOptions> = {}) {
  const dashboard = createDashboard({ token: TOKEN, store: db, ...options });
  const app = createApp({
    executor,
    metrics,
    tasks,
    packs,
    dashboard,
    token: TOKEN,
    maxBodyBytes: 1 << 20,
    requestTimeoutSeconds: 60,
    version: 'test',
  });
  const request = (path: string, init: RequestInit = {}) => app.request(`${ORIGIN}${path}`, init);
  return { app, dashboard, request };
}
type Server = ReturnType<typeof server>;

/** Opens the address serve prints; the session cookie's value and its Set-Cookie line. */
async function login(s: Server): Promise<{ value: string; setCookie: string }> {
  const r = await s.request(`/?token=${TOKEN}`, { redirect: 'manual' });
  assert.equal(r.status, 303);
  const setCookie = r.headers.get('set-cookie') ?? '';
  const value = new RegExp(`^${COOKIE}=([^;]*)`).exec(setCookie)?.[1];
  assert.ok(value, setCookie);
  return { value, setCookie };
}

const withCookie = (value: string, headers: Record<string, string> = {}) => ({
  headers: { cookie: `${COOKIE}=${value}`, ...headers },
});
const runsStatus = async (s: Server, value: string) =>
  (await s.request('/dashboard/api/runs', withCookie(value))).status;

/** The check form's request: its cookie, same-origin, JSON. */
const checkForm = (s: Server, value: string, code: string) =>
  s.request('/v1/verify', {
    method: 'POST',
    ...withCookie(value, {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      origin: ORIGIN,
    }),
    body: JSON.stringify({
      language: 'python',
      candidates: [code],
      tests: [
        { stdin: '1 2\n', expected_stdout: '3\n' },
        { stdin: '2 5\n', expected_stdout: '7\n' },
      ],
    }),
  });

/** A live session still reads the store and has programs judged right. */
async function liveSessionIsServedRight(s: Server, value: string): Promise<void> {
  const runs = await s.request('/dashboard/api/runs', withCookie(value));
  assert.equal(runs.status, 200);
  assert.deepEqual(
    ((await runs.json()) as { runs: { id: string }[] }).runs.map((r) => r.id),
    [runId],
  );
  const right = await checkForm(s, value, SUM_RIGHT);
  assert.equal(right.status, 200);
  assert.equal(((await right.json()) as any).results[0].status, 'pass');
  const wrong = await checkForm(s, value, SUM_WRONG);
  assert.equal(((await wrong.json()) as any).results[0].status, 'fail');
}

describe('the dashboard’s session', () => {
  it('the old cookie (a fixed HMAC of the token) opens nothing; a login’s cookie does', async () => {
    const s = server();
    const forged = createHmac('sha256', TOKEN).update('crucible dashboard session 1').digest('base64url');
    assert.equal(await runsStatus(s, forged), 401);
    assert.equal((await checkForm(s, forged, SUM_RIGHT)).status, 401, 'nor does it open /v1/verify');
    const { value } = await login(s);
    await liveSessionIsServedRight(s, value);
  });

  it('every login gets a random id of its own, not derived from the token, each a session', async () => {
    const s = server();
    const a = await login(s);
    const b = await login(s);
    assert.notEqual(a.value, b.value);
    for (const { value } of [a, b]) {
      assert.match(value, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
      assert.ok(!value.includes(TOKEN));
      assert.equal(await runsStatus(s, value), 200);
    }
    assert.equal(await runsStatus(s, a.value.slice(0, -1) + (a.value.endsWith('A') ? 'B' : 'A')), 401);
  });

  it('the cookie is HttpOnly, SameSite=Strict, for the whole server, with a Max-Age of 12 h (or what is set)', async () => {
    const { setCookie } = await login(server());
    assert.match(setCookie, /; Max-Age=43200(;|$)/);
    assert.match(setCookie, /; HttpOnly(;|$)/);
    assert.match(setCookie, /; SameSite=Strict(;|$)/);
    assert.match(setCookie, /; Path=\/(;|$)/);
    const short = await login(server({ sessionSeconds: 600 }));
    assert.match(short.setCookie, /; Max-Age=600(;|$)/);
  });

  it('logging out ends the session on the server: its cookie opens nothing after; another session lives on', async () => {
    const s = server();
    const mine = await login(s);
    const other = await login(s);
    // Not from another page: a logout is the page's own request too.
    const foreign = await s.request('/dashboard/logout', {
      method: 'POST',
      ...withCookie(mine.value, { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:3000' }),
    });
    assert.equal(foreign.status, 403);
    assert.equal(await runsStatus(s, mine.value), 200);
    const out = await s.request('/dashboard/logout', {
      method: 'POST',
      ...withCookie(mine.value, { 'sec-fetch-site': 'same-origin', origin: ORIGIN }),
    });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', new RegExp(`^${COOKIE}=;.*Max-Age=0`));
    assert.equal(await runsStatus(s, mine.value), 401);
    assert.equal((await checkForm(s, mine.value, SUM_RIGHT)).status, 401);
    await liveSessionIsServedRight(s, other.value);
  });

  it('a session ends at its Max-Age on the server too (a cookie kept past it, or copied, opens nothing)', async () => {
    let now = Date.UTC(2026, 0, 1, 9);
    const s = server({ now: () => now });
    const { value } = await login(s);
    now += 12 * 3600_000 - 1000;
    assert.equal(await runsStatus(s, value), 200, 'a second before its end');
    now += 2000;
    assert.equal(await runsStatus(s, value), 401, 'a second after');
    assert.equal((await checkForm(s, value, SUM_RIGHT)).status, 401);
    const again = await login(s);
    await liveSessionIsServedRight(s, again.value);
  });

  it('a restarted server knows no session of the one before', async () => {
    const first = server();
    const { value } = await login(first);
    assert.equal(await runsStatus(first, value), 200);
    const restarted = server();
    assert.equal(await runsStatus(restarted, value), 401);
    await liveSessionIsServedRight(restarted, (await login(restarted)).value);
  });
});
