/**
 * Mutation sites of a Python program, found on the tokens of Python's own `tokenize`
 * (so strings, f-strings, docstrings and comments are single tokens and never edited).
 */
import { constantReplacements, type MutationSite } from './types.js';

/** [type, text, start, end] as python_tokens.py writes it; offsets in UTF-16 units. */
export type PythonToken = readonly [type: string, text: string, start: number, end: number];

const KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from global if ' +
    'import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);
/** Tokens that carry no code: skipped when looking at a token's neighbours. */
const TRIVIA = new Set(['NL', 'COMMENT']);
const STATEMENT_START = new Set(['NEWLINE', 'INDENT', 'DEDENT']);
const RELATIONAL: Record<string, string> = { '<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=', '!=': '==' };
const ARITHMETIC: Record<string, string> = { '+': '-', '-': '+', '*': '//', '/': '*', '//': '*', '%': '//' };
const AUGMENTED: Record<string, string> = { '+=': '-=', '-=': '+=', '*=': '//=', '/=': '*=', '//=': '*=' };
/** Names that index a type rather than a value (`List[int]`), where `int + 1` would be no mutation at all. */
const TYPE_NAMES = new Set(['int', 'str', 'float', 'bool', 'bytes', 'list', 'dict', 'tuple', 'set', 'object', 'Any']);

/** The sites of `tokens` that start at or after `bodyStart` (the solution, not the prompt). */
export function pythonSites(source: string, allTokens: readonly PythonToken[], bodyStart: number): MutationSite[] {
  const tokens = withoutStringInteriors(allTokens).filter((t) => !TRIVIA.has(t[0]));
  const sites: MutationSite[] = [];
  const add = (operator: MutationSite['operator'], start: number, end: number, replacement: string) => {
    if (start >= bodyStart) sites.push({ operator, start, end, replacement });
  };
  const isOperand = (t: PythonToken | undefined) =>
    t !== undefined &&
    (t[0] === 'NUMBER' ||
      t[0] === 'STRING' ||
      (t[0] === 'NAME' && (!KEYWORDS.has(t[1]) || /^(True|False|None)$/.test(t[1]))) ||
      /^[)\]}]$/.test(t[1]));

  tokens.forEach((tok, i) => {
    const [type, text, start, end] = tok;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    const atStatementStart = before === undefined || STATEMENT_START.has(before[0]) || before[1] === ';';
    if (type === 'OP') {
      if (RELATIONAL[text]) add('relational', start, end, RELATIONAL[text]);
      if (ARITHMETIC[text] && isOperand(before)) add('arithmetic', start, end, ARITHMETIC[text]);
      if (AUGMENTED[text]) add('arithmetic', start, end, AUGMENTED[text]);
      if (text === '[' && isOperand(before) && !/^[A-Z]/.test(before![1])) {
        const inner = tokens[i + 1];
        const close = tokens[i + 2];
        if (inner?.[0] === 'NAME' && !KEYWORDS.has(inner[1]) && !TYPE_NAMES.has(inner[1]) && close?.[1] === ']') {
          add('index', inner[2], inner[3], `${inner[1]} + 1`);
          add('index', inner[2], inner[3], `${inner[1]} - 1`);
        }
      }
    } else if (type === 'NUMBER') {
      for (const replacement of constantReplacements(text)) add('constant', start, end, replacement);
    } else if (type === 'NAME') {
      if (text === 'and' || text === 'or') add('logical', start, end, text === 'and' ? 'or' : 'and');
      else if (text === 'True' || text === 'False') add('boolean', start, end, text === 'True' ? 'False' : 'True');
      else if (text === 'not' && after) {
        if (before?.[1] === 'is')
          add('remove-not', before[3], end, ''); // `is not` → `is`
        else if (after[1] === 'in')
          add('remove-not', start, after[2], ''); // `not in` → `in`
        else add('remove-not', start, after[2], ''); // `not x` → `x`
      } else if ((text === 'if' || text === 'elif' || text === 'while') && atStatementStart) {
        const span = expressionUntil(tokens, i + 1, (t) => t[1] === ':');
        if (span && !span.hasLambda && !negationIsCoveredElsewhere(tokens.slice(span.from, span.to)))
          add('negate-condition', span.start, span.end, `not (${span.text})`);
      } else if (text === 'return' && atStatementStart) {
        const span = expressionUntil(tokens, i + 1, (t) => t[0] === 'NEWLINE' || t[1] === ';');
        if (span && span.text !== 'None') add('return', span.start, span.end, 'None');
      }
    }
  });
  return sites;

  /** The tokens from `from` up to (not including) the first one at bracket depth 0 that `stop` accepts. */
  function expressionUntil(list: readonly PythonToken[], from: number, stop: (t: PythonToken) => boolean) {
    let depth = 0;
    let hasLambda = false;
    for (let j = from; j < list.length; j++) {
      const t = list[j]!;
      if (depth === 0 && stop(t)) {
        if (j === from) return undefined;
        const start = list[from]![2];
        const end = list[j - 1]![3];
        return { start, end, text: source.slice(start, end), hasLambda, from, to: j };
      }
      if (t[0] === 'NEWLINE' || t[0] === 'ENDMARKER') return undefined;
      if (/^[([{]$/.test(t[1])) depth++;
      else if (/^[)\]}]$/.test(t[1])) depth--;
      else if (t[1] === 'lambda') hasLambda = true;
    }
    return undefined;
  }
}

/**
 * Python 3.12 tokenizes f-strings into parts (FSTRING_START … FSTRING_END) with the
 * expressions inside; a string literal is never mutated, so each becomes one STRING token.
 */
function withoutStringInteriors(tokens: readonly PythonToken[]): PythonToken[] {
  const out: PythonToken[] = [];
  let depth = 0;
  let start = 0;
  for (const t of tokens) {
    if (t[0] === 'FSTRING_START') {
      if (depth++ === 0) start = t[2];
    } else if (t[0] === 'FSTRING_END') {
      if (--depth === 0) out.push(['STRING', '', start, t[3]]);
    } else if (depth === 0) out.push(t);
  }
  return out;
}

/**
 * `not c` is what remove-not makes of `if not c:`, and `a != b` what relational makes of
 * `if a == b:`; negating such a condition would only repeat that mutant.
 */
function negationIsCoveredElsewhere(condition: readonly PythonToken[]): boolean {
  let depth = 0;
  const top: PythonToken[] = [];
  for (const t of condition) {
    if (/^[)\]}]$/.test(t[1])) depth--;
    if (depth === 0) top.push(t);
    if (/^[([{]$/.test(t[1])) depth++;
  }
  const connective = top.some((t) => t[0] === 'NAME' && /^(and|or|if)$/.test(t[1]));
  if (connective) return false;
  if (top[0]?.[1] === 'not') return true;
  const comparisons = top.filter((t) => /^(<|<=|>|>=|==|!=|in|is)$/.test(t[1]));
  if (comparisons.length !== 1) return false;
  // `a == b`, `a != b`, `a not in b`, `a is not b`
  return /^(==|!=)$/.test(comparisons[0]![1]) || top.some((t) => t[1] === 'not');
}
