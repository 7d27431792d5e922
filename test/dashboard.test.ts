/**
 * The dashboard of `crucible serve`, as a person uses it: a real server process with a token
 * and a run store, opened in a real browser (Debian's chromium through playwright-core) over
 * loopback. Without the token it is refused; the token once in the address becomes an
 * HttpOnly cookie of a session of its own and leaves the address, and logging out ends it;
 * the runs list shows the store's runs newest first and its filters narrow it; a run page follows a real `crucible eval` recording into the same
 * store (its progress moves, then it shows the eval's view with the document's numbers); the
 * check form judges a right program pass and a wrong one fail with expected against actual
 * through /v1/verify. No request leaves the server, nothing is logged as an error, axe-core
 * finds nothing serious, and the keyboard reaches the runs and the form. Screenshots go to
 * test-artifacts/report/dashboard-*.png (and, with CRUCIBLE_DOC_SCREENSHOTS=1, docs/).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import { Store } from '../src/store/index.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';
import { BIN } from './cli-support.js';
import { startTestServer } from './server-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-dashboard-'));
const db = join(dir, 'crucible.db');
const TOKEN = randomBytes(16).toString('hex');

let browser: Browser;
let serve: ChildProcess;
let serveLog = '';
/** http://127.0.0.1:PORT, and the address serve printed (with the token). */
let base: string;
let dashboardUrl: string;
/** Every request any page made, and every console error or uncaught exception. */
const requests: string[] = [];
const errors: string[] = [];
let context: BrowserContext;

/** Waits for a condition, not for a time: the machine may be slow. */
async function until<T>(what: string, read: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs of every kind, started at known times (the live eval of the third test is newer than all). */
function seedStore(): void {
  const store = new Store(db);
  const at = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour));
  const later = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);
  const solveAt = at(20, 9);
  const solve = store.startRun(
    { task: 'HumanEval/12', strategy: 'repair', model: 'ollama:qwen2.5-coder', budget: { modelCalls: 4 } },
    solveAt,
  );
  const prompt = store.appendEvent(solve.id, {
    kind: 'prompt',
    data: { model: 'qwen2.5-coder', messages: [{ role: 'user', content: 'Write longest(strings).' }] },
  });
  store.appendEvent(solve.id, {
    kind: 'candidate',
    parentId: prompt.id,
    data: { program: 'def longest(s):\n    return max(s, key=len) if s else None\n' },
  });
  store.finishRun(
    solve.id,
    {
      status: 'verified',
      summary: { reason: 'passes every test' },
      usage: { modelCalls: 1, inputTokens: 40, outputTokens: 20, costUsd: 0 },
    },
    later(solveAt, 12),
  );
  const auditAt = at(21, 10);
  const audit = store.startRun({ task: 'built-in', strategy: 'audit', model: 'references, known-wrong' }, auditAt);
  store.finishRun(
    audit.id,
    {
      status: 'finished',
      summary: {},
      headline: {
        references: { total: 30, passed: 30 },
        known_wrong: { total: 53, failed: 53 },
        false_positive_rate: 0,
      },
    },
    later(auditAt, 31),
  );
  const selectAt = at(22, 11);
  const select = store.startRun({ task: 'tasks.jsonl', strategy: 'select', model: 'samples.jsonl' }, selectAt);
  store.finishRun(
    select.id,
    { status: 'error', summary: { reason: 'samples.jsonl line 3 is not JSON' } },
    later(selectAt, 2),
  );
  const evalAt = at(23, 12);
  const evaluated = store.startRun(
    { task: 'humaneval.jsonl --limit 20', strategy: 'eval', model: 'ollama:qwen2.5-coder', meta: { flags: {} } },
    evalAt,
  );
  store.finishRun(
    evaluated.id,
    {
      status: 'interrupted',
      summary: {},
      headline: { tasks: 20, samples: 12, pass_at_k: { base: { '1': 0.5 } } },
    },
    later(evalAt, 95),
  );
  store.close();
}

before(async () => {
  // Launched first: without chromium the tests fail at once, saying how to install it.
  browser = await launchChromium();
  seedStore();
  serve = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--token', TOKEN, '--db', db, '--workers', '1', '--request-timeout', '120'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  serve.stderr!.on('data', (chunk: Buffer) => (serveLog += chunk));
  dashboardUrl = await until('serve to print the dashboard’s address', () => {
    if (serve.exitCode !== null) throw new Error(`crucible serve exited:\n${serveLog}`);
    return /dashboard at (\S+)/.exec(serveLog)?.[1];
  });
  base = new URL(dashboardUrl).origin;
  context = await watchedContext();
  // The pages of the tests below are opened as a person would after the first visit: with the session cookie.
  const first = await context.newPage();
  await first.goto(dashboardUrl);
  await first.close();
});

after(async () => {
  await browser?.close();
  if (serve && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    const timer = setTimeout(() => serve.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A browser context whose requests and errors are all kept. */
async function watchedContext(): Promise<BrowserContext> {
  const watched = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  watched.on('request', (request) => requests.push(request.url()));
  watched.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  });
  return watched;
}

/** The page's console errors and requests so far are clean: nothing failed, nothing left this server. */
function assertClean(): void {
  assert.deepEqual(errors, []);
  const elsewhere = requests.filter((url) => new URL(url).origin !== base);
  assert.deepEqual(elsewhere, [], 'every request goes to the server itself');
}

/** The ids of the runs the list shows, top to bottom. */
const shownRuns = (page: Page) =>
  page.locator('[data-testid="runs"] tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.run!));

/** A page of the dashboard with the session cookie; its requests and errors are kept by the context's (assertClean). */
async function openDashboard(hash = ''): Promise<Page> {
  return (await openPage(context, `${base}/${hash}`)).page;
}

test('without the token the dashboard is refused; the token once becomes an HttpOnly cookie and leaves the address', async () => {
  const bare = await fetch(`${base}/`);
  assert.equal(bare.status, 401);
  assert.match(await bare.text(), /\?token=/, 'the refusal says how to open it');
  assert.equal((await fetch(`${base}/dashboard/api/runs`)).status, 401);
  assert.equal((await fetch(`${base}/?token=not-${TOKEN}`, { redirect: 'manual' })).status, 401);
  const bearer = await fetch(`${base}/dashboard/api/runs`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(bearer.status, 200, 'the bearer header works as for the API');

  // A browser without the cookie: the refusal page (the 401 itself is the one error it logs).
  const fresh = await browser.newContext();
  const stranger = await fresh.newPage();
  const refused = await stranger.goto(`${base}/`);
  assert.equal(refused!.status(), 401);
  assert.match((await stranger.textContent('main'))!, /asks for its token/);
  await fresh.close();

  // The address serve printed: the token once, then a cookie, and the address without it.
  const visitor = await watchedContext();
  const page = await visitor.newPage();
  const answer = await page.goto(dashboardUrl);
  assert.equal(answer!.status(), 200);
  assert.equal(page.url(), `${base}/`, 'the token is gone from the address');
  await page.waitForSelector('[data-testid="runs"]');
  const [cookie] = await visitor.cookies(base);
  assert.ok(cookie, 'a session cookie');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.ok(!cookie.value.includes(TOKEN), 'the cookie is not the token');
  assert.ok(cookie.expires > Date.now() / 1000, 'it has a Max-Age');
  // The cookie opens the API's /v1/verify only for the dashboard's own page (same origin).
  const withCookie = { cookie: `${cookie.name}=${cookie.value}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ language: 'python', candidates: ['print(1)'], tests: [{ expected_stdout: '1' }] });
  const crossSite = await fetch(`${base}/v1/verify`, {
    method: 'POST',
    headers: { ...withCookie, origin: 'http://127.0.0.1:1' },
    body,
  });
  assert.equal(crossSite.status, 401, 'another origin with the cookie is refused');
  assert.equal((await fetch(`${base}/run_code`, { method: 'POST', headers: withCookie, body: '{}' })).status, 401);
  await visitor.close();

  // Logging out (another browser: the refusal after it is a 401 the page logs) ends the session on the server.
  const leaving = await browser.newContext();
  const tab = await leaving.newPage();
  await tab.goto(dashboardUrl);
  await tab.waitForSelector('[data-testid="runs"]');
  const [kept] = await leaving.cookies(base);
  assert.ok(kept && kept.value !== cookie.value, 'each login has a session of its own');
  const hours = (kept.expires - Date.now() / 1000) / 3600;
  assert.ok(hours > 11 && hours <= 12, `the cookie lasts 12 h (${hours.toFixed(2)} h left)`);
  await tab.click('[data-testid="logout"]');
  await tab.waitForSelector('main.dash-refusal');
  assert.match((await tab.textContent('main'))!, /asks for its token/);
  assert.deepEqual(await leaving.cookies(base), [], 'the browser dropped the cookie');
  const reused = await fetch(`${base}/dashboard/api/runs`, { headers: { cookie: `${kept.name}=${kept.value}` } });
  assert.equal(reused.status, 401, 'the server forgot the session: a copy of the cookie opens nothing');
  await leaving.close();
  assertClean();
});

test('a run page follows a real crucible eval: its progress moves while it runs, then it shows the eval’s view', async () => {
  const evalLog: string[] = [];
  const evaluation = spawn(process.execPath, [BIN, 'eval', '--limit', '20', '--db', db], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  evaluation.stderr!.on('data', (chunk: Buffer) => evalLog.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => evaluation.once('exit', (code) => resolve(code)));
  const store = new Store(db);
  try {
    const run = await until('the eval’s run in the store', () =>
      store.listRuns({ status: 'running', command: 'eval' }).at(0),
    );
    const page = await openDashboard(`#/runs/${run.id}`);
    await page.waitForSelector(`[data-run="${run.id}"]`);
    // Read the bar until the run ends: each value seen while the page still says running.
    const seen: number[] = [];
    let shotWhileRunning = false;
    for (;;) {
      const state = (await page.evaluate(
        `[document.querySelector('article[data-run]')?.dataset.status, document.querySelector('[data-testid="run-progress"]')?.value]`,
      )) as [string | undefined, number | undefined];
      if (state[0] !== 'running') break;
      if (state[1] !== undefined && seen.at(-1) !== state[1]) seen.push(state[1]);
      if (!shotWhileRunning && seen.length >= 2) {
        await screenshot(page, 'dashboard-run-live');
        shotWhileRunning = true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(
      seen.some((value, i) => i > 0 && value > seen[i - 1]!),
      `the progress bar moved while the eval ran (saw ${JSON.stringify(seen)})`,
    );
    assert.equal(await exited, 0, evalLog.join(''));
    // Finished: the eval's own view, with the numbers of the document it recorded.
    await page.waitForSelector('[data-testid="pass-at-k"]');
    const recorded = store.getRun(run.id)!.run;
    assert.equal(recorded.status, 'finished');
    const doc = recorded.summary as {
      summary: { pass_at_k: Record<string, Record<string, number>>; status_counts: Record<string, number> };
      samples: unknown[];
    };
    for (const [suite, byK] of Object.entries(doc.summary.pass_at_k))
      for (const [k, value] of Object.entries(byK))
        assert.equal(
          (await page.textContent(`[data-testid="pass-at-k"] td[data-suite="${suite}"][data-k="${k}"]`))!.trim(),
          `${(100 * value).toFixed(1)}%`,
        );
    for (const [status, n] of Object.entries(doc.summary.status_counts))
      assert.equal(
        (await page.textContent(`[data-testid="status-counts"] td[data-status="${status}"]`))!.trim(),
        String(n),
      );
    assert.equal(await page.locator('[role="gridcell"]').count(), doc.samples.length);
    assert.equal(await page.getAttribute('article[data-run]', 'data-status'), 'finished');
    assert.equal(recorded.progress?.done, doc.samples.length, 'the last progress is kept');
    await screenshot(page, 'dashboard-run', 'dashboard-run');
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  } finally {
    if (evaluation.exitCode === null) evaluation.kill('SIGKILL');
    store.close();
  }
  assertClean();
});

test('the runs list shows the store’s runs newest first; the filters narrow it; the keyboard opens a run', async () => {
  const store = new Store(db);
  const all = store.listRuns().map((r) => r.id);
  const audits = store.listRuns({ command: 'audit' }).map((r) => r.id);
  const qwen = store.listRuns({ text: 'qwen' }).map((r) => r.id);
  const errored = store.listRuns({ status: 'error' }).map((r) => r.id);
  store.close();
  assert.equal(all.length, 5);
  const page = await openDashboard();
  await page.waitForSelector('[data-testid="runs"] tbody tr');
  assert.deepEqual(await shownRuns(page), all, 'newest first, as the store lists them');
  const evalRow = page.locator(`tr[data-run="${all[0]}"]`);
  assert.match((await evalRow.textContent())!, /finished.*eval.*built-in samples.*pass@1 base/s);
  assert.match((await page.locator('tr[data-status="error"]').textContent())!, /line 3 is not JSON/);
  await screenshot(page, 'dashboard-runs', 'dashboard-runs');
  assert.deepEqual(await seriousViolations(page), []);

  // (waitForFunction with a string would be eval, which the page's CSP forbids.)
  const waitForRows = (ids: string[]) =>
    until(`the rows ${ids.join(', ')}`, async () =>
      JSON.stringify(await shownRuns(page)) === JSON.stringify(ids) ? true : undefined,
    );
  await page.selectOption('[data-testid="filter-command"]', 'audit');
  await waitForRows(audits);
  assert.equal(audits.length, 1);
  assert.match(page.url(), /command=audit/, 'the filter is in the address');
  await page.selectOption('[data-testid="filter-command"]', '');
  await page.fill('[data-testid="filter-text"]', 'qwen');
  await waitForRows(qwen);
  assert.equal(qwen.length, 2);
  await page.fill('[data-testid="filter-text"]', '');
  await page.selectOption('[data-testid="filter-status"]', 'error');
  await waitForRows(errored);
  assert.equal(errored.length, 1);
  await page.selectOption('[data-testid="filter-status"]', '');
  await waitForRows(all);

  // The keyboard: Tab from the top reaches the first run's link, Enter opens it.
  await page.focus('.dash-brand');
  let focused = '';
  for (let i = 0; i < 12 && !focused.startsWith('#/runs/'); i++) {
    await page.keyboard.press('Tab');
    focused = (await page.evaluate(`document.activeElement?.getAttribute('href') ?? ''`)) as string;
  }
  assert.equal(focused, `#/runs/${all[0]}`, 'Tab reaches the newest run');
  assert.notEqual(await page.evaluate(`getComputedStyle(document.activeElement).outlineStyle`), 'none');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`article[data-run="${all[0]}"] [data-testid="pass-at-k"]`);
  assert.equal(await page.evaluate(`document.activeElement?.id`), 'run-title', 'focus moves to the run’s heading');
  // A solve run opens in the run view, with its events.
  const solve = all.at(-1)!;
  await page.goto(`${base}/#/runs/${solve}`);
  await page.waitForSelector(`article[data-run="${solve}"][data-status="verified"] .dash-view[data-kind="run"]`);
  assert.match((await page.textContent('.dash-run-head'))!, /solve repair/);
  await page.close();
  assertClean();
});

test('a running solve run’s page shows its events as they are recorded, then its end', async () => {
  const writer = new Store(db);
  try {
    const run = writer.startRun({ task: 'HumanEval/0', strategy: 'best-of-n', model: 'ollama:qwen2.5-coder' });
    writer.commit();
    const page = await openDashboard(`#/runs/${run.id}`);
    const events = async () =>
      (await page.locator('[data-testid="run-events"]').count()) > 0
        ? ((await page.textContent('[data-testid="run-events"]')) ?? undefined)
        : undefined;
    await until('the running run’s page', async () => ((await events()) === '0' ? true : undefined));
    await page.waitForSelector('.dash-live');
    const prompt = writer.appendEvent(run.id, {
      kind: 'prompt',
      data: { model: 'qwen2.5-coder', messages: [{ role: 'user', content: 'Write has_close_elements.' }] },
    });
    writer.appendEvent(run.id, {
      kind: 'candidate',
      parentId: prompt.id,
      data: { program: 'def has_close_elements(xs, t):\n    return False\n' },
    });
    writer.commit();
    await until('the two events on the page', async () => ((await events()) === '2' ? true : undefined), 15_000);
    assert.equal(await page.getAttribute('article[data-run]', 'data-status'), 'running');
    assert.match((await page.textContent('.dash-view'))!, /has_close_elements/, 'the run’s view shows the new events');
    writer.finishRun(run.id, { status: 'abstained', summary: { reason: 'no candidate passed' } });
    writer.commit();
    await page.waitForSelector(`article[data-run="${run.id}"][data-status="abstained"]`, { timeout: 15_000 });
    await page.waitForSelector('.dash-view[data-kind="run"]');
    assert.equal(await page.locator('.dash-live').count(), 0, 'no longer live');
    assert.match((await page.textContent('.dash-view'))!, /no candidate passed/, 'the view shows why');
    await screenshot(page, 'dashboard-solve', undefined, { fullPage: true });
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  } finally {
    writer.close();
  }
  assertClean();
});

const TASK = {
  id: 'clip-sum',
  language: 'python',
  prompt: 'def clip_sum(xs: list[int]) -> int:\n    """The sum of the absolute values of xs."""\n',
  entry_point: 'clip_sum',
  tests: [
    { input: '[1, 2]', output: '3', public: true },
    { input: '[-1, 2]', output: '3' },
    { input: '[]', output: '0' },
  ],
};
const RIGHT = 'def clip_sum(xs):\n    return sum(abs(x) for x in xs)\n';
const WRONG = 'def clip_sum(xs):\n    return sum(xs)\n';

test('the check form judges a pasted program through /v1/verify: right passes, wrong fails with expected and actual', async () => {
  const page = await openDashboard('#/check');
  const verifyCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/verify') verifyCalls.push(r.method());
  });
  // The keyboard reaches the form: Tab from the top to the program's field.
  await page.focus('.dash-brand');
  let field = '';
  for (let i = 0; i < 8 && field !== 'program'; i++) {
    await page.keyboard.press('Tab');
    field = (await page.evaluate(`document.activeElement?.getAttribute('name') ?? ''`)) as string;
  }
  assert.equal(field, 'program', 'Tab reaches the program field');
  await page.keyboard.insertText(RIGHT);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(`document.activeElement?.getAttribute('name')`), 'task');
  await page.keyboard.insertText(JSON.stringify(TASK, null, 2));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter'); // the Check button
  const verdict = page.locator('[data-testid="verdict"]');
  await verdict.waitFor({ timeout: 90_000 });
  assert.equal(await verdict.getAttribute('data-status'), 'pass');
  assert.match((await verdict.locator('h2').textContent())!, /pass, 3 of 3 tests passed/);
  assert.equal(await verdict.locator('.failure').count(), 0);

  await page.fill('[data-testid="check-program"]', WRONG);
  await page.click('[data-testid="check-submit"]');
  await page.waitForSelector('[data-testid="verdict"][data-status="fail"]', { timeout: 90_000 });
  assert.match((await verdict.locator('h2').textContent())!, /fail, 2 of 3 tests passed/);
  const failure = verdict.locator('.failure');
  assert.equal(await failure.locator('[data-role="expected"]').textContent(), '3');
  assert.equal(await failure.locator('[data-role="actual"]').textContent(), '1');
  assert.match((await failure.textContent())!, /\[-1, 2\]/, 'the failing input');
  const suites = await verdict
    .locator('.suites tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.textContent!.replace(/\s+/g, ' ').trim()));
  assert.equal(suites.length, 3);
  assert.ok(
    suites.some((s) => /fail/.test(s) && /0 \/ 1/.test(s)),
    suites.join(' | '),
  );
  assert.deepEqual(verifyCalls, ['POST', 'POST'], 'the form calls /v1/verify itself');
  await page.evaluate(`document.querySelector('[name="task"]').scrollTop = 0`);
  await screenshot(page, 'dashboard-check', 'dashboard-check', { fullPage: true });
  assert.deepEqual(await seriousViolations(page), []);

  // A task the form cannot read says why, without a request.
  await page.fill('[data-testid="check-task"]', '{"language": "python"');
  await page.click('[data-testid="check-submit"]');
  assert.match((await page.textContent('[data-testid="check-error"]'))!, /not valid JSON/);
  assert.equal(verifyCalls.length, 2);
  await page.close();
  assertClean();
});

test('without a token (a loopback server) the dashboard is open; a run it does not have is a 404 that says so', async () => {
  const open = await startTestServer({ store: db });
  try {
    const page = await fetch(`${open.url}/`);
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy')!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src 'self'/);
    assert.match(await page.text(), /<script src="\/dashboard\/app\.js" defer><\/script>/);
    const dropped = await fetch(`${open.url}/?token=anything`, { redirect: 'manual' });
    assert.equal(dropped.status, 303, 'a token in the address is dropped from it');
    assert.equal(dropped.headers.get('location'), '/');
    const listed = await open.get('/dashboard/api/runs?command=audit');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.runs.map((r: { strategy: string }) => r.strategy),
      ['audit'],
    );
    assert.equal((await open.get('/dashboard/api/runs?status=nonsense')).status, 400);
    const missing = await open.get('/dashboard/api/runs/19990101-000000-0000');
    assert.equal(missing.status, 404);
    assert.match(missing.json.error, /no run 19990101/);
    const ambiguous = await open.get('/dashboard/api/runs/2026');
    assert.equal(ambiguous.status, 404);
    assert.match(ambiguous.json.error, /matches several runs/);
    assert.equal((await open.get('/dashboard/api/runs/19990101/live')).status, 404);
  } finally {
    await open.close();
  }
  // A server given no store lists nothing, and says so.
  const bare = await startTestServer();
  try {
    const listed = await bare.get('/dashboard/api/runs');
    assert.deepEqual(listed.json, { store: { path: null, exists: false }, runs: [] });
  } finally {
    await bare.close();
  }
});
