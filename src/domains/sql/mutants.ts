/**
 * Small faults of a query, made by editing its text where SQLite's grammar allows: a
 * comparison one step off (`>` ↔ `>=`, `=` ↔ `<>`), AND ↔ OR, a literal ±1, DISTINCT added
 * or dropped, MIN ↔ MAX, COUNT(DISTINCT x) ↔ COUNT(x), ASC ↔ DESC, a LIMIT one off, IN ↔
 * NOT IN. They serve two ends: keeping the generated databases that tell the reference from
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

/** Every single-edit mutant of `sql`, each text once, none equal to `sql`. */
export function queryMutants(sql: string): QueryMutant[] {
  const text = masked(sql);
  const seen = new Set<string>([sql]);
  const found: QueryMutant[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      for (const replacement of rule.replace(m)) {
        const mutant = sql.slice(0, m.index) + replacement + sql.slice(m.index + m[0].length);
        if (!seen.has(mutant)) {
          seen.add(mutant);
          found.push({ operator: rule.operator, sql: mutant });
        }
      }
    }
  }
  return found;
}
