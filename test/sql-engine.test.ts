/**
 * The SQL engine (runtimes/sql-pool.ts, runtimes/sql/sql-worker.cjs): ordinary queries on a
 * real database and on inline schema + setup, then every limit with hostile queries, each
 * followed by an ordinary query whose exact result is checked, on the same one-worker runner.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { realFile } from '../src/datasets/testing.js';
import type { SqlTask } from '../src/domains/sql/task.js';
import { SqlRunner, type SqlDatabase } from '../src/runtimes/sql-pool.js';
import { engineChecks, show, workerLifecycle, type EngineFixture } from './sql-engine-support.js';

const GEOGRAPHY = realFile('text2sql-geoquery-restaurants/geography-db.added-in-2020.sqlite');

/** The tests' own database: cities, written here (nothing from a dataset). */
const SCHEMA =
  'CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT NOT NULL, state TEXT, population INTEGER, area REAL)';
const SETUP = [
  "INSERT INTO city VALUES (1, 'Springfield', 'IL', 114000, 61.5), (2, 'Portland', 'OR', 650000, 145.1), (3, 'Portland', 'ME', 68000, 69.4), (4, 'Austin', 'TX', 960000, 271.8), (5, 'Nowhere', NULL, NULL, NULL)",
  // 2,000 numbers, for joins that never end.
  'CREATE TABLE n (x INTEGER)',
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000) INSERT INTO n SELECT x FROM c',
].join(';\n');
/** A task's database goes to the runner as it is (checked by the compiler). */
void ((task: SqlTask): SqlDatabase => task.database);

const INLINE = { kind: 'inline', schema: SCHEMA, setup: SETUP } as const;

const NORMAL = 'SELECT name, population FROM city WHERE population > 100000 ORDER BY population DESC';
const NORMAL_ROWS = [
  ['Austin', 960000],
  ['Portland', 650000],
  ['Springfield', 114000],
];

let runner: SqlRunner;
let dir: string;
let file: string;
let fileHash: string;

const FILE = () => ({ kind: 'file', path: file }) as const;
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

before(() => {
  runner = new SqlRunner({ workers: 1, memoryBytes: 64 * 2 ** 20 });
  dir = mkdtempSync(join(tmpdir(), 'crucible-sql-test-'));
  file = join(dir, 'cities.sqlite');
  const db = new Database(file);
  db.exec(`${SCHEMA};\n${SETUP}`);
  db.close();
  fileHash = hash(file);
});
after(async () => {
  await runner.close();
  rmSync(dir, { recursive: true, force: true });
});

const engine: EngineFixture = {
  runner: () => runner,
  databases: () => [INLINE, FILE()],
  normal: NORMAL,
  normalRows: NORMAL_ROWS,
  wallSeconds: 1,
  slowCount: 'SELECT count(*) FROM n a, n b, (SELECT x FROM n LIMIT 10) c WHERE a.x < b.x',
  endless: 'SELECT count(*) FROM n a, n b, n c',
  refusedIn: 'prepare',
};
const { run, nextIsRight, expectStatus, refused } = engineChecks(engine);

describe('ordinary queries', () => {
  it('on the GeoQuery geography database (a file)', { skip: GEOGRAPHY.skip }, async () => {
    const r = await run({
      database: { kind: 'file', path: GEOGRAPHY.path },
      sql: 'SELECT state_name, population FROM state ORDER BY population DESC LIMIT 3',
    });
    assert.equal(r.status, 'ok', show(r));
    assert.deepEqual(r.columns, ['state_name', 'population']);
    assert.deepEqual(r.rows, [
      ['california', 23670000],
      ['new york', 17558000],
      ['texas', 14229000],
    ]);
    const count = await run({
      database: { kind: 'file', path: GEOGRAPHY.path },
      sql: 'SELECT count(*) FROM border_info',
    });
    assert.deepEqual(count.rows, [[218]]);
  });

  it('on inline schema + setup, and on a file: every type as JSON', async () => {
    await nextIsRight();
    const r = await run({
      sql: "SELECT 1, 2.5, 'text', NULL, x'00ff10', 9223372036854775807, -9007199254740993, 9007199254740991, 1e999, -1e999, 0.0/0",
    });
    assert.equal(r.status, 'ok', show(r));
    assert.deepEqual(r.rows, [
      [
        1,
        2.5,
        'text',
        null,
        { $blob: 'AP8Q' },
        { $int: '9223372036854775807' },
        { $int: '-9007199254740993' },
        9007199254740991,
        { $real: 'Infinity' },
        { $real: '-Infinity' },
        null,
      ],
    ]);
    assert.deepEqual(r.columns.slice(0, 3), ['1', '2.5', "'text'"]);
  });

  it('VALUES and WITH … SELECT are queries; a trailing semicolon and comments are fine', async () => {
    assert.deepEqual((await run({ sql: 'VALUES (1, 2), (3, 4)' })).rows, [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(
      (await run({ sql: 'WITH big AS (SELECT name FROM city WHERE population > 900000) SELECT * FROM big;' })).rows,
      [['Austin']],
    );
    assert.deepEqual(
      (await run({ sql: '-- the biggest\n/* city */ SELECT max(population) FROM city; -- done' })).rows,
      [[960000]],
    );
  });

  it("the engine's own messages: a syntax error, a missing column, a run-time error", async () => {
    await expectStatus({ sql: 'SELEC name FROM city' }, 'error', (r) => {
      assert.equal(r.phase, 'prepare');
      assert.equal(r.message, 'near "SELEC": syntax error');
      assert.equal(r.refused, undefined);
    });
    await expectStatus({ sql: 'SELECT nope FROM city' }, 'error', (r) =>
      assert.equal(r.message, 'no such column: nope'),
    );
    await expectStatus({ sql: 'SELECT json(name) FROM city' }, 'error', (r) => {
      assert.equal(r.phase, 'run');
      assert.equal(r.message, 'malformed JSON');
    });
    await expectStatus({ sql: '' }, 'error', (r) => assert.equal(r.phase, 'prepare'));
  });

  it('a second database file: workers started without it restart to see it', async () => {
    const other = join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec("CREATE TABLE t (a); INSERT INTO t VALUES ('other')");
    db.close();
    const r = await run({ database: { kind: 'file', path: other }, sql: 'SELECT a FROM t' });
    assert.deepEqual(r.rows, [['other']], show(r));
    await nextIsRight();
  });

  it('more inline databases than a worker keeps: each answers right, the first built again', async () => {
    const db = (i: number) =>
      ({ kind: 'inline', schema: 'CREATE TABLE t (a)', setup: `INSERT INTO t VALUES (${i})` }) as const;
    for (let i = 0; i < 20; i++) assert.deepEqual((await run({ database: db(i), sql: 'SELECT a FROM t' })).rows, [[i]]);
    assert.deepEqual((await run({ database: db(0), sql: 'SELECT a FROM t' })).rows, [[0]]);
    await nextIsRight();
  });

  it('a database that cannot be built or opened is no verdict, not the query’s error', async () => {
    await expectStatus(
      { database: { kind: 'inline', schema: 'CREATE TABLE broken (' }, sql: 'SELECT 1' },
      'no-verdict',
      (r) => assert.equal(r.phase, 'database'),
    );
    await expectStatus({ database: { kind: 'file', path: join(dir, 'absent.sqlite') }, sql: 'SELECT 1' }, 'no-verdict');
  });
});

describe('time', () => {
  const fast = { wallSeconds: 0.5 };
  it('a runaway recursive CTE under count(*) is stopped, its worker killed and replaced', async () => {
    const before = runner.pids;
    await expectStatus(
      { limits: fast, sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c' },
      'timeout',
    );
    assert.notDeepEqual(runner.pids, before, 'a new worker answered the next query');
  });
  it('a huge cross join', () =>
    expectStatus({ limits: fast, sql: 'SELECT count(*) FROM n a, n b, n c, n d' }, 'timeout'));
  it('a cross join with ORDER BY over it (a sort that never finishes filling)', () =>
    expectStatus({ limits: fast, sql: 'SELECT a.x FROM n a, n b, n c ORDER BY random() LIMIT 1' }, 'timeout'));
  it('rows that come too slowly, one at a time', () =>
    expectStatus(
      { limits: fast, sql: 'SELECT o.x, (SELECT count(*) FROM n a, n b WHERE a.x < b.x + o.x) FROM n o' },
      'timeout',
    ));
  it('a row far into an endless sequence', () =>
    expectStatus(
      {
        limits: fast,
        sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x = 1e12',
      },
      'timeout',
    ));
  it('a search through a big string for every pair of rows', () =>
    expectStatus(
      {
        limits: fast,
        sql: "SELECT count(*) FROM n a, n b WHERE instr(printf('%.*c', 20000, 'a') || a.x || b.x, 'b') > 0",
      },
      'timeout',
    ));
});

describe('rows and bytes', () => {
  it('endless rows stop at the row limit: output-limit, with the rows kept', async () => {
    await expectStatus(
      { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c', limits: { rows: 100 } },
      'output-limit',
      (r) => {
        assert.equal(r.rows.length, 100);
        assert.deepEqual(r.rows.at(-1), [100]);
      },
    );
  });
  it('exactly the row limit is fine; one more is not', async () => {
    assert.equal((await run({ sql: 'SELECT x FROM n WHERE x <= 5', limits: { rows: 5 } })).status, 'ok');
    await expectStatus({ sql: 'SELECT x FROM n WHERE x <= 6', limits: { rows: 5 } }, 'output-limit');
  });
  it('many wide rows stop at the byte limit', async () => {
    await expectStatus(
      { sql: "SELECT printf('%.*c', 1000, 'x') FROM n", limits: { bytes: 64 << 10 } },
      'output-limit',
      (r) => {
        assert.ok(JSON.stringify(r.rows).length <= 64 << 10);
        assert.ok(r.rows.length > 10);
      },
    );
  });
  it('one huge text, one huge blob, many escaped characters', async () => {
    await expectStatus(
      { sql: "SELECT printf('%.*c', 5000000, 'x')", limits: { bytes: 64 << 10 } },
      'output-limit',
      (r) => assert.equal(r.rows.length, 0),
    );
    await expectStatus({ sql: 'SELECT randomblob(2000000)', limits: { bytes: 64 << 10 } }, 'output-limit');
    // Each NUL is six bytes of JSON: the limit counts the JSON, not the characters.
    await expectStatus(
      { sql: 'SELECT CAST(zeroblob(20000) AS TEXT) FROM n', limits: { bytes: 64 << 10 } },
      'output-limit',
      (r) => assert.ok(r.rows.length < 1),
    );
  });
  it('a byte limit above the runner’s cap is refused before it runs', async () => {
    const r = await run({ sql: 'SELECT 1', limits: { bytes: 1 << 30 } });
    assert.equal(r.status, 'no-verdict');
    await nextIsRight();
  });
});

describe('memory', () => {
  const slow = { wallSeconds: 10 };
  it('one huge allocation inside the engine', () =>
    expectStatus({ sql: 'SELECT length(randomblob(500000000))', limits: slow }, 'memory'));
  it('a huge printf width', () =>
    expectStatus({ sql: "SELECT length(printf('%.*c', 500000000, 'x'))", limits: slow }, 'memory'));
  it('a value past SQLite’s length limit', () =>
    expectStatus({ sql: 'SELECT length(randomblob(2000000000))', limits: slow }, 'memory', (r) =>
      assert.equal(r.code, 'SQLITE_TOOBIG'),
    ));
  it('a string grown row by row (group_concat)', () =>
    expectStatus(
      {
        sql: "SELECT length(group_concat(printf('%.*c', 10000, 'x'))) FROM n a, (SELECT x FROM n LIMIT 100) b",
        limits: slow,
      },
      'memory',
    ));
  it('a zeroblob that only becomes real when it is read out', () =>
    expectStatus({ sql: 'SELECT zeroblob(450000000)', limits: slow }, 'memory'));
  // More than the worker's V8 heap: the worker dies of it (read from its stderr), or the engine's allocation fails first.
  it('a value the engine could hold but V8 cannot', () =>
    expectStatus({ sql: "SELECT printf('%.*c', 150000000, 'x')", limits: slow }, 'memory'));
  // Building the database is not the query's doing: no verdict, on a fresh worker, and the next database builds.
  it('a database too big to build in the worker', () =>
    expectStatus(
      {
        database: {
          kind: 'inline',
          schema: 'CREATE TABLE big (x BLOB)',
          setup:
            'INSERT INTO big WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 400) SELECT randomblob(1000000) FROM c;',
        },
        sql: 'SELECT count(*) FROM big',
        limits: slow,
      },
      'no-verdict',
      (r) => assert.match(r.message ?? '', /could not be opened or built: .*out of memory/i),
    ));
  it('a sort of big rows kept in memory', () =>
    expectStatus({ sql: 'SELECT a.x, randomblob(20000) FROM n a, n b ORDER BY 2', limits: slow }, 'memory'));
});

describe('read-only', () => {
  const unchanged = async () => {
    for (const database of [INLINE, FILE()])
      assert.deepEqual((await run({ database, sql: 'SELECT count(*), sum(population) FROM city' })).rows, [
        [5, 1792000],
      ]);
    assert.equal(hash(file), fileHash, 'the database file is byte for byte the same');
  };
  for (const sql of [
    "INSERT INTO city VALUES (9, 'X', 'Y', 1, 1)",
    'UPDATE city SET population = 0',
    'DELETE FROM city',
    "REPLACE INTO city VALUES (1, 'X', 'Y', 1, 1)",
    'DELETE FROM city RETURNING *',
    'WITH gone AS (SELECT 1) DELETE FROM city',
    "WITH v(a) AS (VALUES (9)) INSERT INTO city (id, name) SELECT a, 'x' FROM v RETURNING id",
    'CREATE TABLE t (a)',
    'CREATE TEMP TABLE t (a)',
    'CREATE TEMP VIEW v AS SELECT 1',
    'CREATE INDEX i ON city (name)',
    'CREATE TRIGGER tr AFTER INSERT ON city BEGIN SELECT 1; END',
    'DROP TABLE city',
    'ALTER TABLE city ADD COLUMN z',
    'BEGIN',
    'SAVEPOINT s',
    'ANALYZE',
    'REINDEX',
  ]) {
    it(`refused: ${sql}`, async () => {
      for (const database of [INLINE, FILE()]) await refused(sql, { database });
      await unchanged();
    });
  }

  it('writable: DML on a throw-away copy, seen by `after`, never by the next query', async () => {
    for (const database of [INLINE, FILE()]) {
      const r = await run({
        database,
        sql: 'DELETE FROM city WHERE population < 100000 OR population IS NULL',
        writable: true,
        after: 'SELECT name FROM city ORDER BY id',
      });
      assert.equal(r.status, 'ok', show(r));
      assert.equal(r.changes, 2);
      assert.deepEqual(r.after?.rows, [['Springfield'], ['Portland'], ['Austin']]);
      const returning = await run({
        database,
        sql: "UPDATE city SET population = population + 1 WHERE name = 'Austin' RETURNING population",
        writable: true,
      });
      assert.deepEqual(returning.rows, [[960001]]);
      assert.equal(returning.changes, 1);
    }
    await unchanged();
    await nextIsRight();
  });

  it('writable copies still refuse DDL, ATTACH, PRAGMA, VACUUM and a second statement', async () => {
    for (const sql of [
      'DROP TABLE city',
      "ATTACH '/tmp/x.db' AS x",
      'PRAGMA writable_schema = ON',
      "VACUUM INTO '/tmp/x.db'",
    ])
      await refused(sql, { writable: true });
    await expectStatus({ sql: 'DELETE FROM city; DROP TABLE city', writable: true }, 'error', (r) =>
      assert.equal(r.phase, 'prepare'),
    );
    const check = await run({ sql: 'DELETE FROM city', writable: true, after: 'DROP TABLE city' });
    assert.equal(check.status, 'error');
    assert.equal(check.phase, 'after');
    await unchanged();
  });
});

describe('nothing past the engine', () => {
  for (const sql of [
    "ATTACH DATABASE '/etc/passwd' AS x",
    "ATTACH ':memory:' AS x",
    "ATTACH 'file:/etc/passwd?mode=ro' AS x",
    'DETACH main',
    "VACUUM INTO '/tmp/x'",
    'VACUUM',
    'PRAGMA journal_mode = WAL',
    'PRAGMA journal_mode',
    'PRAGMA writable_schema = ON',
    "PRAGMA temp_store_directory = '/tmp'",
    'PRAGMA query_only = OFF',
    'PRAGMA hard_heap_limit = 1',
    'PRAGMA table_info(city)',
    'EXPLAIN SELECT 1',
    'EXPLAIN QUERY PLAN SELECT 1',
  ]) {
    it(`refused: ${sql}`, () => refused(sql));
  }

  it('load_extension is not authorized, by any name', async () => {
    for (const sql of [
      "SELECT load_extension('x')",
      "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libc.so.6', 'puts')",
      'SELECT name FROM city WHERE load_extension(name) IS NULL',
    ]) {
      await expectStatus({ sql }, 'error', (r) => assert.equal(r.message, 'not authorized'));
    }
  });

  it('no function reads or writes files: readfile, writefile, edit, fsdir are not compiled in', async () => {
    await expectStatus({ sql: "SELECT readfile('/etc/passwd')" }, 'error', (r) =>
      assert.equal(r.message, 'no such function: readfile'),
    );
    await expectStatus({ sql: "SELECT writefile('/tmp/x', 'y')" }, 'error', (r) =>
      assert.equal(r.message, 'no such function: writefile'),
    );
    await expectStatus({ sql: "SELECT edit('x', 'vi')" }, 'error', (r) =>
      assert.equal(r.message, 'no such function: edit'),
    );
    await expectStatus({ sql: "SELECT * FROM fsdir('/')" }, 'error', (r) =>
      assert.equal(r.message, 'no such table: fsdir'),
    );
    await expectStatus({ sql: "SELECT fts3_tokenizer('simple', x'0000000000000000')" }, 'error', (r) =>
      assert.equal(r.message, 'fts3tokenize disabled'),
    );
  });

  it('table-valued pragma functions only read (and take no setting)', async () => {
    await expectStatus({ sql: "SELECT name FROM pragma_table_info('city') ORDER BY cid LIMIT 2" }, 'ok', (r) =>
      assert.deepEqual(r.rows, [['id'], ['name']]),
    );
    await expectStatus({ sql: 'SELECT * FROM pragma_query_only(0)' }, 'error');
    await expectStatus({ sql: "SELECT * FROM pragma_journal_mode('wal')" }, 'error');
  });

  it('two statements in one string run nothing', async () => {
    for (const sql of [
      'SELECT 1; DROP TABLE city',
      'SELECT 1; SELECT 2',
      'SELECT 1;; DELETE FROM city',
      "SELECT 1 /* ; */; ATTACH ':memory:' AS x",
      'DROP TABLE city; SELECT 1',
    ]) {
      for (const database of [INLINE, FILE()]) {
        await expectStatus({ database, sql }, 'error', (r) => {
          assert.equal(r.phase, 'prepare');
          assert.equal(r.message, 'The supplied SQL string contains more than one statement');
        });
      }
    }
    // A leading semicolon is no query; SQLite reads no further than a NUL, so what follows one never runs.
    await refused('; DROP TABLE city');
    assert.deepEqual((await run({ sql: 'SELECT 1\u0000; DROP TABLE city' })).rows, [[1]]);
    for (const database of [INLINE, FILE()])
      assert.deepEqual((await run({ database, sql: 'SELECT count(*) FROM city' })).rows, [[5]]);
  });
});

workerLifecycle(engine);
