/**
 * A pack is one folder plus one registration line: the regex pack under test/fixtures/packs/regex
 * is installed as a user installs theirs (CRUCIBLE_PACKS names its module) and served by the
 * front doors that loop over the registry — eval --samples, eval --model, solve and report — as
 * real processes, with a scripted model server. It also passes the pack contract, judging in
 * the sandbox (a pattern that backtracks forever ends in timeout, and the next is judged right).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { openPage, screenshot, seriousViolations } from './browser-support.js';
import { crucible, writeJsonl } from './cli-support.js';
import { runPackContract } from './contracts/pack-contract.js';
import { PACKS } from '../src/domains/registry.js';
import type { Executor } from '../src/runtimes/executor.js';
import { createApp } from '../src/server/app.js';
import { Metrics } from '../src/server/metrics.js';
import { PackVerifiers } from '../src/server/pack-verifiers.js';
import regexModule from './fixtures/packs/regex/index.js';
import { regexPack } from './fixtures/packs/regex/pack.js';
import { regexTaskOf } from './fixtures/packs/regex/task.js';
import { scriptedModel, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-regex-pack-'));
const fixtures: ModelFixture[] = [];
after(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

const env = { ...process.env, CRUCIBLE_PACKS: join(import.meta.dirname, 'fixtures/packs/regex/index.ts') };
/** Thirty a's and a b: `(a+)+` backtracks on it for longer than any limit. */
const BACKTRACKS = 'a'.repeat(30) + 'b';
const line = {
  task_id: 'regex/digits',
  domain: 'regex',
  prompt: 'Match a whole number written with digits only.',
  match: ['7', '2026'],
  reject: ['12a', BACKTRACKS],
  hidden: { match: ['000'], reject: ['', ' 1'] },
  reference: '[0-9]+',
};
const RIGHT = '[0-9]+';
/** Right on every visible string, wrong on the hidden empty one. */
const WRONG = '[0-9]*';

runPackContract(() => regexPack({ sandbox: 'bwrap' }), {
  name: 'regex (a fixture pack)',
  task: regexTaskOf(line, 'test'),
  right: RIGHT,
  wrong: WRONG,
  broken: '[0-9',
  hostile: '(a+)+',
  reply: `Here it is:\n\n\`\`\`regex\n${RIGHT}\n\`\`\`\n`,
  prepare: {},
  skip: {
    'a wrong artifact fails with a fact to feed back, the smallest probe shrunk, and a lower reward':
      'the fixture does not shrink strings: it shows that a pack of one folder is served, not how to shrink',
  },
});

const tasks = join(dir, 'regex.jsonl');
writeJsonl(tasks, [
  line,
  {
    ...line,
    task_id: 'regex/letters',
    prompt: 'Lower-case letters only.',
    match: ['ab'],
    reject: ['a1', 'a'.repeat(30) + '!'],
    hidden: { match: ['z'], reject: ['A'] },
    reference: '[a-z]+',
  },
]);

test('eval --samples: a fixture pack scored with pass@k, statuses and the JSON document, as functions are', async () => {
  const samples = join(dir, 'samples.jsonl');
  writeJsonl(samples, [
    { task_id: 'regex/digits', solution: RIGHT },
    { task_id: 'regex/digits', solution: WRONG },
    { task_id: 'regex/digits', solution: '[0-9' },
    { task_id: 'regex/letters', solution: '(a+)+' },
    { task_id: 'regex/letters', solution: '[a-z]+' },
  ]);
  const json = join(dir, 'eval.json');
  const run = await crucible(['eval', '--dataset', tasks, '--samples', samples, '--json', json, '--no-record'], {
    env,
  });
  assert.equal(run.code, 0, run.stderr);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(doc.settings.domain, 'regex');
  assert.deepEqual(
    doc.samples.map((s: { status: string }) => s.status),
    ['pass', 'fail', 'error', 'timeout', 'pass'],
  );
  // pass@1 on `visible` alone counts the wrong pattern right; with `hidden` it does not.
  assert.equal(doc.summary.pass_at_k.visible['1'], (2 / 3 + 1 / 2) / 2);
  assert.equal(doc.summary.pass_at_k.hidden['1'], (1 / 3 + 1 / 2) / 2);
  assert.equal(doc.samples[1].first_failure.message, '"" must be rejected');
  assert.match(run.stdout, /regex\/digits/);

  // The report of that document renders from the same JSON.
  const html = join(dir, 'eval.html');
  const report = await crucible(['report', json, '--out', html], { env });
  assert.equal(report.code, 0, report.stderr);
  const payload = /id="crucible-report-data" data-encoding="gzip\+base64">([^<]+)</.exec(
    readFileSync(html, 'utf8'),
  )![1]!;
  const [shown] = JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')).documents;
  assert.deepEqual(
    shown.document.samples.map((s: { task_id: string }) => s.task_id),
    doc.samples.map((s: { task_id: string }) => s.task_id),
  );

  // The pack's own view (its module's reportView) shows the failing input in chromium.
  const browser = await launchChromium();
  try {
    const { page, errors } = await openPage(browser, pathToFileURL(html));
    const wrong = doc.samples[1];
    await page.click(
      `[role="row"]:has([role="rowheader"][title="${wrong.task_id}"]) [role="gridcell"][aria-label^="sample ${wrong.index}:"]`,
    );
    const view = page.locator('[role="dialog"] [data-view="regex-string"]');
    await view.waitFor();
    assert.match((await view.textContent())!, /the empty string\s*\(0 characters\)/);
    await screenshot(page, 'regex-pack-view');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('eval --samples on a pack without samples of its own says what to give', async () => {
  const run = await crucible(['eval', '--dataset', tasks, '--no-record'], { env });
  assert.equal(run.code, 2, run.stdout);
  assert.match(run.stderr, /holds regex tasks, which bring no samples of their own: give --samples FILE/);
});

test('eval --model and solve: a model writes the pattern, the feedback names the string, the repair is verified', async () => {
  const fence = (pattern: string) => `\`\`\`regex\n${pattern}\n\`\`\``;
  // eval --model with sample: one reply per task, scored on the hidden strings too.
  const model = await scriptedModel({ programs: [fence(WRONG), fence('[a-z]+')] });
  fixtures.push(model);
  const json = join(dir, 'model.json');
  const run = await crucible(
    [
      'eval',
      '--dataset',
      tasks,
      '--model',
      `${model.server.url}#fake`,
      '--strategy',
      'sample',
      '--candidates',
      '1',
      '--json',
      json,
      '--db',
      join(dir, 'runs.db'),
      '--cache-dir',
      join(dir, 'cache-eval'),
    ],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  const doc = JSON.parse(readFileSync(json, 'utf8'));
  // The wrong pattern passes what the solver saw, so sample returns it; the hidden empty string fails it.
  assert.deepEqual(
    doc.samples.map((s: { task_id: string; status: string }) => [s.task_id, s.status]),
    [
      ['regex/digits', 'fail'],
      ['regex/letters', 'pass'],
    ],
  );

  // solve with repair: the first pattern matches "12a", the feedback says so, the second is right.
  const solver = await scriptedModel({ programs: [fence('[0-9a-z]+'), fence(RIGHT)] });
  fixtures.push(solver);
  const solved = await crucible(
    [
      'solve',
      '--task',
      `${tasks}:regex/digits`,
      '--model',
      `${solver.server.url}#fake`,
      '--strategy',
      'repair',
      '--no-model-tests',
      '--db',
      join(dir, 'runs.db'),
      '--cache-dir',
      join(dir, 'cache-solve'),
    ],
    { env },
  );
  assert.equal(solved.code, 0, solved.stderr + solved.stdout);
  assert.match(solved.stdout, /^\[0-9\]\+$/m);
  assert.match(solved.stdout, /verified/);
  assert.match(solver.lastUserMessages()[1]!, /"12a" must be rejected/);

  // A strategy that writes functions is refused for the pack, by what the pack writes.
  const misfit = await crucible(
    ['solve', '--task', `${tasks}:regex/digits`, '--model', `${solver.server.url}#fake`, '--strategy', 'dccd'],
    { env },
  );
  assert.equal(misfit.code, 2);
  assert.match(misfit.stderr, /a regex task is solved with --strategy sample, best-of-n, repair/);
});

test('/v1/verify with "domain": "regex": the task line and candidates judged in the sandbox, the form in the OpenAPI document', async () => {
  const packs = new PackVerifiers([...PACKS, regexModule], { sandbox: 'bwrap' });
  const app = createApp({
    executor: new Proxy({}, { get: () => assert.fail('no stdin program runs in this test') }) as Executor,
    metrics: new Metrics(),
    maxBodyBytes: 1 << 20,
    requestTimeoutSeconds: 60,
    version: 'test',
    packs,
  });
  const post = (body: unknown) =>
    app.request('/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: '127.0.0.1' },
      body: JSON.stringify(body),
    });
  try {
    const answer = await post({ domain: 'regex', task: line, candidates: [RIGHT, { id: 'w', code: WRONG }, '(a+)+'] });
    assert.equal(answer.status, 200);
    const { results, summary } = (await answer.json()) as {
      results: { id: string; status: string; reward: number | null; first_failed_level: string | null }[];
      summary: { status_counts: Record<string, number>; task: { domain: string } };
    };
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [
        ['0', 'pass'],
        ['w', 'fail'],
        ['2', 'timeout'],
      ],
    );
    assert.equal(results[0]!.reward, 1);
    assert.equal(results[1]!.first_failed_level, 'hidden', 'the wrong pattern passes every visible string');
    assert.equal(summary.task.domain, 'regex');

    const unknown = await post({ domain: 'proofs', task: {}, candidates: ['x'] });
    assert.equal(unknown.status, 400);
    assert.match(
      ((await unknown.json()) as { error: string }).error,
      /no pack of this server judges it; send one of sql, games, docs, regex/,
    );
    const malformed = await post({ domain: 'regex', task: line, candidates: [] });
    assert.equal(malformed.status, 400);
    assert.match(((await malformed.json()) as { error: string }).error, /candidates is empty/);

    const openapi = (await (await app.request('/openapi.json', { headers: { host: '127.0.0.1' } })).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const forms = JSON.stringify(openapi.paths['/v1/verify']!.post.requestBody.content['application/json']!.schema);
    for (const domain of ['sql', 'games', 'docs', 'regex'])
      assert.ok(forms.includes(`"const":"${domain}"`), `${domain} is listed`);
  } finally {
    await packs.close();
  }
});

test("select and calibrate: the pack's samples voted on by what they do on its probes, labelled on its scorer's checks", async () => {
  const samples = join(dir, 'several.jsonl');
  writeJsonl(samples, [
    { task_id: 'regex/digits', solution: RIGHT },
    { task_id: 'regex/digits', solution: '[a-z0-9]+' },
    { task_id: 'regex/digits', solution: RIGHT },
    { task_id: 'regex/letters', solution: '[a-z]+' },
    { task_id: 'regex/letters', solution: '[a-z]+' },
    { task_id: 'regex/letters', solution: '[0-9]+' },
  ]);
  const json = join(dir, 'select.json');
  const selected = await crucible(['select', '--dataset', tasks, '--samples', samples, '--json', json, '--no-record'], {
    env,
  });
  assert.equal(selected.code, 0, selected.stderr);
  const picks = JSON.parse(readFileSync(json, 'utf8')).tasks.map((t: { task_id: string; selected_index: number }) => [
    t.task_id,
    t.selected_index,
  ]);
  // Indices count each task's own samples: the first of the two that agree, on both tasks.
  assert.deepEqual(picks, [
    ['regex/digits', 0],
    ['regex/letters', 0],
  ]);

  const threshold = join(dir, 'threshold.json');
  const calibrated = await crucible(
    ['calibrate', '--dataset', tasks, '--samples', samples, '--out', threshold, '--no-record'],
    { env },
  );
  assert.equal(calibrated.code, 0, calibrated.stderr);
  const items = JSON.parse(readFileSync(threshold, 'utf8')).calibration as { taskId: string; correct: boolean }[];
  assert.deepEqual(
    items.map((i) => [i.taskId, i.correct]),
    [
      ['regex/digits', true],
      ['regex/letters', true],
    ],
  );
  // A pack that does not say how to audit its tasks is refused, saying what is audited.
  const audit = await crucible(['audit', '--dataset', tasks, '--no-record'], { env });
  assert.equal(audit.code, 2);
  assert.match(audit.stderr, /audit does not audit regex tasks yet/);
});
