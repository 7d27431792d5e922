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
