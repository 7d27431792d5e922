/**
 * Mutation sites of a JavaScript or TypeScript program, found on the TypeScript AST:
 * parsing is not executing, so it runs in-process. Only expressions are edited: string
 * and template literals, comments and types are never touched.
 */
import ts from 'typescript';
import { constantReplacements, type MutationSite } from './types.js';

const K = ts.SyntaxKind;
const SWAPS: ReadonlyMap<ts.SyntaxKind, { operator: MutationSite['operator']; to: string }> = new Map([
  [K.LessThanToken, { operator: 'relational', to: '<=' }],
  [K.LessThanEqualsToken, { operator: 'relational', to: '<' }],
  [K.GreaterThanToken, { operator: 'relational', to: '>=' }],
  [K.GreaterThanEqualsToken, { operator: 'relational', to: '>' }],
  [K.EqualsEqualsEqualsToken, { operator: 'relational', to: '!==' }],
  [K.ExclamationEqualsEqualsToken, { operator: 'relational', to: '===' }],
  [K.EqualsEqualsToken, { operator: 'relational', to: '!=' }],
  [K.ExclamationEqualsToken, { operator: 'relational', to: '==' }],
  [K.PlusToken, { operator: 'arithmetic', to: '-' }],
  [K.MinusToken, { operator: 'arithmetic', to: '+' }],
  [K.AsteriskToken, { operator: 'arithmetic', to: '/' }],
  [K.SlashToken, { operator: 'arithmetic', to: '*' }],
  [K.PercentToken, { operator: 'arithmetic', to: '/' }],
  [K.PlusEqualsToken, { operator: 'arithmetic', to: '-=' }],
  [K.MinusEqualsToken, { operator: 'arithmetic', to: '+=' }],
  [K.AsteriskEqualsToken, { operator: 'arithmetic', to: '/=' }],
  [K.SlashEqualsToken, { operator: 'arithmetic', to: '*=' }],
  [K.AmpersandAmpersandToken, { operator: 'logical', to: '||' }],
  [K.BarBarToken, { operator: 'logical', to: '&&' }],
]);

const INCREMENTS = new Set<ts.SyntaxKind>([K.PlusPlusToken, K.MinusMinusToken]);

export function parseScript(source: string, language: 'javascript' | 'typescript'): ts.SourceFile {
  const kind = language === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(
    language === 'typescript' ? 'program.ts' : 'program.js',
    source,
    ts.ScriptTarget.Latest,
    true,
    kind,
  );
}

/** True when the source parses without syntax errors (type errors are the harness's business). */
export function parsesCleanly(source: string, language: 'javascript' | 'typescript'): boolean {
  const file = parseScript(source, language) as ts.SourceFile & { parseDiagnostics?: readonly ts.Diagnostic[] };
  if (file.parseDiagnostics) return file.parseDiagnostics.length === 0;
  const fileName = language === 'typescript' ? 'program.ts' : 'program.js';
  return (ts.transpileModule(source, { fileName, reportDiagnostics: true }).diagnostics ?? []).length === 0;
}

/** The sites of `source` that start at or after `bodyStart` (the solution, not the prompt). */
export function javascriptSites(
  source: string,
  language: 'javascript' | 'typescript',
  bodyStart: number,
): MutationSite[] {
  const file = parseScript(source, language);
  const sites: MutationSite[] = [];
  const add = (operator: MutationSite['operator'], start: number, end: number, replacement: string) => {
    if (start >= bodyStart) sites.push({ operator, start, end, replacement });
  };
  const negate = (condition: ts.Expression | undefined) => {
    if (condition && !negationIsCoveredElsewhere(condition))
      add('negate-condition', condition.getStart(), condition.end, `!(${condition.getText()})`);
  };

  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node)) return; // types do not run
    if (ts.isTemplateExpression(node) || ts.isTaggedTemplateExpression(node)) return; // strings stay as written, as Python's f-strings do
    if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && INCREMENTS.has(node.operator)) {
      const at = ts.isPrefixUnaryExpression(node) ? node.getStart() : node.operand.end;
      const increment = node.operator === K.PlusPlusToken;
      add('arithmetic', at, at + 2, increment ? '--' : '++');
    }
    if (ts.isBinaryExpression(node)) {
      const swap = SWAPS.get(node.operatorToken.kind);
      if (swap) add(swap.operator, node.operatorToken.getStart(), node.operatorToken.end, swap.to);
    } else if (ts.isPrefixUnaryExpression(node) && node.operator === K.ExclamationToken) {
      add('remove-not', node.getStart(), node.operand.getStart(), '');
    } else if (ts.isNumericLiteral(node) && !isKey(node)) {
      // getText, not text: `0x10` and `1_000` are left alone, as in Python
      for (const replacement of constantReplacements(node.getText()))
        add('constant', node.getStart(), node.end, replacement);
    } else if (node.kind === K.TrueKeyword || node.kind === K.FalseKeyword) {
      add('boolean', node.getStart(), node.end, node.kind === K.TrueKeyword ? 'false' : 'true');
    } else if (ts.isReturnStatement(node) && node.expression && node.expression.getText() !== 'undefined') {
      add('return', node.expression.getStart(), node.expression.end, 'undefined');
    } else if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.argumentExpression)) {
      const index = node.argumentExpression;
      add('index', index.getStart(), index.end, `${index.text} + 1`);
      add('index', index.getStart(), index.end, `${index.text} - 1`);
    } else if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) {
      negate(node.expression);
    } else if (ts.isForStatement(node)) {
      negate(node.condition);
    } else if (ts.isConditionalExpression(node)) {
      negate(node.condition);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sites;
}

/** A literal that names a property (`{ 1: x }`) rather than computing a value. */
function isKey(node: ts.Node): boolean {
  return (node.parent as ts.Node & { name?: ts.Node }).name === node;
}

const EQUALITY = new Set([
  K.EqualsEqualsEqualsToken,
  K.ExclamationEqualsEqualsToken,
  K.EqualsEqualsToken,
  K.ExclamationEqualsToken,
]);

/**
 * `c` is what remove-not makes of `if (!c)`, and `a !== b` what relational makes of
 * `if (a === b)`; negating such a condition would only repeat that mutant.
 */
function negationIsCoveredElsewhere(condition: ts.Expression): boolean {
  let inner = condition;
  while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
  if (ts.isPrefixUnaryExpression(inner) && inner.operator === K.ExclamationToken) return true;
  return ts.isBinaryExpression(inner) && EQUALITY.has(inner.operatorToken.kind);
}
