/**
 * The report of a recorded run, as a user makes it: the real `crucible solve` (repair, against a
 * scripted OpenAI-compatible server, so that there are several attempts with feedback), then
 * `crucible report --run ID` and `solve --html`, opened in a real browser (Debian's chromium
 * through playwright-core) from file://. Checked as a person would: one node per stored event,
 * nodes open and close with the mouse and the keyboard, the feedback shown is exactly what the
 * model was sent, the tokens and cost shown are the stored ones, a failing verdict shows expected
 * and actual, a failed run says why, an eval run shows the eval view; nothing is fetched, nothing
 * logged as an error, axe-core finds nothing serious; and the command's errors say what to do.
 * Screenshots go to test-artifacts/report/ (and, with CRUCIBLE_DOC_SCREENSHOTS=1, the README's
 * docs/report-run.png).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Browser, Locator, Page, ViewportSize } from 'playwright-core';
import type { TraceEvent } from '../src/core/trace.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../src/models/testing/index.js';
import { launchChromium } from '../src/browser/chromium.js';
import type { Run } from '../src/store/store.js';
import { crucible as run, writeCitiesEval } from './cli-support.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';
import { fenced, scriptedModel, SECOND_LARGEST_TASK, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-run-'));
const crucible = (args: string[]) => run(args, { cwd: dir });
const db = join(dir, 'runs.db');

interface Stored {
  run: Run;
  events: TraceEvent[];
}

let browser: Browser;
let model: ModelFixture;
let broken: FakeOpenAIServer;
/** The solve run (three attempts, two of them repaired after feedback), an eval run, a solve run that failed. */
let solved: Stored;
let evalRunId: string;
let evalDoc: { samples: unknown[] };
let failed: Stored;
let reportRun: { id: string; prefix: string; result: { code: number; stdout: string; stderr: string } };
const paths = {
  task: join(dir, 'second-largest.json'),
  config: join(dir, 'crucible.config.json'),
  solveHtml: join(dir, 'solve.html'),
  solveJson: join(dir, 'solve.json'),
  evalHtml: join(dir, 'eval-run.html'),
  failedHtml: join(dir, 'failed.html'),
};
/** Where `report --run` writes by default: beside the store, as a recorded command does. */
const defaultReport = (id: string) => join(dir, 'reports', `${id}.html`);
const PRICE = { input: 1.5, output: 6 };

async function show(id: string): Promise<Stored> {
  const r = await crucible(['show', id, '--db', db, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Stored;
}

before(async () => {
  // Launched first: without chromium the tests fail at once, saying how to install it.
  browser = await launchChromium();
  model = await scriptedModel({
    programs: [
      // Attempt 1 fails on [5, 5] (an exception); attempt 2 on duplicates (a wrong value); attempt 3 is right.
      fenced('def second_largest(xs):\n    s = sorted(set(xs))\n    return s[-2]\n'),
      fenced('def second_largest(xs):\n    s = sorted(xs)\n    return s[-2] if len(s) >= 2 else None\n'),
      fenced('def second_largest(xs):\n    s = sorted(set(xs))\n    return s[-2] if len(s) >= 2 else None\n'),
    ],
  });
  // A model that refuses every request (401: not retried), for a run that fails.
  broken = await startFakeOpenAIServer({ script: () => ({ status: 401, message: 'the API key is not valid' }) });
  writeFileSync(paths.task, JSON.stringify(SECOND_LARGEST_TASK));
  // A price, so that the run has a cost to show.
  writeFileSync(paths.config, JSON.stringify({ prices: { 'fake-model': PRICE } }));
  const tasks = join(dir, 'cities.jsonl');
  const samples = join(dir, 'samples.jsonl');
  writeCitiesEval(tasks, samples);
  const solve = (url: string, more: string[]) =>
    crucible([
      'solve',
      // As a user gives it, from the folder it is in: the run's task is named by it.
      '--task',
      'second-largest.json',
      '--strategy',
      'repair',
      '--budget',
      'calls=6,wall=2min',
      '--no-model-tests',
      '--model',
      `${url}#fake-model`,
      '--config',
      paths.config,
      '--db',
      db,
      '--cache-dir',
      join(dir, 'cache'),
      '--workers',
      '1',
      ...more,
    ]);
  const [first, refused, evaluated] = await Promise.all([
    solve(model.server.url, ['--seed', '11', '--html', paths.solveHtml, '--json', paths.solveJson]),
    solve(broken.url, ['--seed', '12']),
    crucible(['eval', '--dataset', tasks, '--samples', samples, '--judge', 'static', '--db', db]),
  ]);
  assert.equal(first.code, 0, first.stderr + first.stdout);
  assert.match(first.stdout, /^verified: /m);
  assert.match(first.stdout, new RegExp(`report written to ${paths.solveHtml}`));
  assert.equal(model.server.requests.length, 3, 'three attempts');
  solved = await show(/run (\S+) \(crucible show/.exec(first.stdout)![1]!);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /the API key is not valid/);
  assert.equal(evaluated.code, 0, evaluated.stderr);
  evalRunId = /recorded as run (\S+)/.exec(evaluated.stderr)![1]!;
  evalDoc = (await show(evalRunId)).run.summary as unknown as { samples: unknown[] };
  const runs = await crucible(['runs', '--db', db, '--json']);
  const failedRun = (JSON.parse(runs.stdout) as Run[]).find((r) => r.status === 'error');
  assert.ok(failedRun, 'the refused solve is recorded as an error');
  failed = await show(failedRun.id);
  // The report of the solve run (every browser test opens it), from the shortest start of its id no other run shares.
  const id = solved.run.id;
  let length = 1;
  while ([evalRunId, failed.run.id].some((other) => other.startsWith(id.slice(0, length)))) length++;
  const prefix = id.slice(0, length);
  reportRun = { id, prefix, result: await crucible(['report', '--run', prefix, '--db', db]) };
});

after(async () => {
  await browser?.close();
  await Promise.all([model?.close(), broken?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const open = (file: string, viewport?: ViewportSize) => openPage(browser, pathToFileURL(file), { viewport });

const text = async (within: Page | Locator, selector: string) =>
  ((await within.locator(selector).first().textContent()) ?? '').trim();
const node = (page: Page, id: number) => page.locator(`li.rt-node[data-event-id="${id}"]`);
const head = (page: Page, id: number) => page.locator(`.rt-head[data-event-id="${id}"]`);
const data = (event: TraceEvent) => event.data as Record<string, any>;
/** "+324 ms", "+1.23 s" → milliseconds. */
const shownMs = (shown: string) => {
  const [, value, unit] = /^\+([\d.]+) (ms|s)$/.exec(shown.trim()) ?? [];
  assert.ok(value, `a time since the start: ${shown}`);
  return Number(value) * (unit === 's' ? 1000 : 1);
};
const focusedEvent = (page: Page) =>
  page.evaluate(`document.activeElement?.dataset?.eventId ?? document.activeElement?.tagName`) as Promise<string>;

test('report --run writes the run’s report beside the store; a prefix of the id works', async () => {
  const { id, prefix, result: r } = reportRun;
  assert.ok(prefix.length < id.length);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `report written to ${defaultReport(id)} (open it in a browser)\n`);
  const html = readFileSync(defaultReport(id), 'utf8');
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  // The run as `crucible show --json` prints it, whole.
  const embedded = /id="crucible-report-data" data-encoding="gzip\+base64">([^<]*)</.exec(html)![1]!;
  const payload = JSON.parse(gunzipSync(Buffer.from(embedded, 'base64')).toString('utf8'));
  assert.equal(payload.documents[0].kind, 'run');
  assert.deepEqual(payload.documents[0].document, solved);
});

test('the run tree: one node per stored event, the header’s figures and each reply’s tokens and cost as stored', async () => {
  const { page, requests, errors } = await open(defaultReport(solved.run.id));
  const { run: stored, events } = solved;
  // The header.
  assert.equal(stored.task, 'second-largest.json');
  assert.equal(await text(page, '.run-view [data-field="task"]'), stored.task);
  assert.equal(await text(page, '.run-view [data-field="strategy"]'), 'repair');
  assert.equal(await text(page, '.run-view [data-field="model"]'), stored.model);
  assert.equal(await page.getAttribute('.title-line .rs', 'data-status'), 'verified');
  assert.equal(await text(page, '[data-testid="run-reason"]'), stored.summary!.reason);
  const usage = stored.usage!;
  const usageCard = '[data-testid="run-usage"]';
  assert.equal(await text(page, `${usageCard} [data-field="model-calls"]`), String(usage.modelCalls));
  assert.equal(await text(page, `${usageCard} [data-field="tokens"]`), String(usage.inputTokens + usage.outputTokens));
  assert.equal(await text(page, `${usageCard} [data-field="input-tokens"]`), String(usage.inputTokens));
  assert.equal(await text(page, `${usageCard} [data-field="output-tokens"]`), String(usage.outputTokens));
  assert.ok(usage.costUsd! > 0, 'the config has a price');
  assert.equal(Number(await page.getAttribute(`${usageCard} [data-field="cost"]`, 'data-value')), usage.costUsd);
  const shownCost = Number((await text(page, `${usageCard} [data-field="cost"]`)).replace(/^\$/, ''));
  assert.ok(Math.abs(shownCost - usage.costUsd!) <= 0.005 * usage.costUsd!, `cost ${shownCost} ≈ ${usage.costUsd}`);
  assert.match(await text(page, '[data-testid="run-budget"] [data-limit="modelCalls"]'), /^3 of 6$/);

  // One node per event, of its kind, in the order they happened.
  const shown = await page
    .locator('li.rt-node')
    .evaluateAll((lis) =>
      lis.map((li) => `${(li as HTMLElement).dataset.eventId} ${(li as HTMLElement).dataset.kind}`),
    );
  assert.deepEqual(
    shown,
    events.map((e) => `${e.id} ${e.kind}`),
  );
  assert.equal(events.filter((e) => e.kind === 'feedback').length, 2, 'two repairs');
  assert.match(await text(page, '[data-testid="event-count"]'), new RegExp(`^${events.length} events`));
  // Each node says how long after the start it happened.
  for (const event of events) {
    const at = Date.parse(event.time) - Date.parse(stored.startedAt);
    const ms = shownMs(await text(page, `.rt-head[data-event-id="${event.id}"] [data-field="since"]`));
    assert.ok(Math.abs(ms - at) <= Math.max(0.5, at * 0.006), `event ${event.id}: shown ${ms} ms, stored ${at} ms`);
  }
  // Each reply: its tokens in and out, cost and latency, as stored.
  const responses = events.filter((e) => e.kind === 'response');
  assert.equal(responses.length, 3);
  for (const response of responses) {
    const d = data(response);
    const row = head(page, response.id);
    assert.equal(await text(row, '[data-field="input-tokens"]'), String(d.usage.inputTokens));
    assert.equal(await text(row, '[data-field="output-tokens"]'), String(d.usage.outputTokens));
    assert.equal(Number(await row.locator('[data-field="cost"]').getAttribute('data-value')), d.costUsd);
    const priced = (d.usage.inputTokens * PRICE.input + d.usage.outputTokens * PRICE.output) / 1e6;
    assert.ok(Math.abs(d.costUsd - priced) < 1e-12, 'the stored cost is the price times the tokens');
    assert.equal(await row.locator('[data-field="cached"]').count(), d.cached ? 1 : 0);
    assert.match(await text(row, '[data-field="latency"]'), /^\d+(\.\d+)? (ms|s)$/);
  }
  // Nothing is open until asked.
  assert.equal(await page.locator('.rt-head[aria-expanded="true"]').count(), 0);
  await screenshot(page, 'run-tree');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(defaultReport(stored.id)).href], 'the page fetches nothing but itself');
  await page.close();
});

test('a node opens and closes with the mouse; the feedback is exactly what the model was sent; a failing verdict shows expected and actual', async () => {
  const { page, errors } = await open(defaultReport(solved.run.id), { width: 1400, height: 1200 });
  const { events } = solved;
  const feedbacks = events.filter((e) => e.kind === 'feedback');
  for (const feedback of feedbacks) {
    const row = head(page, feedback.id);
    assert.equal(await row.getAttribute('aria-expanded'), 'false');
    assert.equal(await node(page, feedback.id).locator('[data-role="feedback"]').count(), 0);
    await row.click();
    assert.equal(await row.getAttribute('aria-expanded'), 'true');
    const pre = node(page, feedback.id).locator('.rt-detail pre[data-role="feedback"]');
    assert.ok(await pre.isVisible());
    assert.equal(await pre.textContent(), data(feedback).text, 'the feedback, to the character');
    // …and the next prompt carries it as its last message, as the model saw it.
    const next = events.find((e) => e.kind === 'prompt' && e.parentId === feedback.id)!;
    await head(page, next.id).click();
    const messages = node(page, next.id).locator('.rt-detail [data-role="message"]');
    const sent = data(next).messages as { role: string; content: string }[];
    assert.deepEqual(
      await messages.allTextContents(),
      sent.map((m) => m.content),
    );
    assert.deepEqual(
      await node(page, next.id).locator('.rt-detail .rt-role').allTextContents(),
      sent.map((m) => m.role),
    );
    assert.equal(sent.at(-1)!.content, data(feedback).text);
  }
  // A failing verdict with a wrong value: expected against actual, as stored.
  const failing = events.find(
    (e) =>
      e.kind === 'verdict' &&
      data(e).status === 'fail' &&
      data(e).firstFailure?.expected !== data(e).firstFailure?.actual,
  )!;
  assert.ok(failing, 'attempt 2 returns a wrong value');
  await head(page, failing.id).click();
  const failure = node(page, failing.id).locator('.rt-failure');
  assert.equal(await failure.locator('[data-role="expected"]').textContent(), data(failing).firstFailure.expected);
  assert.equal(await failure.locator('[data-role="actual"]').textContent(), data(failing).firstFailure.actual);
  assert.equal(await failure.locator('.message').textContent(), data(failing).firstFailure.message);
  assert.equal(await text(node(page, failing.id).locator('.rt-head'), '.badge'), '✗ fail');
  // Its candidate shows the program judged.
  const candidate = events.find((e) => e.id === failing.parentId)!;
  await head(page, candidate.id).click();
  assert.equal(await node(page, candidate.id).locator('.rt-detail pre.code').textContent(), data(candidate).program);
  await node(page, failing.id).scrollIntoViewIfNeeded();
  await screenshot(page, 'run-open');
  // A second click closes it.
  await head(page, failing.id).click();
  assert.equal(await head(page, failing.id).getAttribute('aria-expanded'), 'false');
  assert.ok(await node(page, failing.id).locator('.rt-detail').isHidden());
  // Expand all, collapse all.
  await page.click('button:has-text("Expand all")');
  assert.equal(await page.locator('.rt-head[aria-expanded="true"]').count(), events.length);
  assert.equal(await page.locator('.rt-detail:visible').count(), events.length);
  const decision = events.find((e) => e.kind === 'decision')!;
  assert.equal(await text(node(page, decision.id), '[data-role="action"]'), data(decision).action);
  assert.equal(await text(node(page, decision.id), '[data-role="reason"]'), data(decision).reason);
  // Every reply's texts, verbatim.
  for (const response of events.filter((e) => e.kind === 'response'))
    assert.deepEqual(
      await node(page, response.id).locator('[data-role="completion"]').allTextContents(),
      data(response).texts,
    );
  assert.deepEqual(await seriousViolations(page), [], 'everything open');
  await page.click('button:has-text("Collapse all")');
  assert.equal(await page.locator('.rt-head[aria-expanded="true"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the tree works from the keyboard: Tab reaches the events, arrows move, Enter and → open, ← closes or goes to the parent', async () => {
  const { page, errors } = await open(defaultReport(solved.run.id));
  const ids = solved.events.map((e) => String(e.id));
  await page.focus('button:has-text("Collapse all")');
  await page.keyboard.press('Tab');
  assert.equal(await focusedEvent(page), ids[0], 'Tab goes from the toolbar to the first event');
  assert.notEqual(await page.evaluate(`getComputedStyle(document.activeElement).outlineStyle`), 'none');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedEvent(page), ids[2]);
  await page.keyboard.press('Enter');
  assert.equal(await head(page, Number(ids[2])).getAttribute('aria-expanded'), 'true');
  assert.ok(await node(page, Number(ids[2])).locator('.rt-detail pre.code').isVisible(), 'the candidate’s program');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await head(page, Number(ids[2])).getAttribute('aria-expanded'), 'false');
  // ← on a closed event goes to its parent.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedEvent(page), String(solved.events[2]!.parentId));
  await page.keyboard.press('ArrowRight');
  assert.equal(await head(page, Number(ids[1])).getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Space');
  assert.equal(await head(page, Number(ids[1])).getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('End');
  assert.equal(await focusedEvent(page), ids.at(-1));
  await page.keyboard.press('Home');
  assert.equal(await focusedEvent(page), ids[0]);
  // Tab goes on past a closed event to the next one.
  await page.keyboard.press('Tab');
  assert.equal(await focusedEvent(page), ids[1]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('solve --html writes the same report: the run read back from the store, with every event', async () => {
  const html = readFileSync(paths.solveHtml, 'utf8');
  const embedded = /id="crucible-report-data" data-encoding="gzip\+base64">([^<]*)</.exec(html)![1]!;
  const payload = JSON.parse(gunzipSync(Buffer.from(embedded, 'base64')).toString('utf8'));
  assert.equal(payload.documents[0].kind, 'run');
  assert.deepEqual(payload.documents[0].document, solved);
  const { page, requests, errors } = await open(paths.solveHtml, { width: 1400, height: 1450 });
  assert.equal(await page.locator('li.rt-node').count(), solved.events.length);
  // The README's picture: the header, and the second attempt's failure and the feedback it led to, open.
  const verdict = solved.events.filter((e) => e.kind === 'verdict')[1]!;
  const feedback = solved.events.find((e) => e.kind === 'feedback' && e.parentId === verdict.id)!;
  await head(page, verdict.id).click();
  await head(page, feedback.id).click();
  await page.evaluate(`window.scrollTo(0, 0)`);
  await screenshot(page, 'run', 'report-run');
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.solveHtml).href]);
  await page.close();
  // Its --json, reported, is the solve view: the answer and what it cost.
  const r = await crucible(['report', paths.solveJson]);
  assert.equal(r.code, 0, r.stderr);
  const solveDoc = JSON.parse(readFileSync(paths.solveJson, 'utf8'));
  const opened = await open(paths.solveJson.replace(/\.json$/, '.html'));
  assert.equal(await text(opened.page, '.solve-view [data-testid="run-reason"]'), solveDoc.reason);
  assert.equal(await text(opened.page, '.solve-view [data-field="tokens"]'), String(solveDoc.usage.tokens));
  assert.equal(await text(opened.page, '.solve-view [data-field="attempts"]'), '3');
  assert.equal(await opened.page.locator('.solve-view pre.code').textContent(), solveDoc.program);
  assert.ok(
    (await opened.page.locator('.solve-view').textContent())!.includes(`crucible report --run ${solved.run.id}`),
  );
  assert.deepEqual(await seriousViolations(opened.page), []);
  assert.deepEqual(opened.errors, []);
  await opened.page.close();
});

test('a run that failed says why', async () => {
  const r = await crucible(['report', '--run', failed.run.id, '--db', db, '--out', paths.failedHtml]);
  assert.equal(r.code, 0, r.stderr);
  const { page, errors } = await open(paths.failedHtml);
  assert.equal(await page.getAttribute('.title-line .rs', 'data-status'), 'error');
  const reason = String(failed.run.summary!.reason);
  assert.match(reason, /the API key is not valid/);
  assert.equal(await text(page, '.run-failed'), `This run failed: ${reason}`);
  assert.equal(await text(page, '[data-testid="run-budget"] [data-limit="modelCalls"]'), 'at most 6');
  // The prompt it sent before the model refused.
  assert.equal(await page.locator('li.rt-node').count(), failed.events.length);
  assert.ok(failed.events.length >= 1);
  await screenshot(page, 'run-failed');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('report --run of an eval run shows the eval view of the document it recorded', async () => {
  const r = await crucible(['report', '--run', evalRunId, '--db', db, '--out', paths.evalHtml]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `report written to ${paths.evalHtml} (open it in a browser)\n`);
  const { page, errors } = await open(paths.evalHtml);
  assert.equal(await page.locator('.eval-view').count(), 1);
  assert.equal(await page.locator('.run-view').count(), 0);
  assert.equal(await page.locator('[role="gridcell"]').count(), evalDoc.samples.length);
  assert.deepEqual(errors, []);
  await page.close();
});

test('report says what to give when the arguments, the store or the run are wrong', async () => {
  const none = join(dir, 'none.db');
  const cases: [string[], RegExp][] = [
    [
      ['report'],
      /give the JSON file a crucible command wrote \(crucible report results\.json\), or a recorded run \(crucible report --run RUN_ID/,
    ],
    [['report', paths.solveJson, '--run', solved.run.id, '--db', db], /give a JSON file or --run RUN_ID, not both/],
    [['report', '--run', solved.run.id, '--db', none], /no runs recorded yet \(.*none\.db does not exist\)/],
    [['report', '--run', 'no-such-run', '--db', db], /no run "no-such-run" in .*runs\.db; `crucible runs` lists them/],
    [['report', '--run', '20', '--db', db], /"20" matches several runs: .*; give more of the id/],
    [['report', '--run', solved.run.id, '--db', paths.task], /second-largest\.json is not a run store/],
  ];
  for (const [args, message] of cases) {
    const r = await crucible(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.equal(r.stdout, '', 'no report written');
  }
  assert.ok(!existsSync(none), 'reading does not create a store');
});
