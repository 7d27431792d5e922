import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryMutants } from './mutants.js';

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
    mutants.every((m) => m.includes("'a > b'")),
    'the string is never edited',
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
