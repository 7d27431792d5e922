/**
 * The report of `crucible audit` as a user makes it (real processes: `audit --mutants` on a
 * small HumanEvalPack-format dataset with a wrong reference and a buggy solution its weak tests
 * pass, and `audit` on SQL tasks), checked in a real browser from file://: nothing fetched,
 * nothing logged as an error, the rates and counts equal the JSON's, the false negatives and
 * false positives are listed with their explanations, each task's mutation score is shown and
 * its surviving mutants expand (with the mouse and the keyboard) into diffs against the
 * reference, a filter narrows the tasks, and axe-core finds nothing serious. Screenshots go to
 * test-artifacts/report/ (and, with CRUCIBLE_DOC_SCREENSHOTS=1, docs/report-audit.png).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser, Page, ViewportSize } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import { crucible as run, writeJsonl } from './cli-support.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-audit-'));
const crucible = (args: string[]) => run(args, { cwd: dir });

interface Entry {
  task_id: string;
  kind: 'reference' | 'known-wrong';
  label: string;
  status: string;
  first_failure: { input: string | null; expected: string | null; actual: string | null; message: string } | null;
  program: string;
}
interface TaskScore {
  task_id: string;
  mutants: number;
  judged: number;
  killed: number;
  score: number | null;
  no_verdict: number;
  survivors: { operator: string; line: number; diff: string; program: string }[];
  problem?: string;
}
interface AuditDoc {
  dataset: string;
  references: { total: number; passed: number; no_verdict: number };
  known_wrong: { total: number; failed: number; no_verdict: number };
  false_negative_rate: number;
  false_positive_rate: number;
  disagreements: Entry[];
  mutation: {
    mean_score: number;
    weak_below: number;
    weak_tasks: number;
    tasks_scored: number;
    mutants: { judged: number; killed: number; no_verdict: number };
    tasks: TaskScore[];
  };
}
interface SqlAuditDoc {
  references: { total: number; failing: { task_id: string; why: string }[] };
  rewrites: { total: number; failing: { task_id: string; sql: string; why: string }[] };
  bugs: { injected: number; caughtByBase: number; caught: number; syntax: number };
}

// HumanEvalPack's format: a reference and a buggy solution per task, tests that call themselves.
const below = (name: string) => `def ${name}(xs, k):\n    """How many items are below k."""\n`;
const COUNT = '    n = 0\n    for x in xs:\n        if x < k:\n            n += 1\n    return n\n';
const AT_MOST = COUNT.replace('x < k', 'x <= k');
const strong = (f: string) =>
  `def check(c):\n    assert c([1, 5, 3, 2], 3) == 2\n    assert c([3, 3], 4) == 2\n    assert c([0], 0) == 0\n    assert c([], 0) == 0\n\ncheck(${f})\n`;
const weak = (f: string) => `def check(c):\n    assert c([], 3) == 0\n\ncheck(${f})\n`;
const TASKS = [
  // Tests that kill every mutant.
  {
    task_id: 'Python/0',
    entry_point: 'below',
    canonical_solution: COUNT,
    buggy_solution: AT_MOST,
    test: strong('below'),
  },
  // One weak assert: the buggy solution passes (a false positive) and most mutants survive.
  {
    task_id: 'Python/1',
    entry_point: 'below',
    canonical_solution: COUNT,
    buggy_solution: AT_MOST,
    test: weak('below'),
  },
  // A wrong reference: the harness fails it (a false negative) and its task gets no mutation score.
  {
    task_id: 'Python/2',
    entry_point: 'below',
    canonical_solution: AT_MOST,
    buggy_solution: COUNT.replace('n += 1', 'n += 2'),
    test: strong('below'),
  },
].map((t) => ({ ...t, prompt: below(t.entry_point), declaration: below(t.entry_point) }));

const CITY = {
  domain: 'sql',
  schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
  setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
};
const SQL_TASKS = [
  {
    ...CITY,
    task_id: 'cities/big-texan',
    question: 'Which Texan cities have more than 500 people?',
    reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
    equivalents: [
      "SELECT c.name FROM city c WHERE c.population > 500 AND c.state = 'texas'",
      "SELECT name FROM city WHERE state = 'texas' AND population >= 500",
    ],
  },
  { ...CITY, task_id: 'cities/misspelt', question: 'Every city.', reference: 'SELECT nme FROM city' },
];

let browser: Browser;
const paths = {
  dataset: join(dir, 'pack.jsonl'),
  json: join(dir, 'audit.json'),
  html: join(dir, 'audit.html'),
  direct: join(dir, 'audit-mutants.html'),
  sqlDataset: join(dir, 'cities.jsonl'),
  sqlJson: join(dir, 'sql-audit.json'),
  sqlHtml: join(dir, 'sql-audit.html'),
};
let doc: AuditDoc;
let sqlDoc: SqlAuditDoc;

before(async () => {
  browser = await launchChromium();
  writeJsonl(paths.dataset, TASKS);
  writeJsonl(paths.sqlDataset, SQL_TASKS);
  const [functions, sql] = await Promise.all([
    crucible([
      'audit',
      '--dataset',
      'pack.jsonl',
      '--mutants',
      '6',
      '--json',
      paths.json,
      '--html',
      paths.direct,
      '--no-record',
    ]),
    crucible(['audit', '--dataset', 'cities.jsonl', '--mutants', '--json', paths.sqlJson, '--no-record']),
  ]);
  assert.equal(functions.code, 0, functions.stderr);
  assert.match(functions.stdout, /report written to .*audit-mutants\.html/);
  assert.equal(sql.code, 0, sql.stderr);
  doc = JSON.parse(readFileSync(paths.json, 'utf8'));
  sqlDoc = JSON.parse(readFileSync(paths.sqlJson, 'utf8'));
  for (const file of [paths.json, paths.sqlJson]) {
    const r = await crucible(['report', file]);
    assert.equal(r.code, 0, r.stderr);
  }
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (file: string, viewport?: ViewportSize) => openPage(browser, pathToFileURL(file), { viewport });

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** The tasks of one list of the report, in order. */
const listed = (page: Page, list: string) =>
  page
    .locator(`[data-list="${list}"] .audit-entry`)
    .evaluateAll((articles) => articles.map((a) => (a as HTMLElement).dataset.task!));
/** A program as the page has it (the highlighting's spans are decoration). */
const programIn = async (page: Page, selector: string) => page.locator(`${selector} pre.code`).first().textContent();
const shownTasks = (page: Page) =>
  page.locator('.mutation-table > tbody').evaluateAll((bodies) => bodies.map((b) => (b as HTMLElement).dataset.task!));

test('the audit report opens with no request and no error, and shows the JSON’s rates and counts', async () => {
  const { page, requests, errors } = await open(paths.html);
  assert.equal(await text(page, 'h1'), doc.dataset);
  assert.equal(await text(page, '[data-figure="false-negative-rate"]'), percent(doc.false_negative_rate));
  assert.equal(await text(page, '[data-figure="false-positive-rate"]'), percent(doc.false_positive_rate));
  assert.equal(await text(page, '[data-figure="references"]'), `${doc.references.passed} / ${doc.references.total}`);
  assert.equal(await text(page, '[data-figure="known-wrong"]'), `${doc.known_wrong.failed} / ${doc.known_wrong.total}`);
  assert.equal(
    await text(page, '[data-figure="no-verdict"]'),
    String(doc.references.no_verdict + doc.known_wrong.no_verdict),
  );
  const m = doc.mutation;
  assert.equal(await text(page, '[data-figure="mean-score"]'), m.mean_score.toFixed(2));
  assert.equal(await text(page, '[data-figure="weak-tasks"]'), String(m.weak_tasks));
  assert.equal(await text(page, '[data-figure="killed"]'), `${m.mutants.killed} / ${m.mutants.judged}`);
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.html).href], 'the page fetches nothing but itself');
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});

test('false negatives and false positives are listed with their explanations', async () => {
  const { page, errors } = await open(paths.html);
  const negatives = doc.disagreements.filter((d) => d.kind === 'reference' && d.status !== 'no-verdict');
  const positives = doc.disagreements.filter((d) => d.kind === 'known-wrong' && d.status === 'pass');
  assert.deepEqual(
    negatives.map((d) => d.task_id),
    ['Python/2'],
    'the wrong reference fails',
  );
  assert.deepEqual(
    positives.map((d) => d.task_id),
    ['Python/1'],
    'the weak tests pass the buggy solution',
  );
  assert.deepEqual(
    await listed(page, 'false-negatives'),
    negatives.map((d) => d.task_id),
  );
  assert.deepEqual(
    await listed(page, 'false-positives'),
    positives.map((d) => d.task_id),
  );
  assert.equal(await page.locator('[data-list="no-verdicts"]').count(), 0, 'no list of no-verdicts when there is none');
  for (const d of negatives) {
    const card = `[data-list="false-negatives"] .audit-entry[data-task="${d.task_id}"]`;
    assert.equal(await page.getAttribute(card, 'data-status'), d.status);
    assert.equal(await text(page, `${card} .message`), d.first_failure!.message);
    assert.equal(await text(page, `${card} .ea-row .ea-value`), d.first_failure!.input);
    assert.equal(await text(page, `${card} [data-role="actual"]`), d.first_failure!.actual);
  }
  for (const d of positives) {
    const card = `[data-list="false-positives"] .audit-entry[data-task="${d.task_id}"]`;
    assert.match(await text(page, card), new RegExp(`known wrong: ${d.label}`));
    assert.match(await text(page, `${card} .ae-why`), /passes every test/);
    // The wrong program it passed, behind a disclosure: hidden at first, then as the document has it.
    assert.ok(d.program.includes(AT_MOST), 'the buggy solution of the task');
    const program = page.locator(`${card} .ae-program pre.code`);
    assert.equal(await program.isVisible(), false, 'collapsed at first');
    await page.click(`${card} .ae-program summary`);
    assert.ok(await program.isVisible());
    assert.equal(await programIn(page, `${card} .ae-program`), d.program);
    assert.equal(await program.getAttribute('aria-label'), `${d.label} of ${d.task_id}`);
  }
  for (const d of negatives) {
    const card = `[data-list="false-negatives"] .audit-entry[data-task="${d.task_id}"]`;
    await page.click(`${card} .ae-program summary`);
    assert.equal(await programIn(page, `${card} .ae-program`), d.program, 'the failing reference');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('each task’s mutation score is shown; a surviving mutant expands into its diff against the reference', async () => {
  const { page, errors } = await open(paths.direct, { width: 1400, height: 1460 });
  assert.deepEqual(
    await shownTasks(page),
    doc.mutation.tasks.map((t) => t.task_id),
  );
  for (const t of doc.mutation.tasks) {
    const row = `.mutation-table > tbody[data-task="${t.task_id}"]`;
    assert.equal(await text(page, `${row} [data-col="score"]`), t.score === null ? '—' : t.score.toFixed(2));
    assert.equal(await text(page, `${row} [data-col="killed"]`), `${t.killed}/${t.judged}`);
    if (t.problem) assert.match(await text(page, row), new RegExp(`no score: ${t.problem}`));
  }
  const weakTask = doc.mutation.tasks.find((t) => t.survivors.length > 0)!;
  assert.ok(weakTask && weakTask.score! < doc.mutation.weak_below, 'the weak task has survivors');
  const body = page.locator(`.mutation-table > tbody[data-task="${weakTask.task_id}"]`);
  assert.equal(await body.locator('.mutant').count(), 0, 'collapsed at first');
  await body.locator('button.expander').click();
  assert.equal(await body.locator('button.expander').getAttribute('aria-expanded'), 'true');
  const mutants = body.locator('.mutant');
  assert.equal(await mutants.count(), weakTask.survivors.length);
  for (const [i, survivor] of weakTask.survivors.entries()) {
    const mutant = mutants.nth(i);
    assert.equal(await mutant.getAttribute('data-operator'), survivor.operator);
    assert.equal(await mutant.getAttribute('data-line'), String(survivor.line));
    const lines = survivor.diff.split('\n');
    const side = (sign: string) =>
      lines
        .slice(1)
        .filter((l) => l.startsWith(sign))
        .map((l) => l.slice(1));
    // The reference's lines and the mutant's, as the diff has them (the marks are decoration, the screen reader's prefix too).
    const shown = async (which: string) =>
      (await mutant.locator(`.md-line[data-side="${which}"]`).allTextContents()).map((t) =>
        t.replace(/^[−+]/, '').replace(/^(reference|mutant): /, ''),
      );
    assert.deepEqual(await shown('reference'), side('-'));
    assert.deepEqual(await shown('mutant'), side('+'));
    // What the mutation changed is marked: on each side, the text outside the marks is what the two have in common.
    assert.ok((await mutant.locator('.md-mut mark').count()) > 0, `${survivor.diff}: the change is marked`);
    const unmarked = (which: string) =>
      mutant.locator(`.md-line[data-side="${which}"]`).evaluateAll((spans) =>
        spans
          .map((span) => {
            const copy = span.cloneNode(true) as HTMLElement;
            copy.querySelectorAll('mark, .md-mark, .sr-only').forEach((e) => e.remove());
            return copy.textContent;
          })
          .join('\n'),
      );
    assert.equal(await unmarked('reference'), await unmarked('mutant'));
    assert.notEqual(side('-').join('\n'), side('+').join('\n'));
    // The whole mutant, behind a disclosure: the diff's + lines are in it, and it is the document's.
    const whole = mutant.locator('.mutant-program pre.code');
    assert.equal(await whole.isVisible(), false, 'collapsed at first');
    for (const line of side('+')) assert.ok(survivor.program.split('\n').includes(line), `${line} in the mutant`);
    if (i === 0) {
      await mutant.locator('.mutant-program summary').click();
      assert.ok(await whole.isVisible());
    }
    assert.equal(await whole.textContent(), survivor.program);
  }
  await screenshot(page, 'audit', 'report-audit');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the document carries each judged program once: on its disagreement, on its survivor', () => {
  const raw = readFileSync(paths.json, 'utf8');
  const copies = (program: string) => raw.split(JSON.stringify(program)).length - 1;
  const entryPrograms = doc.disagreements.map((d) => d.program);
  for (const d of doc.disagreements) assert.equal(typeof d.program, 'string', d.task_id);
  const survivors = doc.mutation.tasks.flatMap((t) => t.survivors);
  assert.ok(survivors.length > 0);
  for (const s of survivors) {
    assert.equal(typeof s.program, 'string');
    // A mutant can be the very program a disagreement judged (x < k → x <= k is the buggy solution).
    assert.equal(copies(s.program), 1 + entryPrograms.filter((p) => p === s.program).length, s.diff);
  }
  for (const p of new Set(entryPrograms))
    assert.equal(
      copies(p),
      entryPrograms.filter((q) => q === p).length + survivors.filter((s) => s.program === p).length,
    );
});

test('the surviving mutants expand and collapse with the keyboard, and the weak filter keeps only weak tasks', async () => {
  const { page, errors } = await open(paths.html, { width: 1400, height: 1400 });
  const expander = page.locator('.mutation-table button.expander').first();
  await expander.focus();
  await page.keyboard.press('Enter');
  assert.equal(await expander.getAttribute('aria-expanded'), 'true');
  const panel = (await expander.getAttribute('aria-controls'))!;
  assert.ok((await page.locator(`[id="${panel}"] .mutant`).count()) > 0, 'the panel it controls shows the mutants');
  assert.equal(
    await page.evaluate(`document.activeElement === document.querySelector('.mutation-table button.expander')`),
    true,
  );
  await page.keyboard.press('Space');
  assert.equal(await expander.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.locator('.mutation-table .mutant').count(), 0);
  await page.click('.chip[data-filter="weak"]');
  const weak = doc.mutation.tasks.filter((t) => t.score !== null && t.score < doc.mutation.weak_below);
  assert.deepEqual(
    await shownTasks(page),
    weak.map((t) => t.task_id),
  );
  assert.equal(weak.length, doc.mutation.weak_tasks);
  await page.click('.chip[data-filter="weak"]');
  await page.fill('.mutation-scores input[type="search"]', 'Python/0');
  assert.deepEqual(await shownTasks(page), ['Python/0']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the audit of SQL tasks lists the references that fail their own checks and the rewrites judged different', async () => {
  const { page, requests, errors } = await open(paths.sqlHtml);
  assert.equal(await text(page, '[data-figure="references"]'), String(sqlDoc.references.total));
  assert.equal(
    await text(page, '[data-figure="references-passing"]'),
    String(sqlDoc.references.total - sqlDoc.references.failing.length),
  );
  assert.equal(await text(page, '[data-figure="rewrites"]'), String(sqlDoc.rewrites.total));
  assert.equal(await text(page, '[data-figure="bugs"]'), String(sqlDoc.bugs.injected));
  assert.equal(await text(page, '[data-figure="bugs-base"]'), String(sqlDoc.bugs.caughtByBase));
  assert.equal(await text(page, '[data-figure="bugs-syntax"]'), String(sqlDoc.bugs.syntax));
  assert.deepEqual(
    sqlDoc.references.failing.map((f) => f.task_id),
    ['cities/misspelt'],
  );
  assert.deepEqual(
    await listed(page, 'failing-references'),
    sqlDoc.references.failing.map((f) => f.task_id),
  );
  for (const f of sqlDoc.references.failing)
    assert.equal(await text(page, `[data-list="failing-references"] [data-task="${f.task_id}"] .message`), f.why);
  assert.ok(sqlDoc.rewrites.failing.length > 0, 'the >= rewrite differs on a generated database');
  for (const f of sqlDoc.rewrites.failing) {
    const card = `[data-list="failing-rewrites"] [data-task="${f.task_id}"]`;
    assert.equal(await text(page, `${card} pre.code`), f.sql);
    assert.equal(await text(page, `${card} .message`), f.why);
  }
  await screenshot(page, 'audit-sql');
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.sqlHtml).href]);
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});
