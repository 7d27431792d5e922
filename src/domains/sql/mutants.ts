/**
 * Small faults of a query, made by editing its text where SQLite's grammar allows: a
 * comparison one step off (`>` ↔ `>=`, `=` ↔ `<>`), AND ↔ OR, a literal ±1, DISTINCT added
 * or dropped, MIN ↔ MAX, COUNT(DISTINCT x) ↔ COUNT(x), ASC ↔ DESC, a LIMIT one off, IN ↔
 * NOT IN, a predicate dropped, and a column (or a join key) swapped for another column of
 * the same table the query uses. They serve two ends: keeping the generated databases that tell the reference from
 * its own mutants (Zhong, Yu & Klein's distillation), and injected bugs for debugging tasks.
 *
 * Edits are found on the text with its strings and quoted names masked (so a `>` inside
 * 'a > b' is never touched); offsets stay those of the original text.
 */
export interface QueryMutant {
  readonly operator: string;
  readonly sql: string;
}

/** The text with every string and quoted name's inside replaced by `_`, same length. */
function masked(sql: string): string {
  return sql.replace(
    /'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]/g,
    (quoted) => quoted[0] + '_'.repeat(Math.max(0, quoted.length - 2)) + quoted[quoted.length - 1],
  );
}

const COMPARISONS: Readonly<Record<string, readonly string[]>> = {
  '>': ['>=', '<'],
  '>=': ['>', '<='],
  '<': ['<=', '>'],
  '<=': ['<', '>='],
  '=': ['<>'],
  '==': ['<>'],
  '<>': ['='],
  '!=': ['='],
};

interface Rule {
  readonly operator: string;
  readonly pattern: RegExp;
  readonly replace: (match: RegExpExecArray) => readonly string[];
}

const RULES: readonly Rule[] = [
  { operator: 'comparison', pattern: /<=|>=|<>|!=|==|=|<|>/g, replace: (m) => COMPARISONS[m[0]] ?? [] },
  { operator: 'and-or', pattern: /\b(AND|OR)\b/gi, replace: (m) => [m[1]!.toUpperCase() === 'AND' ? 'OR' : 'AND'] },
  {
    operator: 'literal',
    pattern: /(?<![\w.'"])\d+(?:\.\d+)?(?![\w.])/g,
    replace: (m) => [String(Number(m[0]) + 1), String(Number(m[0]) - 1)],
  },
  {
    operator: 'distinct',
    pattern: /\bSELECT\s+DISTINCT\b|\bSELECT\b/gi,
    replace: (m) => [/DISTINCT/i.test(m[0]) ? 'SELECT' : 'SELECT DISTINCT'],
  },
  {
    operator: 'min-max',
    pattern: /\b(MIN|MAX)(?=\s*\()/gi,
    replace: (m) => [m[1]!.toUpperCase() === 'MIN' ? 'MAX' : 'MIN'],
  },
  { operator: 'count', pattern: /\bCOUNT\s*\(\s*DISTINCT\b/gi, replace: () => ['COUNT('] },
  { operator: 'order', pattern: /\b(ASC|DESC)\b/gi, replace: (m) => [m[1]!.toUpperCase() === 'ASC' ? 'DESC' : 'ASC'] },
  { operator: 'in', pattern: /\bNOT\s+IN\b|\bIN\b/gi, replace: (m) => [/NOT/i.test(m[0]) ? 'IN' : 'NOT IN'] },
];

/** `AND <predicate>` up to the next AND, OR, clause or closing parenthesis, at one level (no parenthesis inside). */
const CONJUNCT =
  /\s+AND\s+[^()]*?(?=\s+(?:AND|OR|ORDER|GROUP|LIMIT|HAVING|UNION|EXCEPT|INTERSECT)\b|\s*\)|\s*;|\s*$)/gi;
/** `alias.column` (or `table.column`). */
const QUALIFIED = /\b([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\b/g;

/** Every single-edit mutant of `sql`, each text once, none equal to `sql`. */
export function queryMutants(sql: string): QueryMutant[] {
  const text = masked(sql);
  const seen = new Set<string>([sql]);
  const found: QueryMutant[] = [];
  const add = (operator: string, mutant: string) => {
    if (!seen.has(mutant)) {
      seen.add(mutant);
      found.push({ operator, sql: mutant });
    }
  };
  CONJUNCT.lastIndex = 0;
  for (let m = CONJUNCT.exec(text); m; m = CONJUNCT.exec(text))
    add('dropped predicate', sql.slice(0, m.index) + sql.slice(m.index + m[0].length));
  // Columns by qualifier: each use of one may be any other the query uses with the same qualifier.
  const uses = [...text.matchAll(QUALIFIED)].map((m) => ({
    at: m.index! + m[0].length - m[2]!.length,
    qualifier: m[1]!.toLowerCase(),
    column: m[2]!,
  }));
  for (const use of uses) {
    for (const other of new Set(
      uses
        .filter((u) => u.qualifier === use.qualifier && u.column.toLowerCase() !== use.column.toLowerCase())
        .map((u) => u.column),
    ))
      add('wrong column', sql.slice(0, use.at) + other + sql.slice(use.at + use.column.length));
  }
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      for (const replacement of rule.replace(m))
        add(rule.operator, sql.slice(0, m.index) + replacement + sql.slice(m.index + m[0].length));
    }
  }
  return found;
}
