/**
 * The docs pack in a real chromium: the domain-pack contract its siblings pass (gaps skipped
 * with their reason), then what only documents have — suites per medium, content assertions,
 * assets served and nothing else (a task file's asset only from its own folder), and a page that
 * exhausts its memory followed by a right one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { docsPack, docTaskOf, readDocTasks, type DocTask } from '../src/domains/docs/index.js';
import { docsFeedback } from '../src/domains/docs/subject.js';
import { runPackContract } from './contracts/pack-contract.js';

const runtime = new BrowserRuntime({ heapMb: 128 });
after(() => runtime.close());

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Quarterly note</title><style>@page { size: A4; margin: 18mm } body { font: 12pt/1.5 Georgia, serif; color: #1d1d1d; background: #fff } table { border-collapse: collapse; width: 100% } td, th { border: 1px solid #888; padding: 4px }</style>${head}</head><body>${body}</body></html>`;

const RIGHT = page(
  '<h1>Quarterly note</h1><p>Sales rose in every region.</p><h2>Figures</h2><table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>120</td></tr></table>',
);
/** Right but for a table far wider than any page. */
const WRONG = page(
  `<h1>Quarterly note</h1><p>Sales rose in every region.</p><h2>Figures</h2><table style="width:2600px"><tr>${'<td>region figure</td>'.repeat(24)}</tr></table>`,
);

const task: DocTask = docTaskOf(
  {
    task_id: 'docs/note',
    domain: 'docs',
    prompt: 'A quarterly note with a table of the figures.',
    expect: [{ selector: 'h1', text: 'Quarterly note' }, { selector: 'table' }],
    // A document's scripts run only where its task asks for them: here, so that the hostile
    // document's loop runs (with them off it is an ordinary page; docs-forged-review.test.ts).
    scripts: true,
  },
  'test',
);

runPackContract(() => docsPack(runtime), {
  name: 'docs',
  task,
  right: RIGHT,
  wrong: WRONG,
  broken: page('<section><p>unclosed section</div></div>'),
  hostile: page('<h1>Loop</h1><script>while (true) {}</script>'),
  reply: `Here is the note:\n\n\`\`\`html\n${RIGHT}\n\`\`\`\n`,
  prepare: {},
  skip: {
    'a wrong artifact fails with a fact to feed back, the smallest probe shrunk, and a lower reward':
      'a document has no input to shrink: the reviewer names the element at fault and its page instead (tested below)',
    'observe: the same artifact behaves the same on every probe, a wrong one differently on some':
      'a document takes no input: selection compares documents by their reviews, not by behaviour on probes',
    'neighbours: new probes near the given ones, the same for the same seed': 'a document takes no input to mutate',
  },
});

const checks = () => docsPack(runtime).prepare(task, { audience: 'scorer', seed: 1 });

test('a table wider than the page fails each medium it shows on, named by its selector, and the feedback says where', async () => {
  const report = await docsPack(runtime).verify(await checks(), WRONG);
  assert.equal(report.passed, false);
  const suites = Object.fromEntries(report.verdict.suites.map((s) => [s.name, s.status]));
  assert.equal(suites.parse, 'pass');
  assert.equal(suites.content, 'pass');
  for (const medium of ['a4', 'letter', 'screen']) assert.equal(suites[`review/${medium}`], 'fail', medium);
  assert.ok(
    report.failures.some((f) => /table-too-wide at table/.test(f.message)),
    JSON.stringify(report.failures),
  );
  assert.ok(report.reward.reward !== null && report.reward.reward > 0 && report.reward.reward < 1);
  const told = docsFeedback(report, 'Reply with the document.')!;
  assert.match(told.text, /error table-too-wide at table[^\n]*\(A4, page 1\)/);
});

test('content assertions: a document without what the task asks for fails content, with what it showed', async () => {
  const report = await docsPack(runtime).verify(await checks(), page('<h1>Another title</h1><p>No table.</p>'));
  const content = report.verdict.suites.find((s) => s.name === 'content')!;
  assert.equal(content.status, 'fail');
  assert.equal(content.passed, 0);
  assert.equal(content.total, 2);
  assert.ok(report.failures.some((f) => f.check === 'content' && /Another title/.test(f.message)));
});

test('an asset is served at its name and an image elsewhere is broken; a page that exhausts its memory, then a right one', async () => {
  const png =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const withLogo = docTaskOf(
    {
      task_id: 'docs/logo',
      domain: 'docs',
      prompt: 'A note with the logo.',
      assets: { 'logo.png': png },
      media: ['screen'],
    },
    'test',
  );
  const pack = docsPack(runtime);
  const logoChecks = await pack.prepare(withLogo, { audience: 'scorer', seed: 1 });
  const served = await pack.verify(
    logoChecks,
    page('<h1>Logo</h1><img src="logo.png" alt="logo" width="40" height="40">'),
  );
  assert.equal(served.passed, true, JSON.stringify(served.failures));
  const remote = await pack.verify(
    logoChecks,
    page('<h1>Logo</h1><img src="https://example.com/logo.png" alt="logo" width="40" height="40">'),
  );
  assert.equal(remote.passed, false);
  assert.ok(
    remote.failures.some((f) => /broken-image/.test(f.check)),
    JSON.stringify(remote.failures),
  );
  const bomb = await pack.verify(
    await checks(),
    page('<h1>Bomb</h1><script>const a = []; for (;;) a.push(new Array(1e6).fill(1.5));</script>'),
  );
  assert.equal(bomb.verdict.status, 'memory');
  assert.equal(bomb.passed, false);
  const next = await pack.verify(await checks(), RIGHT);
  assert.equal(next.passed, true, JSON.stringify(next.failures));
});

test('an asset file of the task’s folder is served to the page; one that leads out of it is refused, and the next task line is judged right', async () => {
  const root = mkdtempSync(join(tmpdir(), 'crucible-docs-assets-'));
  try {
    const folder = join(root, 'tasks');
    mkdirSync(folder);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    writeFileSync(join(root, 'private.png'), png);
    writeFileSync(join(folder, 'logo.png'), png);
    const line = (asset: string) =>
      JSON.stringify({
        task_id: 'docs/logo-file',
        domain: 'docs',
        prompt: 'A note with the logo.',
        assets: { 'logo.png': asset },
        media: ['screen'],
      }) + '\n';
    writeFileSync(join(folder, 'out.jsonl'), line('../private.png'));
    assert.throws(
      () => readDocTasks(join(folder, 'out.jsonl')),
      /out\.jsonl:1: asset logo\.png is "\.\.\/private\.png", which leads out/,
    );
    writeFileSync(join(folder, 'good.jsonl'), line('logo.png'));
    const [good] = readDocTasks(join(folder, 'good.jsonl'));
    const pack = docsPack(runtime);
    const report = await pack.verify(
      await pack.prepare(good!, { audience: 'scorer', seed: 1 }),
      page('<h1>Logo</h1><img src="logo.png" alt="logo" width="40" height="40">'),
    );
    assert.equal(report.passed, true, JSON.stringify(report.failures));
    const missing = await pack.verify(
      await pack.prepare(good!, { audience: 'scorer', seed: 1 }),
      page('<h1>Logo</h1><img src="private.png" alt="logo" width="40" height="40">'),
    );
    assert.ok(
      missing.failures.some((f) => /broken-image/.test(f.check)),
      'a file beside the folder is not served either: ' + JSON.stringify(missing.failures),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
