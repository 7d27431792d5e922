/**
 * Small faults of a query, made by editing its text where SQLite's grammar allows: a
 * comparison one step off (`>` ↔ `>=`, `=` ↔ `<>`), AND ↔ OR, a number ±1, a string literal
 * in another case or loosened to LIKE, DISTINCT added or dropped, MIN ↔ MAX, COUNT(*) ↔
 * COUNT(col) ↔ COUNT(DISTINCT col), ASC ↔ DESC, IN ↔ NOT IN, NOT IN over a column that may be
 * NULL for the NOT EXISTS it stands for, a predicate dropped or one added, a GROUP BY column
 * dropped, a HAVING dropped, and a column (or a join key) swapped for another column of the
 * same table the query uses. The engine adds one more (bugs.ts `hardCodedValues`): a
 * subquery replaced by the value it has on the task's database. They serve two ends: keeping
 * the generated databases that tell the reference from its own mutants (Zhong, Yu & Klein's
 * distillation), and injected bugs for debugging tasks.
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
  /** `original`: the matched text as the query has it (the match is of the masked text). */
  readonly replace: (match: RegExpExecArray, original: string) => readonly string[];
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
  {
    operator: 'count',
    pattern: /\bCOUNT\s*\(\s*(DISTINCT\s+)?([^()]*?)\s*\)/gi,
    replace: (m, original) => {
      const argument = original.replace(/^COUNT\s*\(\s*(?:DISTINCT\s+)?/i, '').replace(/\s*\)$/, '');
      if (argument === '*' || argument === '') return [];
      return m[1] ? ['COUNT(*)'] : ['COUNT(*)', `COUNT(DISTINCT ${argument})`];
    },
  },
];

/** Where a clause that starts at `from` ends, before the spaces: the next keyword of another clause, `)` closing its level, `;` or the end. */
const CLAUSE_END = /^(?:ORDER|GROUP|HAVING|LIMIT|UNION|EXCEPT|INTERSECT|WINDOW)\b/i;
function clauseEnd(text: string, from: number): number {
  let end = nextClause(text, from);
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  return end;
}

function nextClause(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') {
      if (depth === 0) return i;
      depth--;
    } else if (depth === 0 && (ch === ';' || (/\s/.test(text[i - 1] ?? ' ') && CLAUSE_END.test(text.slice(i, i + 9)))))
      return i;
  }
  return text.length;
}

/** The places of `pattern`'s top-level matches within [from, to) (outside parentheses). */
function topLevel(text: string, from: number, to: number, pattern: RegExp): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const ch = text[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0) {
      pattern.lastIndex = i;
      const m = pattern.exec(text);
      if (m && m.index === i) {
        found.push(m);
        i += m[0].length - 1;
      }
    }
  }
  return found;
}

/** Where a parenthesised group that opens at `open` closes. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Scalar subqueries compared with something (`= (SELECT MAX(x) FROM t)`): their extents, parentheses included. */
export function scalarSubqueries(sql: string): { start: number; end: number; query: string }[] {
  const text = masked(sql);
  return [...text.matchAll(/(?:[=<>]|!=)\s*\(\s*SELECT\b/gi)].flatMap((m) => {
    const start = text.indexOf('(', m.index!);
    const end = closing(text, start) + 1;
    return end > 0 ? [{ start, end, query: sql.slice(start + 1, end - 1).trim() }] : [];
  });
}

/** Mutants of clauses, found by their extent: conjuncts, GROUP BY items, HAVING, an extra predicate, NOT IN for NOT EXISTS. */
function clauseMutants(sql: string, text: string, add: (operator: string, mutant: string) => void): void {
  const cut = (from: number, to: number) => sql.slice(0, from) + sql.slice(to);
  for (const where of text.matchAll(/\bWHERE\s+/gi)) {
    const from = where.index! + where[0].length;
    const end = clauseEnd(text, from);
    // The first conjunct dropped (the others are dropped by CONJUNCT), where no OR mixes in.
    const ands = topLevel(text, from, end, /\s+AND\s+/giy);
    if (ands.length > 0 && topLevel(text, from, end, /\bOR\b/giy).length === 0)
      add('dropped predicate', cut(from, ands[0]!.index + ands[0]![0].length));
    // An extra predicate: a selected column must not be NULL.
    const select = text.slice(0, where.index).search(/\bSELECT\b(?![\s\S]*\bSELECT\b)/i);
    const selected = select < 0 ? undefined : text.slice(select, where.index).match(QUALIFIED_ONE);
    if (selected) {
      const at = select + selected.index!;
      add(
        'extra predicate',
        `${sql.slice(0, from)}${sql.slice(at, at + selected[0].length)} IS NOT NULL AND ${sql.slice(from)}`,
      );
    }
  }
  for (const group of text.matchAll(/\bGROUP\s+BY\s+/gi)) {
    const from = group.index! + group[0].length;
    const end = clauseEnd(text, from);
    const commas = topLevel(text, from, end, /\s*,\s*/gy);
    // Each item dropped: the rows grouped too coarsely.
    const starts = [from, ...commas.map((c) => c.index + c[0].length)];
    const ends = [...commas.map((c) => c.index), end];
    if (commas.length > 0)
      starts.forEach((start, i) => add('group by', i === 0 ? cut(start, starts[1]!) : cut(ends[i - 1]!, ends[i]!)));
  }
  // COUNT(*) for COUNT(col): rows where col is NULL counted too (or, the other way, not).
  const column = text.match(QUALIFIED_ONE);
  const columnText = column && sql.slice(column.index!, column.index! + column[0].length);
  for (const count of text.matchAll(/\bCOUNT\s*\(\s*\*\s*\)/gi))
    if (columnText)
      add('count', `${sql.slice(0, count.index)}COUNT(${columnText})${sql.slice(count.index! + count[0].length)}`);
  for (const having of text.matchAll(/\s+HAVING\s+/gi))
    add('having', cut(having.index!, clauseEnd(text, having.index! + having[0].length)));
  // `x NOT IN (SELECT c FROM …)` for `NOT EXISTS (SELECT 1 FROM … WHERE c = x)`: they differ where c or x is NULL.
  for (const m of text.matchAll(
    /([A-Za-z_]\w*\s*\.\s*[A-Za-z_]\w*)\s+NOT\s+IN\s*\(\s*SELECT\s+(?:DISTINCT\s+)?([\w.]+)\s+FROM\s+/gi,
  )) {
    const open = text.indexOf('(', m.index! + m[1]!.length);
    const close = closing(text, open);
    const bodyFrom = m.index! + m[0].length;
    if (close < 0 || nextClause(text, bodyFrom) !== close) continue;
    const body = sql.slice(bodyFrom, close).trimEnd();
    const joined = /\bWHERE\b/i.test(topLevelText(text.slice(bodyFrom, close))) ? 'AND' : 'WHERE';
    add(
      'not in (nullable)',
      `${sql.slice(0, m.index)}NOT EXISTS (SELECT 1 FROM ${body} ${joined} ${m[2]} = ${m[1]})${sql.slice(close + 1)}`,
    );
  }
}

const QUALIFIED_ONE = /\b[A-Za-z_]\w*\s*\.\s*[A-Za-z_]\w*\b/;

/** The text with whatever stands in parentheses blanked: what is at its top level. */
const topLevelText = (text: string) => {
  let depth = 0;
  return [...text]
    .map((ch) => (ch === '(' ? (depth++, ch) : ch === ')' ? (depth--, ch) : depth > 0 ? ' ' : ch))
    .join('');
};

/** A string literal in another case (`'texas'` → `'Texas'`), and an equality loosened to a LIKE on it. */
function stringMutants(sql: string, text: string, add: (operator: string, mutant: string) => void): void {
  for (const m of text.matchAll(/(=\s*)?'_*'/g)) {
    const at = m.index! + (m[1]?.length ?? 0);
    const literal = sql.slice(at, at + m[0].length - (m[1]?.length ?? 0));
    const inner = literal.slice(1, -1);
    const first = inner[0];
    if (first && first.toLowerCase() !== first.toUpperCase()) {
      const flipped = first === first.toLowerCase() ? first.toUpperCase() : first.toLowerCase();
      add('string literal', `${sql.slice(0, at + 1)}${flipped}${sql.slice(at + 2)}`);
    }
    if (m[1] && inner !== '')
      add('string literal', `${sql.slice(0, m.index)}LIKE '%${inner}%'${sql.slice(at + literal.length)}`);
  }
}

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
  clauseMutants(sql, text, add);
  stringMutants(sql, text, add);
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
      for (const replacement of rule.replace(m, sql.slice(m.index, m.index + m[0].length)))
        add(rule.operator, sql.slice(0, m.index) + replacement + sql.slice(m.index + m[0].length));
    }
  }
  return found;
}
