/**
 * Whether a query orders its result at the top level, read from its SQL text: SQLite's lexical
 * grammar (strings, quoted identifiers, comments) and parenthesis depth, no more. In SQLite a
 * query's own ORDER BY is the only one outside parentheses: those of subqueries, common
 * table expressions, window definitions (`OVER (ORDER BY …)`, `WINDOW w AS (…)`) and ordered
 * aggregates (`group_concat(x ORDER BY y)`) are all inside them, and ORDER is a reserved word
 * (never an unquoted name). A compound query's ORDER BY orders the whole compound.
 *
 * Why not a parser: node-sql-parser's SQLite grammar (5.4) refuses valid SQLite — `MAX(DISTINCT
 * x)` (two of GeoQuery's own gold queries), VALUES, COLLATE, NULLS LAST, window functions,
 * [bracketed] names — and sql-parser-cst, which reads SQLite well, is GPL. The engine has
 * already accepted the query (it ran), so only ORDER and BY need finding, which tokens do.
 */

export interface Token {
  readonly kind: 'word' | 'quoted' | 'string' | 'number' | 'punct';
  /** As written; for `quoted`, the name without its quotes. */
  readonly text: string;
  /** Parentheses open around it. */
  readonly depth: number;
}

const WORD = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/y;
const NUMBER = /0[xX][0-9A-Fa-f]+|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const CLOSERS: Record<string, string> = { '"': '"', '`': '`', '[': ']' };

/** SQLite's tokens, without spaces and comments. Unterminated strings and comments run to the end. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || ((c === 'x' || c === 'X') && sql[i + 1] === "'")) {
      // A string, or a blob literal x'…'; '' inside is a quote.
      let j = sql.indexOf("'", i) + 1;
      for (;;) {
        const end = sql.indexOf("'", j);
        if (end < 0) {
          j = sql.length;
          break;
        }
        if (sql[end + 1] === "'") j = end + 2;
        else {
          j = end + 1;
          break;
        }
      }
      tokens.push({ kind: 'string', text: sql.slice(i, j), depth });
      i = j;
    } else if (c in CLOSERS) {
      const close = CLOSERS[c]!;
      let name = '';
      let j = i + 1;
      for (;;) {
        const end = sql.indexOf(close, j);
        if (end < 0) {
          name += sql.slice(j);
          j = sql.length;
          break;
        }
        name += sql.slice(j, end);
        // "" and `` inside are one quote; ] ends a bracketed name.
        if (close !== ']' && sql[end + 1] === close) {
          name += close;
          j = end + 2;
        } else {
          j = end + 1;
          break;
        }
      }
      tokens.push({ kind: 'quoted', text: name, depth });
      i = j;
    } else {
      WORD.lastIndex = i;
      NUMBER.lastIndex = i;
      const number = /\d|\./.test(c) ? NUMBER.exec(sql) : null;
      const word = number ? null : WORD.exec(sql);
      if (number) {
        tokens.push({ kind: 'number', text: number[0], depth });
        i += number[0].length;
      } else if (word) {
        tokens.push({ kind: 'word', text: word[0], depth });
        i += word[0].length;
      } else {
        if (c === ')') depth = Math.max(0, depth - 1);
        tokens.push({ kind: 'punct', text: c, depth });
        if (c === '(') depth++;
        i++;
      }
    }
  }
  return tokens;
}

const isWord = (t: Token | undefined, ...words: string[]) => t?.kind === 'word' && words.includes(t.text.toUpperCase());

/** The same tokens, whatever the spaces, comments and the case of keywords and names (strings keep theirs). */
function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((t, i) => {
    const u = b[i]!;
    if (t.kind === 'string' || u.kind === 'string') return t.kind === u.kind && t.text === u.text;
    // A name quoted or not is the same name.
    const named = (x: Token) => x.kind === 'word' || x.kind === 'quoted';
    if (named(t) && named(u)) return t.text.toLowerCase() === u.text.toLowerCase();
    return t.kind === u.kind && t.text.toLowerCase() === u.text.toLowerCase();
  });
}

/**
 * How a reference's result is ordered. `ordered: false`: compare as a multiset. `ordered: true`
 * with `keys`: the result is sorted by those output columns (0-based), so rows whose keys
 * tie may come in any order; with `keys: null` the sort keys are not all output columns, and
 * the order is compared row by row.
 */
export type OrderRule =
  { readonly ordered: false } | { readonly ordered: true; readonly keys: readonly number[] | null };

/**
 * The ORDER BY terms of a query's top level, and which output columns they are: a term is a
 * column when it is its position (`ORDER BY 2`), a name that is exactly one output column's name
 * (its alias, or the name SQLite gave it), or an expression written as exactly one output
 * column's unaliased text (`ORDER BY count(*)` for the column `COUNT(*)`). A qualified name
 * (`T.x`) is an input column, not an alias, so it is not resolved.
 */
export function orderRule(sql: string, columns: readonly string[]): OrderRule {
  const tokens = tokenize(sql);
  let start = -1;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i]!.depth === 0 && isWord(tokens[i], 'ORDER') && isWord(tokens[i + 1], 'BY')) start = i + 2;
  }
  if (start < 0) return { ordered: false };
  let end = start;
  while (
    end < tokens.length &&
    !(tokens[end]!.depth === 0 && (isWord(tokens[end], 'LIMIT') || tokens[end]!.text === ';'))
  )
    end++;
  const terms: Token[][] = [[]];
  for (const token of tokens.slice(start, end)) {
    if (token.depth === 0 && token.kind === 'punct' && token.text === ',') terms.push([]);
    else terms.at(-1)!.push(token);
  }
  const keys: number[] = [];
  for (const term of terms) {
    const key = resolveTerm(stripModifiers(term), columns);
    if (key === undefined) return { ordered: true, keys: null };
    keys.push(key);
  }
  return { ordered: true, keys };
}

/** The term without NULLS FIRST/LAST, ASC/DESC and COLLATE name at its end. */
function stripModifiers(term: readonly Token[]): readonly Token[] {
  let t = [...term];
  if (isWord(t.at(-1), 'FIRST', 'LAST') && isWord(t.at(-2), 'NULLS')) t = t.slice(0, -2);
  if (isWord(t.at(-1), 'ASC', 'DESC')) t = t.slice(0, -1);
  if (t.length >= 2 && isWord(t.at(-2), 'COLLATE')) t = t.slice(0, -2);
  return t;
}

function resolveTerm(term: readonly Token[], columns: readonly string[]): number | undefined {
  if (term.length === 0) return undefined;
  const only = (matches: number[]) => (matches.length === 1 ? matches[0] : undefined);
  if (term.length === 1 && term[0]!.kind === 'number') {
    const n = Number(term[0]!.text);
    return Number.isInteger(n) && n >= 1 && n <= columns.length ? n - 1 : undefined;
  }
  const indexes = columns.map((_, i) => i);
  if (term.length === 1 && (term[0]!.kind === 'word' || term[0]!.kind === 'quoted')) {
    const name = term[0]!.text.toLowerCase();
    return only(indexes.filter((i) => columns[i]!.toLowerCase() === name));
  }
  if (term.some((t) => t.kind === 'punct' && t.text === '.') && term.every((t) => t.kind !== 'punct' || t.text === '.'))
    return undefined;
  return only(indexes.filter((i) => sameTokens(term, tokenize(columns[i]!))));
}
