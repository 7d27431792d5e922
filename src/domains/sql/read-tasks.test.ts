import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSqlTasks, substituteVariables } from './read-tasks.js';

const GEOQUERY = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  'shared',
  'datasets',
  'text2sql-geoquery-restaurants',
);

test(
  'text2sql-data: a task per sentence, its values substituted as string literals, the other gold queries kept as equivalents',
  { skip: !existsSync(join(GEOQUERY, 'geography.json')) && 'needs ../shared/datasets' },
  () => {
    const tasks = readSqlTasks(join(GEOQUERY, 'geography.json'));
    assert.equal(tasks.length, 877, 'GeoQuery has 877 questions');
    const first = tasks[0]!;
    assert.equal(first.id, 'geography/0/0');
    assert.equal(first.question, 'what is the biggest city in arizona');
    assert.match(first.reference, /STATE_NAME = 'arizona'/);
    assert.doesNotMatch(first.reference, /"/);
    assert.equal(
      first.database.kind === 'file' && first.database.path.endsWith('geography-db.added-in-2020.sqlite'),
      true,
    );
    assert.equal(tasks.filter((t) => t.equivalents.length > 0).length > 0, true, 'some queries have known rewrites');
  },
);

test('substitution escapes quotes and leaves other double-quoted names alone', () => {
  assert.equal(
    substituteVariables('SELECT 1 WHERE name = "name0" AND x = "other"', { name0: "joe's" }),
    `SELECT 1 WHERE name = 'joe''s' AND x = "other"`,
  );
});

test('task lines: a database relative to the file, or inline schema and setup; a bad line says where and what', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-sql-tasks-'));
  writeFileSync(join(dir, 'shop.sqlite'), '');
  const file = join(dir, 'tasks.jsonl');
  writeFileSync(
    file,
    [
      {
        task_id: 'a',
        domain: 'sql',
        database: 'shop.sqlite',
        question: 'how many?',
        reference: 'SELECT count(*) FROM t',
      },
      {
        task_id: 'b',
        domain: 'sql',
        schema: 'CREATE TABLE t(x)',
        setup: 'INSERT INTO t VALUES (1)',
        reference: 'SELECT x FROM t',
        buggy: 'SELEC x FROM t',
        error: 'near "SELEC": syntax error',
      },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n') + '\n',
  );
  const [a, b] = readSqlTasks(file);
  assert.deepEqual(a!.database, { kind: 'file', path: join(dir, 'shop.sqlite') });
  assert.deepEqual(b!.database, { kind: 'inline', schema: 'CREATE TABLE t(x)', setup: 'INSERT INTO t VALUES (1)' });
  assert.equal(b!.buggy, 'SELEC x FROM t');
  writeFileSync(
    file,
    JSON.stringify({ task_id: 'c', domain: 'sql', database: 'missing.sqlite', reference: 'SELECT 1' }) + '\n',
  );
  assert.throws(
    () => readSqlTasks(file),
    /tasks\.jsonl:1: the database is "missing\.sqlite", which does not exist \(looked at .*missing\.sqlite\)/,
  );
  writeFileSync(file, JSON.stringify({ task_id: 'd', domain: 'sql', reference: 'SELECT 1' }) + '\n');
  assert.throws(() => readSqlTasks(file), /tasks\.jsonl:1: give either "database"/);
});
