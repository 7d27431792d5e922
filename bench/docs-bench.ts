/**
 * npm run bench:docs — RichDocFuzz on Crucible's documents reviewer (FormAct): the clean
 * documents of bench/docs/clean (12, written for Crucible), each reviewed on A4, US Letter and a
 * screen, and each with one fault of each issue type injected (src/domains/docs/fuzz.ts) for a
 * few seeds, reviewed the same way. Per type: faults injected and found (recall), issues
 * reported and how many of them name an injected fault (precision); then time per printed page
 * and documents reviewed per minute, with the machine's load; and the sandbox's cost: each clean
 * document reviewed in the confined browser and in an unconfined one (`sandbox: 'none'`), one at
 * a time in alternating order, in the same run.
 *
 * A fault is found when the reviewer reports an issue of its type whose selector names the
 * fault's element, an ancestor or a descendant of it (both resolved in the faulted document),
 * on one of the media the fault shows on (an issue that holds on every medium counts on all);
 * a parse error is found by any parse-error issue. Every issue on a clean document is a false
 * positive; an issue on a faulted document that matches no fault is one too, unless its clean
 * document has the same issue (type, medium and element, mapped across the edit), which is
 * counted there, once.
 *
 *   node --import tsx bench/docs-bench.ts [--seeds N] [--docs DIR] [--json FILE] [--concurrency K]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { diffChars } from 'diff';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { INJECTORS, injectFault, issueMatchesFault, type InjectedFault } from '../src/domains/docs/fuzz.js';
import { ISSUE_TYPES, type DocIssue, type IssueType } from '../src/domains/docs/issues.js';
import { parseHtml, selectAll, type ParsedHtml } from '../src/domains/docs/parse.js';
import { reviewDocument, type Review } from '../src/domains/docs/review.js';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SEEDS = Number(option('seeds') ?? 3);
const DOCS = resolve(option('docs') ?? join(ROOT, 'bench/docs/clean'));
const JSON_OUT = option('json');
const CONCURRENCY = Math.max(1, Number(option('concurrency') ?? 2));

const median = (xs: readonly number[]) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]! : NaN;
const ratio = (n: number, of: number) => (of ? (n / of).toFixed(3) : '—');

interface Doc {
  readonly name: string;
  readonly html: string;
}
const docs: Doc[] = readdirSync(DOCS)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => ({ name: f.replace(/\.html$/, ''), html: readFileSync(join(DOCS, f), 'utf8') }));

/** Maps offsets of `after` to offsets of `before` (undefined inside inserted text). */
function offsetMap(before: string, after: string): (offset: number) => number | undefined {
  // The character diff runs on what lies between the common prefix and suffix.
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let q = 0;
  while (q < before.length - p && q < after.length - p && before[before.length - 1 - q] === after[after.length - 1 - q])
    q++;
  const spans: Array<{ from: number; to: number; shift: number | undefined }> = [{ from: 0, to: p, shift: 0 }];
  let a = p;
  let b = p;
  for (const part of diffChars(before.slice(p, before.length - q), after.slice(p, after.length - q))) {
    const n = part.value.length;
    if (part.added) {
      spans.push({ from: b, to: b + n, shift: undefined });
      b += n;
    } else if (part.removed) a += n;
    else {
      spans.push({ from: b, to: b + n, shift: a - b });
      a += n;
      b += n;
    }
  }
  spans.push({ from: b, to: after.length, shift: a - b });
  return (offset) => {
    const span = spans.find((s) => offset >= s.from && offset < s.to);
    return span?.shift === undefined ? undefined : offset + span.shift;
  };
}

/** The element a selector names first, by its start offset in the source. */
function startOf(parsed: ParsedHtml, selector: string): number | undefined {
  const found = selectAll(parsed, selector);
  return found.ok ? found.elements[0]?.sourceCodeLocation?.startOffset : undefined;
}

interface Tally {
  injected: number;
  found: number;
  reported: number;
  truePositives: number;
}
const tally = Object.fromEntries(
  ISSUE_TYPES.map((t) => [t, { injected: 0, found: 0, reported: 0, truePositives: 0 }]),
) as Record<IssueType, Tally>;
const byVariant = new Map<string, { injected: number; found: number }>();
const noPlace: Record<IssueType, number> = Object.fromEntries(ISSUE_TYPES.map((t) => [t, 0])) as Record<
  IssueType,
  number
>;
const missed: string[] = [];
const falsePositives: string[] = [];
const times: { ms: number; pages: number }[] = [];

const runtime = new BrowserRuntime();
const load = { start: loadavg(), end: [0, 0, 0] };
const started = performance.now();

async function review(html: string): Promise<Review> {
  const r = await reviewDocument(runtime, html);
  if (r.abort) throw new Error(`the review aborted: ${r.abort.message}`);
  times.push({ ms: r.ms, pages: (r.pages.a4 ?? 0) + (r.pages.letter ?? 0) });
  return r;
}

/** Runs `work` over `items`, `limit` at a time, results in order. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

try {
  const chromium = await runtime.version();

  // The clean documents: every issue is a false positive.
  const clean = await pool(docs, CONCURRENCY, (doc) => review(doc.html));
  const cleanRecords = docs.map((doc, i) => ({
    doc: doc.name,
    pages: clean[i]!.pages,
    ms: clean[i]!.ms,
    issues: clean[i]!.issues,
  }));
  for (const [i, doc] of docs.entries()) {
    for (const issue of clean[i]!.issues) {
      tally[issue.type].reported++;
      falsePositives.push(
        `${doc.name} (clean): ${issue.type} ${issue.medium ?? 'all'} ${issue.selector} — ${issue.message}`,
      );
    }
  }

  // The faulted documents.
  const jobs: Array<{
    doc: Doc;
    docIndex: number;
    type: IssueType;
    seed: number;
    html: string;
    fault: InjectedFault;
    variant: string;
  }> = [];
  for (const [docIndex, doc] of docs.entries())
    for (const type of ISSUE_TYPES) {
      const seen = new Set<string>();
      for (let seed = 0; seed < SEEDS; seed++) {
        const injected = injectFault(doc.html, type, seed);
        if (!injected) {
          noPlace[type]++;
          continue;
        }
        if (seen.has(injected.html)) continue;
        seen.add(injected.html);
        jobs.push({ doc, docIndex, type, seed, ...injected });
      }
    }
  process.stdout.write(
    `${docs.length} clean documents, ${jobs.length} faulted (${SEEDS} seeds per type), reviewed on A4, Letter and screen, ${CONCURRENCY} at a time\n\n`,
  );
  const cleanParsed = docs.map((d) => parseHtml(d.html));
  const records = await pool(jobs, CONCURRENCY, async (job) => {
    const r = await review(job.html);
    const parsed = parseHtml(job.html);
    const toClean = offsetMap(job.doc.html, job.html);
    const cleanIssues = clean[job.docIndex]!.issues;
    const cleanDoc = cleanParsed[job.docIndex]!;
    const onClean = (issue: DocIssue) => {
      if (issue.type === 'parse-error')
        return cleanIssues.some((c) => c.type === 'parse-error' && c.message === issue.message);
      const at = startOf(parsed, issue.selector);
      const mapped = at === undefined ? undefined : toClean(at);
      if (mapped === undefined) return false;
      return cleanIssues.some(
        (c) => c.type === issue.type && c.medium === issue.medium && startOf(cleanDoc, c.selector) === mapped,
      );
    };
    const matching = r.issues.filter((i) => issueMatchesFault(parsed, job.fault, i));
    const others = r.issues.filter((i) => !matching.includes(i) && !onClean(i));
    return { job, review: r, matching, others };
  });
  for (const { job, matching, others } of records) {
    const t = tally[job.type];
    t.injected++;
    const v = byVariant.get(`${job.type}/${job.variant}`) ?? { injected: 0, found: 0 };
    v.injected++;
    if (matching.length) {
      t.found++;
      v.found++;
    } else
      missed.push(
        `${job.doc.name}: ${job.type}/${job.variant} seed ${job.seed} at ${job.fault.selector} (${job.fault.media.join(', ')})`,
      );
    byVariant.set(`${job.type}/${job.variant}`, v);
    t.reported += matching.length;
    t.truePositives += matching.length;
    for (const issue of others) {
      tally[issue.type].reported++;
      falsePositives.push(
        `${job.doc.name} + ${job.type}/${job.variant} seed ${job.seed}: ${issue.type} ${issue.medium ?? 'all'} ${issue.selector} — ${issue.message}`,
      );
    }
  }
  load.end = loadavg();
  const wall = performance.now() - started;

  // The table.
  const rows = ISSUE_TYPES.map((type) => {
    const t = tally[type];
    return {
      type,
      ...t,
      recall: t.injected ? t.found / t.injected : null,
      precision: t.reported ? t.truePositives / t.reported : null,
    };
  });
  const sum = (k: keyof Tally, types: readonly IssueType[] = ISSUE_TYPES) => types.reduce((n, t) => n + tally[t][k], 0);
  const GEOMETRIC: IssueType[] = ['overflow', 'overlap', 'table-too-wide', 'broken-image'];
  let out =
    '| type | faults injected | found | recall | issues reported | true | precision |\n|---|---|---|---|---|---|---|\n';
  for (const r of rows)
    out += `| ${r.type} | ${r.injected} | ${r.found} | ${ratio(r.found, r.injected)} | ${r.reported} | ${r.truePositives} | ${ratio(r.truePositives, r.reported)} |\n`;
  for (const [label, types] of [
    ['geometric (overflow, overlap, table, image)', GEOMETRIC],
    ['all', ISSUE_TYPES],
  ] as const)
    out += `| **${label}** | ${sum('injected', types)} | ${sum('found', types)} | ${ratio(sum('found', types), sum('injected', types))} | ${sum('reported', types)} | ${sum('truePositives', types)} | ${ratio(sum('truePositives', types), sum('reported', types))} |\n`;
  out += `\nno place for the fault (document × type × seed): ${
    ISSUE_TYPES.filter((t) => noPlace[t])
      .map((t) => `${t} ${noPlace[t]}`)
      .join(', ') || 'none'
  }\n`;

  out += '\n| variant | injected | found |\n|---|---|---|\n';
  for (const type of ISSUE_TYPES)
    for (const variant of INJECTORS[type]) {
      const v = byVariant.get(`${type}/${variant.name}`);
      if (v) out += `| ${type}/${variant.name} | ${v.injected} | ${v.found} |\n`;
    }

  const perPage = times.filter((t) => t.pages > 0).map((t) => t.ms / t.pages);
  const reviewMs = times.map((t) => t.ms);
  const perMinute = (60_000 * times.length) / wall;
  out +=
    `\n| time | value |\n|---|---|\n` +
    `| documents reviewed | ${times.length} (each on A4, Letter and screen) |\n` +
    `| median review | ${(median(reviewMs) / 1000).toFixed(2)} s |\n` +
    `| median per printed page (A4 + Letter pages) | ${median(perPage).toFixed(0)} ms |\n` +
    `| documents reviewed per minute (wall, ${CONCURRENCY} at a time) | ${perMinute.toFixed(1)} |\n` +
    `| wall time | ${(wall / 1000).toFixed(0)} s |\n` +
    `| load average (1, 5, 15 min) at start / end | ${load.start.map((l) => l.toFixed(2)).join(', ')} / ${load.end.map((l) => l.toFixed(2)).join(', ')} on ${cpus().length} cores |\n`;
  if (missed.length) out += `\nmissed (${missed.length}):\n${missed.map((m) => `  ${m}`).join('\n')}\n`;
  if (falsePositives.length)
    out += `\nfalse positives (${falsePositives.length}):\n${falsePositives.map((m) => `  ${m}`).join('\n')}\n`;
  process.stdout.write(out);

  // The sandbox's cost: each clean document reviewed confined and not, one at a time, alternating.
  const unconfined = new BrowserRuntime({ sandbox: 'none' });
  const sandbox = { confined: [] as number[], unconfined: [] as number[] };
  try {
    await reviewDocument(unconfined, docs[0]!.html); // its launch, not counted
    for (const [i, doc] of docs.entries()) {
      const order = i % 2 === 0 ? ([runtime, unconfined] as const) : ([unconfined, runtime] as const);
      for (const on of order)
        sandbox[on === runtime ? 'confined' : 'unconfined'].push((await reviewDocument(on, doc.html)).ms);
    }
  } finally {
    await unconfined.close();
  }
  const ratios = sandbox.confined.map((ms, i) => ms / sandbox.unconfined[i]!);
  process.stdout.write(
    `\n| browser | median review of a clean document, one at a time |\n|---|---|\n` +
      `| confined (bubblewrap, seccomp, cgroup) | ${(median(sandbox.confined) / 1000).toFixed(2)} s |\n` +
      `| unconfined (--sandbox none) | ${(median(sandbox.unconfined) / 1000).toFixed(2)} s |\n` +
      `\nconfined / unconfined, median of ${ratios.length} pairs: ×${median(ratios).toFixed(2)}\n`,
  );
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    commit = undefined;
  }
  const provenance = `${new Date().toISOString()} · commit ${commit ?? '?'} (with the working tree) · node ${process.version} · chromium ${chromium ?? '?'} · docs ${DOCS}`;
  process.stdout.write(`\n${provenance}\n`);

  if (JSON_OUT) {
    writeFileSync(
      JSON_OUT,
      `${JSON.stringify(
        {
          provenance: {
            date: new Date().toISOString(),
            commit,
            node: process.version,
            chromium,
            docs: DOCS,
            seeds: SEEDS,
            concurrency: CONCURRENCY,
          },
          load: { ...load, cores: cpus().length },
          summary: rows,
          variants: Object.fromEntries(byVariant),
          noPlace,
          time: {
            reviews: times.length,
            medianReviewMs: median(reviewMs),
            medianMsPerPrintedPage: median(perPage),
            documentsPerMinute: perMinute,
            wallMs: wall,
          },
          sandbox: { ...sandbox, medianRatio: median(ratios) },
          clean: cleanRecords,
          faulted: records.map(({ job, review, matching, others }) => ({
            doc: job.doc.name,
            type: job.type,
            seed: job.seed,
            variant: job.variant,
            fault: job.fault,
            found: matching.length > 0,
            matching,
            falsePositives: others,
            pages: review.pages,
            ms: review.ms,
          })),
          missed,
          falsePositives,
        },
        null,
        2,
      )}\n`,
    );
    process.stdout.write(`wrote ${JSON_OUT}\n`);
  }
} finally {
  await runtime.close();
}
