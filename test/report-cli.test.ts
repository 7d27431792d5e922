/**
 * `crucible report` on the command line, as a user runs it: where the report goes, and what it
 * says when the file given is not a document it can show. (What the report shows is checked in
 * a browser: report-eval.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { crucible as run, writeCitiesEval } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-cli-'));
const crucible = (args: string[]) => run(args, { cwd: dir });
const results = join(dir, 'results.json');

before(async () => {
  // A real document, quickly: SQL samples judged without running them (--judge static).
  const tasks = join(dir, 'tasks.jsonl');
  const samples = join(dir, 'samples.jsonl');
  writeCitiesEval(tasks, samples);
  const r = await crucible([
    'eval',
    '--dataset',
    tasks,
    '--samples',
    samples,
    '--judge',
    'static',
    '--json',
    results,
    '--no-record',
  ]);
  assert.equal(r.code, 0, r.stderr);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('the report goes beside the document by default, or to --out, and the command says where', async () => {
  let r = await crucible(['report', results]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `report written to ${join(dir, 'results.html')} (open it in a browser)\n`);
  const html = readFileSync(join(dir, 'results.html'), 'utf8');
  assert.match(html, /^<!doctype html>/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=/, 'nothing is loaded from elsewhere');
  const out = join(dir, 'out', 'r.html');
  mkdirSync(join(dir, 'out'));
  r = await crucible(['report', results, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(existsSync(out));
  // A gzipped document is read as it is.
  writeFileSync(join(dir, 'results.json.gz'), gzipSync(readFileSync(results)));
  r = await crucible(['report', join(dir, 'results.json.gz')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, `report written to ${join(dir, 'results.html')} (open it in a browser)\n`);
});

test('each file a user can get wrong gets a message that says what to give instead', async () => {
  const cases: [string, string | undefined, RegExp][] = [
    [
      'missing.json',
      undefined,
      /cannot read .*missing\.json: no such file; give the JSON file a crucible command wrote/,
    ],
    ['folder', 'folder', /cannot read .*folder: it is a folder/],
    ['broken.json', '{"crucible": ', /broken\.json is not JSON \(.*\); give the JSON file a crucible command wrote/],
    [
      'samples.jsonl',
      '{"task_id": "a", "solution": "x"}\n{"task_id": "b", "solution": "y"}\n',
      /samples\.jsonl holds one JSON value per line \(JSONL: samples or a dataset\?\), not a results document/,
    ],
    ['other.json', '{"name": "package", "version": "1.0.0"}', /other\.json is JSON but not a document crucible wrote/],
  ];
  for (const [name, content, message] of cases) {
    const path = join(dir, name);
    if (content === 'folder') mkdirSync(path, { recursive: true });
    else if (content !== undefined) writeFileSync(path, content);
    const r = await crucible(['report', path]);
    assert.equal(r.code, 2, `${name}: ${r.stdout}`);
    assert.match(r.stderr, message, name);
    const report = /\.json$/.test(path) ? path.replace(/\.json$/, '.html') : `${path}.html`;
    assert.ok(!existsSync(report), `${name}: no report written`);
  }
  const r = await crucible(['report', results, '--out', join(dir, 'nowhere', 'r.html')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--out .*: the folder .*nowhere does not exist \(create it first/);
});

test('eval --html refuses a folder that does not exist before judging anything', async () => {
  const r = await crucible(['eval', '--html', join(dir, 'nowhere', 'r.html'), '--no-record']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--html .*: the folder .*nowhere does not exist/);
  assert.doesNotMatch(r.stdout, /built-in suite/);
});
