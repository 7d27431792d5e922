/**
 * Syntax for the agent's edits, through web-tree-sitter and the grammars @vscode/tree-sitter-wasm
 * ships (the per-language npm packages need peer-dependency overrides and run install scripts;
 * the popular tree-sitter-wasms bundle does not load in web-tree-sitter 0.27:
 * ../shared/research/runtime-scout.md). Parsing is WebAssembly over text, never running it, so it
 * is safe in Crucible's process for whatever a model wrote. Used to refuse an edit that leaves a
 * file unparseable and to find a definition by name.
 */
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

const GRAMMARS: Readonly<Record<string, string>> = {
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
};

const WASM_DIR = join(dirname(createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');

let ready: Promise<void> | undefined;
const languages = new Map<string, Promise<Language>>();

async function parserFor(path: string): Promise<Parser | undefined> {
  const grammar = GRAMMARS[extname(path).toLowerCase()];
  if (!grammar) return undefined;
  ready ??= Parser.init();
  await ready;
  let language = languages.get(grammar);
  if (!language) languages.set(grammar, (language = Language.load(join(WASM_DIR, `tree-sitter-${grammar}.wasm`))));
  const parser = new Parser();
  parser.setLanguage(await language);
  return parser;
}

async function parse(path: string, text: string): Promise<Tree | undefined> {
  const parser = await parserFor(path);
  if (!parser) return undefined;
  try {
    return parser.parse(text) ?? undefined;
  } finally {
    parser.delete();
  }
}

/** Whether Crucible can parse files like this one (and so guard edits to them). */
export const hasGrammar = (path: string) => GRAMMARS[extname(path).toLowerCase()] !== undefined;

export type SyntaxCheck =
  { readonly ok: true } | { readonly ok: false; readonly line: number; readonly message: string };

/** A file with no grammar is accepted as it is. */
export async function checkSyntax(path: string, text: string): Promise<SyntaxCheck> {
  const tree = await parse(path, text);
  if (!tree) return { ok: true };
  try {
    if (!tree.rootNode.hasError) return { ok: true };
    const bad = firstError(tree.rootNode);
    const line = (bad?.startPosition.row ?? 0) + 1;
    const what = bad?.isMissing ? `missing ${bad.type}` : `unexpected ${JSON.stringify(bad?.text.slice(0, 40) ?? '')}`;
    return { ok: false, line, message: `syntax error at line ${line}: ${what}` };
  } finally {
    tree.delete();
  }
}

function firstError(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isError || child.isMissing)) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return undefined;
}

/** Node types that define something with a name, per grammar family. */
const DEFINITIONS = new Set([
  'function_definition',
  'class_definition',
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'method_definition',
  'interface_declaration',
  'type_alias_declaration',
  'enum_declaration',
  'variable_declarator',
]);

export interface Definition {
  /** Dotted from the outermost definition: `Stack.push`. */
  readonly name: string;
  readonly kind: string;
  /** Character offsets of the whole definition (a Python decorator's included), and its lines from 1. */
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
}

/** Every named definition in the file, outermost first (empty without a grammar). */
export async function definitions(path: string, text: string): Promise<Definition[]> {
  const tree = await parse(path, text);
  if (!tree) return [];
  try {
    const found: Definition[] = [];
    const visit = (node: Node, prefix: string) => {
      for (const child of node.namedChildren) {
        if (!child) continue;
        const name = DEFINITIONS.has(child.type) ? child.childForFieldName('name')?.text : undefined;
        if (name) {
          // A decorated Python definition starts at its decorators; a `const f = …` at its statement.
          const outer =
            child.parent?.type === 'decorated_definition' ||
            (child.type === 'variable_declarator' && child.parent?.type === 'lexical_declaration')
              ? child.parent
              : child;
          const full = prefix ? `${prefix}.${name}` : name;
          found.push({
            name: full,
            kind: child.type,
            start: byteToChar(text, outer.startIndex),
            end: byteToChar(text, outer.endIndex),
            startLine: outer.startPosition.row + 1,
            endLine: outer.endPosition.row + 1,
          });
          visit(child, full);
        } else visit(child, prefix);
      }
    };
    visit(tree.rootNode, '');
    return found;
  } finally {
    tree.delete();
  }
}

/**
 * web-tree-sitter reports UTF-16 offsets for a JavaScript string input in 0.27 (its
 * `startIndex` counts code units), so the offsets are already the string's: kept as a function
 * to say so where they are used.
 */
const byteToChar = (_text: string, index: number) => index;
