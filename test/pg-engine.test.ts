/**
 * The Postgres engine (runtimes/sql-pool.ts, runtimes/sql/pg-worker.mjs, PGlite): ordinary
 * queries on inline schema + setup, then every limit with hostile queries, each followed by an
 * ordinary query whose exact result is checked, on the same one-worker runner. Through
 * `SqlRunner`, as the SQL pack calls it; the pattern of test/sql-engine.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REPLY_GRACE_MS, SqlRunner, type SqlResult } from '../src/runtimes/sql-pool.js';
import { engineChecks, show, workerLifecycle, type EngineFixture } from './sql-engine-support.js';

/** The tests' own database: cities, written here (nothing from a dataset). */
const SCHEMA = [
  'CREATE TABLE city (id integer PRIMARY KEY, name text NOT NULL, state text, population integer, area real)',
  'CREATE TABLE note (id serial PRIMARY KEY, body text)',
].join(';\n');
const SETUP = [
  "INSERT INTO city VALUES (1, 'Springfield', 'IL', 114000, 61.5), (2, 'Portland', 'OR', 650000, 145.1), (3, 'Portland', 'ME', 68000, 69.4), (4, 'Austin', 'TX', 960000, 271.8), (5, 'Nowhere', NULL, NULL, NULL)",
  // 2,000 numbers, for joins that never end.
  'CREATE TABLE n (x integer)',
  'INSERT INTO n SELECT generate_series(1, 2000)',
  "INSERT INTO note (body) VALUES ('first')",
].join(';\n');

const INLINE = { kind: 'inline', dialect: 'postgres', schema: SCHEMA, setup: SETUP } as const;

const NORMAL = 'SELECT name, population FROM city WHERE population > 100000 ORDER BY population DESC';
const NORMAL_ROWS = [
  ['Austin', 960000],
  ['Portland', 650000],
  ['Springfield', 114000],
];

let runner: SqlRunner;

before(() => {
  runner = new SqlRunner({ workers: 1, memoryBytes: 128 * 2 ** 20 });
});
after(() => runner.close());

const engine: EngineFixture = {
  runner: () => runner,
  databases: () => [INLINE],
  normal: NORMAL,
  normalRows: NORMAL_ROWS,
  // Generous: a request that starts a worker builds the database within its limit, on a loaded machine.
  wallSeconds: 20,
  slowCount: 'SELECT count(*) FROM n a, n b, (SELECT x FROM n LIMIT 10) c WHERE a.x < b.x',
  endless: 'SELECT count(*) FROM n a, n b, n c',
};
const { run, nextIsRight, expectStatus, refused } = engineChecks(engine);

describe('ordinary queries', () => {
  it('starts no SQLite worker, and one Postgres worker', async () => {
    await nextIsRight();
    assert.equal(runner.pids.length, 1);
  });

  it('every type as JSON', async () => {
    const r = await run({
      sql: `SELECT 1::int2, 2, 3::int8, 9223372036854775807, -9007199254740993::int8, 9007199254740991::int8,
        2.5::float4, 0.1::float8, 1.25::numeric, 'text', NULL, true, false, '\\x00ff10'::bytea,
        'Infinity'::float8, '-Infinity'::float8, 'NaN'::float8, 'Infinity'::numeric,
        DATE '2024-02-29', TIMESTAMP '2020-01-01 10:00', INTERVAL '1 day 2 hours', TIME '12:30',
        '{"a": 1}'::jsonb, ARRAY[1, 2], 'x'::char(3), (SELECT count(*) FROM city)`,
    });
    assert.equal(r.status, 'ok', show(r));
    assert.deepEqual(r.rows, [
      [
        1,
        2,
        3,
        { $int: '9223372036854775807' },
        { $int: '-9007199254740993' },
        9007199254740991,
        2.5,
        0.1,
        1.25,
        'text',
        null,
        1,
        0,
        { $blob: 'AP8Q' },
        { $real: 'Infinity' },
        { $real: '-Infinity' },
        null,
        { $real: 'Infinity' },
        '2024-02-29',
        '2020-01-01 10:00:00',
        '1 day 02:00:00',
        '12:30:00',
        '{"a": 1}',
        '{1,2}',
        'x  ',
        5,
      ],
    ]);
    assert.deepEqual(r.columns.slice(0, 4), ['int2', '?column?', 'int8', '?column?']);
  });

  it('VALUES, WITH … SELECT and a parenthesized query are queries; a trailing semicolon and comments are fine', async () => {
    assert.deepEqual((await run({ sql: 'VALUES (1, 2), (3, 4)' })).rows, [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(
      (await run({ sql: 'WITH big AS (SELECT name FROM city WHERE population > 900000) SELECT * FROM big;' })).rows,
      [['Austin']],
    );
    assert.deepEqual((await run({ sql: '(SELECT 1) UNION ALL (SELECT 2)' })).rows, [[1], [2]]);
    assert.deepEqual(
      (await run({ sql: '-- the biggest\n/* a /* nested */ comment */ SELECT max(population) FROM city; -- done' }))
        .rows,
      [[960000]],
    );
  });

  it("the engine's own messages and SQLSTATE: a syntax error, a missing column, a run-time error", async () => {
    await expectStatus({ sql: 'SELEC name FROM city' }, 'error', (r) => {
      assert.equal(r.phase, 'prepare');
      assert.equal(r.message, 'syntax error at or near "SELEC"');
      assert.equal(r.code, '42601');
      assert.equal(r.refused, undefined);
    });
    await expectStatus({ sql: 'SELECT nope FROM city' }, 'error', (r) => {
      assert.equal(r.message, 'column "nope" does not exist');
      assert.equal(r.code, '42703');
    });
    await expectStatus({ sql: 'SELECT population / (id - id) FROM city' }, 'error', (r) => {
      assert.equal(r.phase, 'run');
      assert.equal(r.message, 'division by zero');
      assert.equal(r.code, '22012');
    });
    await expectStatus({ sql: 'SELECT CAST(name AS integer) FROM city' }, 'error', (r) =>
      assert.equal(r.message, 'invalid input syntax for type integer: "Springfield"'),
    );
    await expectStatus({ sql: '' }, 'error', (r) => assert.equal(r.phase, 'prepare'));
  });

  it('more inline databases than a worker keeps: each answers right, the first built again', async () => {
    const db = (i: number) =>
      ({
        kind: 'inline',
        dialect: 'postgres',
        schema: 'CREATE TABLE t (a int)',
        setup: `INSERT INTO t VALUES (${i})`,
      }) as const;
    for (let i = 0; i < 20; i++) assert.deepEqual((await run({ database: db(i), sql: 'SELECT a FROM t' })).rows, [[i]]);
    assert.deepEqual((await run({ database: db(0), sql: 'SELECT a FROM t' })).rows, [[0]]);
    await nextIsRight();
  });

  it('a database that cannot be built answers in phase database, with Postgres’s message', async () => {
    await expectStatus(
      { database: { kind: 'inline', dialect: 'postgres', schema: 'CREATE TABLE broken (' }, sql: 'SELECT 1' },
      'no-verdict',
      (r) => {
        assert.equal(r.phase, 'database');
        assert.match(r.message ?? '', /syntax error at end of input/);
        assert.equal(r.code, '42601');
      },
    );
    await expectStatus(
      {
        database: {
          kind: 'inline',
          dialect: 'postgres',
          schema: 'CREATE TABLE t (a int)',
          setup: "INSERT INTO t VALUES ('x')",
        },
        sql: 'SELECT 1',
      },
      'no-verdict',
      (r) => assert.match(r.message ?? '', /invalid input syntax for type integer: "x"/),
    );
    // Each database is a schema of its own: tables put elsewhere would be seen by every other.
    await expectStatus(
      { database: { kind: 'inline', dialect: 'postgres', schema: 'CREATE TABLE public.t (a int)' }, sql: 'SELECT 1' },
      'no-verdict',
      (r) => assert.match(r.message ?? '', /created public\.t outside its own schema/),
    );
    // Rolled back: the same database, fixed, builds.
    const fixed = { kind: 'inline', dialect: 'postgres', schema: 'CREATE TABLE t (a int)' } as const;
    assert.equal((await run({ database: fixed, sql: 'SELECT count(*) FROM t' })).rows[0]?.[0], 0);
  });
});

describe('time', () => {
  const fast = { wallSeconds: 1 };
  /** Stopped: the limit, the grace, and a margin for a loaded machine (not a timing test). */
  const stopped = (r: SqlResult) => assert.ok(r.wallSeconds < fast.wallSeconds + REPLY_GRACE_MS / 1000 + 15, show(r));
  it('a count over ten billion rows is stopped, its worker killed and replaced', async () => {
    const before = runner.pids;
    await expectStatus(
      { limits: fast, sql: 'SELECT count(*) FROM (SELECT generate_series(1, 10000000000)) s' },
      'timeout',
      stopped,
    );
    assert.notDeepEqual(runner.pids, before, 'a new worker answered the next query');
  });
  it('pg_sleep (statement_timeout cannot fire inside PGlite)', () =>
    expectStatus({ limits: fast, sql: 'SELECT pg_sleep(30)' }, 'timeout', stopped));
  // Postgres stores a function's rows in FROM, and a CTE's, as it reads them: in temporary files,
  // here in memory, so an endless one ends at the time limit or at temp_file_limit, whichever
  // comes first (at 1 s, the time limit, unless the machine is several times faster than ours).
  for (const sql of [
    'SELECT count(*) FROM generate_series(1, 10000000000)',
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
  ]) {
    it(`a count over endless stored rows: ${sql}`, async () => {
      const r = await run({ limits: fast, sql });
      assert.ok(r.status === 'timeout' || (r.status === 'memory' && r.code === '53400'), show(r));
      stopped(r);
      await nextIsRight();
    });
  }
  it('a huge cross join', () =>
    expectStatus({ limits: fast, sql: 'SELECT count(*) FROM n a, n b, n c, n d' }, 'timeout', stopped));
  it('rows that come too slowly are stopped by the worker between batches (the worker stays)', async () => {
    await nextIsRight();
    const before = runner.pids;
    await expectStatus({ limits: fast, sql: 'SELECT pg_sleep(0.02), x FROM n' }, 'timeout', stopped);
    assert.deepEqual(runner.pids, before);
  });
});

describe('rows and bytes', () => {
  it('endless rows stop at the row limit: output-limit, with the rows kept', async () => {
    await expectStatus(
      { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c', limits: { rows: 100 } },
      'output-limit',
      (r) => {
        assert.equal(r.rows.length, 100);
        assert.deepEqual(r.rows.at(-1), [100]);
      },
    );
    // A set-returning function in the select list streams (in FROM, Postgres stores its rows first).
    await expectStatus({ sql: 'SELECT generate_series(1, 1000000000)', limits: { rows: 100 } }, 'output-limit');
  });
  it('exactly the row limit is fine; one more is not', async () => {
    assert.equal((await run({ sql: 'SELECT x FROM n WHERE x <= 5', limits: { rows: 5 } })).status, 'ok');
    await expectStatus({ sql: 'SELECT x FROM n WHERE x <= 6', limits: { rows: 5 } }, 'output-limit');
  });
  it('many wide rows stop at the byte limit', async () => {
    await expectStatus({ sql: "SELECT repeat('x', 1000) FROM n", limits: { bytes: 64 << 10 } }, 'output-limit', (r) => {
      assert.ok(JSON.stringify(r.rows).length <= 64 << 10);
      assert.ok(r.rows.length > 10);
    });
  });
  it('one huge text, one huge bytea, many escaped characters', async () => {
    await expectStatus({ sql: "SELECT repeat('x', 5000000)", limits: { bytes: 64 << 10 } }, 'output-limit', (r) =>
      assert.equal(r.rows.length, 0),
    );
    await expectStatus(
      { sql: "SELECT decode(repeat('00', 2000000), 'hex')", limits: { bytes: 64 << 10 } },
      'output-limit',
    );
    // Each control character is six bytes of JSON: the limit counts the JSON, not the characters.
    await expectStatus(
      { sql: 'SELECT repeat(chr(1), 20000) FROM n', limits: { bytes: 64 << 10 } },
      'output-limit',
      (r) => assert.ok(r.rows.length < 1),
    );
  });
  it('a writable statement returning endless rows stops at the row limit', async () => {
    await expectStatus(
      { sql: 'INSERT INTO n SELECT generate_series(1, 100000) RETURNING x', writable: true, limits: { rows: 100 } },
      'output-limit',
      (r) => assert.equal(r.rows.length, 100),
    );
    assert.deepEqual((await run({ sql: 'SELECT count(*) FROM n' })).rows, [[2000]]);
  });
});

describe('memory', () => {
  const slow = { wallSeconds: 30 };
  const outOfMemory = (r: SqlResult) => assert.match(r.message ?? '', /out of memory|memory limit/, show(r));
  it('one huge allocation inside the engine', () =>
    expectStatus({ sql: "SELECT length(repeat('x', 500000000))", limits: slow }, 'memory', (r) => {
      assert.equal(r.code, '53200');
      outOfMemory(r);
    }));
  it('a string grown row by row (string_agg)', () =>
    expectStatus(
      { sql: "SELECT length(string_agg(repeat('x', 1000000), '')) FROM generate_series(1, 2000)", limits: slow },
      'memory',
      outOfMemory,
    ));
  it('a value past Postgres’s length limit', () =>
    expectStatus({ sql: "SELECT length(repeat('x', 2000000000))", limits: slow }, 'memory', (r) =>
      assert.equal(r.code, '54000'),
    ));
  // A sort that spills writes temporary files, in PGlite's memory: temp_file_limit bounds them.
  it('a sort of big rows spilled to temporary files', () =>
    expectStatus({ sql: 'SELECT a.x, repeat(b.x::text, 5000) FROM n a, n b ORDER BY 2', limits: slow }, 'memory', (r) =>
      assert.equal(r.code, '53400'),
    ));
  it('JSON nested past the stack: the worker is replaced', () =>
    expectStatus({ sql: "SELECT (repeat('[', 100000) || repeat(']', 100000))::jsonb", limits: slow }, 'memory'));
  it('a database too big to build in the worker is no verdict', () =>
    expectStatus(
      {
        database: {
          kind: 'inline',
          dialect: 'postgres',
          // Stored as it is: compressed, a repeated text would take nothing.
          schema: 'CREATE TABLE big (x text); ALTER TABLE big ALTER COLUMN x SET STORAGE EXTERNAL',
          setup: "INSERT INTO big SELECT repeat('x', 1000000) || g FROM generate_series(1, 2000) g",
        },
        sql: 'SELECT count(*) FROM big',
        limits: slow,
      },
      'no-verdict',
      (r) => assert.match(r.message ?? '', /could not be opened or built: .*out of memory/i),
    ));
});

describe('session state', () => {
  it('set_config cannot be called (it could set the role back), and SET is refused', async () => {
    await expectStatus({ sql: "SELECT set_config('search_path', 'pg_catalog', false)" }, 'error', (r) =>
      assert.equal(r.message, 'permission denied for function set_config'),
    );
    await expectStatus({ sql: "SELECT set_config('statement_timeout', '1', false)" }, 'error');
    await refused('SET statement_timeout = 1');
    await refused('SET search_path = pg_catalog');
    assert.match(
      String((await run({ sql: "SELECT current_setting('search_path')" })).rows[0]?.[0]),
      /^d_[0-9a-f]{32}$/,
    );
    assert.deepEqual((await run({ sql: "SELECT current_setting('statement_timeout')" })).rows, [['0']]);
  });

  it('an advisory lock does not outlive its query', async () => {
    await expectStatus({ sql: 'SELECT pg_advisory_lock(1)::text' }, 'ok');
    assert.deepEqual((await run({ sql: "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'" })).rows, [[0]]);
    assert.deepEqual((await run({ sql: 'SELECT pg_try_advisory_lock(1)' })).rows, [[1]]);
  });

  it('a query runs as a role that is not a superuser', async () => {
    assert.deepEqual(
      (await run({ sql: 'SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user' })).rows,
      [['crucible_query', 0]],
    );
  });
});

describe('read-only', () => {
  const unchanged = async () =>
    assert.deepEqual((await run({ sql: 'SELECT count(*), sum(population) FROM city' })).rows, [[5, 1792000]]);
  for (const sql of [
    "INSERT INTO city VALUES (9, 'X', 'Y', 1, 1)",
    'UPDATE city SET population = 0',
    'DELETE FROM city',
    'DELETE FROM city RETURNING *',
    'MERGE INTO city USING (SELECT 1 AS id) s ON city.id = s.id WHEN MATCHED THEN DELETE',
    'WITH gone AS (SELECT 1) DELETE FROM city',
    'WITH gone AS (DELETE FROM city RETURNING *) SELECT count(*) FROM gone',
    "WITH v(a) AS (VALUES (9)) INSERT INTO city (id, name) SELECT a, 'x' FROM v RETURNING id",
    'SELECT * INTO copy FROM city',
    'SELECT * FROM city FOR UPDATE',
    "SELECT nextval('note_id_seq')",
    'CREATE TABLE t (a int)',
    'CREATE TEMP TABLE t (a int)',
    'CREATE INDEX i ON city (name)',
    'CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$',
    'DROP TABLE city',
    'ALTER TABLE city ADD COLUMN z int',
    'TRUNCATE city',
    'BEGIN',
    'COMMIT',
    'SAVEPOINT s',
    'PREPARE p AS SELECT 1',
    'DECLARE c CURSOR FOR SELECT 1',
    'LOCK TABLE city',
    'LISTEN x',
    "NOTIFY x, 'y'",
    'VACUUM',
    'ANALYZE',
    'EXPLAIN SELECT 1',
    'TABLE city',
    'DO $$ BEGIN PERFORM 1; END $$',
    'RESET ALL',
    'SET ROLE postgres',
    'DISCARD ALL',
  ]) {
    it(`refused: ${sql}`, async () => {
      await refused(sql);
      await unchanged();
    });
  }

  it('writable: DML in a transaction that is rolled back, seen by `after`, never by the next query', async () => {
    const r = await run({
      sql: 'DELETE FROM city WHERE population < 100000 OR population IS NULL',
      writable: true,
      after: 'SELECT name FROM city ORDER BY id',
    });
    assert.equal(r.status, 'ok', show(r));
    assert.equal(r.changes, 2);
    assert.deepEqual(r.after?.rows, [['Springfield'], ['Portland'], ['Austin']]);
    const returning = await run({
      sql: "UPDATE city SET population = population + 1 WHERE name = 'Austin' RETURNING population",
      writable: true,
    });
    assert.deepEqual(returning.rows, [[960001]]);
    assert.equal(returning.changes, 1);
    const moved = await run({
      sql: 'WITH gone AS (DELETE FROM city WHERE id > 3 RETURNING id) SELECT count(*) FROM gone',
      writable: true,
      after: 'SELECT count(*) FROM city',
    });
    assert.deepEqual([moved.status, moved.rows, moved.after?.rows], ['ok', [[2]], [[3]]], show(moved));
    const merged = await run({
      sql: 'MERGE INTO city USING (VALUES (1), (9)) s(id) ON city.id = s.id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, name) VALUES (s.id, $$new$$)',
      writable: true,
      after: 'SELECT id FROM city ORDER BY id',
    });
    assert.deepEqual(
      [merged.status, merged.changes, merged.after?.rows],
      ['ok', 2, [[2], [3], [4], [5], [9]]],
      show(merged),
    );
    await unchanged();
    await nextIsRight();
  });

  it('writable: a serial column counts from the same place every time (sequences are set back)', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run({ sql: "INSERT INTO note (body) VALUES ('x') RETURNING id", writable: true });
      assert.deepEqual(r.rows, [[2]], show(r));
    }
    assert.deepEqual((await run({ sql: "SELECT nextval('note_id_seq')", writable: true })).rows, [[2]]);
    const lastval = await run({ sql: 'SELECT lastval()' });
    assert.equal(lastval.status, 'error', 'no lastval() survives a request');
  });

  it('writable: many rows written and rolled back leave the next query right', async () => {
    await expectStatus({ sql: 'INSERT INTO n SELECT generate_series(1, 200000)', writable: true }, 'ok', (r) =>
      assert.equal(r.changes, 200000),
    );
    assert.deepEqual((await run({ sql: 'SELECT count(*) FROM n' })).rows, [[2000]]);
  });

  it('writable still refuses DDL, COPY, SET, transaction control and a second statement', async () => {
    for (const sql of [
      'DROP TABLE city',
      'CREATE TABLE t (a int)',
      'TRUNCATE city',
      'SELECT * INTO copy FROM city',
      'COPY city TO STDOUT',
      'SET search_path = public',
      'COMMIT',
      'ROLLBACK',
    ])
      await refused(sql, { writable: true });
    // After WITH, SELECT … INTO looks like a change until it runs: the role may create no table.
    await expectStatus(
      { sql: 'WITH c AS (SELECT * FROM city) SELECT * INTO copy FROM c', writable: true },
      'error',
      (r) => assert.match(r.message ?? '', /permission denied|creates a table/),
    );
    await expectStatus({ sql: 'DELETE FROM city; DROP TABLE city', writable: true }, 'error', (r) => {
      assert.equal(r.phase, 'prepare');
      assert.equal(r.refused, true);
    });
    const check = await run({ sql: 'DELETE FROM city', writable: true, after: 'DROP TABLE city' });
    assert.equal(check.status, 'error');
    assert.equal(check.phase, 'after');
    const sneaky = await run({ sql: 'DELETE FROM city', writable: true, after: 'DELETE FROM city WHERE id = 1' });
    assert.equal(sneaky.phase, 'after');
    await unchanged();
  });
});

describe('nothing past the engine', () => {
  for (const sql of [
    "COPY city FROM PROGRAM 'cat /etc/passwd'",
    "COPY city FROM '/etc/passwd'",
    "COPY city TO '/tmp/x'",
    'CREATE EXTENSION dblink',
    "ALTER SYSTEM SET work_mem = '1GB'",
    "LOAD 'dblink'",
    'CHECKPOINT',
  ]) {
    it(`refused: ${sql}`, () => refused(sql));
  }

  it('no function reads or writes files, signals the backend or runs SQL of its own', async () => {
    for (const sql of [
      "SELECT pg_read_file('/etc/passwd')",
      "SELECT pg_read_binary_file('/etc/passwd')",
      "SELECT pg_ls_dir('/')",
      "SELECT pg_stat_file('/')",
      "SELECT lo_import('/etc/passwd')",
      'SELECT pg_terminate_backend(pg_backend_pid())',
      'SELECT pg_reload_conf()',
    ]) {
      await expectStatus({ sql }, 'error', (r) => assert.match(r.message ?? '', /permission denied/, show(r)));
    }
    await expectStatus({ sql: "SELECT lo_export(lo_from_bytea(0, 'x'), '/tmp/x')", writable: true }, 'error', (r) =>
      assert.match(r.message ?? '', /permission denied for function lo_export/),
    );
    await expectStatus({ sql: "SELECT * FROM dblink('', 'SELECT 1') AS t(a int)" }, 'error', (r) =>
      assert.equal(r.code, '42883'),
    );
    await expectStatus({ sql: "SELECT query_to_xml('SET ROLE postgres', true, false, '')" }, 'error');
    await expectStatus(
      { sql: "UPDATE pg_settings SET setting = 'postgres' WHERE name = 'role'", writable: true },
      'error',
      (r) => assert.match(r.message ?? '', /permission denied/),
    );
  });

  it('two statements in one text run nothing', async () => {
    for (const sql of [
      'SELECT 1; DROP TABLE city',
      'SELECT 1; SELECT 2',
      'SELECT 1;; DELETE FROM city',
      'SELECT 1 /* ; */; CREATE TABLE x (a int)',
    ]) {
      await expectStatus({ sql }, 'error', (r) => {
        assert.equal(r.phase, 'prepare');
        assert.equal(r.refused, true);
        assert.equal(r.message, 'cannot insert multiple commands into a prepared statement');
      });
    }
    await refused('; DROP TABLE city');
    await refused('SELECT 1\u0000; DROP TABLE city');
    assert.deepEqual((await run({ sql: 'SELECT count(*) FROM city' })).rows, [[5]]);
  });
});

workerLifecycle(engine, () => {
  it('SQLite and Postgres in one runner: each request goes to its own engine', async () => {
    const sqlite = await run({
      database: { kind: 'inline', schema: 'CREATE TABLE t (a)', setup: 'INSERT INTO t VALUES (1)' },
      sql: "SELECT sqlite_version() > '3'",
    });
    assert.deepEqual(sqlite.rows, [[1]], show(sqlite));
    assert.equal(runner.pids.length, 2);
    assert.match(String((await run({ sql: 'SELECT version()' })).rows[0]?.[0]), /^PostgreSQL 18/);
  });
});
