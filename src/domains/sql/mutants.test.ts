import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryMutants, scalarSubqueries } from './mutants.js';

test('mutants: one edit each, outside strings and quoted names, never the query itself', () => {
  const sql = "SELECT name FROM city WHERE state = 'a > b' AND population > 500 ORDER BY population DESC";
  const mutants = queryMutants(sql).map((m) => m.sql);
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state = 'a > b' AND population >= 500 ORDER BY population DESC"),
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state <> 'a > b' AND population > 500 ORDER BY population DESC"),
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state = 'a > b' OR population > 500 ORDER BY population DESC"),
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state = 'a > b' AND population > 501 ORDER BY population DESC"),
  );
  assert.ok(
    mutants.includes(
      "SELECT DISTINCT name FROM city WHERE state = 'a > b' AND population > 500 ORDER BY population DESC",
    ),
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state = 'a > b' AND population > 500 ORDER BY population ASC"),
  );
  assert.ok(
    queryMutants(sql)
      .filter((m) => m.operator !== 'string literal' && m.operator !== 'dropped predicate')
      .every((m) => m.sql.includes("'a > b'")),
    'the string is edited only as a string literal',
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state = 'A > b' AND population > 500 ORDER BY population DESC"),
  );
  assert.ok(
    mutants.includes("SELECT name FROM city WHERE state LIKE '%a > b%' AND population > 500 ORDER BY population DESC"),
  );
  assert.ok(!mutants.includes(sql));
  assert.equal(new Set(mutants).size, mutants.length);
});

test('mutants of aggregates and membership', () => {
  const mutants = queryMutants('SELECT MAX(x), COUNT(DISTINCT y) FROM t WHERE z NOT IN (1, 2)').map((m) => m.sql);
  assert.ok(mutants.includes('SELECT MIN(x), COUNT(DISTINCT y) FROM t WHERE z NOT IN (1, 2)'));
  assert.ok(mutants.includes('SELECT MAX(x), COUNT( y) FROM t WHERE z NOT IN (1, 2)'));
  assert.ok(mutants.includes('SELECT MAX(x), COUNT(DISTINCT y) FROM t WHERE z IN (1, 2)'));
  assert.ok(mutants.includes('SELECT MAX(x), COUNT(DISTINCT y) FROM t WHERE z NOT IN (2, 2)'));
});

test('mutants that drop a predicate or swap a column for another of the same table', () => {
  const sql =
    'SELECT c.name FROM city c, state s WHERE c.state = s.name AND s.area > 10 AND c.population > 5 ORDER BY c.name';
  const mutants = queryMutants(sql);
  const of = (operator: string) => mutants.filter((m) => m.operator === operator).map((m) => m.sql);
  assert.ok(
    of('dropped predicate').includes(
      'SELECT c.name FROM city c, state s WHERE c.state = s.name AND c.population > 5 ORDER BY c.name',
    ),
  );
  assert.ok(
    of('dropped predicate').includes(
      'SELECT c.name FROM city c, state s WHERE c.state = s.name AND s.area > 10 ORDER BY c.name',
    ),
  );
  assert.ok(
    of('wrong column').includes(
      'SELECT c.name FROM city c, state s WHERE c.state = s.area AND s.area > 10 AND c.population > 5 ORDER BY c.name',
    ),
    'a join key swapped',
  );
  assert.ok(
    of('wrong column').includes(
      'SELECT c.population FROM city c, state s WHERE c.state = s.name AND s.area > 10 AND c.population > 5 ORDER BY c.name',
    ),
  );
  assert.ok(
    of('wrong column').every((m) => !/c\.(area)|s\.(population|state)/.test(m)),
    'only columns the query uses with that qualifier',
  );
});

test('mutants of clauses: COUNT forms, a GROUP BY item or HAVING dropped, the first conjunct dropped, an extra predicate', () => {
  const sql =
    "SELECT c.state, COUNT(*) FROM city c WHERE c.pop > 5 AND c.name = 'austin' GROUP BY c.state, c.country HAVING COUNT(c.name) > 2 ORDER BY c.state";
  const mutants = queryMutants(sql);
  const of = (operator: string) => mutants.filter((m) => m.operator === operator).map((m) => m.sql);
  const head = "SELECT c.state, COUNT(*) FROM city c WHERE c.pop > 5 AND c.name = 'austin'";
  assert.deepEqual(of('group by').sort(), [
    `${head} GROUP BY c.country HAVING COUNT(c.name) > 2 ORDER BY c.state`,
    `${head} GROUP BY c.state HAVING COUNT(c.name) > 2 ORDER BY c.state`,
  ]);
  assert.deepEqual(of('having'), [`${head} GROUP BY c.state, c.country ORDER BY c.state`]);
  const tail = 'GROUP BY c.state, c.country';
  assert.ok(
    of('count').includes(
      `${head.replace('COUNT(*)', 'COUNT(c.state)')} ${tail} HAVING COUNT(c.name) > 2 ORDER BY c.state`,
    ),
  );
  assert.ok(of('count').includes(`${head} ${tail} HAVING COUNT(*) > 2 ORDER BY c.state`));
  assert.ok(of('count').includes(`${head} ${tail} HAVING COUNT(DISTINCT c.name) > 2 ORDER BY c.state`));
  assert.ok(
    of('dropped predicate').includes(
      `SELECT c.state, COUNT(*) FROM city c WHERE c.name = 'austin' ${tail} HAVING COUNT(c.name) > 2 ORDER BY c.state`,
    ),
  );
  assert.ok(
    of('extra predicate').includes(
      `SELECT c.state, COUNT(*) FROM city c WHERE c.state IS NOT NULL AND c.pop > 5 AND c.name = 'austin' ${tail} HAVING COUNT(c.name) > 2 ORDER BY c.state`,
    ),
  );
});

test('NOT IN over a subquery becomes the NOT EXISTS it stands for, which differs only where a value is NULL', () => {
  const sql =
    "SELECT s.name FROM state AS s WHERE s.name NOT IN ( SELECT b.border FROM border AS b WHERE b.name = 'texas' ) ORDER BY s.name";
  const [mutant, ...more] = queryMutants(sql).filter((m) => m.operator === 'not in (nullable)');
  assert.equal(more.length, 0);
  assert.equal(
    mutant?.sql,
    "SELECT s.name FROM state AS s WHERE NOT EXISTS (SELECT 1 FROM border AS b WHERE b.name = 'texas' AND b.border = s.name) ORDER BY s.name",
  );
});

test('scalar subqueries compared with a value are found with their extent, for hard-coding', () => {
  const sql = "SELECT name FROM city WHERE pop = ( SELECT MAX(pop) FROM city WHERE st = ')' ) AND x IN (SELECT 1)";
  const found = scalarSubqueries(sql);
  assert.equal(found.length, 1, 'IN (SELECT …) is not a scalar');
  assert.equal(found[0]!.query, "SELECT MAX(pop) FROM city WHERE st = ')'");
  assert.equal(sql.slice(found[0]!.start, found[0]!.end), "( SELECT MAX(pop) FROM city WHERE st = ')' )");
});

test('a subquery hard-coded to the value it has on the task database: numbers as they are, text quoted', async () => {
  const { hardCodedValues } = await import('./hard-coded.js');
  const sql =
    "SELECT name FROM city WHERE pop = ( SELECT MAX(pop) FROM city ) AND st = (SELECT st FROM s WHERE n = 'x')";
  const asked: string[] = [];
  const values: Record<string, unknown> = {
    'SELECT MAX(pop) FROM city': 2300,
    "SELECT st FROM s WHERE n = 'x'": "o'k",
  };
  const mutants = await hardCodedValues(async (query) => {
    asked.push(query);
    return { status: 'ok', columns: ['v'], rows: [[values[query] as number]], wallSeconds: 0 };
  }, sql);
  assert.deepEqual(asked.sort(), Object.keys(values).sort());
  assert.deepEqual(
    mutants.map((m) => m.sql),
    [
      "SELECT name FROM city WHERE pop = 2300 AND st = (SELECT st FROM s WHERE n = 'x')",
      "SELECT name FROM city WHERE pop = ( SELECT MAX(pop) FROM city ) AND st = 'o''k'",
    ],
  );
  const none = await hardCodedValues(async () => ({ status: 'ok', columns: ['v'], rows: [], wallSeconds: 0 }), sql);
  assert.deepEqual(none, [], 'a subquery with no row there is not hard-coded');
});
