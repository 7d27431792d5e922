/**
 * `crucible report` and `eval --html` as a user runs them (real processes, documents made by the
 * real `eval`), checked in a real browser (Debian's chromium through playwright-core) from
 * file://: nothing fetched, nothing logged as an error, the numbers equal the JSON's, filters
 * narrow the grid exactly, a failing sample shows expected and actual and its counterexample
 * (an SQL one as tables), the keyboard works, the comparison lists exactly the flipped samples,
 * and axe-core finds nothing serious. Screenshots go to test-artifacts/report/ (and, with
 * CRUCIBLE_DOC_SCREENSHOTS=1, to docs/report-*.png for the README).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page, ViewportSize } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import { crucible as run, writeJsonl } from './cli-support.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-'));
const crucible = (args: string[]) => run(args, { cwd: dir });

interface Sample {
  task_id: string;
  index: number;
  status: string;
  suites: Record<string, { status: string }>;
  first_failure: { input: string | null; expected: string | null; actual: string | null; message: string } | null;
  counterexample?: Record<string, unknown>;
}
interface EvalDoc {
  summary: { pass_at_k: Record<string, Record<string, number>>; status_counts: Record<string, number> };
  samples: Sample[];
}

let browser: Browser;
const paths = {
  evalJson: join(dir, 'eval.json'),
  evalHtml: join(dir, 'eval.html'),
  direct: join(dir, 'direct.html'),
  sqlJson: join(dir, 'sql.json'),
  sqlHtml: join(dir, 'sql.html'),
  bJson: join(dir, 'eval-b.json'),
  compare: join(dir, 'compare.html'),
};
let evalDoc: EvalDoc;
let sqlDoc: EvalDoc;
let bDoc: EvalDoc;

before(async () => {
  // Launched first: without chromium the tests fail at once, saying how to install it.
  browser = await launchChromium();
  const tasks = join(dir, 'cities.jsonl');
  writeJsonl(tasks, [
    {
      task_id: 'cities/big-texan',
      domain: 'sql',
      schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
      setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
      question: 'Which Texan cities have more than 500 people?',
      reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
    },
  ]);
  const samples = join(dir, 'samples.jsonl');
  writeJsonl(samples, [
    {
      task_id: 'cities/big-texan',
      solution: "SELECT c.name FROM city c WHERE c.population > 500 AND c.state = 'texas'",
    },
    { task_id: 'cities/big-texan', solution: "SELECT name FROM city WHERE state = 'texas' AND population >= 500" },
    { task_id: 'cities/big-texan', solution: 'SELEC name FROM city' },
  ]);
  const [builtIn, sql] = await Promise.all([
    // --augment: failures are shrunk to counterexamples.
    crucible(['eval', '--augment', '--seed', '1', '--json', paths.evalJson, '--html', paths.direct, '--no-record']),
    crucible([
      'eval',
      '--dataset',
      tasks,
      '--samples',
      samples,
      '--augment',
      '--seed',
      '1',
      '--json',
      paths.sqlJson,
      '--no-record',
    ]),
  ]);
  assert.equal(builtIn.code, 0, builtIn.stderr);
  assert.match(builtIn.stdout, new RegExp(`report written to ${paths.direct}`));
  assert.equal(sql.code, 0, sql.stderr);
  evalDoc = JSON.parse(readFileSync(paths.evalJson, 'utf8'));
  sqlDoc = JSON.parse(readFileSync(paths.sqlJson, 'utf8'));
  // The second document of the comparison: the same run with three samples flipped and one gone.
  bDoc = structuredClone(evalDoc);
  const firstPass = bDoc.samples.findIndex((s) => s.status === 'pass');
  const firstFail = bDoc.samples.findIndex((s) => s.status === 'fail');
  const lastIndex = (status: string) => bDoc.samples.map((s) => s.status).lastIndexOf(status);
  const lastFail = lastIndex('fail');
  // A flipped sample takes all of another sample's verdict (suites, failure…), keeping its place.
  const flip = (i: number, like: Sample) =>
    (bDoc.samples[i] = { ...structuredClone(like), task_id: bDoc.samples[i]!.task_id, index: bDoc.samples[i]!.index });
  flip(
    firstPass,
    evalDoc.samples.find((s) => s.status === 'fail' && s.counterexample)!,
  );
  flip(firstFail, evalDoc.samples[firstPass]!);
  flip(
    lastFail,
    evalDoc.samples.find((s) => s.status === 'timeout')!,
  );
  bDoc.samples.splice(lastIndex('pass'), 1);
  bDoc.summary.pass_at_k.plus!['1'] = 0.5;
  bDoc.summary.status_counts = Object.fromEntries(
    Object.keys(evalDoc.summary.status_counts).map((status) => [
      status,
      bDoc.samples.filter((s) => s.status === status).length,
    ]),
  );
  writeFileSync(paths.bJson, JSON.stringify(bDoc));
  for (const args of [
    ['report', paths.evalJson],
    ['report', paths.sqlJson],
    ['report', paths.evalJson, paths.bJson, '--out', paths.compare],
  ]) {
    const r = await crucible(args);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /report written to .*\.html/);
  }
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (file: string, viewport?: ViewportSize) => openPage(browser, pathToFileURL(file), { viewport });

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').trim();
const cellSelector = (s: { task_id: string; index: number }) =>
  `[role="row"]:has([role="rowheader"][title="${s.task_id}"]) [role="gridcell"][aria-label^="sample ${s.index}:"]`;
/** The (task, index) of every cell in the grid; the test pages are tall enough for every row to be rendered. */
const shownCells = async (page: Page) =>
  (await page.evaluate(
    `[...document.querySelectorAll('[role="gridcell"]')].map((c) => c.closest('[role="row"]').querySelector('[role="rowheader"]').title + ' ' + c.getAttribute('aria-label') + ' ' + c.dataset.status)`,
  )) as string[];

test('the report of eval --json opens from file:// with no request and no error, and shows the JSON’s pass@k and status counts', async () => {
  const { page, requests, errors } = await open(paths.evalHtml);
  for (const [suite, byK] of Object.entries(evalDoc.summary.pass_at_k))
    for (const [k, value] of Object.entries(byK))
      assert.equal(
        await text(page, `[data-testid="pass-at-k"] td[data-suite="${suite}"][data-k="${k}"]`),
        percent(value),
        `${suite} pass@${k}`,
      );
  for (const [status, n] of Object.entries(evalDoc.summary.status_counts))
    assert.equal(await text(page, `[data-testid="status-counts"] td[data-status="${status}"]`), String(n), status);
  assert.equal(await page.locator('[role="gridcell"]').count(), evalDoc.samples.length);
  await screenshot(page, 'eval', 'report-eval');
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.evalHtml).href], 'the page fetches nothing but itself');
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});

test('eval --html writes the same report as crucible report of its --json', async () => {
  const embedded = (file: string) => {
    const data =
      /<script type="application\/json" id="crucible-report-data" data-encoding="gzip\+base64">([^<]*)</.exec(
        readFileSync(file, 'utf8'),
      )![1]!;
    return JSON.parse(gunzipSync(Buffer.from(data, 'base64')).toString('utf8')).documents[0].document;
  };
  assert.deepEqual(embedded(paths.direct), evalDoc);
  assert.deepEqual(embedded(paths.evalHtml), evalDoc);
  const { page, errors } = await open(paths.direct);
  assert.equal(await page.locator('[role="gridcell"]').count(), evalDoc.samples.length);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the status, suite and search filters narrow the grid to exactly the samples they name', async () => {
  const { page, errors } = await open(paths.evalHtml, { width: 1400, height: 2400 });
  const failing = evalDoc.samples.filter((s) => s.status === 'fail');
  // The active cell on the last task first: narrowing the grid under it must not break it.
  await page.focus('input[type="search"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+End');
  await page.click('.chip[data-status="fail"]');
  let cells = await shownCells(page);
  assert.equal(cells.length, evalDoc.summary.status_counts.fail);
  assert.equal(cells.length, failing.length);
  assert.ok(cells.every((c) => c.endsWith(' fail')));
  assert.equal(await page.getAttribute('[data-shown]', 'data-shown'), String(failing.length));
  // Two statuses: both kinds.
  await page.click('.chip[data-status="timeout"]');
  assert.equal((await shownCells(page)).length, failing.length + evalDoc.summary.status_counts.timeout!);
  await page.click('.chip[data-status="timeout"]');
  await page.click('.chip[data-status="fail"]');
  // The status in one suite: samples whose `plus` suite passed.
  await page.selectOption('select', 'plus');
  await page.click('.chip[data-status="pass"]');
  cells = await shownCells(page);
  assert.equal(cells.length, evalDoc.samples.filter((s) => s.suites.plus?.status === 'pass').length);
  await page.click('.chip[data-status="pass"]');
  await page.selectOption('select', '');
  // The search: one task's id.
  const task = evalDoc.samples[4]!.task_id;
  await page.fill('input[type="search"]', task);
  cells = await shownCells(page);
  assert.equal(cells.length, evalDoc.samples.filter((s) => s.task_id === task).length);
  assert.ok(cells.every((c) => c.startsWith(`${task} `)));
  assert.deepEqual(errors, []);
  await page.close();
});

test('a failing sample shows its first failure, expected against actual, and its shrunk counterexample', async () => {
  const { page, errors } = await open(paths.evalHtml);
  const sample = evalDoc.samples.find(
    (s) => s.status === 'fail' && s.counterexample && s.first_failure?.expected && s.first_failure.actual,
  )!;
  assert.ok(sample, 'the built-in suite with --augment has a shrunk failure');
  await page.click(cellSelector(sample));
  const drawer = page.locator('[role="dialog"]');
  await drawer.waitFor();
  assert.match((await drawer.locator('h2').textContent())!, new RegExp(`${sample.task_id}\\s*#${sample.index}`));
  const failure = drawer.locator('.failure');
  assert.equal((await failure.locator('[data-role="expected"]').textContent())!, sample.first_failure!.expected);
  assert.equal((await failure.locator('[data-role="actual"]').textContent())!, sample.first_failure!.actual);
  assert.equal((await failure.locator('.message').textContent())!, sample.first_failure!.message);
  const cx = drawer.locator('.counterexample[data-shape="function"]');
  assert.equal((await cx.locator('[data-role="expected"]').textContent())!, sample.counterexample!.expected);
  assert.equal((await cx.locator('[data-role="actual"]').textContent())!, sample.counterexample!.actual);
  assert.ok((await cx.textContent())!.includes(String(sample.counterexample!.input)));
  await screenshot(page, 'detail', 'report-detail');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an SQL counterexample shows each table of its database, and the rows expected against the rows returned', async () => {
  const { page, requests, errors } = await open(paths.sqlHtml);
  const sample = sqlDoc.samples.find((s) => s.counterexample)!;
  assert.ok(sample, '--augment found the boundary query wrong on a generated database');
  await page.click(cellSelector(sample));
  const cx = page.locator('[role="dialog"] .counterexample[data-shape="sql-database"]');
  await cx.waitFor();
  const database = sample.counterexample!.database as Record<string, Record<string, unknown>[]>;
  for (const [name, rows] of Object.entries(database)) {
    const table = cx.locator(`table[data-table="${name}"]`);
    assert.deepEqual(await table.locator('thead th').allTextContents(), Object.keys(rows[0]!));
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(
      shown,
      rows.map((row) => Object.values(row).map((v) => (v === null ? 'NULL' : String(v)))),
    );
  }
  const diff = (await cx.locator('.line-diff pre').textContent())!;
  for (const line of String(sample.counterexample!.expected).split('\n'))
    assert.ok(diff.includes(line), `expected row ${line}`);
  for (const line of String(sample.counterexample!.actual).split('\n'))
    assert.ok(diff.includes(line), `actual row ${line}`);
  await screenshot(page, 'sql', 'report-sql');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.sqlHtml).href]);
  await page.close();
});

test('the grid is navigable with the keyboard: Tab into it, arrows move focus, Enter opens a detail, Escape closes it', async () => {
  const { page, errors } = await open(paths.evalHtml);
  const focused = (): Promise<string> =>
    page.evaluate(
      `[document.activeElement.dataset.row, document.activeElement.dataset.cell, document.activeElement.getAttribute('role')].join(' ')`,
    );
  await page.focus('input[type="search"]');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), '0 0 gridcell');
  // Focus is visible: an outline in the page's focus colour.
  assert.notEqual(await page.evaluate(`getComputedStyle(document.activeElement).outlineStyle`), 'none');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), '0 1 gridcell');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), '1 1 gridcell');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('End');
  const tasks = [...new Set(evalDoc.samples.map((s) => s.task_id))];
  const second = evalDoc.samples.filter((s) => s.task_id === tasks[1]);
  assert.equal(await focused(), `1 ${second.length - 1} gridcell`);
  await page.keyboard.press('Control+End');
  assert.equal((await focused()).split(' ')[0], String(tasks.length - 1));
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const drawer = page.locator('[role="dialog"]');
  await drawer.waitFor();
  assert.match(
    (await drawer.locator('h2').textContent())!,
    new RegExp(`${tasks[1]}\\s*#${Math.min(...second.map((s) => s.index))}`),
  );
  assert.equal(await page.evaluate(`document.activeElement.id`), 'drawer-title', 'the detail takes focus');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  assert.equal(await focused(), '1 0 gridcell', 'focus goes back to the cell');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the comparison of two eval documents shows pass@k side by side and lists exactly the samples that flipped', async () => {
  const { page, requests, errors } = await open(paths.compare);
  const inB = new Map(bDoc.samples.map((s) => [`${s.task_id} ${s.index}`, s.status]));
  const flipped = evalDoc.samples
    .filter((s) => inB.has(`${s.task_id} ${s.index}`) && inB.get(`${s.task_id} ${s.index}`) !== s.status)
    .map((s) => `${s.task_id} ${s.index}`);
  assert.equal(flipped.length, 3);
  const listed = await page
    .locator('.flip-list tbody tr')
    .evaluateAll((trs) => trs.map((tr) => `${(tr as HTMLElement).dataset.task} ${(tr as HTMLElement).dataset.index}`));
  assert.deepEqual(listed.sort(), flipped.sort());
  assert.equal(await text(page, '[data-testid="flip-count"]'), '3');
  for (const [suite, byK] of Object.entries(evalDoc.summary.pass_at_k))
    for (const [k, a] of Object.entries(byK)) {
      const row = `[data-testid="pass-at-k-delta"] tr[data-suite="${suite}"][data-k="${k}"]`;
      assert.equal(await text(page, `${row} [data-side="a"]`), percent(a));
      assert.equal(await text(page, `${row} [data-side="b"]`), percent(bDoc.summary.pass_at_k[suite]![k]!));
    }
  assert.match(
    await text(page, '[data-testid="pass-at-k-delta"] tr[data-suite="plus"][data-k="1"] [data-side="delta"]'),
    /▲\s*\+/,
  );
  assert.match((await page.locator('.flips').textContent()) ?? '', /1 only in A/);
  await screenshot(page, 'compare', 'report-compare');
  // Each flip opens both sides.
  const [task, index] = flipped[0]!.split(' ');
  await page.click(`.flip-list tr[data-task="${task}"][data-index="${index}"] button`);
  const sides = page.locator('[role="dialog"] .side .sample-detail');
  assert.equal(await sides.count(), 2);
  const a = evalDoc.samples.find((s) => s.task_id === task && String(s.index) === index)!;
  assert.equal(
    await sides
      .nth(0)
      .locator('.sd-top .badge')
      .textContent()
      .then((t) => t!.replace(/\W+/g, ' ').trim()),
    a.status.replace('-', ' '),
  );
  assert.equal(
    await sides
      .nth(1)
      .locator('.sd-top .badge')
      .textContent()
      .then((t) => t!.replace(/\W+/g, ' ').trim()),
    inB.get(flipped[0]!)!.replace('-', ' '),
  );
  await screenshot(page, 'compare-detail', 'report-compare-detail');
  await page.keyboard.press('Escape');
  assert.equal(
    await page.evaluate(`document.activeElement.closest('tr')?.dataset.task`),
    task,
    'focus goes back to the flip',
  );
  assert.deepEqual(await seriousViolations(page), []);
  // Each document has its own tab.
  await page.click('[role="tab"]:has-text("B: eval-b.json")');
  assert.equal(await page.locator('[role="gridcell"]').count(), bDoc.samples.length);
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.compare).href]);
  await page.close();
});
