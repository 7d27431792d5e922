/**
 * `crucible solve` on SQL tasks as a user runs it: a real process, a scripted model server,
 * the prompt with the schema and a few rows, repair that shows the smallest database on
 * which the query is wrong, and best-of-n choosing among sampled queries.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crucible as run } from './cli-support.js';
import { after, test } from 'node:test';
import { scriptedModel, type ModelFixture } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-solve-sql-'));
const fixtures: ModelFixture[] = [];
after(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  rmSync(dir, { recursive: true, force: true });
});

const crucible = (args: string[]) => run(args, { cwd: dir });

const sql = (query: string) => `\`\`\`sql\n${query}\n\`\`\``;

const SCHEMA = 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)';
const SETUP =
  "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400), ('waco', 'texas', 140), ('houston', 'texas', 2300);";
const task = {
  task_id: 'cities/big-texan',
  domain: 'sql',
  schema: SCHEMA,
  setup: SETUP,
  question: 'Which Texan cities have more than 500 people?',
  reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
};
const RIGHT = "SELECT c.name FROM city AS c WHERE c.population > 500 AND c.state = 'texas'";
// Right on the task's database (no city has exactly 500 people), wrong on a database where one has.
const BOUNDARY = "SELECT name FROM city WHERE state = 'texas' AND population >= 500";

const common = (model: ModelFixture) => [
  '--model',
  `${model.server.url}#fake-model`,
  '--budget',
  'calls=6,wall=2min',
  '--seed',
  '3',
  '--db',
  join(dir, 'runs.db'),
  '--cache-dir',
  join(dir, 'cache'),
  '--workers',
  '1',
];

test(
  'solve --strategy repair on an SQL task: the prompt shows the schema and rows; the feedback shows the smallest database on which the query is wrong; the repaired query is verified',
  { timeout: 120_000 },
  async () => {
    const model = await scriptedModel({ programs: [sql(BOUNDARY), `Fixed:\n${sql(`${RIGHT};`)}`] });
    fixtures.push(model);
    const file = join(dir, 'big-texan.json');
    writeFileSync(file, JSON.stringify(task));
    const json = join(dir, 'repair.json');
    const run = await crucible(['solve', '--task', file, '--strategy', 'repair', ...common(model), '--json', json]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^verified: passes all 2 visible checks/m);
    assert.ok(run.stdout.includes(RIGHT), run.stdout);
    assert.match(run.stderr, /checks: .*generated/);

    // Two calls: no request for tests of the model's own (those are calls of a function).
    assert.equal(model.server.requests.length, 2);
    const [prompt, feedback] = model.lastUserMessages();
    assert.ok(prompt!.includes(SCHEMA), prompt);
    assert.match(prompt!, /5 rows of city|rows of city/);
    assert.ok(prompt!.includes("'austin'\t'texas'\t950"), prompt);
    assert.ok(prompt!.includes(task.question), prompt);

    // The counterexample: a small database holding a Texan city of exactly 500 people, whole.
    assert.match(feedback!, /wrong rows on this database \(the smallest we found/);
    assert.match(feedback!, /^city \(name, state, population\):$/m);
    assert.match(feedback!, /\('[^']*', 'texas', 500\)/);
    assert.match(feedback!, /Every other table is empty/);
    const rows = feedback!.split('\n').filter((line) => line.startsWith('  ('));
    assert.ok(rows.length <= 2, `shrunk to at most 2 rows: ${rows.join(' | ')}`);
    assert.match(feedback!, /Expected rows:\n\(no rows\)/);

    const document = JSON.parse(readFileSync(json, 'utf8'));
    assert.equal(document.status, 'verified');
    assert.equal(document.domain, 'sql');
    assert.equal(document.program, RIGHT);
    assert.equal(document.reward, 1);
  },
);

test(
  'solve --strategy best-of-n on DATASET:ID of SQL task lines: a debugging task shows the query to fix; a wrong sample is not the answer',
  { timeout: 120_000 },
  async () => {
    const model = await scriptedModel({ programs: [sql(BOUNDARY), sql(RIGHT), sql(task.reference)] });
    fixtures.push(model);
    const file = join(dir, 'tasks.jsonl');
    writeFileSync(
      file,
      [
        { ...task, task_id: 'other', question: 'How many cities?', reference: 'SELECT count(*) FROM city' },
        { ...task, buggy: "SELECT name FROM city WHERE state = 'texas'" },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    const run = await crucible([
      'solve',
      '--task',
      `${file}:cities/big-texan`,
      '--strategy',
      'best-of-n',
      '--candidates',
      '3',
      ...common(model),
    ]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^verified:/m);
    assert.ok(!run.stdout.includes('>= 500'), run.stdout);
    const [prompt] = model.lastUserMessages();
    assert.match(prompt!, /The query to fix:\n```sql\nSELECT name FROM city WHERE state = 'texas'\n```/);
  },
);

test('solve on an SQL task refuses a strategy that writes functions, and says which to use', async () => {
  const file = join(dir, 'big-texan-dccd.json');
  writeFileSync(file, JSON.stringify(task));
  const run = await crucible(['solve', '--task', file, '--strategy', 'dccd', '--model', 'http://127.0.0.1:9/v1#x']);
  assert.notEqual(run.code, 0);
  assert.match(
    run.stderr,
    /--strategy dccd writes functions; an SQL task is solved with --strategy sample, best-of-n, repair/,
  );
});

test(
  'eval --model on SQL task lines: each task solved with the strategy, each answer scored on the task database and generated ones',
  { timeout: 120_000 },
  async () => {
    // Task 1 gets the boundary query (right on the task's database only), task 2 a right one.
    const model = await scriptedModel({ programs: [sql(BOUNDARY), sql('SELECT COUNT(name) FROM city')] });
    fixtures.push(model);
    const file = join(dir, 'eval-tasks.jsonl');
    writeFileSync(
      file,
      [task, { ...task, task_id: 'cities/count', question: 'How many cities?', reference: 'SELECT count(*) FROM city' }]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );
    const json = join(dir, 'eval-model.json');
    const run = await crucible([
      'eval',
      '--dataset',
      file,
      '--strategy',
      'sample',
      '--candidates',
      '1',
      ...common(model),
      '--json',
      json,
    ]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const document = JSON.parse(readFileSync(json, 'utf8'));
    const byTask = new Map(document.samples.map((s: { task_id: string }) => [s.task_id, s]));
    const boundary = byTask.get('cities/big-texan') as { status: string; suites: Record<string, { status: string }> };
    assert.equal(boundary.suites.base!.status, 'pass');
    assert.equal(boundary.suites.generated!.status, 'fail', 'caught on a generated database');
    const count = byTask.get('cities/count') as { status: string };
    assert.equal(count.status, 'pass');
    assert.equal(document.summary.strategy.unverified, 2, 'without --oracle the solver has nothing to check against');
    assert.match(run.stdout, /^base\s+100\.0%$/m);
    assert.match(run.stdout, /^generated\s+50\.0%$/m);
  },
);

test('eval --model on an SQL dataset refuses a strategy that writes functions', async () => {
  const file = join(dir, 'eval-refuse.jsonl');
  writeFileSync(file, JSON.stringify(task) + '\n');
  const run = await crucible([
    'eval',
    '--dataset',
    file,
    '--strategy',
    'advermcts',
    '--model',
    'http://127.0.0.1:9/v1#x',
  ]);
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /--strategy advermcts writes functions; a sql dataset is solved with/);
});
