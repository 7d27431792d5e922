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
  /** Where it is in the SQL text: [start, end). */
  readonly start: number;
  readonly end: number;
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
      tokens.push({ kind: 'string', text: sql.slice(i, j), depth, start: i, end: j });
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
      tokens.push({ kind: 'quoted', text: name, depth, start: i, end: j });
      i = j;
    } else {
      WORD.lastIndex = i;
      NUMBER.lastIndex = i;
      const number = /\d|\./.test(c) ? NUMBER.exec(sql) : null;
      const word = number ? null : WORD.exec(sql);
      if (number) {
        tokens.push({ kind: 'number', text: number[0], depth, start: i, end: i + number[0].length });
        i += number[0].length;
      } else if (word) {
        tokens.push({ kind: 'word', text: word[0], depth, start: i, end: i + word[0].length });
        i += word[0].length;
      } else {
        if (c === ')') depth = Math.max(0, depth - 1);
        tokens.push({ kind: 'punct', text: c, depth, start: i, end: i + 1 });
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

/** One term of a top-level ORDER BY. */
export interface OrderTerm {
  /** The expression as written, without ASC/DESC, NULLS FIRST/LAST, COLLATE and USING. */
  readonly text: string;
  /** The output column it is (0-based), when it is one; undefined: a key the output does not show. */
  readonly column: number | undefined;
  /** Its COLLATE name, lower case (`nocase`): which keys tie. */
  readonly collation: string | undefined;
}

/** What the top level of a query says about the order and the number of its rows. */
export interface TopLevel {
  /** The query has a top-level ORDER BY. */
  readonly ordered: boolean;
  readonly terms: readonly OrderTerm[];
  /** Where the query's text ends without its LIMIT/OFFSET/FETCH and final semicolon. */
  readonly bodyEnd: number;
  /** A top-level LIMIT, OFFSET or FETCH, with the rows it skips (undefined when that is not a number as written). */
  readonly cut: { readonly offset: number | undefined } | undefined;
  /** Where result columns can be added (the end of the select list), when the query is one SELECT: not compound, not VALUES. */
  readonly columnsEnd: number | undefined;
  /** `SELECT DISTINCT` (not PostgreSQL's DISTINCT ON): more result columns could make more rows. */
  readonly distinct: boolean;
}

const COMPOUND = ['UNION', 'INTERSECT', 'EXCEPT'];
/** What ends a select list at the top level. */
const AFTER_COLUMNS = ['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'INTO'];

/**
 * The top level of a query read from its tokens: its ORDER BY terms and which output columns
 * (`columns`, as the engine named them) they are, its LIMIT/OFFSET/FETCH, and where its select
 * list ends. A term is a column when it is its position (`ORDER BY 2`), a name that is exactly
 * one output column's name (its alias, or the name the engine gave it), or an expression written
 * as exactly one output column's unaliased text (`ORDER BY count(*)` for SQLite's column
 * `COUNT(*)`). A qualified name (`T.x`) is an input column, not an alias, so it is not resolved.
 */
export function readTopLevel(sql: string, columns: readonly string[]): TopLevel {
  const tokens = tokenize(sql);
  const top = (i: number) => tokens[i]!.depth === 0;
  let end = tokens.findIndex((t, i) => top(i) && t.kind === 'punct' && t.text === ';');
  if (end < 0) end = tokens.length;
  let orderAt = -1;
  for (let i = 0; i + 1 < end; i++)
    if (top(i) && isWord(tokens[i], 'ORDER') && isWord(tokens[i + 1], 'BY')) orderAt = i;
  // LIMIT, OFFSET or FETCH after the ORDER BY (or anywhere at the top, without one): OFFSET and FETCH only where they are the clause (a column may be named offset).
  let cutAt = -1;
  for (let i = Math.max(orderAt + 2, 0); i < end && cutAt < 0; i++) {
    if (!top(i)) continue;
    const next = tokens[i + 1];
    if (
      isWord(tokens[i], 'LIMIT') ||
      (isWord(tokens[i], 'OFFSET') && (next?.kind === 'number' || next?.text === '(') && i > orderAt + 2) ||
      (isWord(tokens[i], 'FETCH') && isWord(next, 'FIRST', 'NEXT'))
    )
      cutAt = i;
  }
  const bodyTokens = cutAt >= 0 ? cutAt : end;
  const bodyEnd = bodyTokens > 0 ? tokens[bodyTokens - 1]!.end : 0;
  const terms: Token[][] = [];
  if (orderAt >= 0) {
    terms.push([]);
    for (let i = orderAt + 2; i < bodyTokens; i++) {
      if (top(i) && tokens[i]!.text === ',' && tokens[i]!.kind === 'punct') terms.push([]);
      else terms.at(-1)!.push(tokens[i]!);
    }
  }
  // One SELECT: no compound operator at the top, and one SELECT keyword there (a CTE's are in parentheses).
  const selects = tokens.flatMap((t, i) => (i < bodyTokens && top(i) && isWord(t, 'SELECT') ? [i] : []));
  const compound = tokens.some((t, i) => i < bodyTokens && top(i) && isWord(t, ...COMPOUND));
  let columnsEnd: number | undefined;
  let distinct = false;
  if (selects.length === 1 && !compound) {
    const at = selects[0]!;
    distinct = isWord(tokens[at + 1], 'DISTINCT') && !isWord(tokens[at + 2], 'ON');
    let stop = at + 1;
    while (stop < bodyTokens && !(top(stop) && isWord(tokens[stop], ...AFTER_COLUMNS))) stop++;
    columnsEnd = stop < bodyTokens ? tokens[stop]!.start : bodyEnd;
  }
  return {
    ordered: orderAt >= 0,
    terms: terms.map((term) => {
      const { expression, collation } = stripModifiers(term);
      return {
        text: expression.length ? sql.slice(expression[0]!.start, expression.at(-1)!.end) : '',
        column: resolveTerm(expression, columns),
        collation,
      };
    }),
    bodyEnd,
    cut: cutAt >= 0 ? { offset: offsetOf(tokens.slice(cutAt, end).filter((t) => t.depth === 0)) } : undefined,
    columnsEnd,
    distinct,
  };
}

/** The rows a LIMIT/OFFSET/FETCH clause skips: `LIMIT n`, `LIMIT n OFFSET m`, SQLite's `LIMIT m, n`, `OFFSET m ROWS FETCH …`. */
function offsetOf(clause: readonly Token[]): number | undefined {
  const literal = (t: Token | undefined) => (t?.kind === 'number' && /^\d+$/.test(t.text) ? Number(t.text) : undefined);
  const offset = clause.findIndex((t) => isWord(t, 'OFFSET'));
  if (offset >= 0) return literal(clause[offset + 1]) ?? undefined;
  const comma = clause.findIndex((t) => t.kind === 'punct' && t.text === ',');
  if (comma >= 0) return comma === 2 ? literal(clause[1]) : undefined;
  return 0;
}

/**
 * How a reference's result is ordered, read from its text alone. `ordered: false`: compare as a
 * multiset. `ordered: true` with `keys`: the result is sorted by those output columns (0-based);
 * with `keys: null` some sort key is not an output column.
 */
export type OrderRule =
  { readonly ordered: false } | { readonly ordered: true; readonly keys: readonly number[] | null };

export function orderRule(sql: string, columns: readonly string[]): OrderRule {
  const { ordered, terms } = readTopLevel(sql, columns);
  if (!ordered) return { ordered: false };
  const keys = terms.map((t) => t.column);
  return { ordered: true, keys: keys.every((k) => k !== undefined) ? keys : null };
}

/** The term without USING op, NULLS FIRST/LAST, ASC/DESC and COLLATE name at its end. */
function stripModifiers(term: readonly Token[]): { expression: readonly Token[]; collation: string | undefined } {
  let t = [...term];
  const using = t.findIndex((x) => x.depth === t[0]?.depth && isWord(x, 'USING'));
  if (using > 0) t = t.slice(0, using);
  if (isWord(t.at(-1), 'FIRST', 'LAST') && isWord(t.at(-2), 'NULLS')) t = t.slice(0, -2);
  if (isWord(t.at(-1), 'ASC', 'DESC')) t = t.slice(0, -1);
  let collation: string | undefined;
  if (t.length >= 2 && isWord(t.at(-2), 'COLLATE')) {
    collation = t.at(-1)!.text.toLowerCase();
    t = t.slice(0, -2);
  }
  return { expression: t, collation };
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
