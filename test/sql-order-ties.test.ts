/**
 * Right queries that order tied rows their own way, on the real engines (SQLite and
 * PostgreSQL), through the SQL pack as every front door calls it: the reference's sort keys
 * come from the engine, rows that tie on them may come in any order, a LIMIT or OFFSET that
 * cuts a tied group may keep any of its rows, and the groups must still come in order. Each
 * case also judges a wrong query on the same checks, and the next query after it. Floats: an
 * integer answer is not a non-integer float's value, however close.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sqlPack, type SqlTask } from '../src/domains/sql/index.js';
import { SqlRunner } from '../src/runtimes/sql-pool.js';

const runner = new SqlRunner({ workers: 2 });
after(() => runner.close());
const pack = sqlPack(runner);

/** Five people, three of them paid 200 (and two of those with the same bonus), two without a bonus. */
const SCHEMA = 'CREATE TABLE emp (name TEXT PRIMARY KEY, dept TEXT NOT NULL, salary INTEGER, bonus INTEGER)';
const SETUP =
  "INSERT INTO emp VALUES ('ann', 'ops', 300, NULL), ('bob', 'ops', 200, 10), ('cat', 'dev', 200, 5), ('dan', 'dev', 100, NULL), ('eve', 'hr', 200, 10);";
const PG_SCHEMA = 'CREATE TABLE emp (name text PRIMARY KEY, dept text NOT NULL, salary integer, bonus integer)';

interface Database {
  readonly dialect?: 'sqlite' | 'postgres';
  readonly schema?: string;
  readonly setup?: string;
}

function task(reference: string, { dialect = 'sqlite', schema, setup = SETUP }: Database = {}): SqlTask {
  return {
    id: `ties/${reference}`,
    dialect,
    database:
      dialect === 'postgres'
        ? { kind: 'inline', schema: schema ?? PG_SCHEMA, setup, dialect }
        : { kind: 'inline', schema: schema ?? SCHEMA, setup },
    question: 'people by pay',
    reference,
    equivalents: [],
    source: 'test',
  };
}

/** Judges each query on the task's database and 8 generated ones; the verdicts, and why each one that fails does. */
async function judge(reference: string, queries: Record<string, string>, database?: Database) {
  const checks = await pack.prepare(task(reference, database), { audience: 'scorer', seed: 3, probes: 8 });
  assert.equal(checks.incomplete, undefined, checks.incomplete);
  assert.ok(checks.generated.length > 0, checks.description);
  const verdicts: Record<string, string> = {};
  for (const [name, sql] of Object.entries(queries)) {
    const report = await pack.verify(checks, sql);
    verdicts[name] = report.passed
      ? 'pass'
      : `${report.verdict.status}: ${report.verdict.firstFailure?.message ?? ''} (${report.verdict.suites.map((s) => `${s.name} ${s.status}`).join(', ')})`;
  }
  return verdicts;
}

const passes = (verdicts: Record<string, string>, ...names: string[]) =>
  names.forEach((name) => assert.equal(verdicts[name], 'pass', `${name}: ${verdicts[name]}`));
const fails = (verdicts: Record<string, string>, ...names: string[]) =>
  names.forEach((name) => assert.match(verdicts[name]!, /^fail/, `${name} should fail: ${verdicts[name]}`));

describe('sort keys the output does not show (SQLite)', () => {
  it('a qualified key that is not selected: ties broken another way pass, another order fails', async () => {
    const v = await judge('SELECT e.name FROM emp AS e ORDER BY e.salary DESC', {
      tiesByNameDesc: 'SELECT name FROM emp ORDER BY salary DESC, name DESC',
      tiesByNameAsc: 'SELECT name FROM emp ORDER BY salary DESC, name',
      ascending: 'SELECT name FROM emp ORDER BY salary',
      byName: 'SELECT name FROM emp ORDER BY name',
      unordered: 'SELECT name FROM emp',
      next: 'SELECT x.name FROM emp x ORDER BY x.salary IS NULL, -x.salary, x.dept',
    });
    passes(v, 'tiesByNameDesc', 'tiesByNameAsc', 'next');
    fails(v, 'ascending', 'byName');
    assert.match(v.byName!, /order differs/);
  });

  it('an expression, NULLS FIRST, and an aggregate as keys', async () => {
    const expression = await judge('SELECT name FROM emp ORDER BY salary + coalesce(bonus, 0) DESC', {
      right: 'SELECT name FROM emp ORDER BY coalesce(bonus, 0) + salary DESC, name DESC',
      wrong: 'SELECT name FROM emp ORDER BY salary DESC, name DESC',
    });
    passes(expression, 'right');
    fails(expression, 'wrong');
    const nulls = await judge('SELECT name FROM emp ORDER BY bonus NULLS FIRST', {
      right: 'SELECT name FROM emp ORDER BY bonus IS NOT NULL, bonus, name DESC',
      nullsLast: 'SELECT name FROM emp ORDER BY bonus NULLS LAST, name DESC',
    });
    passes(nulls, 'right');
    fails(nulls, 'nullsLast');
    const aggregate = await judge('SELECT dept FROM emp GROUP BY dept ORDER BY count(*) DESC', {
      right: 'SELECT dept FROM emp GROUP BY dept ORDER BY count(name) DESC, dept DESC',
      wrong: 'SELECT dept FROM emp GROUP BY dept ORDER BY count(*), dept DESC',
    });
    passes(aggregate, 'right');
    fails(aggregate, 'wrong');
  });

  it('LIMIT and OFFSET that cut a tied group: any of its rows may be kept, no other', async () => {
    const top = await judge('SELECT e.name FROM emp e ORDER BY e.salary DESC LIMIT 2', {
      otherTiedRow: 'SELECT name FROM emp ORDER BY salary DESC, name DESC LIMIT 2',
      tooMany: 'SELECT name FROM emp ORDER BY salary DESC, name DESC LIMIT 3',
      bottom: 'SELECT name FROM emp ORDER BY salary, name DESC LIMIT 2',
    });
    passes(top, 'otherTiedRow');
    fails(top, 'tooMany', 'bottom');
    // SQLite's LIMIT offset, count.
    const second = await judge('SELECT e.name FROM emp e ORDER BY e.salary DESC LIMIT 1, 1', {
      lastOfTies: 'SELECT name FROM emp ORDER BY salary DESC, name DESC LIMIT 1 OFFSET 1',
      byDept: 'SELECT name FROM emp ORDER BY salary DESC, dept, name DESC LIMIT 1 OFFSET 1',
      pastTheTies: 'SELECT name FROM emp ORDER BY salary DESC, name LIMIT 1 OFFSET 4',
    });
    passes(second, 'lastOfTies', 'byDept');
    fails(second, 'pastTheTies');
  });

  it('a compound query ordered by a column, cut at a tie', async () => {
    const v = await judge(
      "SELECT name, dept FROM emp WHERE dept = 'ops' UNION ALL SELECT name, dept FROM emp WHERE dept <> 'ops' ORDER BY 2 DESC LIMIT 1",
      {
        otherTiedRow: 'SELECT name, dept FROM emp ORDER BY dept DESC, name DESC LIMIT 1',
        wrongGroup: 'SELECT name, dept FROM emp ORDER BY dept LIMIT 1',
      },
    );
    passes(v, 'otherTiedRow');
    fails(v, 'wrongGroup');
  });

  it('DISTINCT: keys that the output determines are recovered; others accept any order of the right rows', async () => {
    const unique = await judge('SELECT DISTINCT e.name FROM emp e ORDER BY e.salary DESC', {
      right: 'SELECT name FROM emp ORDER BY salary DESC, name DESC',
      ascending: 'SELECT name FROM emp ORDER BY salary, name DESC',
    });
    passes(unique, 'right');
    fails(unique, 'ascending');
    // A dept has several bonuses, and which one orders it is SQLite's choice: any order some
    // choice gives is right (each dept by its first bonus, NULLs first), one none gives is not.
    const loose = await judge('SELECT DISTINCT dept FROM emp ORDER BY bonus', {
      eachByItsFirst: 'SELECT dept FROM emp GROUP BY dept ORDER BY min(bonus IS NOT NULL), min(bonus), dept DESC',
      noChoiceGivesIt: 'SELECT dept FROM emp GROUP BY dept ORDER BY max(bonus IS NOT NULL) DESC, max(bonus) DESC',
      missing: "SELECT DISTINCT dept FROM emp WHERE dept <> 'hr'",
    });
    passes(loose, 'eachByItsFirst');
    fails(loose, 'noChoiceGivesIt', 'missing');
  });

  it('keys the output shows (a position, an alias) still order the groups', async () => {
    const v = await judge('SELECT name, salary AS pay FROM emp ORDER BY pay DESC', {
      ties: 'SELECT name, salary FROM emp ORDER BY 2 DESC, 1 DESC',
      reversed: 'SELECT name, salary FROM emp ORDER BY 2, 1 DESC',
    });
    passes(v, 'ties');
    fails(v, 'reversed');
  });
});

describe('sort keys the output does not show (PostgreSQL)', () => {
  it('a qualified key, and a LIMIT that cuts the tied group', async () => {
    const v = await judge(
      'SELECT e.name FROM emp AS e ORDER BY e.salary DESC NULLS LAST',
      {
        ties: 'SELECT name FROM emp ORDER BY salary DESC NULLS LAST, name DESC',
        nullsFirst: 'SELECT name FROM emp ORDER BY salary DESC NULLS FIRST, name DESC',
      },
      { dialect: 'postgres' },
    );
    passes(v, 'ties');
    fails(v, 'nullsFirst');
    const top = await judge(
      'SELECT e.name FROM emp e ORDER BY e.salary DESC NULLS LAST LIMIT 2',
      {
        otherTiedRow: 'SELECT name FROM emp ORDER BY salary DESC NULLS LAST, name DESC LIMIT 2',
        withTies: 'SELECT name FROM emp ORDER BY salary DESC NULLS LAST FETCH FIRST 2 ROWS WITH TIES',
        bottom: 'SELECT name FROM emp ORDER BY salary NULLS LAST, name LIMIT 2',
      },
      { dialect: 'postgres' },
    );
    passes(top, 'otherTiedRow');
    fails(top, 'withTies', 'bottom');
    const aggregate = await judge(
      'SELECT dept FROM emp GROUP BY dept ORDER BY count(*) DESC',
      {
        right: 'SELECT dept FROM emp GROUP BY dept ORDER BY count(name) DESC, dept DESC',
        wrong: 'SELECT dept FROM emp GROUP BY dept ORDER BY count(*), dept DESC',
      },
      { dialect: 'postgres' },
    );
    passes(aggregate, 'right');
    fails(aggregate, 'wrong');
  });
});

describe('floats', () => {
  it("an integer where the reference's answer is a non-integer float is a different value", async () => {
    // GeoQuery's case: the mean population 4415590.67 against 4415590 (integer division), 1.5e-7 apart.
    const cities = {
      schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
      setup:
        "INSERT INTO city VALUES ('a', 'tx', 4415590), ('b', 'tx', 4415591), ('c', 'tx', 4415591), ('d', 'ok', 7);",
    };
    const v = await judge(
      "SELECT avg(population) FROM city WHERE state = 'tx'",
      {
        integerDivision: "SELECT sum(population) / count(population) FROM city WHERE state = 'tx'",
        realDivision: "SELECT sum(population) * 1.0 / count(population) FROM city WHERE state = 'tx'",
        next: "SELECT avg(c.population) FROM city c WHERE c.state IN ('tx')",
      },
      cities,
    );
    fails(v, 'integerDivision');
    passes(v, 'realDivision', 'next');
  });
});
