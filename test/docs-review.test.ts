/**
 * The documents reviewer in a real chromium: clean documents have no issues on any medium; each
 * kind of issue is found on a small document made to have it, at the right element and page;
 * printed page counts agree with chromium's own paginator (page.pdf); assets are served and
 * nothing else is; a document that loops or exhausts its memory aborts and the next one is judged
 * right; and `crucible review` as a user runs it. One picture of a review (the issues outlined)
 * goes to test-artifacts/docs/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import type { DocIssue, Medium } from '../src/domains/docs/issues.js';
import { MEDIA_LAYOUT } from '../src/domains/docs/media.js';
import { outlineElements, readPageMargins } from '../src/domains/docs/page-checks.js';
import { reviewDocument, type Review } from '../src/domains/docs/review.js';
import { TemplateLibrary } from '../src/domains/docs/templates.js';
import { crucible } from './cli-support.js';

const runtime = new BrowserRuntime({ heapMb: 128 });
after(() => runtime.close());

const FIXTURES = join(import.meta.dirname, 'fixtures', 'docs');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts', 'docs');
const dir = mkdtempSync(join(tmpdir(), 'crucible-review-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A small document: `body` after an h1, with `css` added to a plain style sheet. */
const doc = (body: string, css = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test document</title>
<style>
  body { margin: 0; font-family: "DejaVu Sans", sans-serif; font-size: 11pt; line-height: 1.5; color: #222; }
  @media screen { body { max-width: 800px; margin: 0 auto; padding: 24px; } }
  ${css}
</style></head>
<body><h1>Quarterly report</h1>
${body}
</body></html>`;
const PARA =
  '<p>The committee met on Tuesday to review the quarterly figures and agreed the budget for the next year after a long discussion of the options.</p>';

/** `type`, medium, page and selector of each issue, one string each: what the tests compare. */
const where = (issues: readonly DocIssue[]) =>
  issues.map((i) => `${i.type} ${i.medium ?? 'all'}${i.page === null ? '' : ` p${i.page}`} ${i.selector}`);
const ofType = (review: Review, type: DocIssue['type']) => review.issues.filter((i) => i.type === type);

/** Pages chromium prints `html` on, as page.pdf makes them: the medium's sheet, the reviewer's default margins unless the document sets its own. */
async function pdfPages(html: string, medium: 'a4' | 'letter'): Promise<number> {
  const layout = MEDIA_LAYOUT[medium];
  assert.equal(layout.kind, 'print');
  const judged = await runtime.judge(html, async (session) => {
    await session.load();
    await session.page.emulateMedia({ media: 'print' });
    const margin = `${layout.kind === 'print' ? layout.defaultMargin : 0}px`;
    const pdf = await session.page.pdf({
      width: `${layout.width}px`,
      height: `${layout.height}px`,
      margin: { top: margin, right: margin, bottom: margin, left: margin },
    });
    return Buffer.from(pdf);
  });
  assert.ok('value' in judged);
  return (judged.value.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
}

test('a clean professional document has no issues on A4, Letter or the screen, and prints on the pages chromium prints it on', async () => {
  const html = fixture('clean-report.html');
  const review = await reviewDocument(runtime, html);
  assert.equal(review.abort, undefined);
  assert.deepEqual(where(review.issues), []);
  assert.deepEqual(review.pages, { a4: 3, letter: 3, screen: 1 });
  assert.equal(review.pages.a4, await pdfPages(html, 'a4'));
  assert.equal(review.pages.letter, await pdfPages(html, 'letter'));
});

test('the shipped templates have no issues on any medium', async () => {
  for (const template of TemplateLibrary.shipped().templates) {
    const review = await reviewDocument(runtime, template.html);
    assert.deepEqual(where(review.issues), [], template.name);
  }
});

test('a 3-page document is cut where chromium cuts it: page counts agree with page.pdf on A4 and Letter', async () => {
  const html = fixture('three-pages.html');
  const review = await reviewDocument(runtime, html, { media: ['a4', 'letter'] });
  assert.deepEqual(review.pages, { a4: 3, letter: 4 });
  assert.equal(await pdfPages(html, 'a4'), 3);
  assert.equal(await pdfPages(html, 'letter'), 4);
  assert.deepEqual(where(review.issues), []);
  // And a document without @page margins, at the reviewer's default margins.
  const plain = doc(Array.from({ length: 30 }, () => PARA).join('\n'));
  const pages = await reviewDocument(runtime, plain, { media: ['a4', 'letter'] });
  assert.equal(pages.pages.a4, await pdfPages(plain, 'a4'));
  assert.equal(pages.pages.letter, await pdfPages(plain, 'letter'));
  assert.ok(pages.pages.a4! >= 2);
});

test("the document's own @page margins are read; a page rule inside @media print counts, one for the screen does not", async () => {
  const judged = await runtime.judge(
    doc(
      PARA,
      '@page { margin: 20mm 1in 2cm 36pt; } @media print { @page { margin-left: 10% } } @media screen { @page { margin-top: 0 } }',
    ),
    async (session) => {
      await session.load();
      await session.page.emulateMedia({ media: 'print' });
      return session.inspect(readPageMargins, { width: 800, height: 1000, fallback: 7 });
    },
  );
  assert.ok('value' in judged);
  const m = judged.value as { top: number; right: number; bottom: number; left: number; fromDocument: boolean };
  assert.ok(Math.abs(m.top - (20 * 96) / 25.4) < 0.01, String(m.top));
  assert.equal(m.right, 96);
  assert.ok(Math.abs(m.bottom - (2 * 96) / 2.54) < 0.01);
  assert.equal(m.left, 80);
  assert.equal(m.fromDocument, true);
});

test('overflow: a long URL sticking out of a bordered sidebar, on its page; text cut off by overflow: hidden; a fixed height spilling over the next paragraph', async () => {
  const sidebar = doc(
    `${PARA}<div class="sidebar"><p>Contact</p><p>See https://example.com/averyveryverylongunbrokenaddress/with/a/path/that/never/breaks for details.</p></div>${PARA}`,
    '.sidebar { width: 220px; border: 1px solid #ccc; padding: 8px; } .sidebar { break-before: page; }',
  );
  const review = await reviewDocument(runtime, sidebar);
  assert.deepEqual(where(review.issues), [
    'overflow a4 p2 div.sidebar > p:nth-of-type(2)',
    'overflow letter p2 div.sidebar > p:nth-of-type(2)',
    'overflow screen p1 div.sidebar > p:nth-of-type(2)',
  ]);
  assert.match(review.issues[0]!.message, /the text "See https:\/\/example\.com\/.*" runs \d+ px past its right edge/);

  const clipped = await reviewDocument(
    runtime,
    doc(
      `<div class="box">${PARA}${PARA}</div>${PARA}`,
      '.box { height: 40px; overflow: hidden; border: 1px solid #999; }',
    ),
    {
      media: ['a4'],
    },
  );
  assert.deepEqual(where(clipped.issues), ['overflow a4 p1 div.box']);
  assert.match(clipped.issues[0]!.message, /is cut off: it runs \d+ px below its bottom and overflow: hidden hides it/);

  const spill = await reviewDocument(
    runtime,
    doc(`<div class="fixed">${PARA}${PARA}${PARA}</div>${PARA}${PARA}`, '.fixed { height: 30px; }'),
    {
      media: ['screen'],
    },
  );
  assert.deepEqual(where(spill.issues), ['overflow screen p1 div.fixed']);
  assert.match(spill.issues[0]!.message, /runs \d+ px below its bottom \(it is 30 px high\)/);
});

test('overflow: a line that never wraps runs off the printed page but fits the screen; the page is named', async () => {
  const review = await reviewDocument(
    runtime,
    doc(
      `<p class="wide">This line never wraps: it runs on and on past the edge of a printed page, but a wide window has room.</p>`,
      '.wide { white-space: nowrap; } @media screen { body { max-width: none; } }',
    ),
  );
  assert.deepEqual(where(review.issues), ['overflow a4 p1 p.wide', 'overflow letter p1 p.wide']);
  assert.match(review.issues[0]!.message, /off the A4 page's content area/);
});

test('what looks like overflow and is not: scrolling code, an ellipsis, screen-reader text, list markers, wrapped inline text, a float', async () => {
  const review = await reviewDocument(
    runtime,
    doc(
      `<pre><code>$ report --site all --period 2025Q3 --format table --include-costs --include-staff --include-safety --output report.txt --verbose</code></pre>
      <p class="ellipsis">quarterly-report-final-version-three-reviewed-by-finance.pdf</p>
      <p>Prepared by the operations team<span class="sr-only"> (internal only, do not distribute outside the company)</span>.</p>
      <ul style="list-style-position: outside; padding-left: 0"><li>A list whose markers hang outside its box</li></ul>
      <p>Some <a href="#x">inline <b>bold</b> text that wraps</a> over lines ${'and more words '.repeat(12)}</p>
      <div class="float"></div>${PARA}`,
      `pre { overflow: auto; background: #f4f4f4; padding: 8px; }
       .ellipsis { width: 200px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border: 1px solid #ccc; }
       .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
       .float { float: right; width: 100px; height: 300px; background: #9cf; }`,
    ),
  );
  assert.deepEqual(where(review.issues), []);
});

test('overlap: a paragraph pulled over the one before by a negative margin; a box placed over text, or over its own paragraph; a faint watermark is not one', async () => {
  const pulled = await reviewDocument(
    runtime,
    doc(
      `<h2>Results</h2>${PARA}<p class="up">Pulled up over the paragraph before it.</p>${PARA}`,
      '.up { margin-top: -40px; }',
    ),
  );
  assert.deepEqual(where(pulled.issues), ['overlap a4 p1 p.up', 'overlap letter p1 p.up', 'overlap screen p1 p.up']);
  assert.match(pulled.issues[0]!.message, /its text overlaps the text of p:nth-of-type\(1\) \(\d+ px × \d+ px\)/);

  const placed = await reviewDocument(
    runtime,
    doc(
      `${PARA}${PARA}<div class="badge">Approved for release</div><div class="watermark">DRAFT</div>`,
      '.badge { position: absolute; top: 72px; left: 30px; background: #fee; } .watermark { position: absolute; top: 60px; left: 0; font-size: 60pt; color: rgba(0, 0, 0, 0.08); }',
    ),
    { media: ['a4'] },
  );
  assert.deepEqual(where(placed.issues), ['overlap a4 p1 div.badge']);

  // Inside a paragraph: a note placed out of the flow over its first words is one; a raised footnote mark or a link is not.
  const inside = await reviewDocument(
    runtime,
    doc(
      `<p id="noted"><span class="note">Approved.</span>${PARA.slice(3, -4)}</p>
       <p>A footnote<sup class="raised">1</sup>, <a href="#x">a link</a> and <span class="nudged">nudged</span> words.</p>`,
      '.note { position: absolute; font-weight: bold; } .raised { position: relative; top: -0.5em; } .nudged { position: relative; top: -2px; }',
    ),
    { media: ['a4'] },
  );
  assert.deepEqual(where(inside.issues), ['overlap a4 p1 span.note']);
  assert.match(inside.issues[0]!.message, /overlaps the text of #noted/);
});

test('broken images: a remote source and a file that is not an asset are broken, an asset and a data: URI are not', async () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
    'base64',
  );
  const assets = new Map([['images/logo.png', { contentType: 'image/png', body: new Uint8Array(png) }]]);
  const html = doc(
    `<img id="logo" src="images/logo.png" alt="logo"><img id="inline" src="data:image/png;base64,${png.toString('base64')}" alt="dot">
     <img id="remote" src="https://example.com/chart.png" alt="chart"><img id="missing" src="images/chart.png" alt="chart">
     <div class="banner">Banner</div>${PARA}`,
    '.banner { background-image: url(https://example.com/banner.png); }',
  );
  const review = await reviewDocument(runtime, html, { assets, media: ['a4'] });
  assert.deepEqual(where(review.issues), [
    'broken-image all #remote',
    'broken-image all #missing',
    'broken-image all div.banner',
  ]);
  const [remote, missing, banner] = review.issues;
  assert.match(
    remote!.message,
    /https:\/\/example\.com\/chart\.png: nothing is fetched from the network, only the task's assets are served/,
  );
  assert.match(missing!.message, /images\/chart\.png is not one of the task's assets: .*images\/logo\.png/);
  assert.match(banner!.message, /its background image did not load/);
  // Without the asset, the logo is broken too.
  const bare = await reviewDocument(runtime, html, { media: ['a4'] });
  assert.ok(where(bare.issues).includes('broken-image all #logo'));
});

test('the runtime serves assets, with their content type, and still refuses and reports everything else', async () => {
  const assets = new Map([
    ['css/site.css', { contentType: 'text/css', body: new TextEncoder().encode('p { color: rgb(1, 2, 3); }') }],
  ]);
  const judged = await runtime.judge(
    '<!doctype html><link rel="stylesheet" href="css/site.css"><link rel="stylesheet" href="css/other.css"><p>x</p>',
    async (session) => {
      await session.load();
      return {
        color: await session.inspect(() => getComputedStyle(document.querySelector('p')!).color, undefined),
        misconduct: session.misconduct.map((m) => `${m.kind} ${m.detail}`),
      };
    },
    { assets },
  );
  assert.ok('value' in judged);
  assert.equal(judged.value.color, 'rgb(1, 2, 3)');
  assert.deepEqual(judged.value.misconduct, ['network requested http://artifact.invalid/css/other.css']);
});

test('low contrast: axe-core finds faint text, once for every medium', async () => {
  const review = await reviewDocument(
    runtime,
    doc(`${PARA}<p class="faint">This text is too faint to read.</p>`, '.faint { color: #c8c8c8; }'),
  );
  assert.deepEqual(where(review.issues), ['low-contrast all p.faint']);
  assert.match(
    review.issues[0]!.message,
    /#c8c8c8 on #ffffff at 11 pt: a contrast of 1\.67:1, below the 4\.5:1 WCAG AA asks for/,
  );

  // Over a picture axe cannot judge: the pixels decide (the background is what most of the box shows).
  const pictured = await reviewDocument(
    runtime,
    doc(
      `<div class="card"><svg class="mark" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="4" fill="none" stroke="#eee" stroke-width="0.3"/></svg>
       <p class="dark">Readable text over a faint drawing.</p><p class="pale">Pale text over a faint drawing.</p></div>
       <div class="banner"><p>White text on a dark picture.</p></div>`,
      `.card { position: relative; } .mark { position: absolute; top: 0; left: 0; width: 300px; height: 300px; }
       .dark, .pale { position: relative; } .pale { color: #b0b0b0; }
       .banner { background: #1c2a3a url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'%3E%3Crect width='8' height='8' fill='%23223344'/%3E%3C/svg%3E"); padding: 8px; }
       .banner p { color: #ffffff; margin: 0; }`,
    ),
    { media: ['screen'] },
  );
  assert.deepEqual(where(pictured.issues), ['low-contrast all p.pale']);
  assert.match(pictured.issues[0]!.message, /#b0b0b0 on #ffffff/);
});

test('table-too-wide: wider than the page, the window, or its container; a table that scrolls in its box on a screen is not', async () => {
  const row = `<tr>${Array.from({ length: 12 }, (_, i) => `<td>Value number ${i + 1}</td>`).join('')}</tr>`;
  const review = await reviewDocument(
    runtime,
    doc(`${PARA}<table class="data">${row}${row}</table>${PARA}`, 'td { white-space: nowrap; padding: 2px 6px; }'),
  );
  assert.deepEqual(where(review.issues), [
    'table-too-wide a4 p1 table.data',
    'table-too-wide letter p1 table.data',
    'table-too-wide screen p1 table.data',
  ]);
  assert.match(review.issues[0]!.message, /the table is \d+ px wide; the A4 page's content area is 680 px wide/);
  assert.match(review.issues[2]!.message, /the window is 1280 px wide/);

  const narrow = `<tr>${Array.from({ length: 4 }, (_, i) => `<td>Value number ${i + 1}</td>`).join('')}</tr>`;
  const inBox = await reviewDocument(
    runtime,
    doc(`<div class="col"><table id="t">${narrow}</table></div>`, '.col { width: 250px; } td { white-space: nowrap; }'),
    {
      media: ['screen'],
    },
  );
  assert.deepEqual(where(inBox.issues), ['table-too-wide screen p1 #t']);
  assert.match(inBox.issues[0]!.message, /its container div\.col|its container div is 250 px wide/);

  const scrolls = await reviewDocument(
    runtime,
    doc(
      `<div class="wrap"><table id="t">${row}</table></div>`,
      '.wrap { overflow-x: auto; } td { white-space: nowrap; }',
    ),
  );
  assert.deepEqual(where(scrolls.issues), ['table-too-wide a4 p1 #t', 'table-too-wide letter p1 #t']);
  assert.match(scrolls.issues[0]!.message, /printed, its scrolling box cuts it off/);
});

test("orphan-heading: a heading left at the bottom of A4's first page, its section on the next; not on Letter, and not with break-after: avoid", async () => {
  const body = `<div class="filler"><p>Filler content at the top of the first page.</p></div>
    <h2 id="late">Second section</h2>
    <p>The first paragraph of the second section has several lines of text, so that chromium cannot fit two of them under the heading at the bottom of the first page, and moves the paragraph to the next page.</p>`;
  const css =
    'h1 { margin: 0; } .filler { height: 900px; } h2 { margin: 10px 0 6px; font-size: 16pt; } p { margin: 0 0 8px; }';
  const html = doc(body, css);
  const review = await reviewDocument(runtime, html, { media: ['a4', 'letter'] });
  assert.deepEqual(where(review.issues), ['orphan-heading a4 p1 #late']);
  assert.equal(review.issues[0]!.severity, 'warning');
  assert.match(review.issues[0]!.message, /"Second section" is the last thing on page 1; its section starts on page 2/);
  assert.equal(review.pages.a4, await pdfPages(html, 'a4'));
  const pdftotext = (() => {
    try {
      execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  if (pdftotext) {
    // Chromium agrees: the heading is printed on page 1, its paragraph on page 2.
    const judged = await runtime.judge(html, async (session) => {
      await session.load();
      await session.page.emulateMedia({ media: 'print' });
      return Buffer.from(
        await session.page.pdf({ format: 'A4', margin: { top: '15mm', right: '15mm', bottom: '15mm', left: '15mm' } }),
      );
    });
    assert.ok('value' in judged);
    const file = join(dir, 'orphan.pdf');
    writeFileSync(file, judged.value);
    const page = (n: number) =>
      execFileSync('pdftotext', ['-f', String(n), '-l', String(n), file, '-'], { encoding: 'utf8' });
    assert.match(page(1), /Second section/);
    assert.match(page(2), /The first paragraph of the second section/);
  }
  const kept = await reviewDocument(runtime, doc(body, `${css} h2 { break-after: avoid; }`), { media: ['a4'] });
  assert.deepEqual(where(kept.issues), []);
});

test('heading-order and parse errors: once for every medium, parse errors first among them, from the source', async () => {
  const review = await reviewDocument(
    runtime,
    doc(`<h3>Skipped</h3>${PARA}<h2>Section</h2><h4 id="deep">Deep</h4><p>one <b>bold</p></b>`),
  );
  assert.deepEqual(where(review.issues), [
    'parse-error all ',
    'parse-error all ',
    'heading-order all h3',
    'heading-order all #deep',
  ]);
  assert.deepEqual(
    review.issues.map((i) => i.severity),
    ['error', 'error', 'warning', 'warning'],
  );
  assert.match(review.issues[0]!.message, /<b> is never closed/);
  assert.match(review.issues[2]!.message, /an h3 follows an h1: a level is skipped \(make it an h2\)/);
  assert.match(review.issues[3]!.message, /an h4 follows an h2/);
  const first = await reviewDocument(
    runtime,
    '<!doctype html><html lang="en"><title>x</title><h3>Late start</h3><p>Text.</p></html>',
    { media: ['screen'] },
  );
  assert.deepEqual(where(first.issues), ['heading-order all h3']);
  assert.match(first.issues[0]!.message, /first heading is an h3/);
});

test('issues are sorted errors first, then by medium, page and document order', async () => {
  const review = await reviewDocument(
    runtime,
    doc(
      `<h4>Skip</h4><div class="box">${PARA}${PARA}</div><p class="faint">Faint</p><div class="box2">${PARA}${PARA}</div>`,
      '.box, .box2 { height: 30px; overflow: hidden; } .box2 { break-before: page; } .faint { color: #ccc; }',
    ),
    { media: ['a4', 'screen'] },
  );
  assert.deepEqual(where(review.issues), [
    'low-contrast all p.faint',
    'overflow a4 p1 div.box',
    'overflow a4 p2 div.box2',
    'overflow screen p1 div.box',
    'overflow screen p1 div.box2',
    'heading-order all h4',
  ]);
});

test('a document whose scripts run that loops forever, or allocates without end, aborts; the next document is reviewed right', async () => {
  const loop = doc(`${PARA}<script>while (true) {}</script>`);
  const looping = await reviewDocument(runtime, loop, { scripts: true });
  assert.equal(looping.abort?.status, 'timeout');
  assert.deepEqual(looping.issues, []);
  const next = await reviewDocument(runtime, doc(`<p class="faint">Faint</p>`, '.faint { color: #ddd; }'), {
    media: ['a4'],
  });
  assert.equal(next.abort, undefined);
  assert.deepEqual(where(next.issues), ['low-contrast all p.faint']);
  assert.deepEqual(next.pages, { a4: 1 });

  const hungry = await reviewDocument(
    runtime,
    doc(`<script>const all = []; for (;;) all.push(new Array(1e6).fill(1.5));</script>`),
    { media: ['a4'], scripts: true },
  );
  assert.equal(hungry.abort?.status, 'memory');
  const after = await reviewDocument(runtime, fixture('clean-report.html'), { media: ['screen'] });
  assert.deepEqual(where(after.issues), []);
  // With scripts off, the default, the loop never runs: the document is reviewed as it is.
  const read = await reviewDocument(runtime, loop, { media: ['a4'] });
  assert.equal(read.abort, undefined);
  assert.deepEqual(read.pages, { a4: 1 });
});

test('crucible review prints the issues and a summary, writes --json, and exits 1 with errors, 0 clean, 2 on bad input', async () => {
  const bad = join(dir, 'bad.html');
  writeFileSync(bad, doc(`${PARA}<p class="faint">Faint</p><h3>Skip</h3>`, '.faint { color: #ccc; }'));
  const json = join(dir, 'review.json');
  const failed = await crucible(['review', bad, '--json', json, '--media', 'a4,screen']);
  assert.equal(failed.code, 1, failed.stderr);
  const lines = failed.stdout.trim().split('\n');
  assert.match(lines[0]!, /^error {2,}low-contrast {2,}all {2,}p\.faint {2}its text is #cccccc on #ffffff/);
  assert.match(lines[1]!, /^warning {2,}heading-order {2,}all {2,}h3 {2}an h3 follows an h1/);
  assert.equal(lines.at(-1), '1 error, 1 warning on 1 A4 page, screen');
  const written = JSON.parse(readFileSync(json, 'utf8')) as {
    issues: DocIssue[];
    pages: Partial<Record<Medium, number>>;
  };
  assert.deepEqual(written.pages, { a4: 1, screen: 1 });
  assert.deepEqual(where(written.issues), ['low-contrast all p.faint', 'heading-order all h3']);

  const clean = join(dir, 'clean.html');
  writeFileSync(clean, doc(`${PARA}<img src="logo.png" alt="logo">`));
  const assets = join(dir, 'assets');
  mkdirSync(assets);
  writeFileSync(
    join(assets, 'logo.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/pSzWVgAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  const passed = await crucible(['review', clean, '--assets', assets]);
  assert.equal(passed.code, 0, passed.stdout + passed.stderr);
  assert.equal(passed.stdout.trim(), 'no issues on 1 A4 page, 1 Letter page, screen');

  const missing = await crucible(['review', join(dir, 'nope.html')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.html: no such file; give the path of the HTML document to review/);
  const medium = await crucible(['review', clean, '--media', 'a5']);
  assert.equal(medium.code, 2);
  assert.match(medium.stderr, /unknown medium "a5"; give one or more of a4, letter, screen/);
});

test('a picture of a review: each element at fault outlined in red (test-artifacts/docs/review.png)', async () => {
  const html = doc(
    `${PARA}<p class="up">Pulled up over the paragraph before it.</p>
     <div class="sidebar"><p>See https://example.com/averyveryverylongunbrokenaddress/with/a/path for details.</p></div>
     <p class="faint">Faint text.</p>
     <img id="remote" src="https://example.com/chart.png" alt="a chart that does not load" width="200" height="80">`,
    '.sidebar { width: 220px; border: 1px solid #ccc; padding: 8px; } .up { margin-top: -30px; margin-left: 160px; } .faint { color: #ccc; }',
  );
  const review = await reviewDocument(runtime, html, { media: ['screen'] });
  const selectors = [...new Set(review.issues.map((i) => i.selector).filter(Boolean))];
  assert.deepEqual(where(review.issues), [
    'low-contrast all p.faint',
    'broken-image all #remote',
    'overlap screen p1 p.up',
    'overflow screen p1 div.sidebar > p',
  ]);
  mkdirSync(ARTIFACTS, { recursive: true });
  const judged = await runtime.judge(html, async (session) => {
    await session.load();
    await session.page.setViewportSize({ width: MEDIA_LAYOUT.screen.width, height: 500 });
    const outlined = (await session.inspect(outlineElements, selectors)) as number;
    await session.page.screenshot({ path: join(ARTIFACTS, 'review.png') });
    return outlined;
  });
  assert.ok('value' in judged);
  assert.equal(judged.value, selectors.length);
});
