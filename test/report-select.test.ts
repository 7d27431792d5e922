/**
 * The reports of `crucible select` and `crucible calibrate` as a user makes them (real
 * processes: calibrate on labelled tasks, select with its threshold, then `crucible report`
 * or `--html`), checked in a real browser from file://: nothing fetched, nothing logged as an
 * error, the numbers shown equal the JSON's, the filters narrow the task list exactly, an
 * abstention shows its reason and its clusters, the risk–coverage curve draws every tested
 * threshold, the α line and the chosen threshold where the document puts them, the keyboard
 * works, and axe-core finds nothing serious. Screenshots go to test-artifacts/report/ (and,
 * with CRUCIBLE_DOC_SCREENSHOTS=1, to docs/report-select.png and docs/report-calibrate.png).
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

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-select-'));
const crucible = (args: string[]) => run(args, { cwd: dir });

interface SelectTask {
  task_id: string;
  decision: 'answer' | 'abstain';
  selected_index: number | null;
  confidence: number;
  reason?: string;
  why: string;
  clusters: number[][];
  candidates: { index: number; suspect?: string; program: string }[];
  disagreements: { input: string; groups: { behaviour: string; candidates: number[] }[] }[];
}
interface SelectDoc {
  threshold: { threshold: number | null; alpha: number } | null;
  summary: { tasks: number; answered: number; abstained: number };
  tasks: SelectTask[];
}
interface Level {
  threshold: number;
  answered: number;
  wrong: number;
  errorBound: number;
}
interface CalibrateDoc {
  threshold: number | null;
  alpha: number;
  delta: number;
  calibrationTasks: number;
  answered: number;
  wrong: number;
  errorBound: number;
  levels: Level[];
  calibration: { taskId: string; selectedIndex: number; confidence: number; correct: boolean }[];
}

// Tasks in HumanEval's format, all asking for the same function, with samples mixed so that the
// selection's confidence (examples passed × the share of candidates behaving like the pick) takes
// several values and is sometimes confidently wrong: a calibration has something to choose.
const PROMPT =
  'def second_largest(xs: list[int]) -> int:\n    """The second largest distinct value, or -1 if there is none.\n    >>> second_largest([3, 1, 4])\n    3\n    >>> second_largest([2, 2])\n    -1\n    """\n';
const RIGHT = [
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 1 else -1\n',
  '    top = second = None\n    for x in set(xs):\n        if top is None or x > top:\n            top, second = x, top\n        elif second is None or x > second:\n            second = x\n    return -1 if second is None else second\n',
  '    d = sorted(set(xs), reverse=True)\n    return -1 if len(d) < 2 else d[1]\n',
];
const WRONG = [
  '    d = sorted(xs)\n    return d[-2] if len(d) > 1 else -1\n', // duplicates: fails the [2, 2] example
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 1 and d[0] >= 0 else -1\n', // negatives
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 2 else -1\n', // two distinct values
  '    d = sorted(set(xs))\n    return d[-2] if len(d) > 1 and d[-1] < 50 else -1\n', // large values
];
const [R0, R1, R2] = RIGHT as [string, string, string];
const [W0, W1, W2, W3] = WRONG as [string, string, string, string];
const repeat = (n: number, mix: string[]) => Array.from({ length: n }, () => mix);
const GROUPS = [
  ...repeat(11, [R0, R1, R2, R0]),
  [W1, W1, W1, W1],
  ...repeat(2, [R0, R1, R2, W1]),
  [R0, R1, R2, W0],
  [W1, W1, W1, R0],
  ...repeat(2, [R0, R1, W1, W2]),
  ...repeat(2, [W1, W1, W2, W3]),
  [R0, W1, W2, W3],
  [W1, R0, W2, W3],
];
/** In a fixed shuffled order (7 is prime to 22), so that answers and abstentions alternate as in a real dataset. */
const MIXES = GROUPS.map((_, i) => GROUPS[(i * 7) % GROUPS.length]!);
const CHECK =
  'def check(candidate):\n    assert candidate([3, 1, 4]) == 3\n    assert candidate([2, 2]) == -1\n    assert candidate([-5, -2, -9]) == -5\n    assert candidate([7, 1]) == 1\n';

let browser: Browser;
const paths = {
  tasks: join(dir, 'tasks.jsonl'),
  samples: join(dir, 'samples.jsonl'),
  threshold: join(dir, 'threshold.json'),
  calibrateHtml: join(dir, 'threshold.html'),
  selectJson: join(dir, 'select.json'),
  selectHtml: join(dir, 'select.html'),
  plainHtml: join(dir, 'plain.html'),
};
let selectDoc: SelectDoc;
let calibrateDoc: CalibrateDoc;

before(async () => {
  browser = await launchChromium();
  writeJsonl(
    paths.tasks,
    MIXES.map((_, i) => ({
      task_id: `Second/${i}`,
      prompt: PROMPT,
      canonical_solution: R0,
      test: CHECK,
      entry_point: 'second_largest',
    })),
  );
  writeJsonl(
    paths.samples,
    MIXES.flatMap((mix, i) => mix.map((completion) => ({ task_id: `Second/${i}`, completion }))),
  );
  // Named as a user in that folder would (the report shows them).
  const inputs = [
    '--dataset',
    'tasks.jsonl',
    '--samples',
    'samples.jsonl',
    '--seed',
    '5',
    '--inputs',
    '60',
    '--no-record',
  ];
  const calibrated = await crucible([
    'calibrate',
    ...inputs,
    '--alpha',
    '0.4',
    '--delta',
    '0.1',
    '--out',
    paths.threshold,
    '--html',
    paths.calibrateHtml,
  ]);
  assert.equal(calibrated.code, 0, calibrated.stderr);
  assert.match(calibrated.stdout, /report written to .*threshold\.html/);
  calibrateDoc = JSON.parse(readFileSync(paths.threshold, 'utf8'));
  const [selected, plain] = await Promise.all([
    crucible(['select', ...inputs, '--threshold', paths.threshold, '--json', paths.selectJson]),
    crucible(['select', ...inputs, '--html', paths.plainHtml]),
  ]);
  assert.equal(selected.code, 0, selected.stderr);
  assert.equal(plain.code, 0, plain.stderr);
  selectDoc = JSON.parse(readFileSync(paths.selectJson, 'utf8'));
  const report = await crucible(['report', paths.selectJson]);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /report written to .*select\.html/);
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (file: string, viewport?: ViewportSize) => openPage(browser, pathToFileURL(file), { viewport });

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
const text = async (page: Page, selector: string) =>
  ((await page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** The task ids of the rows the task list shows, in order. */
const shownTasks = (page: Page) =>
  page.locator('.task-table tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.task!));
const attr = async (page: Page, selector: string, name: string) => Number(await page.getAttribute(selector, name));

test('the calibrate document carries every tested threshold, and select --threshold still reads it', () => {
  assert.ok(calibrateDoc.levels.length >= 3, 'several confidences, several thresholds tested');
  assert.equal(calibrateDoc.calibration.length, calibrateDoc.calibrationTasks);
  assert.ok(calibrateDoc.calibration.every((item) => typeof item.taskId === 'string'));
  assert.notEqual(calibrateDoc.threshold, null, 'this calibration certifies α at some threshold');
  const chosen = calibrateDoc.levels.find((l) => l.errorBound <= calibrateDoc.alpha)!;
  assert.deepEqual(
    {
      threshold: calibrateDoc.threshold,
      answered: calibrateDoc.answered,
      wrong: calibrateDoc.wrong,
      errorBound: calibrateDoc.errorBound,
    },
    chosen,
  );
  assert.ok(calibrateDoc.levels[0]!.errorBound > calibrateDoc.alpha, 'the lowest threshold does not certify α');
  assert.equal(selectDoc.threshold?.threshold, calibrateDoc.threshold);
  assert.ok(selectDoc.summary.answered > 0 && selectDoc.summary.abstained > 0);
});

test('each candidate carries its program, once: the sample at its index, as judged', () => {
  for (const t of selectDoc.tasks) {
    const mix = MIXES[Number(t.task_id.split('/')[1])]!;
    assert.deepEqual(
      t.candidates.map((c) => c.index),
      mix.map((_, i) => i),
    );
    for (const c of t.candidates) {
      assert.equal(typeof c.program, 'string', `${t.task_id} #${c.index}`);
      assert.ok(
        c.program.includes(PROMPT) && c.program.endsWith(mix[c.index]!),
        `${t.task_id} #${c.index}: ${c.program}`,
      );
    }
    // Nowhere else in the task: the picked one is found by its index.
    assert.doesNotMatch(JSON.stringify({ ...t, candidates: [] }), /def second_largest/);
  }
});

/** What the drawer shows as the picked program (the highlighting's spans are decoration). */
const pickedProgram = async (page: Page) =>
  page.locator('[role="dialog"] [data-testid="picked-program"] pre.code').textContent();

test('the select report opens with no request and no error, and shows the JSON’s figures and every task’s decision', async () => {
  const { page, requests, errors } = await open(paths.selectHtml);
  const s = selectDoc.summary;
  assert.equal(await text(page, '[data-figure="tasks"]'), String(s.tasks));
  assert.equal(await text(page, '[data-figure="answered"]'), String(s.answered));
  assert.equal(await text(page, '[data-figure="abstained"]'), String(s.abstained));
  assert.equal(await text(page, '[data-figure="coverage"]'), percent(s.answered / s.tasks));
  assert.equal(await text(page, '[data-figure="tau"]'), selectDoc.threshold!.threshold!.toFixed(3));
  assert.deepEqual(
    await shownTasks(page),
    selectDoc.tasks.map((t) => t.task_id),
  );
  for (const t of selectDoc.tasks) {
    const row = `.task-table tr[data-task="${t.task_id}"]`;
    assert.equal(await page.getAttribute(row, 'data-decision'), t.decision);
    assert.equal(await text(page, `${row} [data-col="confidence"]`), t.confidence.toFixed(3), t.task_id);
    assert.equal(await text(page, `${row} [data-col="picked"]`), `#${t.selected_index}`);
    assert.equal(await text(page, `${row} [data-col="divisive"]`), String(t.disagreements.length));
    if (t.decision === 'abstain') assert.equal(await text(page, `${row} .reason`), t.reason);
  }
  await screenshot(page, 'select', 'report-select');
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.selectHtml).href], 'the page fetches nothing but itself');
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});

test('the decision, divisive-input and search filters narrow the task list to exactly the tasks they name', async () => {
  const { page, errors } = await open(paths.selectHtml, { width: 1400, height: 1600 });
  const ids = (tasks: SelectTask[]) => tasks.map((t) => t.task_id);
  await page.click('.chip[data-filter="abstain"]');
  const abstained = selectDoc.tasks.filter((t) => t.decision === 'abstain');
  assert.deepEqual(await shownTasks(page), ids(abstained));
  assert.equal(await page.getAttribute('[data-shown]', 'data-shown'), String(selectDoc.summary.abstained));
  // Both decisions: every task again.
  await page.click('.chip[data-filter="answer"]');
  assert.equal((await shownTasks(page)).length, selectDoc.tasks.length);
  await page.click('.chip[data-filter="abstain"]');
  assert.deepEqual(await shownTasks(page), ids(selectDoc.tasks.filter((t) => t.decision === 'answer')));
  // And only those with an input that splits the candidates.
  await page.click('.chip[data-filter="divisive"]');
  assert.deepEqual(
    await shownTasks(page),
    ids(selectDoc.tasks.filter((t) => t.decision === 'answer' && t.disagreements.length > 0)),
  );
  await page.click('.chip[data-filter="divisive"]');
  await page.click('.chip[data-filter="answer"]');
  // The search: one task's id, exactly.
  const last = selectDoc.tasks.at(-1)!.task_id;
  await page.fill('input[type="search"]', last);
  assert.deepEqual(await shownTasks(page), [last]);
  await page.fill('input[type="search"]', 'no such task');
  assert.equal(await page.locator('.task-table').count(), 0);
  assert.match(await text(page, '.select-tasks .empty'), /No task matches/);
  await page.fill('input[type="search"]', '');
  // Least confident first: the same tasks, confidences ascending.
  await page.selectOption('.select-tasks select', 'confidence-asc');
  const shown = await shownTasks(page);
  assert.deepEqual([...shown].sort(), ids(selectDoc.tasks).sort());
  const confidence = new Map(selectDoc.tasks.map((t) => [t.task_id, t.confidence]));
  assert.ok(shown.every((id, i) => i === 0 || confidence.get(shown[i - 1]!)! <= confidence.get(id)!));
  assert.deepEqual(errors, []);
  await page.close();
});

test('an abstention shows its reason, its behaviour clusters with the picked sample, and its divisive inputs', async () => {
  const { page, errors } = await open(paths.selectHtml);
  const task = selectDoc.tasks.find(
    (t) => t.decision === 'abstain' && t.disagreements.length > 0 && t.clusters.length > 1,
  )!;
  assert.ok(task, 'some abstained task has candidates that disagree');
  await page.click(`.task-table tr[data-task="${task.task_id}"] button`);
  const drawer = page.locator('[role="dialog"]');
  await drawer.waitFor();
  assert.match((await drawer.locator('h2').textContent())!, new RegExp(`${task.task_id}\\s*abstained`));
  assert.equal(await text(page, '[data-testid="abstain-reason"]'), `Abstained: ${task.reason}`);
  assert.match(task.reason!, /below the calibrated threshold/);
  assert.equal(await text(page, '[data-testid="why"]'), task.why);
  const sizes = await drawer
    .locator('.clusters > li')
    .evaluateAll((lis) => lis.map((li) => Number((li as HTMLElement).dataset.size)));
  assert.deepEqual(
    sizes,
    task.clusters.map((c) => c.length),
  );
  const pickedCluster = task.clusters.findIndex((c) => c.includes(task.selected_index!));
  const marked = await drawer
    .locator('.clusters > li')
    .evaluateAll((lis) => lis.map((li) => li.classList.contains('has-picked')));
  assert.deepEqual(
    marked,
    task.clusters.map((_, i) => i === pickedCluster),
  );
  assert.equal(await text(page, '[role="dialog"] .clusters .member.picked'), `#${task.selected_index} picked`);
  const inputs = await drawer.locator('[data-testid="divisive"] .ea-value').allTextContents();
  assert.deepEqual(
    inputs,
    task.disagreements.map((d) => d.input),
  );
  for (const c of task.candidates.filter((c) => c.suspect))
    assert.equal(await text(page, `[role="dialog"] .candidates tr[data-index="${c.index}"] .suspect`), c.suspect);
  // The program it picked (and did not answer with), as the document has it.
  const section = drawer.locator('[data-testid="picked-program"]');
  assert.ok(await section.isVisible());
  assert.equal(await section.getAttribute('data-index'), String(task.selected_index));
  assert.match(await text(page, '[role="dialog"] [data-testid="picked-program"] h3'), /not answered/);
  assert.equal(await pickedProgram(page), task.candidates.find((c) => c.index === task.selected_index)!.program);
  await screenshot(page, 'select-detail');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an answered task shows the program it answers with, as the document has it', async () => {
  const { page, errors } = await open(paths.selectHtml);
  const task = selectDoc.tasks.find((t) => t.decision === 'answer')!;
  await page.click(`.task-table tr[data-task="${task.task_id}"] button`);
  await page.locator('[role="dialog"]').waitFor();
  const heading = await text(page, '[role="dialog"] [data-testid="picked-program"] h3');
  assert.match(heading, new RegExp(`The picked program sample #${task.selected_index}$`));
  assert.equal(await pickedProgram(page), task.candidates.find((c) => c.index === task.selected_index)!.program);
  assert.equal(
    await page.getAttribute('[role="dialog"] [data-testid="picked-program"] pre.code', 'aria-label'),
    `the picked program of ${task.task_id}, sample #${task.selected_index}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test('the task list is navigable with the keyboard: Tab into it, arrows move between tasks, Enter opens one, Escape closes it', async () => {
  const { page, errors } = await open(paths.selectHtml);
  const focusedTask = (): Promise<string | undefined> =>
    page.evaluate(`document.activeElement?.closest('tr')?.dataset.task`) as Promise<string | undefined>;
  await page.focus('.select-tasks input[type="search"]');
  await page.keyboard.press('Tab');
  assert.equal(await focusedTask(), selectDoc.tasks[0]!.task_id);
  assert.notEqual(await page.evaluate(`getComputedStyle(document.activeElement).outlineStyle`), 'none');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focusedTask(), selectDoc.tasks[2]!.task_id);
  await page.keyboard.press('ArrowUp');
  assert.equal(await focusedTask(), selectDoc.tasks[1]!.task_id);
  await page.keyboard.press('End');
  const last = selectDoc.tasks.at(-1)!;
  assert.equal(await focusedTask(), last.task_id);
  await page.keyboard.press('Enter');
  const drawer = page.locator('[role="dialog"]');
  await drawer.waitFor();
  assert.equal(await page.getAttribute('[role="dialog"] .select-detail', 'data-task'), last.task_id);
  assert.equal(await pickedProgram(page), last.candidates.find((c) => c.index === last.selected_index)!.program);
  assert.equal(await page.evaluate(`document.activeElement.id`), 'drawer-title', 'the detail takes focus');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  assert.equal(await focusedTask(), last.task_id, 'focus goes back to the task');
  await page.keyboard.press('Home');
  assert.equal(await focusedTask(), selectDoc.tasks[0]!.task_id);
  assert.deepEqual(errors, []);
  await page.close();
});

test('select without a threshold answers every task, and its report says so', async () => {
  const { page, errors } = await open(paths.plainHtml);
  assert.match(
    await text(page, '[data-testid="no-threshold"]'),
    /No threshold: every task with a candidate is answered/,
  );
  assert.equal(await text(page, '[data-figure="abstained"]'), '0');
  assert.equal(await text(page, '[data-figure="answered"]'), String(MIXES.length));
  assert.equal(await page.locator('.task-table tbody tr[data-decision="answer"]').count(), MIXES.length);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the calibrate report draws each tested threshold, the α line and the chosen threshold where the document says', async () => {
  const { page, requests, errors } = await open(paths.calibrateHtml, { width: 1400, height: 1000 });
  const doc = calibrateDoc;
  const n = doc.calibrationTasks;
  assert.equal(await text(page, '[data-figure="tau"]'), doc.threshold!.toFixed(3));
  assert.equal(await text(page, '[data-figure="tasks"]'), String(n));
  assert.equal(await text(page, '[data-figure="answered"]'), String(doc.answered));
  assert.equal(await text(page, '[data-figure="wrong"]'), String(doc.wrong));
  assert.equal(await text(page, '[data-figure="bound"]'), percent(doc.errorBound));
  // The levels table, the curve's text alternative: one row per tested threshold, the chosen one marked.
  const rows = await page
    .locator('[data-testid="levels"] tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll('[data-col]')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim()),
      ),
    );
  assert.deepEqual(
    rows,
    doc.levels.map((l) => [
      l.threshold.toFixed(3),
      String(l.answered),
      percent(l.answered / n),
      String(l.wrong),
      percent(l.wrong / l.answered),
      percent(l.errorBound),
      `${l.errorBound <= doc.alpha ? '✓ certifies' : '✗ above α'}${l.threshold === doc.threshold ? ' chosen' : ''}`,
    ]),
  );
  // The chart's scales, read from its own ticks (viewBox units): coverage on x, risk on y.
  const tickX = async (v: number) => attr(page, `.rc-tick-x[data-value="${v}"] line`, 'x1');
  const [x0, x1] = [await tickX(0), await tickX(1)];
  const x = (c: number) => x0 + c * (x1 - x0);
  const y0 = await attr(page, '.rc-tick-y[data-value="0"] line', 'y1');
  const ticks = await page
    .locator('.rc-tick-y')
    .evaluateAll((gs) => gs.map((g) => Number((g as HTMLElement).dataset.value)));
  const topTick = Math.max(...ticks);
  const yTop = await attr(page, `.rc-tick-y[data-value="${topTick}"] line`, 'y1');
  const y = (v: number) => y0 + (v / topTick) * (yTop - y0);
  const close = (actual: number, expected: number, what: string) =>
    assert.ok(Math.abs(actual - expected) < 0.6, `${what}: drawn at ${actual}, the document says ${expected}`);
  // The α line, across the chart at α.
  close(await attr(page, 'line.rc-alpha[data-alpha]', 'y1'), y(doc.alpha), 'α line');
  assert.equal(
    await attr(page, 'line.rc-alpha[data-alpha]', 'y2'),
    await attr(page, 'line.rc-alpha[data-alpha]', 'y1'),
  );
  assert.match(await text(page, '.rc-alpha-mark text'), new RegExp(`α = ${doc.alpha}`));
  // The chosen threshold, upright at its coverage.
  close(await attr(page, 'line.rc-chosen[data-coverage]', 'x1'), x(doc.answered / n), 'chosen threshold');
  assert.match(await text(page, '.rc-chosen-mark text'), new RegExp(`τ = ${doc.threshold!.toFixed(3)}`));
  // Every tested threshold: its risk at (coverage, risk) and its certified bound above it.
  assert.equal(await page.locator('.rc-level').count(), doc.levels.length);
  for (const l of doc.levels) {
    const g = `.rc-level[data-threshold="${l.threshold}"]`;
    close(await attr(page, `${g} circle.rc-risk`, 'cx'), x(l.answered / n), `τ ${l.threshold} coverage`);
    close(await attr(page, `${g} circle.rc-risk`, 'cy'), y(l.wrong / l.answered), `τ ${l.threshold} risk`);
    close(await attr(page, `${g} .rc-whisker`, 'y2'), y(Math.min(l.errorBound, topTick)), `τ ${l.threshold} bound`);
    const cls = (await page.getAttribute(g, 'class'))!;
    assert.equal(cls.includes('certifies'), l.errorBound <= doc.alpha);
    assert.equal(cls.includes('chosen'), l.threshold === doc.threshold);
  }
  await screenshot(page, 'calibrate', 'report-calibrate');
  assert.deepEqual(errors, []);
  assert.deepEqual(requests, [pathToFileURL(paths.calibrateHtml).href]);
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});

test('the calibration tasks list each task’s confidence and label, and the filters narrow it to those the threshold answers', async () => {
  const { page, errors } = await open(paths.calibrateHtml, { width: 1400, height: 2000 });
  const doc = calibrateDoc;
  const shown = () =>
    page
      .locator('.item-table tbody tr')
      .evaluateAll((trs) =>
        trs.map(
          (tr) =>
            `${(tr as HTMLElement).dataset.task} ${(tr as HTMLElement).dataset.at} ${(tr as HTMLElement).dataset.label}`,
        ),
      );
  const expected = (keep: (i: CalibrateDoc['calibration'][number]) => boolean) =>
    doc.calibration
      .filter(keep)
      .map(
        (i) =>
          `${i.taskId} ${i.confidence >= doc.threshold! ? 'answered' : 'abstained'} ${i.correct ? 'right' : 'wrong'}`,
      )
      .sort();
  assert.deepEqual(
    (await shown()).sort(),
    expected(() => true),
  );
  for (const item of doc.calibration)
    assert.equal(
      await text(page, `.item-table tr[data-task="${item.taskId}"] [data-col="confidence"]`),
      item.confidence.toFixed(3),
    );
  await page.click('.calibration-items .chip[data-filter="answered"]');
  assert.deepEqual(
    (await shown()).sort(),
    expected((i) => i.confidence >= doc.threshold!),
  );
  assert.equal((await shown()).length, doc.answered);
  // The wrong ones the threshold answers: the document's `wrong`.
  await page.click('.calibration-items .chip[data-filter="wrong"]');
  assert.equal((await shown()).length, doc.wrong);
  await page.click('.calibration-items .chip[data-filter="answered"]');
  assert.deepEqual(
    (await shown()).sort(),
    expected((i) => !i.correct),
  );
  assert.deepEqual(errors, []);
  await page.close();
});
