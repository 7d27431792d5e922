import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  generateDatabases,
  referenceLiterals,
  rowCount,
  setupSql,
  shrinkDatabase,
  type GeneratedDatabase,
  type TableInfo,
} from './generate.js';

const TABLES: TableInfo[] = [
  {
    name: 'city',
    createSql:
      'CREATE TABLE city (city_name TEXT NOT NULL, state_name TEXT, population INTEGER, PRIMARY KEY (city_name))',
    columns: [
      { name: 'city_name', type: 'TEXT', notNull: true, primaryKey: true },
      { name: 'state_name', type: 'TEXT', notNull: false, primaryKey: false },
      { name: 'population', type: 'INTEGER', notNull: false, primaryKey: false },
    ],
    foreignKeys: [{ column: 'state_name', table: 'state', to: 'state_name' }],
  },
  {
    name: 'state',
    createSql: 'CREATE TABLE state (state_name TEXT PRIMARY KEY, area REAL)',
    columns: [
      { name: 'state_name', type: 'TEXT', notNull: false, primaryKey: true },
      { name: 'area', type: 'REAL', notNull: false, primaryKey: false },
    ],
    foreignKeys: [],
  },
];

const REFERENCE =
  "SELECT city_name FROM city WHERE population > 150000 AND state_name = 'texas' ORDER BY population DESC";

test("a reference's literals, each once", () => {
  assert.deepEqual(referenceLiterals(REFERENCE), [150000, 'texas']);
  assert.deepEqual(referenceLiterals("SELECT 'it''s', 1, 1, \"name\" FROM t"), ["it's", 1]);
});

test('generated databases keep keys unique, point foreign keys at rows that exist, and use the literals and their neighbours', () => {
  const literals = referenceLiterals(REFERENCE);
  const dbs = generateDatabases(TABLES, { seed: 3, count: 60, literals, samples: { 'state.state_name': ['ohio'] } });
  assert.equal(dbs.length, 60);
  let nulls = 0;
  let emptyTables = 0;
  const populations = new Set<unknown>();
  const states = new Set<unknown>();
  for (const db of dbs) {
    const cities = db.city!;
    const stateNames = new Set(db.state!.map((row) => row[0]));
    assert.equal(new Set(cities.map((row) => row[0])).size, cities.length, 'city_name is a key');
    assert.equal(stateNames.size, db.state!.length, 'state_name is a key');
    assert.ok(
      cities.every((row) => row[0] !== null),
      'NOT NULL kept',
    );
    for (const row of cities) {
      populations.add(row[2]);
      states.add(row[1]);
      if (row[1] === null || row[2] === null) nulls++;
    }
    if (cities.length === 0 || db.state!.length === 0) emptyTables++;
  }
  assert.ok(
    [149999, 150000, 150001].every((n) => populations.has(n)),
    'both sides of the comparison and the boundary',
  );
  assert.ok(states.has('texas') && states.has('ohio'), 'the literal and a sampled value');
  assert.ok(nulls > 0, 'some NULLs');
  assert.ok(emptyTables > 0, 'some empty tables');
  assert.deepEqual(
    generateDatabases(TABLES, { seed: 3, count: 60, literals, samples: { 'state.state_name': ['ohio'] } }),
    dbs,
    'the same seed, the same databases',
  );
});

test('setup SQL creates the schema and inserts every row, quoting what needs it', () => {
  const { schema, setup } = setupSql(TABLES, { state: [["o'hare", 1.5]], city: [['x', "o'hare", null]] });
  assert.ok(
    schema.indexOf('CREATE TABLE state') < schema.indexOf('CREATE TABLE city'),
    'a table after the ones its keys point at',
  );
  assert.equal(
    setup,
    `INSERT INTO "state" VALUES ('o''hare', 1.5);\nINSERT INTO "city" VALUES ('x', 'o''hare', NULL);`,
  );
});

test('shrinking keeps the difference and leaves no row that could go', async () => {
  const [db] = generateDatabases(TABLES, { seed: 11, count: 1, maxRows: 6, literals: [150000, 'texas'] });
  const big: GeneratedDatabase = { ...db!, city: [...db!.city!, ['houston', 'texas', 2000000]] };
  // A "difference" that needs one particular city row and at least one state row.
  const differs = async (candidate: GeneratedDatabase) =>
    candidate.city!.some((row) => row[0] === 'houston') && candidate.state!.length > 0;
  assert.ok(await differs(big));
  const { database } = await shrinkDatabase(big, differs);
  assert.ok(await differs(database));
  assert.equal(database.city!.length, 1);
  assert.equal(database.state!.length, 1);
  assert.equal(rowCount(database), 2);
});

test('a column the data keeps unique never repeats within a table, though the schema does not say so', () => {
  const samples = { 'city.population': [100, 200], 'city.state_name': ['texas'] };
  const unique = new Map([['city', [['population']]]]);
  const repeats = (databases: GeneratedDatabase[], column: number) =>
    databases.some((db) => {
      const values = (db.city ?? []).map((row) => row[column]).filter((v) => v !== null);
      return new Set(values).size !== values.length;
    });
  const options = { seed: 5, count: 40, literals: referenceLiterals(REFERENCE), samples };
  assert.ok(repeats(generateDatabases(TABLES, options), 2), 'without the hint, populations repeat (ties)');
  assert.ok(!repeats(generateDatabases(TABLES, { ...options, unique }), 2));
  assert.ok(repeats(generateDatabases(TABLES, { ...options, unique }), 1), 'other columns still repeat');
});

test('a table whose data never has a row twice gets no row twice', () => {
  const pairs: TableInfo[] = [
    {
      name: 'border',
      createSql: 'CREATE TABLE border (a TEXT, b TEXT)',
      columns: [
        { name: 'a', type: 'TEXT', notNull: false, primaryKey: false },
        { name: 'b', type: 'TEXT', notNull: false, primaryKey: false },
      ],
      foreignKeys: [],
    },
  ];
  const options = { seed: 3, count: 60, literals: ['x'] };
  const twice = (databases: GeneratedDatabase[]) =>
    databases.some((db) => {
      const rows = (db.border ?? []).map((row) => JSON.stringify(row));
      return new Set(rows).size !== rows.length;
    });
  assert.ok(twice(generateDatabases(pairs, options)), 'without the hint, some row comes twice');
  assert.ok(!twice(generateDatabases(pairs, { ...options, unique: new Map([['border', [['a', 'b']]]]) })));
});
