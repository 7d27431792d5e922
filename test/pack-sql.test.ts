/** The SQL pack passes the domain-pack contract, on an inline database and on GeoQuery's SQLite file. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { sqlPack, type SqlTask } from '../src/domains/sql/index.js';
import { SqlRunner } from '../src/runtimes/sql-pool.js';
import { runPackContract } from './contracts/pack-contract.js';

const runner = new SqlRunner({ workers: 2 });
after(() => runner.close());

const SCHEMA = 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)';
const SETUP =
  "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400), ('waco', 'texas', 140);";
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

const inline: SqlTask = {
  id: 'cities/big-texan',
  dialect: 'sqlite',
  database: { kind: 'inline', schema: SCHEMA, setup: SETUP },
  question: 'Which Texan cities have more than 500 people?',
  reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
  equivalents: [],
  source: 'test',
};

runPackContract(() => sqlPack(runner), {
  name: 'sql (inline database)',
  task: inline,
  right: "SELECT c.name FROM city AS c WHERE c.population > 500 AND c.state = 'texas'",
  // Right on the task's database (no city has exactly 500 people), wrong on a generated one that has.
  wrong: "SELECT name FROM city WHERE state = 'texas' AND population >= 500",
  broken: "SELEC name FROM city WHERE state = 'texas'",
  hostile: RUNAWAY,
  reply: "Here:\n\n```sql\nSELECT c.name FROM city AS c WHERE c.population > 500 AND c.state = 'texas';\n```\n",
  prepare: { probes: 8 },
  skip: {
    'neighbours: new probes near the given ones, the same for the same seed':
      'new databases come from the generator with another seed, not from mutating one: the hunt adds none',
  },
});

const GEOGRAPHY = join(
  import.meta.dirname,
  '..',
  '..',
  'shared',
  'datasets',
  'text2sql-geoquery-restaurants',
  'geography-db.added-in-2020.sqlite',
);
if (existsSync(GEOGRAPHY)) {
  runPackContract(() => sqlPack(runner), {
    name: 'sql (GeoQuery database file)',
    task: {
      id: 'geography/rivers',
      dialect: 'sqlite',
      database: { kind: 'file', path: GEOGRAPHY },
      question: 'Which rivers are longer than 1000?',
      reference: 'SELECT RIVER_NAME FROM RIVER WHERE LENGTH > 1000',
      equivalents: [],
      source: 'test',
    },
    right: 'SELECT r.RIVER_NAME FROM RIVER r WHERE NOT (r.LENGTH <= 1000)',
    wrong: 'SELECT DISTINCT RIVER_NAME FROM RIVER WHERE LENGTH > 1000',
    broken: 'SELECT RIVER_NAME FROM WHERE LENGTH > 1000',
    hostile: RUNAWAY,
    reply: '```sql\nSELECT r.RIVER_NAME FROM RIVER r WHERE NOT (r.LENGTH <= 1000)\n```',
    prepare: { probes: 8 },
    skip: {
      'neighbours: new probes near the given ones, the same for the same seed':
        'new databases come from the generator with another seed, not from mutating one: the hunt adds none',
    },
  });
}

// PostgreSQL (PGlite): the same contract, on an inline database with a type the generator
// cannot make up (a date: generated rows take the task's own dates).
const PG_SCHEMA =
  'CREATE TABLE city (name varchar(20) PRIMARY KEY, state text NOT NULL, population integer, founded date)';
const PG_SETUP =
  "INSERT INTO city VALUES ('austin', 'texas', 950, '1839-12-27'), ('dallas', 'texas', 1300, '1856-02-02'), ('tulsa', 'oklahoma', 400, '1898-01-18'), ('waco', 'texas', 140, '1856-08-29');";
runPackContract(() => sqlPack(runner), {
  name: 'sql (PostgreSQL, inline database)',
  task: {
    ...inline,
    id: 'cities/big-texan-pg',
    dialect: 'postgres',
    database: { kind: 'inline', schema: PG_SCHEMA, setup: PG_SETUP, dialect: 'postgres' },
  },
  right: "SELECT c.name FROM city AS c WHERE c.population > 500 AND c.state = 'texas'",
  wrong: "SELECT name FROM city WHERE state = 'texas' AND population >= 500",
  broken: "SELEC name FROM city WHERE state = 'texas'",
  hostile: 'SELECT pg_sleep(60)',
  reply: "```sql\nSELECT c.name FROM city AS c WHERE c.population > 500 AND c.state = 'texas';\n```",
  prepare: { probes: 8 },
  skip: {
    'neighbours: new probes near the given ones, the same for the same seed':
      'new databases come from the generator with another seed, not from mutating one: the hunt adds none',
  },
});
