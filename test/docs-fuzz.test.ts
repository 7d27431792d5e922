/**
 * RichDocFuzz's fault injectors (src/domains/docs/fuzz.ts) and the clean documents of
 * bench/docs/clean: the documents parse without a problem and review with no issue; an injector
 * gives the same fault for the same seed, reaches every variant, names one element, edits the
 * source only where the fault is, marks nothing, and adds no parse problem (except a parse
 * error, which it always adds); and in chromium (on A4; a few documents, to keep the file near a
 * minute: bench:docs runs them all) the reviewer finds every geometric fault injected into three
 * documents (overflow, overlap, a table too wide, a broken image: recall 1.0, the paper notes'
 * target for geometric faults).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { diffChars } from 'diff';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { INJECTORS, injectFault, issueMatchesFault } from '../src/domains/docs/fuzz.js';
import { ISSUE_TYPES, type IssueType } from '../src/domains/docs/issues.js';
import { parseHtml, selectAll } from '../src/domains/docs/parse.js';
import { reviewDocument } from '../src/domains/docs/review.js';

const CLEAN = join(import.meta.dirname, '..', 'bench', 'docs', 'clean');
const docs = readdirSync(CLEAN)
  .filter((f) => f.endsWith('.html'))
  .sort()
  .map((f) => ({ name: f.replace(/\.html$/, ''), html: readFileSync(join(CLEAN, f), 'utf8') }));
const SEEDS = [0, 1, 2, 3, 4, 5];

/** What changed between two sources: a character diff of what lies between their common prefix and suffix. */
function changes(before: string, after: string) {
  let p = 0;
  while (p < before.length && p < after.length && before[p] === after[p]) p++;
  let q = 0;
  while (q < before.length - p && q < after.length - p && before[before.length - 1 - q] === after[after.length - 1 - q])
    q++;
  return diffChars(before.slice(p, before.length - q), after.slice(p, after.length - q));
}

const runtime = new BrowserRuntime();
after(() => runtime.close());

test('twelve clean documents, each with a doctype, print CSS and no parse problem', () => {
  assert.equal(docs.length, 12);
  for (const doc of docs) {
    assert.match(doc.html, /^<!doctype html>/i, doc.name);
    assert.match(doc.html, /@page\s*\{[^}]*margin/, doc.name);
    assert.doesNotMatch(
      doc.html,
      /<(link|script)\b|url\(\s*["']?https?:|src="https?:/i,
      `${doc.name} is self-contained`,
    );
    assert.deepEqual(
      parseHtml(doc.html).errors.map((e) => e.message),
      [],
      doc.name,
    );
  }
});

test('an injector gives the same fault for the same seed, and every variant is reached', () => {
  const used = new Map<IssueType, Set<string>>();
  for (const doc of docs)
    for (const type of ISSUE_TYPES)
      for (const seed of SEEDS) {
        const first = injectFault(doc.html, type, seed);
        assert.deepEqual(injectFault(doc.html, type, seed), first, `${doc.name} ${type} ${seed}`);
        if (first) {
          assert.equal(first.fault.type, type);
          if (!used.has(type)) used.set(type, new Set());
          used.get(type)!.add(first.variant);
        }
      }
  for (const type of ISSUE_TYPES)
    assert.deepEqual(
      [...(used.get(type) ?? [])].sort(),
      INJECTORS[type].map((v) => v.name).sort(),
      `every variant of ${type} is injected somewhere`,
    );
});

test('an injected fault names one element, edits the source only there, marks nothing, and parses as it should', () => {
  const REPOINTS_SRC = new Set(['missing-asset', 'remote-url', 'truncated-data-uri']);
  let injected = 0;
  for (const doc of docs)
    for (const type of ISSUE_TYPES)
      for (const seed of SEEDS) {
        const r = injectFault(doc.html, type, seed);
        if (!r) continue;
        injected++;
        const what = `${doc.name} ${type}/${r.variant} seed ${seed}`;
        const parsed = parseHtml(r.html);
        if (type === 'parse-error') assert.ok(parsed.errors.length > 0, `${what} adds a parse problem`);
        else {
          assert.deepEqual(
            parsed.errors.map((e) => e.message),
            [],
            `${what} adds no parse problem`,
          );
          const named = selectAll(parsed, r.fault.selector);
          assert.ok(named.ok && named.elements.length === 1, `${what}: ${r.fault.selector} names one element`);
        }
        assert.ok(r.fault.media.length > 0);
        if (type === 'orphan-heading') assert.equal(r.fault.media.length, 1, `${what}: one printed page size`);
        const parts = changes(doc.html, r.html);
        const removed = parts.filter((p) => p.removed).reduce((n, p) => n + p.value.length, 0);
        const added = parts
          .filter((p) => p.added)
          .map((p) => p.value)
          .join('');
        assert.ok(added.length + removed > 0, `${what} changes the document`);
        if (!REPOINTS_SRC.has(r.variant)) assert.ok(removed <= 12, `${what} removes ${removed} characters`);
        assert.doesNotMatch(added, /fault|inject|fuzz|crucible|\sdata-[\w-]+\s*=/i, `${what} marks nothing`);
      }
  assert.ok(injected > 300, `${injected} faults`);
});

// Four of the twelve, to keep the file near a minute (bench:docs reviews all twelve on every medium).
test('clean documents review with no issue on A4', async () => {
  for (const doc of docs.filter((d) => ['annual-report', 'newsletter', 'certificate', 'user-guide'].includes(d.name))) {
    const review = await reviewDocument(runtime, doc.html, { media: ['a4'] });
    assert.equal(review.abort, undefined, doc.name);
    assert.deepEqual(
      review.issues.map((i) => `${i.type} ${i.selector}: ${i.message}`),
      [],
      doc.name,
    );
  }
});

const GEOMETRIC: IssueType[] = ['overflow', 'overlap', 'table-too-wide', 'broken-image'];

/** Is the fault found by a review of its document on A4? Undefined when it is; else what was reported. */
async function missedOnA4(r: NonNullable<ReturnType<typeof injectFault>>): Promise<string | undefined> {
  const review = await reviewDocument(runtime, r.html, { media: ['a4'] });
  const parsed = parseHtml(r.html);
  if (review.issues.some((i) => issueMatchesFault(parsed, r.fault, i))) return undefined;
  return review.issues.map((i) => `${i.type} ${i.selector}`).join(', ') || 'nothing';
}

test('the reviewer finds every geometric fault injected into three documents', async () => {
  const missed: string[] = [];
  let tried = 0;
  for (const [k, name] of ['annual-report', 'meeting-minutes', 'user-guide'].entries()) {
    const doc = docs.find((d) => d.name === name)!;
    for (const type of GEOMETRIC)
      for (const seed of [k]) {
        const r = injectFault(doc.html, type, seed);
        assert.ok(r, `${name} has a place for ${type}`);
        tried++;
        const reported = await missedOnA4(r);
        if (reported) missed.push(`${name} ${type}/${r.variant} at ${r.fault.selector}; reported: ${reported}`);
      }
  }
  assert.equal(tried, 3 * GEOMETRIC.length);
  assert.deepEqual(missed, []);
});
