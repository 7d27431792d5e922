/** The query that reads a reference's sort keys (the order it gives, on the real engines: test/sql-order-ties.test.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readTopLevel } from './order.js';
import { keyedQuery } from './sort-keys.js';

const keyed = (sql: string, columns: string[]) => keyedQuery(sql, readTopLevel(sql, columns), columns.length);

describe('the query that reads the sort keys', () => {
  it('adds the keys the output does not show as columns, and drops the LIMIT', () => {
    assert.deepEqual(keyed('SELECT e.name FROM emp AS e ORDER BY e.salary DESC NULLS LAST LIMIT 2;', ['name']), {
      sql: 'SELECT e.name, e.salary FROM emp AS e ORDER BY e.salary DESC NULLS LAST',
      keys: [1],
      collations: [undefined],
      width: 2,
    });
    assert.equal(
      keyed('WITH x AS (SELECT a FROM t ORDER BY b LIMIT 3) SELECT a, b FROM x ORDER BY 2, a + b COLLATE NOCASE', [
        'a',
        'b',
      ])?.sql,
      'WITH x AS (SELECT a FROM t ORDER BY b LIMIT 3) SELECT a, b, a + b FROM x ORDER BY 2, a + b COLLATE NOCASE',
    );
    assert.deepEqual(
      keyed('SELECT dept FROM emp GROUP BY dept ORDER BY count(*) DESC, dept LIMIT 1, 1', ['dept'])?.keys,
      [1, 0],
    );
    assert.equal(
      keyed('SELECT name FROM emp ORDER BY name COLLATE NOCASE', ['name'])?.collations[0],
      'nocase',
      'the collation decides which keys tie',
    );
    // A compound query's terms are its columns: nothing to add, the LIMIT dropped.
    assert.equal(
      keyed('SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 LIMIT 1', ['a'])?.sql,
      'SELECT a FROM t UNION SELECT b FROM u ORDER BY 1',
    );
    assert.equal(keyed('SELECT a FROM t UNION SELECT b FROM u ORDER BY a + 0', ['a']), undefined);
  });

  it('reads where the LIMIT, OFFSET or FETCH starts and what it skips', () => {
    const cut = (sql: string) => readTopLevel(sql, ['a']).cut;
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a LIMIT 5'), { offset: 0 });
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a LIMIT 5 OFFSET 3'), { offset: 3 });
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a LIMIT 3, 5'), { offset: 3 });
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH FIRST 1 ROW ONLY'), { offset: 2 });
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a FETCH FIRST 2 ROWS WITH TIES'), { offset: 0 });
    assert.deepEqual(cut('SELECT a FROM t ORDER BY a LIMIT 1 OFFSET (SELECT 1)'), { offset: undefined });
    assert.deepEqual(cut('SELECT a FROM t LIMIT 2'), { offset: 0 });
    assert.equal(cut('SELECT a FROM t ORDER BY offset'), undefined, 'a column named offset is no OFFSET');
    assert.equal(cut('SELECT a FROM (SELECT a FROM t LIMIT 1) ORDER BY a'), undefined);
    assert.equal(readTopLevel('SELECT DISTINCT a FROM t ORDER BY b', ['a']).distinct, true);
    assert.equal(readTopLevel('SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b', ['a', 'b']).distinct, false);
  });
});
