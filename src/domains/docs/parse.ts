/**
 * HTML parsing for the docs domain: parse5 (the WHATWG algorithm, so the tree is the one a
 * browser builds) with the htmlparser2 tree adapter (domhandler nodes, which css-select queries)
 * and source locations on every node written in the source.
 *
 * parse5 reports the tokenizer's errors (a duplicate attribute, a tag the document ends inside)
 * but almost none of the tree builder's: an end tag that closes nothing, an element never
 * closed, tags that overlap, a `<div>` the parser moves out of a `<table>`. Those are the ones
 * that change what renders, so they are found here, exactly, by watching the parser: every end
 * and start tag token it is given (so end tags inside `<script>`, `<style>`, comments,
 * `<textarea>` or `<title>` are never mistaken for markup), every node it foster-parents, and
 * the elements' locations it records. A problem is an `error` when it changes the tree (or loses
 * content), a `warning` when a browser renders what the author meant anyway.
 */
import { Parser, type ParserError, type ParserOptions, type Token } from 'parse5';
import { adapter, type Htmlparser2TreeAdapterMap } from 'parse5-htmlparser2-tree-adapter';
import { selectAll as cssSelectAll } from 'css-select';
import type { AnyNode, Document, Element, ParentNode } from 'domhandler';

export interface ParseProblem {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Where it is in the source: line and column from 1, offset from 0 (UTF-16 code units). */
  readonly line: number;
  readonly col: number;
  readonly offset: number;
}

export interface ParsedHtml {
  /** domhandler Document from parse5-htmlparser2-tree-adapter, with `sourceCodeLocation` on every node the source wrote. */
  readonly document: Document;
  /** In source order. */
  readonly errors: readonly ParseProblem[];
}

/** The problem codes found from the tree (parse5's own codes are kept as it names them). */
export const STRUCTURE_CODES = [
  'stray-end-tag',
  'unclosed-element',
  'misnested-tag',
  'foster-parented',
  'ignored-start-tag',
] as const;

/** HTML elements that never have content or an end tag. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'param',
  'keygen',
  'frame',
  'basefont',
  'bgsound',
]);

/** Elements whose end tag HTML lets an author leave out (the parser closes them where it should). */
export const OPTIONAL_END_TAG: ReadonlySet<string> = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'option',
  'optgroup',
  'html',
  'head',
  'body',
  'colgroup',
  'caption',
  'rb',
  'rt',
  'rtc',
  'rp',
]);

/** Elements whose content is text to the tokenizer (no tags inside). */
export const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);

/**
 * parse5's codes a browser recovers from as the author meant (or nearly): warnings. Every other
 * code, and any code parse5 adds later, is an error, so a guard built on error counts errs on the
 * side of refusing.
 */
const WARNING_CODES: ReadonlySet<string> = new Set([
  'missing-doctype',
  'non-conforming-doctype',
  'misplaced-doctype',
  'control-character-in-input-stream',
  'noncharacter-in-input-stream',
  'surrogate-in-input-stream',
  'unexpected-null-character',
  'non-void-html-element-start-tag-with-trailing-solidus',
  'end-tag-with-attributes',
  'end-tag-with-trailing-solidus',
  'unexpected-solidus-in-tag',
  'unexpected-question-mark-instead-of-tag-name',
  'invalid-first-character-of-tag-name',
  'unexpected-equals-sign-before-attribute-name',
  'missing-end-tag-name',
  'unknown-named-character-reference',
  'missing-semicolon-after-character-reference',
  'missing-attribute-value',
  'missing-whitespace-between-attributes',
  'eof-before-tag-name',
  'nested-comment',
  'abrupt-closing-of-empty-comment',
  'incorrectly-closed-comment',
  'absence-of-digits-in-numeric-character-reference',
  'null-character-reference',
  'surrogate-character-reference',
  'character-reference-outside-unicode-range',
  'control-character-reference',
  'noncharacter-character-reference',
  'unexpected-character-after-doctype-system-identifier',
  'missing-whitespace-after-doctype-public-keyword',
  'missing-whitespace-between-doctype-public-and-system-identifiers',
  'missing-whitespace-after-doctype-system-keyword',
  'missing-quote-before-doctype-public-identifier',
  'missing-quote-before-doctype-system-identifier',
  'missing-doctype-public-identifier',
  'missing-doctype-system-identifier',
  'abrupt-doctype-public-identifier',
  'abrupt-doctype-system-identifier',
  'missing-whitespace-before-doctype-name',
  'missing-doctype-name',
  'invalid-character-sequence-after-doctype-name',
  'abandoned-head-element-child',
  'misplaced-start-tag-for-head-element',
  'nested-noscript-in-head',
  'disallowed-content-in-noscript-in-head',
]);

/** What parse5's codes mean, for a person (codes not listed are spelled out). */
const CODE_MESSAGES: Readonly<Record<string, string>> = {
  'missing-doctype': 'no <!DOCTYPE html> before the first tag (the page renders in quirks mode)',
  'non-conforming-doctype': 'the doctype is not <!DOCTYPE html>',
  'misplaced-doctype': 'a doctype in the middle of the document is ignored',
  'duplicate-attribute': 'an attribute is repeated in this tag; the browser keeps the first and drops the others',
  'eof-in-tag': 'the document ends inside a tag (an unclosed quote or a missing ">")',
  'eof-in-comment': 'a comment "<!--" is never closed with "-->": everything after it is hidden',
  'eof-in-doctype': 'the doctype is never closed with ">"',
  'eof-in-cdata': 'a "<![CDATA[" section is never closed',
  'eof-in-script-html-comment-like-text': 'a "<!--" inside <script> is never closed',
  'eof-in-element-that-can-contain-only-text':
    'a <script>, <style>, <textarea> or <title> is never closed: the rest of the document is read as its text',
  'unexpected-character-in-attribute-name':
    'a quote, "<" or "=" inside an attribute name (often an unclosed quote in an earlier attribute)',
  'unexpected-character-in-unquoted-attribute-value':
    'a quote, "<", "=" or "`" in an unquoted attribute value (quote the value)',
  'incorrectly-opened-comment': 'a "<!" that does not start a comment: the browser hides it up to the next ">"',
  'cdata-in-html-content': 'a "<![CDATA[" section outside SVG/MathML is hidden as a comment',
  'non-void-html-element-start-tag-with-trailing-solidus':
    '"/>" does not close an HTML element that has content; write an end tag',
  'missing-whitespace-between-attributes': 'two attributes with no space between them',
  'missing-attribute-value': 'an attribute written "name=" with no value',
  'unknown-named-character-reference': 'an "&name;" that is not a character reference is shown as it is',
  'missing-semicolon-after-character-reference': 'a character reference without its ";"',
  'invalid-first-character-of-tag-name': 'a "<" that does not start a tag (write &lt;)',
  'eof-before-tag-name': 'the document ends with "<"',
  'end-tag-with-attributes': 'attributes on an end tag are ignored',
  'end-tag-with-trailing-solidus': 'an end tag written "</name/>"',
  'unexpected-solidus-in-tag': 'a "/" inside a tag',
  'unexpected-null-character': 'a NUL character',
  'unexpected-equals-sign-before-attribute-name': 'an "=" where an attribute name should start',
  'missing-end-tag-name': '"</>" is ignored',
  'unexpected-question-mark-instead-of-tag-name': 'a "<?" processing instruction is hidden as a comment',
  'nested-comment': '"<!--" inside a comment',
  'abrupt-closing-of-empty-comment': 'a comment closed as "<!-->" or "<!--->"',
  'incorrectly-closed-comment': 'a comment closed with "--!>"',
  'abandoned-head-element-child': 'an element meant for <head> appears after </head>',
  'misplaced-start-tag-for-head-element': 'a second <head> is ignored',
};

type TagToken = Token.TagToken;
type Loc = Token.Location;

interface TagRecord {
  readonly name: string;
  readonly loc: Loc;
  /**
   * For an end tag, the nearest open element of its name when it came: none, one written in the
   * source, or one the parser implied (a `<tbody>`, a `<body>` whose start tag was left out).
   */
  readonly open: 'none' | 'written' | 'implied';
}

/**
 * parse5's Parser, watched: it records the tag tokens the tree builder receives and the nodes it
 * foster-parents. Only hooks parse5 documents as protected/internal methods are overridden, and
 * each calls the original (parse5 is pinned at 8.1.1).
 */
class WatchedParser extends Parser<Htmlparser2TreeAdapterMap> {
  readonly endTags: TagRecord[] = [];
  readonly startTags: TagRecord[] = [];
  readonly fosteredElements: Element[] = [];
  readonly fosteredText: Loc[] = [];

  override onEndTag(token: TagToken): void {
    if (token.location) {
      const { items, stackTop } = this.openElements;
      let open: TagRecord['open'] = 'none';
      for (let i = stackTop; i >= 0; i--) {
        const item = items[i] as Element | undefined;
        if (item?.name !== token.tagName) continue;
        open = item.sourceCodeLocation ? 'written' : 'implied';
        break;
      }
      this.endTags.push({ name: token.tagName, loc: token.location, open });
    }
    super.onEndTag(token);
  }

  override onStartTag(token: TagToken): void {
    if (token.location) this.startTags.push({ name: token.tagName, loc: token.location, open: 'none' });
    super.onStartTag(token);
  }

  override _fosterParentElement(element: Element): void {
    this.fosteredElements.push(element);
    super._fosterParentElement(element);
  }

  override _attachElementToTree(
    element: Element,
    location: Token.LocationWithAttributes | null,
    insertionLocation: Parameters<Parser<Htmlparser2TreeAdapterMap>['_attachElementToTree']>[2],
  ): void {
    if (location && this._shouldFosterParentOnInsertion()) this.fosteredElements.push(element);
    super._attachElementToTree(element, location, insertionLocation);
  }

  override _insertCharacters(token: Token.CharacterToken): void {
    if (token.location && this._shouldFosterParentOnInsertion() && token.chars.trim() !== '')
      this.fosteredText.push(token.location);
    super._insertCharacters(token);
  }
}

/** What the editor and the outline need beyond the tree: kept beside each parsed document. */
interface ParseInfo {
  readonly source: string;
  /** Offsets of end tags of html, head and body: where an element without an end tag stops at the latest. */
  readonly pageEnds: readonly number[];
}
const INFO = new WeakMap<object, ParseInfo>();

function options(errors: ParserError[]): ParserOptions<Htmlparser2TreeAdapterMap> {
  return { treeAdapter: adapter, sourceCodeLocationInfo: true, onParseError: (error) => errors.push(error) };
}

/** Parses a whole document, finding its problems (none for a valid document). */
export function parseHtml(html: string): ParsedHtml {
  const raw: ParserError[] = [];
  const parser = new WatchedParser(options(raw));
  parser.tokenizer.write(html, true);
  const document = parser.document;
  const errors = problems(html, document, parser, raw, false);
  INFO.set(document, { source: html, pageEnds: pageEnds(parser) });
  return { document, errors };
}

/**
 * Parses `html` as the content of an element named `context` (in that namespace), the way
 * `innerHTML` would: what the editor checks a fragment with before splicing it in.
 */
export function parseFragmentHtml(
  html: string,
  context?: { readonly name: string; readonly namespace?: string | undefined },
): { readonly fragment: Document; readonly errors: readonly ParseProblem[] } {
  const raw: ParserError[] = [];
  const contextElement = context
    ? adapter.createElement(context.name, (context.namespace ?? 'http://www.w3.org/1999/xhtml') as never, [])
    : null;
  const parser = WatchedParser.getFragmentParser(contextElement, options(raw)) as WatchedParser;
  parser.tokenizer.write(html, true);
  const fragment = parser.getFragment();
  return { fragment, errors: problems(html, fragment, parser, raw, true) };
}

function pageEnds(parser: WatchedParser): number[] {
  return parser.endTags
    .filter((tag) => tag.name === 'html' || tag.name === 'body' || tag.name === 'head')
    .map((tag) => tag.loc.startOffset);
}

function problems(
  source: string,
  root: ParentNode,
  parser: WatchedParser,
  raw: readonly ParserError[],
  fragment: boolean,
): ParseProblem[] {
  const found: ParseProblem[] = [];
  const add = (
    code: string,
    severity: 'error' | 'warning',
    loc: { line: number; col: number; offset: number },
    what: string,
  ) => found.push({ code, severity, message: `line ${loc.line}, col ${loc.col}: ${what}`, ...loc });
  const at = (loc: Loc) => ({ line: loc.startLine, col: loc.startCol, offset: loc.startOffset });

  const parse5Codes = new Map<number, Set<string>>();
  for (const error of raw) {
    const severity = WARNING_CODES.has(error.code) ? 'warning' : 'error';
    const meaning = CODE_MESSAGES[error.code] ?? error.code.replace(/-/g, ' ');
    add(
      error.code,
      severity,
      { line: error.startLine, col: error.startCol, offset: error.startOffset },
      `${meaning} (${error.code})`,
    );
    let codes = parse5Codes.get(error.startOffset);
    if (!codes) parse5Codes.set(error.startOffset, (codes = new Set()));
    codes.add(error.code);
  }
  const parse5Said = (offset: number, code: string) => parse5Codes.get(offset)?.has(code) ?? false;

  const elements = elementsIn(root);
  const endTagAt = new Set<number>();
  const startTagAt = new Map<number, Element[]>();
  for (const element of elements) {
    const loc = element.sourceCodeLocation;
    if (!loc) continue;
    if (loc.endTag) endTagAt.add(loc.endTag.startOffset);
    const start = loc.startTag?.startOffset ?? loc.startOffset;
    const same = startTagAt.get(start);
    if (same) same.push(element);
    else startTagAt.set(start, [element]);
  }

  // End tags that closed no element of the source.
  const matchedPageEnd = new Set<string>();
  for (const tag of parser.endTags) if (endTagAt.has(tag.loc.startOffset)) matchedPageEnd.add(tag.name);
  const forgiven = new Set<string>();
  for (const tag of parser.endTags) {
    if (endTagAt.has(tag.loc.startOffset)) continue;
    if (parse5Said(tag.loc.startOffset, 'end-tag-without-matching-open-element')) continue;
    // An end tag closing an element whose start tag HTML let the author leave out (`</tbody>`
    // after bare rows, `</body>` without `<body>`) is valid; html, head and body stay open after
    // their end tag, so theirs is forgiven once.
    if (['html', 'head', 'body'].includes(tag.name)) {
      if (!matchedPageEnd.has(tag.name) && !forgiven.has(tag.name)) {
        forgiven.add(tag.name);
        continue;
      }
    } else if (tag.open === 'implied') continue;
    const why = ['html', 'head', 'body'].includes(tag.name)
      ? `</${tag.name}> was already closed`
      : tag.name === 'p'
        ? 'no <p> is open here, so the browser inserts an empty paragraph'
        : tag.name === 'br'
          ? 'the browser reads it as a <br> line break'
          : tag.open !== 'none'
            ? `the open <${tag.name}> is outside the element this tag sits in, so the tag is ignored`
            : `no <${tag.name}> is open here, so the tag is ignored`;
    add('stray-end-tag', 'error', at(tag.loc), `</${tag.name}> closes nothing (stray end tag): ${why}; remove it`);
  }

  // Start tags the parser dropped (a second <body>, a <td> outside a table, a <form> inside a form).
  for (const tag of parser.startTags) {
    if (startTagAt.has(tag.loc.startOffset)) continue;
    if (parse5Said(tag.loc.startOffset, 'misplaced-start-tag-for-head-element')) continue;
    if (fragment && ['html', 'head', 'body'].includes(tag.name)) continue;
    add(
      'ignored-start-tag',
      'error',
      at(tag.loc),
      `<${tag.name}> is not allowed here and the browser ignores the tag; move it or remove it`,
    );
  }

  // Elements the parser had to duplicate (overlapping tags: <b><i></b></i>).
  const misnested = new Set<Element>();
  for (const group of startTagAt.values()) {
    if (group.length < 2) continue;
    for (const element of group) misnested.add(element);
    const first = group[0]!;
    const loc = first.sourceCodeLocation!;
    const closer = tagAt(source, loc.endOffset);
    add(
      'misnested-tag',
      'error',
      { line: loc.startLine, col: loc.startCol, offset: loc.startOffset },
      `<${first.name}> overlaps ${closer ? `${closer} at ${lineCol(source, loc.endOffset)}` : 'the next tag'} (misnested tags): the browser closes it there and reopens it after; close <${first.name}> first`,
    );
  }

  // Elements never closed (their end tag is not one HTML lets you leave out).
  const rawTextEof = raw.some((error) => error.code === 'eof-in-element-that-can-contain-only-text');
  for (const element of elements) {
    const loc = element.sourceCodeLocation;
    if (!loc || loc.endTag || misnested.has(element)) continue;
    const name = element.name;
    const html = (element.namespace ?? 'http://www.w3.org/1999/xhtml') === 'http://www.w3.org/1999/xhtml';
    if (html && (VOID_ELEMENTS.has(name) || OPTIONAL_END_TAG.has(name))) continue;
    const startTag = loc.startTag;
    if (!html && startTag && source.slice(startTag.endOffset - 2, startTag.endOffset) === '/>') continue;
    if (RAW_TEXT_ELEMENTS.has(name) && rawTextEof) continue; // parse5 says so
    const closer = loc.endOffset >= source.length ? undefined : tagAt(source, loc.endOffset);
    const where = closer
      ? `the browser closes it at ${lineCol(source, loc.endOffset)}, before ${closer}`
      : 'it runs to the end of the document';
    found.push({
      code: 'unclosed-element',
      severity: 'error',
      message: `line ${loc.startLine}: <${name}> is never closed (${where}); add </${name}> where it should end`,
      line: loc.startLine,
      col: loc.startCol,
      offset: loc.startOffset,
    });
  }

  // Content the parser moved out of a table.
  const fostered = new Set<number>();
  for (const element of parser.fosteredElements) {
    const loc = element.sourceCodeLocation;
    if (!loc || fostered.has(loc.startOffset)) continue;
    fostered.add(loc.startOffset);
    add(
      'foster-parented',
      'error',
      { line: loc.startLine, col: loc.startCol, offset: loc.startOffset },
      `<${element.name}> is not allowed directly inside a table, so the browser moves it before the table; put it inside a <td>/<th> or outside the <table>`,
    );
  }
  // The tokenizer splits text at white space: one problem per run of moved text.
  const runs: { start: Loc; end: number }[] = [];
  for (const loc of parser.fosteredText) {
    const last = runs.at(-1);
    if (last && source.slice(last.end, loc.startOffset).trim() === '') last.end = loc.endOffset;
    else runs.push({ start: loc, end: loc.endOffset });
  }
  for (const { start: loc, end } of runs) {
    const text = source.slice(loc.startOffset, end).trim().replace(/\s+/g, ' ');
    add(
      'foster-parented',
      'error',
      at(loc),
      `text ${JSON.stringify(text.length > 30 ? `${text.slice(0, 30)}…` : text)} directly inside a table is moved before the table; put it inside a <td>/<th> or a <caption>`,
    );
  }

  return found.sort((a, b) => a.offset - b.offset);
}

/** "</b>" or "<div>" when a tag starts at `offset`. */
function tagAt(source: string, offset: number): string | undefined {
  const match = /^<(\/?)([A-Za-z][^\s/>]*)/.exec(source.slice(offset, offset + 64));
  return match ? `<${match[1]}${match[2]!.toLowerCase()}>` : undefined;
}

/** "line L, col C" of an offset. */
export function lineCol(source: string, offset: number): string {
  const { line, col } = position(source, offset);
  return `line ${line}, col ${col}`;
}

/** Line and column from 1 of an offset. */
export function position(source: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

// ---------------------------------------------------------------------------------------------
// The tree

export const isElement = (node: AnyNode): node is Element =>
  node.type === 'tag' || node.type === 'script' || node.type === 'style';

/** Every element under `root` in document order, template contents included. */
export function elementsIn(root: ParentNode): Element[] {
  const found: Element[] = [];
  const visit = (node: AnyNode) => {
    if (isElement(node)) found.push(node);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  for (const child of root.children) visit(child);
  return found;
}

/** The text of a node, as `textContent` (scripts and styles included; template contents not). */
export function textOf(node: AnyNode): string {
  if (node.type === 'text') return node.data;
  if (node.type === 'cdata' || isElement(node) || node.type === 'root')
    return node.children.map((child) => (child.type === 'root' ? '' : textOf(child))).join('');
  return '';
}

/** The text a reader sees: no scripts, styles or templates, runs of white space as one space. */
export function visibleText(node: AnyNode): string {
  const parts: string[] = [];
  const visit = (n: AnyNode) => {
    if (n.type === 'text') parts.push(n.data);
    else if (isElement(n)) {
      if (n.name === 'script' || n.name === 'style' || n.name === 'template' || n.name === 'head') return;
      for (const child of n.children) visit(child);
      if (/^(p|div|h[1-6]|li|td|th|tr|br|section|article|header|footer|figcaption|caption|dt|dd)$/.test(n.name))
        parts.push(' ');
    } else if (n.type === 'root') for (const child of n.children) visit(child);
  };
  visit(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Where an element is in the source, [start, end): through its end tag when it has one, else
 * through its last content (an `<li>` closed by the next one stops before it, trailing white
 * space left outside; nothing runs past `</body>`). Undefined for an element the parser implied.
 */
export function elementRange(
  parsed: ParsedHtml | Document,
  element: Element,
):
  | { readonly start: number; readonly end: number; readonly contentStart: number; readonly contentEnd: number }
  | undefined {
  const loc = element.sourceCodeLocation;
  if (!loc) return undefined;
  const start = loc.startOffset;
  const startTagEnd = loc.startTag?.endOffset ?? loc.endOffset;
  if (loc.endTag)
    return { start, end: loc.endTag.endOffset, contentStart: startTagEnd, contentEnd: loc.endTag.startOffset };
  const info = INFO.get('document' in parsed ? parsed.document : parsed);
  let end = loc.endOffset;
  if (info) {
    for (const stop of info.pageEnds) if (stop >= startTagEnd && stop < end) end = stop;
    while (end > startTagEnd && /\s/.test(info.source[end - 1]!)) end--;
  }
  return { start, end, contentStart: startTagEnd, contentEnd: end };
}

/** The source the document was parsed from. */
export const sourceOf = (parsed: ParsedHtml | Document) =>
  INFO.get('document' in parsed ? parsed.document : parsed)?.source;

// ---------------------------------------------------------------------------------------------
// Selectors

export type Selection =
  { readonly ok: true; readonly elements: Element[] } | { readonly ok: false; readonly reason: string };

/** The elements a CSS selector matches, in document order; an invalid selector is a reason, not a throw. */
export function selectAll(parsed: ParsedHtml | Document, selector: string): Selection {
  const document = 'document' in parsed ? parsed.document : parsed;
  if (selector.trim() === '') return { ok: false, reason: 'the selector is empty' };
  try {
    const elements = cssSelectAll<AnyNode, Element>(selector, document);
    return { ok: true, elements };
  } catch (error) {
    return {
      ok: false,
      reason: `invalid CSS selector ${JSON.stringify(selector)}: ${(error as Error).message} (use tag names, #id, .class, [attr], :nth-of-type(n), >)`,
    };
  }
}

/** `<table#totals>`, `<p.note>`, `<li>`: how messages name an element. */
export function describeElement(element: Element): string {
  const id = element.attribs['id'];
  if (id) return `<${element.name}#${id}>`;
  const cls = element.attribs['class']?.trim().split(/\s+/)[0];
  return cls ? `<${element.name}.${cls}>` : `<${element.name}>`;
}

/** CSS.escape for an identifier. */
export function cssEscape(ident: string): string {
  let out = '';
  for (let i = 0; i < ident.length; i++) {
    const ch = ident[i]!;
    const code = ident.charCodeAt(i);
    if (code === 0) out += '\uFFFD';
    else if (
      (code >= 1 && code <= 0x1f) ||
      code === 0x7f ||
      (/[0-9]/.test(ch) && (i === 0 || (i === 1 && ident[0] === '-')))
    )
      out += `\\${code.toString(16)} `;
    else if (i === 0 && ch === '-' && ident.length === 1) out += '\\-';
    else if (code >= 0x80 || /[A-Za-z0-9_-]/.test(ch)) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

const COUNTS = new WeakMap<Document, Map<string, number>>();

/**
 * A selector that matches this element and no other: `#id` when its id is unique, `tag.class`
 * when that is, else a path of `:nth-of-type` steps from the nearest such ancestor (or body).
 */
export function uniqueSelector(parsed: ParsedHtml | Document, element: Element): string {
  const document = 'document' in parsed ? parsed.document : parsed;
  let counts = COUNTS.get(document);
  if (!counts) {
    counts = new Map();
    for (const el of elementsIn(document)) {
      for (const key of keysOf(el)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    COUNTS.set(document, counts);
  }
  const own = (el: Element): string | undefined => {
    if (el.name === 'html' || el.name === 'head' || el.name === 'body') return el.name;
    for (const key of keysOf(el)) if (counts.get(key) === 1) return key;
    return undefined;
  };
  const steps: string[] = [];
  let current: Element | null = element;
  while (current) {
    const alone = own(current);
    if (alone) {
      steps.unshift(alone);
      break;
    }
    const parent: ParentNode | null = current.parent;
    const siblings = parent
      ? parent.children.filter((c): c is Element => isElement(c) && c.name === current!.name)
      : [current];
    const tag = cssEscape(current.name);
    steps.unshift(siblings.length > 1 ? `${tag}:nth-of-type(${siblings.indexOf(current) + 1})` : tag);
    current = parent && isElement(parent) ? parent : null;
  }
  return steps.join(' > ');
}

function keysOf(el: Element): string[] {
  const keys: string[] = [];
  const id = el.attribs['id'];
  if (id && !/\s/.test(id)) keys.push(`${cssEscape(el.name)}#${cssEscape(id)}`);
  const classes = el.attribs['class']?.trim().split(/\s+/).filter(Boolean) ?? [];
  const tag = cssEscape(el.name);
  for (const cls of classes.slice(0, 3)) keys.push(`${tag}.${cssEscape(cls)}`);
  return keys;
}
