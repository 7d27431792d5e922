/**
 * A document cannot answer its own reviewer: a document with a table three times the page's
 * width, text nobody can read and a skipped heading level, and a dozen lines of script that
 * patch what a reviewer in the page would use — a `window.axe` of its own that finds nothing,
 * `querySelectorAll` that lists no element, boxes that are all small — is reviewed as the same
 * document without the script: scripts do not run unless asked for, and when they do, the
 * reviewer still measures in a world of its own. The document reviewed next is judged right.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { reviewDocument } from '../src/domains/docs/review.js';

const runtime = new BrowserRuntime({ heapMb: 128 });
after(() => runtime.close());

const FAULTS = `<h1>Annual report</h1>
<p>The figures for the year are below.</p>
<h4>Details</h4>
<p style="color: #fdfdfd">Read this before signing.</p>
<table style="width: 3000px; border-collapse: collapse"><tr>${'<td>quarterly figure</td>'.repeat(12)}</tr></table>`;

const FORGERY = `<script>
  const nothing = { run: async () => ({ violations: [], incomplete: [], passes: [], inapplicable: [] }) };
  Object.defineProperty(window, 'axe', { get: () => nothing, set() {}, configurable: false });
  const all = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (s) { return all.call(this, s === '*' ? 'html' : s); };
  Element.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 10, 10);
  Element.prototype.getClientRects = () => [new DOMRect(0, 0, 10, 10)];
  const style = window.getComputedStyle;
  window.getComputedStyle = (el, p) => new Proxy(style(el, p), { get: (s, k) => (k === 'color' ? 'rgb(0, 0, 0)' : typeof s[k] === 'function' ? s[k].bind(s) : s[k]) });
</script>`;

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Report</title></head><body>${body}</body></html>`;
const PLAIN = page(FAULTS);
const FORGED = page(FORGERY + FAULTS);
const CLEAN = page('<h1>Annual report</h1><p>The figures for the year are below.</p>');

const kinds = (issues: ReadonlyArray<{ type: string; medium: string | null }>) =>
  [...new Set(issues.map((i) => `${i.type} ${i.medium ?? 'all'}`))].sort();

test('the plain faulty document: a heading level skipped, unreadable text, a table wider than the page', async () => {
  const review = await reviewDocument(runtime, PLAIN, { media: ['a4'] });
  const found = kinds(review.issues);
  for (const kind of ['heading-order all', 'low-contrast all'])
    assert.ok(found.includes(kind), `${kind} in ${found.join(', ')}`);
  assert.ok(
    found.some((k) => /^(table-too-wide|overflow) a4$/.test(k)),
    found.join(', '),
  );
});

for (const scripts of [false, true]) {
  test(`the forging script changes nothing the reviewer finds (scripts ${scripts ? 'on' : 'off'}), and the next document is judged right`, async () => {
    const plain = await reviewDocument(runtime, PLAIN, { media: ['a4'], scripts });
    const forged = await reviewDocument(runtime, FORGED, { media: ['a4'], scripts });
    assert.equal(forged.abort, undefined);
    assert.deepEqual(kinds(forged.issues), kinds(plain.issues));
    const next = await reviewDocument(runtime, CLEAN, { media: ['a4'] });
    assert.deepEqual(next.issues, []);
  });
}

test("with scripts off (the default) a document's script does not run; with scripts on, it does", async () => {
  const html = page(
    '<h1 id="t">written by the page</h1><script>document.getElementById("t").textContent = "changed";</script>',
  );
  const text = async (scripts: boolean | undefined) => {
    const judged = await runtime.judge(
      html,
      async (session) => {
        await session.load();
        return session.inspect(() => document.getElementById('t')!.textContent, undefined);
      },
      scripts === undefined ? {} : { scripts },
    );
    assert.ok('value' in judged);
    return judged.value;
  };
  assert.equal(await text(false), 'written by the page');
  assert.equal(await text(true), 'changed');
});
