/** `crucible eval` on SQL tasks, as a user runs it: a task file, samples, --augment, --json. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crucible, writeJsonl } from './cli-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-sql-eval-'));
const tasks = join(dir, 'cities.jsonl');
writeJsonl(tasks, [
  {
    task_id: 'cities/big-texan',
    domain: 'sql',
    schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
    setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
    question: 'Which Texan cities have more than 500 people?',
    reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
  },
]);
const samples = join(dir, 'samples.jsonl');
writeJsonl(samples, [
  { task_id: 'cities/big-texan', solution: "SELECT c.name FROM city c WHERE c.population > 500 AND c.state = 'texas'" },
  { task_id: 'cities/big-texan', solution: "SELECT name FROM city WHERE state = 'texas' AND population >= 500" },
  { task_id: 'cities/big-texan', solution: 'SELEC name FROM city' },
]);

test('eval judges SQL samples on the task database and generated ones, and reports the smallest distinguishing database', async () => {
  const out = join(dir, 'out.json');
  const r = await crucible([
    'eval',
    '--dataset',
    tasks,
    '--samples',
    samples,
    '--augment',
    '--seed',
    '1',
    '--json',
    out,
    '--no-record',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /cities\/big-texan #1\s+fail/);
  assert.match(r.stdout, /smallest distinguishing database/);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  const [right, boundary, broken] = doc.samples;
  assert.equal(right.status, 'pass');
  assert.equal(right.reward, 1);
  assert.equal(boundary.status, 'fail');
  assert.equal(boundary.suites.base.status, 'pass', 'no city has exactly 500 people on the task database');
  assert.equal(boundary.suites.generated.status, 'fail');
  const { database, expected, actual } = boundary.counterexample;
  const rows = Object.values(database as Record<string, unknown[]>).flat() as { population: number; state: string }[];
  assert.ok(
    rows.some((row) => row.population === 500 && row.state === 'texas'),
    JSON.stringify(database),
  );
  assert.notEqual(expected, actual);
  assert.ok(boundary.reward > 0 && boundary.reward < 1);
  assert.equal(broken.status, 'error');
  assert.equal(broken.reward, 0);
  assert.ok(Math.abs(doc.summary.pass_at_k.base['1'] - 2 / 3) < 1e-9);
  assert.ok(Math.abs(doc.summary.pass_at_k.generated['1'] - 1 / 3) < 1e-9);
});

test('a bad sample line says where and what', async () => {
  const bad = join(dir, 'bad.jsonl');
  writeJsonl(bad, [{ task_id: 'nope', solution: 'SELECT 1' }]);
  const r = await crucible(['eval', '--dataset', tasks, '--samples', bad, '--no-record']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /bad\.jsonl:1: no task nope in the dataset/);
});

test('sql bugs writes debugging tasks that eval reads back: every buggy query fails, every reference passes', async () => {
  const bugs = join(dir, 'bugs.jsonl');
  const r = await crucible(['sql', 'bugs', '--dataset', tasks, '--out', bugs, '--seed', '1', '--databases', '8']);
  assert.equal(r.code, 0, r.stderr);
  const lines = readFileSync(bugs, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const semantic = lines.filter((l) => l.bug.kind === 'semantic');
  const syntax = lines.filter((l) => l.bug.kind === 'syntax');
  assert.ok(
    semantic.some((l) => l.bug.caught_by === 'generated' && /population >= 500/.test(l.buggy)),
    'the boundary bug, told apart only on a generated database',
  );
  assert.ok(
    syntax.length > 0 && syntax.every((l) => /error|incomplete|unrecognized/.test(l.error)),
    JSON.stringify(syntax),
  );
  assert.match(r.stdout, new RegExp(`${lines.length} debugging tasks from 1 queries`));
  const samples = join(dir, 'buggy-samples.jsonl');
  writeJsonl(
    samples,
    lines.map((l) => ({ task_id: l.task_id, solution: l.buggy })),
  );
  const out = join(dir, 'bugs-eval.json');
  const judged = await crucible([
    'eval',
    '--dataset',
    bugs,
    '--samples',
    samples,
    '--augment',
    '--seed',
    '1',
    '--augment-inputs',
    '8',
    '--json',
    out,
    '--no-record',
  ]);
  assert.equal(judged.code, 0, judged.stderr);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(doc.samples.length, lines.length);
  assert.ok(
    doc.samples.every((s: { status: string }) => s.status !== 'pass'),
    'no buggy query passes',
  );
  const references = await crucible(['eval', '--dataset', bugs, '--no-record']);
  assert.equal(references.code, 0, references.stderr);
  assert.match(references.stdout, new RegExp(`status: pass ${lines.length}\\b`));
});

test('--judge static scores without running: the rewrite is equivalent, the boundary bug different, the rest unknown', async () => {
  const out = join(dir, 'static.json');
  const r = await crucible([
    'eval',
    '--dataset',
    tasks,
    '--samples',
    samples,
    '--judge',
    'static',
    '--json',
    out,
    '--no-record',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const statuses = JSON.parse(readFileSync(out, 'utf8')).samples.map((s: { status: string }) => s.status);
  assert.deepEqual(statuses, ['pass', 'fail', 'no-verdict']);
});

test('audit on SQL tasks: references pass their own checks, and injected bugs are counted by what told them apart', async () => {
  const out = join(dir, 'audit.json');
  const r = await crucible(['audit', '--dataset', tasks, '--mutants', '--json', out, '--no-record']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /1 distinct queries, 1 references pass their own checks/);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(doc.references.failing.length, 0);
  assert.ok(doc.bugs.injected > 0 && doc.bugs.caughtByBase < doc.bugs.injected, JSON.stringify(doc.bugs));
  assert.ok(doc.bugs.syntax > 0);
});

test('select on SQL tasks picks the query most samples agree with on the generated databases', async () => {
  const many = join(dir, 'many.jsonl');
  const right = [
    "SELECT name FROM city WHERE population > 500 AND state = 'texas'",
    "SELECT c.name FROM city c WHERE c.state = 'texas' AND c.population > 500",
    "SELECT name FROM city WHERE state = 'texas' AND NOT population <= 500",
  ];
  writeJsonl(many, [
    { task_id: 'cities/big-texan', solution: "SELECT name FROM city WHERE state = 'texas' AND population >= 500" },
    ...right.map((solution) => ({ task_id: 'cities/big-texan', solution })),
    { task_id: 'cities/big-texan', solution: "SELECT name FROM city WHERE state = 'texas'" },
  ]);
  const out = join(dir, 'select.json');
  const r = await crucible([
    'select',
    '--dataset',
    tasks,
    '--samples',
    many,
    '--seed',
    '1',
    '--json',
    out,
    '--no-record',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [decision] = JSON.parse(readFileSync(out, 'utf8')).tasks;
  assert.ok([1, 2, 3].includes(decision.selected_index), JSON.stringify(decision));
  assert.deepEqual(decision.clusters[0], [1, 2, 3]);
});

test('eval on PostgreSQL tasks runs them on PostgreSQL and says so in the document', async () => {
  const pgTasks = join(dir, 'cities-pg.jsonl');
  writeJsonl(pgTasks, [
    {
      task_id: 'cities/pg-big-texan',
      domain: 'sql',
      dialect: 'postgres',
      schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
      setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
      question: 'Which Texan cities have more than 500 people?',
      reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
    },
  ]);
  const pgSamples = join(dir, 'samples-pg.jsonl');
  // ILIKE is PostgreSQL's own: SQLite would fail this right query.
  writeJsonl(pgSamples, [
    {
      task_id: 'cities/pg-big-texan',
      solution: "SELECT name FROM city WHERE state ILIKE 'TEXAS' AND population > 500",
    },
    { task_id: 'cities/pg-big-texan', solution: 'SELECT name FROM city WHERE population > 300' },
  ]);
  const out = join(dir, 'out-pg.json');
  const r = await crucible(['eval', '--dataset', pgTasks, '--samples', pgSamples, '--json', out, '--no-record']);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(doc.settings.engine, 'postgres');
  assert.deepEqual(
    doc.samples.map((s: { status: string }) => s.status),
    ['pass', 'fail'],
  );
});
