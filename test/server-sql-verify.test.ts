/** /v1/verify with "domain": "sql": candidate queries judged on the task's database and generated ones, over HTTP. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from './server-support.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ workers: 2 });
});
after(() => server.close());

const task = {
  task_id: 'cities/big-texan',
  schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
  setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
  question: 'Which Texan cities have more than 500 people?',
  reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
};

test('right, boundary-wrong, broken and runaway queries: statuses, gated rewards and the smallest distinguishing database', async () => {
  const r = await server.post('/v1/verify', {
    domain: 'sql',
    task,
    augment: { databases: 8, seed: 1 },
    candidates: [
      "SELECT c.name FROM city c WHERE c.population > 500 AND c.state = 'texas'",
      { id: 'boundary', code: "SELECT name FROM city WHERE state = 'texas' AND population >= 500" },
      { id: 'syntax', code: 'SELEC name FROM city' },
      { id: 'runaway', code: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' },
      { id: 'write', code: 'DELETE FROM city' },
    ],
  });
  assert.equal(r.status, 200, r.text);
  const [right, boundary, syntax, runaway, write] = r.json.results;
  assert.equal(right.status, 'pass');
  assert.equal(right.reward, 1);
  assert.equal(boundary.status, 'fail');
  assert.equal(boundary.first_failed_level, 'hidden');
  assert.ok(boundary.reward > 0 && boundary.reward < 1);
  const rows = Object.values(boundary.minimal_failure.database as Record<string, unknown[]>).flat() as {
    population: number;
  }[];
  assert.ok(
    rows.some((row) => row.population === 500),
    JSON.stringify(boundary.minimal_failure),
  );
  assert.equal(syntax.reward, 0);
  assert.equal(syntax.first_failed_level, 'parses');
  assert.equal(runaway.status, 'timeout');
  assert.equal(write.status, 'error', 'a statement that writes is refused');
  assert.equal(r.json.summary.task.generated_databases, 8);
  // The database was not changed by the DELETE: the next request's right query still passes.
  const again = await server.post('/v1/verify', {
    domain: 'sql',
    task,
    candidates: ["SELECT name FROM city WHERE state = 'texas' AND population > 500"],
  });
  assert.equal(again.json.results[0].status, 'pass');
});

test('a request that cannot be judged is a 400 that says what to fix', async () => {
  const empty = await server.post('/v1/verify', { domain: 'sql', task, candidates: [] });
  assert.equal(empty.status, 400);
  assert.match(empty.text, /candidates is empty/);
  const broken = await server.post('/v1/verify', {
    domain: 'sql',
    task: { ...task, reference: 'SELECT nope FROM city' },
    candidates: ['SELECT 1'],
  });
  assert.equal(broken.status, 400);
  assert.match(broken.text, /reference does not run/);
  const postgres = await server.post('/v1/verify', {
    domain: 'sql',
    task: { ...task, dialect: 'postgres' },
    candidates: ['SELECT 1'],
  });
  assert.equal(postgres.status, 400, "a request's setup SQL never runs as PostgreSQL's superuser");
  assert.match(postgres.text, /only sqlite over HTTP/);
});
