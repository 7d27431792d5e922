/**
 * `crucible solve` on a games task as a user runs it: a real process, a scripted model server,
 * chromium playing the plan. The first game's reset does nothing; the feedback names the case,
 * what was played (cut to the fewest steps) and what the page showed; the repaired game is verified.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { crucible } from './cli-support.js';
import { scriptedModel, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-solve-games-'));
const fixtures: ModelFixture[] = [];
after(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

const counter = (onReset: string) =>
  `<!doctype html><html><body><button id="inc">+1</button><button id="reset">reset</button><span id="count">0</span>
<script>let n = 0; const show = () => (document.getElementById('count').textContent = String(n));
document.getElementById('inc').onclick = () => { n += 1; show(); };
document.getElementById('reset').onclick = () => { ${onReset} show(); };</script></body></html>`;
const RIGHT = counter('n = 0;');
const task = {
  task_id: 'games/counter',
  domain: 'games',
  prompt: 'A click counter: #inc adds one to the number shown in #count; #reset sets it back to 0.',
  reference: RIGHT,
  plan: [
    {
      name: 'counts clicks',
      steps: [{ click: '#inc' }, { click: '#inc' }, { expect: { selector: '#count', text: '2' } }],
    },
    {
      name: 'reset starts over',
      steps: [{ click: '#inc' }, { click: '#inc' }, { click: '#reset' }, { expect: { selector: '#count', text: '0' } }],
    },
  ],
};
const html = (doc: string) => `\`\`\`html\n${doc}\n\`\`\``;

/** `crucible solve` on a task file with a strategy and a model, its own response cache, and extra flags. */
const solve = (file: string, strategy: string, model: string, cache: string, ...extra: string[]) =>
  crucible(
    [
      'solve',
      '--task',
      file,
      '--strategy',
      strategy,
      '--model',
      model,
      '--db',
      join(dir, 'runs.db'),
      '--cache-dir',
      join(dir, cache),
      ...extra,
    ],
    { cwd: dir },
  );

test('solve --strategy repair on a games task: the failing case is fed back, and the repaired game is verified', async () => {
  const model = await scriptedModel({ programs: [html(counter('')), `Fixed:\n${html(RIGHT)}`] });
  fixtures.push(model);
  const file = join(dir, 'counter.json');
  writeFileSync(file, JSON.stringify(task));
  const json = join(dir, 'solve.json');
  const run = await solve(
    file,
    'repair',
    `${model.server.url}#fake-model`,
    'cache',
    '--budget',
    'calls=4,wall=3min',
    '--json',
    json,
  );

  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.match(run.stderr, /checks: 2 plan cases/);
  const [prompt, feedback] = model.lastUserMessages();
  assert.ok(prompt!.includes(task.prompt), prompt);
  assert.match(prompt!, /one HTML document in one ```html code block/);
  assert.match(
    feedback!,
    /^Your game fails the test "reset starts over" \(cut to the fewest steps that still show it\)\.$/m,
  );
  assert.match(feedback!, /^Played, from a fresh load: click #inc; click #reset; expect #count text "0"$/m);
  assert.match(feedback!, /^The page: it shows "1"$/m);
  const document = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(document.status, 'verified');
  assert.equal(document.domain, 'games');
  assert.equal(document.program, RIGHT);
  assert.equal(document.reward, 1);
});

test('a games task without a plan: the model writes one first (checked on the reference), then the game', async () => {
  const model = await scriptedModel({
    structured: [JSON.stringify({ cases: task.plan })],
    programs: [html(RIGHT)],
  });
  fixtures.push(model);
  const file = join(dir, 'no-plan.json');
  writeFileSync(file, JSON.stringify({ ...task, plan: undefined }));
  const run = await solve(file, 'repair', `${model.server.url}#fake-model`, 'cache-plan');

  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.match(run.stderr, /games\/counter has no plan: the model wrote 2 cases/);
  assert.match(run.stderr, /checks: 2 plan cases/);
  const [planPrompt] = model.lastUserMessages();
  assert.match(planPrompt!, /A plan is \{"cases"/);
  assert.ok(planPrompt!.includes(task.prompt));
});

test('a plan the model cannot write, and a function strategy, each say what to do', async () => {
  const model = await scriptedModel({
    structured: [JSON.stringify({ cases: [{ name: 'x', steps: [{ tap: '#inc' }] }] }), JSON.stringify({ cases: [] })],
  });
  fixtures.push(model);
  const file = join(dir, 'bad-plan.json');
  writeFileSync(file, JSON.stringify({ ...task, plan: undefined }));
  const bad = await solve(file, 'repair', `${model.server.url}#fake-model`, 'cache-bad');
  assert.notEqual(bad.code, 0);
  assert.match(
    bad.stderr,
    /games\/counter has no plan, and the one the model wrote is not valid: plan: it has no case/,
  );
  assert.match(
    model.lastUserMessages()[1]!,
    /That is not a valid plan: 0\.steps\.0: a step is one of click, key, type, wait, expect; got tap/,
  );
  const dccd = await solve(file, 'dccd', 'http://127.0.0.1:9/v1#m', 'cache-bad');
  assert.match(dccd.stderr, /a games task is solved with --strategy/);
});

test('eval --samples on a games task file: games a user brings, played with the plan and scored with pass@k', async () => {
  const file = join(dir, 'games.jsonl');
  writeFileSync(file, JSON.stringify(task) + '\n');
  const samples = join(dir, 'games-samples.jsonl');
  writeFileSync(
    samples,
    [RIGHT, counter('')].map((solution) => JSON.stringify({ task_id: task.task_id, solution })).join('\n') + '\n',
  );
  const json = join(dir, 'eval-games.json');
  const run = await crucible(['eval', '--dataset', file, '--samples', samples, '--json', json, '--no-record'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const document = JSON.parse(readFileSync(json, 'utf8'));
  assert.equal(document.settings.domain, 'games');
  assert.deepEqual(
    document.samples.map((s: { status: string }) => s.status),
    ['pass', 'fail'],
  );
  const suites = Object.keys(document.summary.pass_at_k);
  assert.ok(suites.length >= 3, `the load and each plan case are suites: ${suites.join(', ')}`);
  assert.equal(
    document.summary.pass_at_k[suites.at(-1)!]['1'],
    0.5,
    'the game whose reset does nothing fails the last case',
  );
});
