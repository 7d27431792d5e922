import assert from 'node:assert/strict';
import { test } from 'node:test';
import { staticJudge } from './static-judge.js';

test('equivalent: case, aliases, AS, commuted AND operands, IN-list order, comma joins, != and <>', () => {
  const reference = "SELECT name FROM city WHERE state = 'texas' AND population > 500";
  assert.equal(
    staticJudge(reference, "select C.NAME from CITY as c where c.population > 500 and c.state = 'texas';"),
    'equivalent',
  );
  assert.equal(
    staticJudge('SELECT a FROM t WHERE x IN (1, 2, 3)', 'SELECT a FROM t WHERE x IN (3, 1, 2)'),
    'equivalent',
  );
  assert.equal(
    staticJudge('SELECT t.a FROM t, u WHERE t.id = u.id', 'SELECT t.a FROM u, t WHERE t.id = u.id'),
    'equivalent',
  );
  assert.equal(staticJudge('SELECT a FROM t WHERE b != 1', 'SELECT a AS x FROM t WHERE b <> 1'), 'equivalent');
  assert.equal(
    staticJudge('SELECT a FROM t WHERE (b = 1 AND c = 2)', 'SELECT a FROM t WHERE c = 2 AND b = 1'),
    'equivalent',
  );
});

test('different where one decisive token changed; unknown otherwise', () => {
  const reference = "SELECT name FROM city WHERE state = 'texas' AND population > 500";
  assert.equal(
    staticJudge(reference, "SELECT name FROM city WHERE state = 'texas' AND population >= 500"),
    'different',
  );
  assert.equal(staticJudge(reference, "SELECT name FROM city WHERE state = 'ohio' AND population > 500"), 'different');
  assert.equal(staticJudge('SELECT MAX(x) FROM t', 'SELECT MIN(x) FROM t'), 'different');
  assert.equal(
    staticJudge(reference, "SELECT name FROM city WHERE NOT (population <= 500) AND state = 'texas'"),
    'unknown',
  );
  assert.equal(
    staticJudge('SELECT a FROM t WHERE b BETWEEN 1 AND 5', 'SELECT a FROM t WHERE b BETWEEN 1 AND 5'),
    'equivalent',
  );
  assert.notEqual(
    staticJudge('SELECT a FROM t WHERE b = 1 OR c = 2 AND d = 3', 'SELECT a FROM t WHERE (b = 1 OR c = 2) AND d = 3'),
    'equivalent',
    'precedence is kept',
  );
});
