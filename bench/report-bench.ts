/**
 * npm run bench:report — the HTML report of 16,024 samples: its size, how long `crucible
 * report` takes to write it, and in chromium its time to first paint, to the grid being shown,
 * and the frame times while scrolling through it, against baselines loaded in the same browser
 * in the same run: a plain HTML table of the first 1,000 samples, and one of all 16,024.
 *
 * The document is synthetic, made of real verdicts: judging the 16,024 labelled samples of
 * ../shared/datasets/llm-samples for real takes HumanEval and MBPP datasets and most of an hour
 * on 2 cores. So `crucible eval --augment` judges the built-in suite (about 20 s; or give a
 * document with REPORT_BENCH_SOURCE=FILE.json), and each labelled sample (its task id, its
 * position among its task's samples, its label) takes the verdict of a real sample with the same
 * outcome: a passing one if labelled passed, else the failures in turn (with their failing inputs
 * and counterexamples) and keeps its own program. pass@k and the status counts are computed from these samples as eval
 * computes them. Without the labelled file, 16,024 samples over 802 tasks are made the same way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { summarize, type SampleResult } from '../src/bench/evaluate.js';
import { launchChromium } from '../src/browser/chromium.js';

const ROOT = resolve(import.meta.dirname, '..');
const DATA = resolve(process.env.CRUCIBLE_DATASETS ?? join(ROOT, '../shared/datasets'));
const LABELLED = join(DATA, 'llm-samples', 'samples_normalized.jsonl.gz');
const TARGET = 16_024;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'crucible-report-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const crucible = (args: string[]) =>
  execFileSync(process.execPath, [join(ROOT, 'bin/crucible.js'), ...args], { cwd: dir, encoding: 'utf8' });

interface EvalDocument {
  summary: Record<string, unknown>;
  samples: SampleResult[];
  [key: string]: unknown;
}

function sourceDocument(): EvalDocument {
  const given = process.env.REPORT_BENCH_SOURCE;
  const path = given ?? join(dir, 'source.json');
  if (!given) {
    process.stdout.write('judging the built-in suite with --augment for real verdicts (about 20 s)…\n');
    crucible(['eval', '--augment', '--json', path, '--no-record']);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as EvalDocument;
}

/** The (task id, index, passed, program) of every labelled sample, or a made-up set of the same size. */
function labelledSlots(): { task: string; index: number; passed: boolean; program?: string }[] {
  const perTask = new Map<string, number>();
  const slot = (task: string, passed: boolean, program?: string) => {
    const index = perTask.get(task) ?? 0;
    perTask.set(task, index + 1);
    return { task, index, passed, ...(program !== undefined ? { program } : {}) };
  };
  if (existsSync(LABELLED)) {
    const lines = gunzipSync(readFileSync(LABELLED)).toString('utf8').trim().split('\n');
    return lines.map((line) => {
      // Each sample's own program: an eval document carries every program it judged.
      const record = JSON.parse(line) as { task_id: string; passed: boolean; code?: string };
      return slot(record.task_id, record.passed, record.code);
    });
  }
  process.stdout.write(`(${LABELLED} not found: made-up task ids, 20 samples each, 70% passing)\n`);
  return Array.from({ length: TARGET }, (_, i) => slot(`Synthetic/${Math.floor(i / 20)}`, i % 10 < 7));
}

function bigDocument(source: EvalDocument): EvalDocument {
  const passing = source.samples.filter((s) => s.status === 'pass');
  const failing = source.samples.filter((s) => s.status !== 'pass');
  let p = 0;
  let f = 0;
  const samples = labelledSlots().map(({ task, index, passed, program }) => {
    const from = passed ? passing[p++ % passing.length]! : failing[f++ % failing.length]!;
    return { ...from, task_id: task, index, ...(program !== undefined ? { program } : {}) };
  });
  const suites = Object.keys(source.samples[0]!.suites).map((name) => ({ name }));
  const tasks = [...new Set(samples.map((s) => s.task_id))].map((id) => ({ id, suites }));
  const seconds = Number(source.summary.seconds ?? 1);
  return {
    ...source,
    dataset: {
      name: `${samples.length.toLocaleString('en')} samples (synthetic: real verdicts, labelled slots)`,
      path: null,
    },
    summary: { ...summarize(tasks, samples, seconds) },
    samples,
  };
}

/** A plain table of samples, as a page with no app would show them. */
function plainTable(samples: readonly SampleResult[]): string {
  const esc = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const rows = samples
    .map(
      (s) =>
        `<tr><td>${esc(s.task_id)}</td><td>${s.index}</td><td>${s.status}</td><td>${esc(s.first_failure?.message ?? '')}</td><td>${esc(String(s.first_failure?.expected ?? ''))}</td><td>${esc(String(s.first_failure?.actual ?? ''))}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title></head><body><table><thead><tr><th>task</th><th>index</th><th>status</th><th>message</th><th>expected</th><th>actual</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;

const source = sourceDocument();
const big = bigDocument(source);
const bigJson = join(dir, 'big.json');
writeFileSync(bigJson, JSON.stringify(big, null, 1) + '\n');
const reportFile = join(dir, 'big.html');
const writes: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  crucible(['report', bigJson, '--out', reportFile]);
  writes.push(performance.now() - t0);
}
const baseline1k = join(dir, 'table-1000.html');
writeFileSync(baseline1k, plainTable(big.samples.slice(0, 1000)));
const baselineAll = join(dir, 'table-all.html');
writeFileSync(baselineAll, plainTable(big.samples));

const browser = await launchChromium();
/** First contentful paint, and when the content is on screen: the report's grid painted, a table loaded and painted. */
async function load(file: string, shownMark: boolean) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  if (shownMark)
    await page.waitForFunction("performance.getEntriesByName('crucible-report-painted').length > 0", undefined, {
      timeout: 120_000,
    });
  // A string, not a function: tsx names functions with a helper the page does not have.
  const times = (await page.evaluate(`new Promise((done) => {
    new PerformanceObserver((list, observer) => {
      const fcp = list.getEntriesByName('first-contentful-paint')[0];
      if (!fcp) return;
      observer.disconnect();
      // The report: its grid painted. A table: loaded and painted, whichever is later.
      const shown = ${shownMark}
        ? performance.getEntriesByName('crucible-report-painted')[0].startTime
        : Math.max(fcp.startTime, performance.getEntriesByType('navigation')[0].loadEventEnd);
      done({ fcp: fcp.startTime, shown });
    }).observe({ type: 'paint', buffered: true });
  })`)) as { fcp: number; shown: number };
  return { page, ...times };
}

async function measure(file: string, isReport: boolean) {
  const fcp: number[] = [];
  const shown: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { page, ...t } = await load(file, isReport);
    fcp.push(t.fcp);
    shown.push(t.shown);
    await page.close();
  }
  return { fcp: median(fcp), shown: median(shown) };
}

/** Frame times while the page scrolls 600 px a frame through the grid (the rows re-rendered as they come into view). */
async function scrolling(file: string) {
  const { page } = await load(file, true);
  // A string, not a function: tsx names functions with a helper the page does not have.
  const frames = (await page.evaluate(`new Promise((done) => {
    const times = [];
    let last = performance.now();
    const step = () => {
      const now = performance.now();
      times.push(now - last);
      last = now;
      window.scrollBy(0, 600);
      if (times.length < 240) requestAnimationFrame(step);
      else done(times.slice(1));
    };
    requestAnimationFrame(step);
  })`)) as number[];
  const cells = await page.locator('.grid .cell').count();
  await page.close();
  const sorted = [...frames].sort((a, b) => a - b);
  return { median: median(frames), p95: sorted[Math.floor(sorted.length * 0.95)]!, max: sorted.at(-1)!, cells };
}

const report = await measure(reportFile, true);
const table1k = await measure(baseline1k, false);
const tableAll = await measure(baselineAll, false);
const scroll = await scrolling(reportFile);
await browser.close();

const size = statSync(reportFile).size;
const jsonSize = statSync(bigJson).size;
const lines = [
  `report of ${big.samples.length.toLocaleString('en')} samples over ${new Set(big.samples.map((s) => s.task_id)).size} tasks (chromium, median of ${RUNS} loads)`,
  `  size: ${mb(size)} (${size.toLocaleString('en')} bytes) against ${mb(jsonSize)} of JSON (crucible eval --json): ×${(size / jsonSize).toFixed(3)}`,
  `  crucible report writes it in ${ms(median(writes))} (median of 3, the app's script cached)`,
  `  first paint ${ms(report.fcp)} ("Loading the report…"), grid painted ${ms(report.shown)}`,
  `  baseline, a plain table of the first 1,000 samples: first paint ${ms(table1k.fcp)}, shown ${ms(table1k.shown)} → report/baseline ×${(report.shown / table1k.shown).toFixed(2)}`,
  `  baseline, a plain table of all ${big.samples.length.toLocaleString('en')} samples: first paint ${ms(tableAll.fcp)}, shown ${ms(tableAll.shown)} → report/baseline ×${(report.shown / tableAll.shown).toFixed(2)}`,
  `  scrolling 600 px a frame: frame time median ${scroll.median.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms; ${scroll.cells} cells in the DOM`,
];
process.stdout.write(lines.join('\n') + '\n');
