import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SqlRow } from '../../runtimes/protocol.js';
import {
  anyOrder,
  compareResults,
  compareToReference,
  formatRow,
  rowByRow,
  sameValue,
  unmatchedRows,
  type Comparison,
} from './compare.js';
import { orderRule, tokenize } from './order.js';

const table = (rows: SqlRow[], columns = rows[0]?.map((_, i) => `c${i}`) ?? ['c0']) => ({ columns, rows });
const UNORDERED = undefined;

function notEqual(c: Comparison): Exclude<Comparison, { equal: true }> {
  assert.equal(c.equal, false, 'expected a difference');
  return c as Exclude<Comparison, { equal: true }>;
}

describe('values', () => {
  it('NULL equals NULL; text, blobs and big integers only when identical', () => {
    assert.ok(sameValue(null, null));
    assert.ok(!sameValue(null, 0));
    assert.ok(!sameValue(null, ''));
    assert.ok(sameValue('a', 'a'));
    assert.ok(!sameValue('a', 'A'));
    assert.ok(!sameValue('1', 1), "TEXT '1' is not the number 1");
    assert.ok(sameValue({ $blob: 'AP8=' }, { $blob: 'AP8=' }));
    assert.ok(!sameValue({ $blob: 'AP8=' }, 'AP8='));
    assert.ok(sameValue({ $int: '9223372036854775807' }, { $int: '9223372036854775807' }));
    assert.ok(!sameValue({ $int: '9223372036854775807' }, { $int: '9223372036854775806' }));
    assert.ok(!sameValue({ $int: '9007199254740993' }, '9007199254740993'));
    assert.ok(sameValue({ $real: 'Infinity' }, { $real: 'Infinity' }));
    assert.ok(!sameValue({ $real: 'Infinity' }, { $real: '-Infinity' }));
    assert.ok(!sameValue({ $real: 'Infinity' }, { $blob: 'Infinity' }));
  });

  it('floats within a relative 1e-6; integers exactly; an INTEGER equals a REAL of its value', () => {
    assert.ok(sameValue(0.1 + 0.2, 0.3));
    assert.ok(sameValue(1234.5678, 1234.5678 * (1 + 5e-7)));
    assert.ok(!sameValue(1234.5678, 1234.5678 * (1 + 5e-6)));
    assert.ok(!sameValue(3, 3.0000001), 'an integer and a float with a fraction: not within the float tolerance');
    assert.ok(!sameValue(4415590.67, 4415590), "an integer answer (integer division) is not the reference's mean");
    assert.ok(!sameValue(4415590, 4415590.67));
    assert.ok(sameValue(3, 3 + 4e-16) && sameValue(2.9999999999999996, 3), 'within float rounding');
    assert.ok(sameValue(4415590.67, 4415590.67 * (1 + 5e-7)), 'two floats: the relative tolerance');
    assert.ok(!sameValue(1_000_000, 1_000_001), 'two integers: exact, whatever their size');
    assert.ok(sameValue(1e20, 1e20 * (1 + 1e-9)), 'beyond 2^53 a double is not an exact integer');
    assert.ok(
      sameValue(9.223372036854776e18, { $int: '9223372036854775807' }),
      'a REAL and a big INTEGER, within the tolerance',
    );
    assert.ok(sameValue(1e-17, 0), 'near zero, an absolute tolerance');
    assert.ok(!sameValue(1e-3, 0));
  });

  it('rows are shown as SQL writes them', () => {
    assert.equal(
      formatRow(["it's", 5, null, { $blob: 'AP8=' }, { $int: '9223372036854775807' }, 1.5]),
      "('it''s', 5, NULL, X'00FF', 9223372036854775807, 1.5)",
    );
    assert.ok(formatRow(['x'.repeat(1000)]).length < 320);
  });
});

describe('multisets', () => {
  it('equal in any order; duplicates count', () => {
    assert.deepEqual(
      compareResults(
        table([
          [1, 'a'],
          [2, 'b'],
          [2, 'b'],
        ]),
        table([
          [2, 'b'],
          [1, 'a'],
          [2, 'b'],
        ]),
        UNORDERED,
      ),
      { equal: true },
    );
    const c = notEqual(
      compareResults(
        table([
          [1, 'a'],
          [2, 'b'],
          [2, 'b'],
        ]),
        table([
          [2, 'b'],
          [1, 'a'],
        ]),
        UNORDERED,
      ),
    );
    assert.equal(c.kind, 'missing');
    assert.equal(c.why, "row (2, 'b') missing (the reference has it 2 times, the candidate 1)");
    const d = notEqual(
      compareResults(
        table([[1, 'a']]),
        table([
          [1, 'a'],
          [1, 'a'],
        ]),
        UNORDERED,
      ),
    );
    assert.equal(d.kind, 'extra');
    assert.equal(d.at, 2);
  });

  it('column names are ignored; the column count and order are kept', () => {
    assert.deepEqual(
      compareResults(table([[1, 'a']], ['n', 'name']), table([[1, 'a']], ['count(*)', 'x']), UNORDERED),
      { equal: true },
    );
    const c = notEqual(compareResults(table([[1, 'a', 3]]), table([[1, 'a']]), UNORDERED));
    assert.equal(c.kind, 'columns');
    assert.equal(c.why, "column count 2 vs 3 (the candidate's vs the reference's)");
    const swapped = notEqual(compareResults(table([[1, 'a']]), table([['a', 1]]), UNORDERED));
    assert.equal(swapped.kind, 'missing');
    assert.equal(swapped.why, "row (1, 'a') missing (the reference has 1 rows, the candidate 1)");
  });

  it('an empty result against a non-empty one, and two empty ones', () => {
    assert.deepEqual(compareResults(table([], ['a']), table([], ['b']), UNORDERED), { equal: true });
    const c = notEqual(compareResults(table([[null]]), table([], ['a']), UNORDERED));
    assert.equal(c.why, 'row (NULL) missing (the reference has 1 rows, the candidate 0)');
  });

  it('the first differing row is the first in the reference’s order', () => {
    const c = notEqual(compareResults(table([[1], [2], [3], [4]]), table([[4], [1], [9], [8]]), UNORDERED));
    assert.equal(c.why, 'row (2) missing (the reference has 4 rows, the candidate 4)');
    assert.equal(c.at, 2);
  });

  it('floats within the tolerance pair up even when sorting would cross them', () => {
    // Sorted by value the rows interleave: (1.5000001, 'b') would meet (1.5, 'b') only by the tolerance.
    const ref = table([
      [1.5000001, 'b'],
      [1.5, 'a'],
    ]);
    const cand = table([
      [1.5, 'b'],
      [1.5000001, 'a'],
    ]);
    assert.deepEqual(compareResults(ref, cand, UNORDERED), { equal: true });
    // Two float columns in one group: a maximum matching, not the first pair found.
    const r = [
      [1.5, 2.5],
      [1.5000004, 3.5],
    ] as SqlRow[];
    const k = [
      [1.5000002, 3.5000001],
      [1.5000001, 2.5000001],
    ] as SqlRow[];
    assert.deepEqual(unmatchedRows(r, k), { missing: [], extra: [] });
  });

  it('many float rows computed differently still match (sorted neighbours past the matching size)', () => {
    const ref: SqlRow[] = [];
    const cand: SqlRow[] = [];
    for (let i = 0; i < 5000; i++) {
      ref.push([(i + 0.5) / 7, 'g']);
      cand.push([((i + 0.5) / 7) * (1 + 1e-9), 'g']);
    }
    cand.reverse();
    assert.deepEqual(compareResults(table(ref), table(cand), UNORDERED), { equal: true });
    cand[100] = [1e9, 'g'];
    assert.equal(notEqual(compareResults(table(ref), table(cand), UNORDERED)).kind, 'missing');
  });
});

describe('order', () => {
  it('in order only when the reference orders: a difference of order is named with its row', () => {
    const ref = table([[1], [2], [3], [4], [5]]);
    const cand = table([[1], [2], [3], [5], [4]]);
    assert.deepEqual(compareResults(ref, cand, UNORDERED), { equal: true });
    const c = notEqual(compareResults(ref, cand, rowByRow(5)));
    assert.equal(c.why, 'order differs at row 4');
    assert.equal(c.at, 4);
  });

  it('a missing row is named as missing, not as an order difference', () => {
    assert.equal(
      notEqual(compareResults(table([[1], [2], [3]]), table([[1], [3], [4]]), rowByRow(3))).why,
      'row (2) missing (the reference has 3 rows, the candidate 3)',
    );
  });

  it('rows whose sort keys tie may come in any order among themselves, not across keys', () => {
    const sql = 'SELECT name, population FROM city ORDER BY population DESC';
    const ref = table(
      [
        ['a', 30],
        ['b', 20],
        ['c', 20],
        ['d', 10],
      ],
      ['name', 'population'],
    );
    const ties = table([
      ['a', 30],
      ['c', 20],
      ['b', 20],
      ['d', 10],
    ]);
    assert.deepEqual(compareToReference(sql, ref, ties), { equal: true });
    const wrong = table([
      ['a', 30],
      ['d', 10],
      ['b', 20],
      ['c', 20],
    ]);
    assert.equal(notEqual(compareToReference(sql, ref, wrong)).why, 'order differs at row 2');
    // The leading keys the output shows order the groups; past a key it does not show, the text alone knows nothing.
    const after = 'SELECT name, population FROM city ORDER BY population DESC, area';
    assert.deepEqual(compareToReference(after, ref, ties), { equal: true });
    assert.equal(notEqual(compareToReference(after, ref, wrong)).why, 'order differs at row 2');
    const hidden = 'SELECT name, population FROM city ORDER BY area';
    assert.deepEqual(compareToReference(hidden, ref, wrong), { equal: true });
  });

  it("the engine's groups (`order`): runs in order, each in any order, a cut run any of its group's rows", () => {
    // ORDER BY a hidden key, LIMIT 3: a, then b and c tied, then one of d, e, f (tied, cut).
    const ref = {
      ...table([['a'], ['b'], ['c'], ['d']]),
      order: {
        runs: [
          { start: 0, end: 1 },
          { start: 1, end: 3 },
          { start: 3, end: 4, choices: [['d'], ['e'], ['f']] },
        ],
      },
    };
    const sql = 'SELECT name FROM t ORDER BY area LIMIT 4';
    assert.deepEqual(compareToReference(sql, ref, table([['a'], ['c'], ['b'], ['f']])), { equal: true });
    assert.equal(
      notEqual(compareToReference(sql, ref, table([['b'], ['a'], ['c'], ['d']]))).why,
      'order differs at row 1',
    );
    const outside = notEqual(compareToReference(sql, ref, table([['a'], ['b'], ['c'], ['g']])));
    assert.equal(outside.kind, 'missing');
    assert.deepEqual(outside.row, ['d']);
    const twice = notEqual(compareToReference(sql, ref, table([['a'], ['b'], ['b'], ['e']])));
    assert.equal(twice.kind, 'missing', 'a cut run takes rows of its group, not rows of another');
    // Places: which group a row sorts in is the engine's choice among several.
    const places = {
      ...table([['x'], ['y'], ['z']]),
      order: {
        places: [
          { row: ['x'], at: [0, 2] },
          { row: ['y'], at: [0, 1] },
          { row: ['z'], at: [2] },
        ],
      },
    };
    assert.deepEqual(compareToReference(sql, places, table([['y'], ['x'], ['z']])), { equal: true });
    assert.deepEqual(compareToReference(sql, places, table([['y'], ['z'], ['x']])), { equal: true });
    assert.equal(notEqual(compareToReference(sql, places, table([['z'], ['y'], ['x']]))).why, 'order differs at row 2');
    assert.deepEqual(compareResults(table([['p'], ['q']]), table([['q'], ['p']]), anyOrder(2)), { equal: true });
  });
});

describe('reading the reference’s order', () => {
  const cols = ['name', 'population', 'COUNT(*)'];
  const rule = (sql: string) => orderRule(sql, cols);
  it('a top-level ORDER BY orders; one in a subquery, a CTE, a window or an aggregate does not', () => {
    assert.deepEqual(rule('SELECT name FROM t'), { ordered: false });
    assert.deepEqual(rule('SELECT name FROM t LIMIT 3'), { ordered: false });
    assert.deepEqual(rule('SELECT * FROM (SELECT name FROM t ORDER BY name)'), { ordered: false });
    assert.deepEqual(rule('WITH x AS (SELECT name FROM t ORDER BY name LIMIT 2) SELECT * FROM x'), { ordered: false });
    assert.deepEqual(rule('SELECT name, row_number() OVER (ORDER BY population) FROM t'), { ordered: false });
    assert.deepEqual(rule('SELECT name FROM t WINDOW w AS (ORDER BY name)'), { ordered: false });
    assert.deepEqual(rule('SELECT group_concat(name ORDER BY population) FROM t'), { ordered: false });
    assert.deepEqual(rule("SELECT name FROM t WHERE note = 'ORDER BY name' -- ORDER BY name\n /* ORDER BY x */"), {
      ordered: false,
    });
    assert.deepEqual(rule('SELECT "order by" FROM t'), { ordered: false });
    assert.deepEqual(rule('SELECT name FROM t WHERE name IN (SELECT name FROM u ORDER BY 1 LIMIT 1)'), {
      ordered: false,
    });
  });

  it('which output columns the terms are: positions, names and aliases, expressions written as a column', () => {
    assert.deepEqual(rule('SELECT name, population FROM t ORDER BY population DESC, 1'), {
      ordered: true,
      keys: [1, 0],
    });
    assert.deepEqual(rule('SELECT name FROM a UNION SELECT name FROM b ORDER BY 1 LIMIT 5'), {
      ordered: true,
      keys: [0],
    });
    assert.deepEqual(rule('SELECT x AS name FROM t ORDER BY "NAME" COLLATE NOCASE ASC NULLS LAST'), {
      ordered: true,
      keys: [0],
    });
    assert.deepEqual(rule('SELECT name, count(*) FROM t GROUP BY name ORDER BY count( * ) DESC'), {
      ordered: true,
      keys: [2],
    });
    assert.deepEqual(rule('WITH x AS (SELECT 1) SELECT name FROM t ORDER BY [population];'), {
      ordered: true,
      keys: [1],
    });
    // Qualified names are input columns, not output aliases; other columns and bad positions are not keys.
    assert.deepEqual(rule('SELECT T.name FROM t AS T ORDER BY T.population'), { ordered: true, keys: null });
    assert.deepEqual(rule('SELECT name FROM t ORDER BY area'), { ordered: true, keys: null });
    assert.deepEqual(rule('SELECT name FROM t ORDER BY 9'), { ordered: true, keys: null });
    assert.deepEqual(rule('SELECT name FROM t ORDER BY population + 0, name'), { ordered: true, keys: null });
    assert.deepEqual(
      orderRule('SELECT a.name, b.name FROM a, b ORDER BY name', ['name', 'name']),
      { ordered: true, keys: null },
      'two columns of that name',
    );
  });

  it('the tokens: strings with quotes doubled, quoted names, blobs, comments', () => {
    const kinds = tokenize(`SELECT 'it''s', "a""b", [c d], \`e\`, x'00', 1.5e3, .5 -- c\n/* d */ FROM t`).map(
      (t) => `${t.kind}:${t.text}`,
    );
    assert.deepEqual(kinds, [
      'word:SELECT',
      "string:'it''s'",
      'punct:,',
      'quoted:a"b',
      'punct:,',
      'quoted:c d',
      'punct:,',
      'quoted:e',
      'punct:,',
      "string:x'00'",
      'punct:,',
      'number:1.5e3',
      'punct:,',
      'number:.5',
      'word:FROM',
      'word:t',
    ]);
  });
});
