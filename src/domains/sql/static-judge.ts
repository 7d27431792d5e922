/**
 * Execution-free scoring (Squirrel): is a query the reference written differently? Both are
 * tokenized (order.ts) and normalised — keyword and name case, quoting, `!=`/`<>` and `==`/`=`,
 * AS and output column names (the comparison ignores them), table aliases renamed in order of
 * appearance, the operands of a run of ANDs (or of ORs) at one level sorted, IN-lists sorted,
 * the tables of a comma join sorted, parentheses around a whole run dropped — and compared:
 * - `equivalent`: the normalised forms are the same;
 * - `different`: they differ only where the meaning must differ (a literal, a comparison, an
 *   aggregate, DISTINCT, the sort direction, the number of output columns);
 * - `unknown`: anything else (the normalisation cannot tell; run the queries to know).
 * Sound only in one direction by construction: `equivalent` is never said of two queries that
 * differ in more than the rewrites above.
 */
import { tokenize, type Token } from './order.js';

export type StaticVerdict = 'equivalent' | 'different' | 'unknown';

interface Norm {
  readonly kind: Token['kind'];
  readonly text: string;
  readonly depth: number;
}

const KEYWORDS_BEFORE_ALIAS = new Set(['from', 'join', ',']);
const CLAUSE_END = new Set([
  'where',
  'group',
  'order',
  'limit',
  'having',
  'on',
  'join',
  'inner',
  'left',
  'right',
  'cross',
  'natural',
  'union',
  'except',
  'intersect',
  'using',
  ')',
]);
const RESERVED = new Set([
  ...CLAUSE_END,
  'as',
  'select',
  'from',
  'and',
  'or',
  'not',
  'in',
  'is',
  'null',
  'like',
  'between',
  'case',
  'when',
  'then',
  'else',
  'end',
  'distinct',
  'all',
  'exists',
  'by',
  'asc',
  'desc',
  'outer',
]);

function normaliseTokens(sql: string): Norm[] {
  let tokens: Norm[] = tokenize(sql.trim().replace(/;\s*$/, '')).map((t) => ({
    kind: t.kind === 'quoted' ? 'word' : t.kind,
    text: t.kind === 'string' ? t.text : t.text.toLowerCase(),
    depth: t.depth,
  }));
  // Two-character operators come as two punctuation tokens.
  const merged: Norm[] = [];
  for (const t of tokens) {
    const last = merged[merged.length - 1];
    if (last?.kind === 'punct' && t.kind === 'punct' && ['<=', '>=', '<>', '!=', '=='].includes(last.text + t.text))
      merged[merged.length - 1] = { ...last, text: last.text + t.text };
    else merged.push(t);
  }
  tokens = merged.map((t) => (t.text === '!=' ? { ...t, text: '<>' } : t.text === '==' ? { ...t, text: '=' } : t));
  return unqualified(renameAliases(dropOutputNames(tokens)));
}

/**
 * A query over one table (one SELECT, one FROM item, no join): `t1.name` is `name`, and the
 * table's alias goes — the same query, with or without an alias.
 */
function unqualified(tokens: readonly Norm[]): Norm[] {
  const is = (t: Norm | undefined, ...words: string[]) => t?.kind === 'word' && words.includes(t.text);
  if (tokens.filter((t) => is(t, 'select')).length !== 1 || tokens.some((t) => is(t, 'join'))) return [...tokens];
  const from = tokens.findIndex((t) => is(t, 'from'));
  if (from < 0) return [...tokens];
  let end = from + 1;
  while (end < tokens.length && !is(tokens[end], ...CLAUSE_END)) end++;
  const item = tokens.slice(from + 1, end);
  if (item.length < 1 || item.length > 2 || item.some((t) => t.kind !== 'word')) return [...tokens];
  const names = new Set(item.map((t) => t.text));
  const out: Norm[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (i === from + 2 && item.length === 2) continue; // the alias
    if (t.kind === 'word' && names.has(t.text) && tokens[i + 1]?.text === '.' && i !== from + 1) {
      i++;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** `expr AS name` in a select list: the name is dropped (result columns are compared by position). */
function dropOutputNames(tokens: readonly Norm[]): Norm[] {
  const out: Norm[] = [];
  let inSelect = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'word' && t.text === 'select') inSelect = true;
    else if (t.kind === 'word' && t.text === 'from') inSelect = false;
    if (inSelect && t.kind === 'word' && t.text === 'as' && tokens[i + 1]?.kind === 'word') {
      i++;
      continue;
    }
    out.push(t);
  }
  return out;
}

/** Table aliases (`FROM city AS c`, `JOIN state s`) become t1, t2… in order of appearance, and AS goes. */
function renameAliases(tokens: readonly Norm[]): Norm[] {
  const aliases = new Map<string, string>();
  const kept: Norm[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    const beforeTable = tokens[i - 2];
    if (
      t.kind === 'word' &&
      prev?.kind === 'word' &&
      beforeTable &&
      KEYWORDS_BEFORE_ALIAS.has(beforeTable.text) &&
      !RESERVED.has(t.text)
    ) {
      aliases.set(t.text, `t${aliases.size + 1}`);
      kept.push({ ...t, text: aliases.get(t.text)! });
      continue;
    }
    if (
      t.kind === 'word' &&
      t.text === 'as' &&
      prev?.kind === 'word' &&
      beforeTable &&
      KEYWORDS_BEFORE_ALIAS.has(beforeTable.text) &&
      tokens[i + 1]?.kind === 'word'
    ) {
      aliases.set(tokens[i + 1]!.text, `t${aliases.size + 1}`);
      kept.push({ ...tokens[i + 1]!, text: aliases.get(tokens[i + 1]!.text)! });
      i++;
      continue;
    }
    kept.push(t);
  }
  // A table used without an alias is its own name; a name qualified by an alias takes the alias's new name.
  return kept.map((t) => (t.kind === 'word' && aliases.has(t.text) ? { ...t, text: aliases.get(t.text)! } : t));
}

const text = (tokens: readonly Norm[]) => tokens.map((t) => t.text).join(' ');

/**
 * The canonical text: within each parenthesised level, runs joined by AND (or by OR) are
 * sorted, as are IN-lists and the tables of a comma join.
 */
export function canonicalSql(sql: string): string {
  return canonical(normaliseTokens(sql));
}

function canonical(tokens: readonly Norm[]): string {
  // Parenthesised groups first, innermost out: each becomes one token of its canonical text.
  const level: Norm[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'punct' && t.text === '(') {
      let depth = 1;
      let j = i + 1;
      for (; j < tokens.length && depth > 0; j++) {
        if (tokens[j]!.text === '(' && tokens[j]!.kind === 'punct') depth++;
        else if (tokens[j]!.text === ')' && tokens[j]!.kind === 'punct') depth--;
      }
      const inner = tokens.slice(i + 1, j - 1);
      const after = level[level.length - 1];
      const isList =
        after?.kind === 'word' && after.text === 'in' && inner.every((x) => x.kind !== 'word' || x.text !== 'select');
      const body = isList ? sortedList(inner) : canonical(inner);
      level.push({ kind: 'punct', text: `(${body})`, depth: t.depth });
      i = j - 1;
      continue;
    }
    level.push(t);
  }
  return sortRuns(level);
}

function sortedList(tokens: readonly Norm[]): string {
  const items = splitOn(tokens, (t) => t.text === ',').map(text);
  return items.sort().join(' , ');
}

function splitOn(tokens: readonly Norm[], at: (t: Norm) => boolean): Norm[][] {
  const parts: Norm[][] = [[]];
  for (const t of tokens) {
    if (at(t)) parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  return parts;
}

/** Within one level: the operands of consecutive ANDs (ORs) sorted, clause by clause; the FROM list of a comma join sorted. */
function sortRuns(level: readonly Norm[]): string {
  const clauses = splitOn(level, () => false)[0]!;
  const out: string[] = [];
  let clause: Norm[] = [];
  const flush = () => {
    if (clause.length === 0) return;
    const head = clause[0]!;
    if (head.kind === 'word' && (head.text === 'where' || head.text === 'having' || head.text === 'on'))
      out.push(head.text, sortBoolean(clause.slice(1)));
    else if (
      head.kind === 'word' &&
      head.text === 'from' &&
      !clause.some((t) => t.kind === 'word' && ['join', 'on', 'using'].includes(t.text))
    )
      out.push(
        'from',
        splitOn(clause.slice(1), (t) => t.text === ',')
          .map(text)
          .sort()
          .join(' , '),
      );
    else out.push(text(clause));
    clause = [];
  };
  for (const t of clauses) {
    if (
      t.kind === 'word' &&
      [
        'select',
        'from',
        'where',
        'group',
        'having',
        'order',
        'limit',
        'on',
        'join',
        'union',
        'except',
        'intersect',
      ].includes(t.text)
    )
      flush();
    clause.push(t);
  }
  flush();
  return out.join(' ');
}

function sortBoolean(tokens: readonly Norm[]): string {
  const words = (w: string) => (t: Norm) => t.kind === 'word' && t.text === w;
  const ors = splitOn(tokens, words('or'));
  const unwrap = (s: string) =>
    s.startsWith('(') && s.endsWith(')') && !/\bor\b/.test(s.slice(1, -1)) ? s.slice(1, -1) : s;
  return ors
    .map((or) => {
      // BETWEEN x AND y keeps its AND.
      const parts: Norm[][] = [[]];
      for (let i = 0; i < or.length; i++) {
        const t = or[i]!;
        const between = parts[parts.length - 1]!.some(words('between')) && !parts[parts.length - 1]!.some(words('and'));
        if (words('and')(t) && !between) parts.push([]);
        else parts[parts.length - 1]!.push(t);
      }
      return parts
        .map((p) => unwrap(text(p)))
        .sort()
        .join(' and ');
    })
    .sort()
    .join(' or ');
}

const MEANINGFUL = /^(?:<>|=|<=|>=|<|>|min|max|sum|avg|count|distinct|asc|desc)$/;

export function staticJudge(reference: string, candidate: string): StaticVerdict {
  const [a, b] = [canonicalSql(reference), canonicalSql(candidate)];
  if (a === b) return 'equivalent';
  // The same shape with one token changed where that token decides the result.
  const [x, y] = [a.split(' '), b.split(' ')];
  if (x.length === y.length) {
    const diffs = x.flatMap((t, i) => (t === y[i] ? [] : [[t, y[i]!] as const]));
    const decisive = ([p, q]: readonly [string, string]) =>
      (MEANINGFUL.test(p) && MEANINGFUL.test(q)) || /^'.*'$|^-?\d/.test(p) || /^'.*'$|^-?\d/.test(q);
    if (diffs.length === 1 && decisive(diffs[0]!)) return 'different';
  }
  return 'unknown';
}
