/**
 * RichDocFuzz's fault injectors (FormAct): each one puts one known formatting error of one
 * issue type into a clean document, so that a reviewer's precision and recall can be measured
 * per type (bench/docs-bench.ts). An injector edits the source as text — it splices at the tag
 * positions parse5 records — and leaves every other byte of the document as it was; except for
 * `parse-error` it adds no parse problem. Nothing marks the fault (no telltale attribute, class
 * or comment): inline styles, elements and text a careless author could have written.
 *
 * Every type has several variants, so that a reviewer cannot be tuned to one trick; the seed
 * picks the variant (consecutive seeds take consecutive variants, from a start that depends on
 * the document; the next ones when a variant finds no place in it) and the element. The same
 * document, type and seed give the same fault.
 *
 * Where a fault shows (`media`) is part of the ground truth: geometric faults show on every
 * medium, orphan headings on the one printed page size they were placed for. To place a heading
 * at the foot of a printed page from the source alone, the injector reads the document's style
 * sheet (a small cascade: rules, specificity, inheritance, the user agent's defaults for
 * headings and paragraphs) for the page's margins and the heading's and its next block's
 * metrics, forces a page break before a spacer, and sizes the spacer so that the heading fits on
 * the page and the first lines after it do not.
 */
import { selectAll as cssSelectAll } from 'css-select';
import type { AnyNode, Document, Element } from 'domhandler';
import { type DocIssue, type IssueType, type Medium, MEDIA } from './issues.js';
import { seededRandom, type Random } from '../../core/random.js';
import { PX_PER_IN, PX_PER_MM } from './media.js';
import {
  elementRange,
  elementsIn,
  isElement,
  parseHtml,
  selectAll,
  textOf,
  uniqueSelector,
  visibleText,
  type ParsedHtml,
} from './parse.js';

export interface InjectedFault {
  readonly type: IssueType;
  /** The element the reviewer should name (or one containing, or contained by, it), in the injected document. */
  readonly selector: string;
  /** Where the fault shows. */
  readonly media: readonly Medium[];
}

export interface Injected {
  readonly html: string;
  readonly fault: InjectedFault;
  /** Which variant of the type's injector made it (`INJECTORS[type][i].name`). */
  readonly variant: string;
}

/** One way of injecting a fault of a type: undefined when the document has no place for it. */
export interface FaultVariant {
  readonly name: string;
  readonly description: string;
  readonly inject: (doc: SourceDoc, random: Random) => Injected | undefined;
}

/** A uniform number in [0, 1), deterministic for a seed. */

/**
 * The fault of `type` injected into `html`, deterministically for `seed`; undefined when no
 * variant of the type finds a place for it in this document.
 */
export function injectFault(html: string, type: IssueType, seed: number): Injected | undefined {
  const variants = INJECTORS[type];
  const doc = sourceDoc(html);
  const s = Math.abs(Math.trunc(seed));
  // Consecutive seeds take consecutive variants, from a start that depends on the document, so
  // that a few seeds over a corpus reach every variant.
  const first = s + (hash(html) % variants.length);
  for (let k = 0; k < variants.length; k++) {
    const variant = variants[(first + k) % variants.length]!;
    const injected = variant.inject(doc, seededRandom(hash(`${type}:${variant.name}:${s}`)));
    if (injected) return injected;
  }
  return undefined;
}

/**
 * Does the reviewer's `issue` report the injected `fault`? Its type is the fault's, it was seen
 * on one of the fault's media (or holds on every medium), and its selector names the fault's
 * element, an ancestor or a descendant of it — both resolved in the faulted document `parsed`.
 * Any parse-error issue reports a parse-error fault.
 */
export function issueMatchesFault(parsed: ParsedHtml, fault: InjectedFault, issue: DocIssue): boolean {
  if (issue.type !== fault.type) return false;
  if (fault.type === 'parse-error') return true;
  if (issue.medium !== null && !fault.media.includes(issue.medium)) return false;
  const faults = selectAll(parsed, fault.selector);
  const named = selectAll(parsed, issue.selector);
  if (!faults.ok || !named.ok) return false;
  const inside = (x: Element, y: Element) => {
    for (let at: Element | null = x; at; at = parentElement(at)) if (at === y) return true;
    return false;
  };
  return faults.elements.some((x) => named.elements.some((y) => inside(x, y) || inside(y, x)));
}

/** The last few documents read (a benchmark injects every type into each in turn). */
const recent = new Map<string, SourceDoc>();
function sourceDoc(html: string): SourceDoc {
  let doc = recent.get(html);
  if (doc) recent.delete(html);
  else doc = new SourceDoc(html);
  recent.set(html, doc);
  while (recent.size > 4) recent.delete(recent.keys().next().value!);
  return doc;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const pick = <T>(random: Random, items: readonly T[]): T | undefined =>
  items.length ? items[Math.floor(random() * items.length)] : undefined;

// ---------------------------------------------------------------------------------------------
// The document, its source and its style sheet

/** One edit of the source: `remove` characters at `at` replaced by `insert`. */
interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

/** Where the fault's element starts: an element of the clean source, or one inside an edit's text. */
type Target =
  | { readonly element: Element }
  | { readonly edit: Edit; readonly local: number }
  /** No one element: the fault is in the source (a parse error). */
  | { readonly none: true };

interface Rule {
  readonly selector: string;
  readonly specificity: number;
  readonly order: number;
  readonly decls: ReadonlyMap<string, string>;
  /** The media rule it is in ('' for none), lower case. */
  readonly media: string;
}

const ALL_MEDIA: readonly Medium[] = MEDIA;

/** A clean document: its source, its tree (parse5, with source locations) and its style rules. */
export class SourceDoc {
  readonly html: string;
  readonly document: Document;
  readonly elements: readonly Element[];
  readonly body: Element | undefined;
  private readonly rules: readonly Rule[];
  private readonly pageRules: ReadonlyArray<ReadonlyMap<string, string>>;
  private readonly matched = new Map<Rule, ReadonlySet<Element>>();
  private readonly owned = new Map<Element, Map<string, string | undefined>>();
  private readonly sizes = new Map<Element, number>();

  constructor(html: string) {
    this.html = html;
    const parsed = parseHtml(html);
    this.document = parsed.document;
    this.elements = elementsIn(parsed.document);
    this.body = this.elements.find((el) => el.name === 'body');
    const css = this.elements
      .filter((el) => el.name === 'style')
      .map((el) => textOf(el))
      .join('\n');
    const { rules, pages } = parseCss(css);
    this.rules = rules;
    this.pageRules = pages;
  }

  /** Elements of `body` named `names`, with their start tag in the source. */
  all(...names: string[]): Element[] {
    const set = new Set(names);
    return this.elements.filter(
      (el) => set.has(el.name) && el.sourceCodeLocation?.startTag && this.body && within(el, this.body),
    );
  }

  /** The value the style sheet (or the inline style) gives `el` for `prop`, for `medium`, without inheritance. */
  own(el: Element, prop: string, medium: 'print' | 'screen' | 'any' = 'any'): string | undefined {
    let known = this.owned.get(el);
    if (!known) this.owned.set(el, (known = new Map()));
    const key = `${medium} ${prop}`;
    if (known.has(key)) return known.get(key);
    const value = this.cascade(el, prop, medium);
    known.set(key, value);
    return value;
  }

  private cascade(el: Element, prop: string, medium: 'print' | 'screen' | 'any'): string | undefined {
    const inline = el.attribs['style'];
    if (inline) {
      const decls = parseDecls(inline);
      const v = decls.get(prop);
      if (v !== undefined) return v;
    }
    let best: { value: string; specificity: number; order: number } | undefined;
    for (const rule of this.rules) {
      if (!mediaApplies(rule.media, medium)) continue;
      const value = rule.decls.get(prop);
      if (value === undefined) continue;
      if (!this.matches(rule, el)) continue;
      if (
        !best ||
        rule.specificity > best.specificity ||
        (rule.specificity === best.specificity && rule.order > best.order)
      )
        best = { value, specificity: rule.specificity, order: rule.order };
    }
    return best?.value;
  }

  private matches(rule: Rule, el: Element): boolean {
    let set = this.matched.get(rule);
    if (!set) {
      let found: Element[] = [];
      try {
        found = cssSelectAll<AnyNode, Element>(rule.selector, this.document);
      } catch {
        found = [];
      }
      set = new Set(found);
      this.matched.set(rule, set);
    }
    return set.has(el);
  }

  /** Does `el` or an ancestor (up to body) satisfy `test`? */
  inside(el: Element, test: (at: Element) => boolean, includeSelf = false): boolean {
    for (
      let at: Element | null = includeSelf ? el : parentElement(el);
      at && at.name !== 'body';
      at = parentElement(at)
    )
      if (test(at)) return true;
    return false;
  }

  /**
   * Is `el` laid out in plain block flow: its parent a block (not a flex or grid container, a
   * table, a list item, a figure), and no ancestor that splits, moves or clips its content
   * (columns, floats, positioned or transformed boxes, overflow other than visible, preformatted
   * text, SVG)? A grid or flex item further up is a block of its own, with plain flow inside.
   */
  inPlainFlow(el: Element): boolean {
    const parent = parentElement(el);
    if (!parent || parent.name === 'html') return false;
    const own = (at: Element, prop: string) => this.own(at, prop) ?? '';
    if (/flex|grid|inline|table/.test(own(parent, 'display'))) return false;
    if (['li', 'figure', 'dd', 'dt', 'td', 'th', 'caption', 'label', 'button', 'summary'].includes(parent.name))
      return false;
    for (let at: Element | null = el; at && at.name !== 'body'; at = parentElement(at)) {
      if (['table', 'pre', 'svg', 'math', 'template', 'details'].includes(at.name)) return false;
      if (own(at, 'column-count') || own(at, 'columns') || own(at, 'column-width')) return false;
      if (/left|right/.test(own(at, 'float'))) return false;
      if (/absolute|fixed|relative|sticky/.test(own(at, 'position'))) return false;
      if (!/^(none)?$/.test(own(at, 'transform'))) return false;
      if (/hidden|auto|scroll|clip/.test(own(at, 'overflow') + own(at, 'overflow-x') + own(at, 'overflow-y')))
        return false;
      if (/^(none|contents)$/.test(own(at, 'display'))) return false;
    }
    return true;
  }

  /** Is `el` in a multi-column container or a flex or grid one (at any depth)? */
  inMultiFlow(el: Element): boolean {
    return this.inside(
      el,
      (at) =>
        /flex|grid/.test(this.own(at, 'display') ?? '') ||
        Boolean(this.own(at, 'column-count') || this.own(at, 'columns') || this.own(at, 'column-width')),
      false,
    );
  }

  /** The background colour behind `el`'s text, [r, g, b] (white when nothing paints one; undefined for an image or gradient). */
  background(el: Element): [number, number, number] | undefined {
    for (let at: Element | null = el; at && at.type === 'tag'; at = parentElement(at)) {
      const image = this.own(at, 'background-image');
      if (image && image !== 'none') return undefined;
      const value = this.own(at, 'background-color') ?? this.own(at, 'background');
      if (!value) continue;
      if (/url\(|gradient/.test(value)) return undefined;
      const color = parseColor(value.split(/\s+/).find((part) => parseColor(part)) ?? value);
      if (color && color[3] > 0.5) return [color[0], color[1], color[2]];
    }
    return [255, 255, 255];
  }

  /** Avoids a break inside, by `break-inside` or `page-break-inside`. */
  avoidsBreakInside(el: Element): boolean {
    return /avoid/.test(this.own(el, 'break-inside', 'print') ?? this.own(el, 'page-break-inside', 'print') ?? '');
  }

  /** The page's margins, px, from the last `@page` rule ([top, right, bottom, left]); the reviewer's defaults when it sets none. */
  pageMargins(medium: 'a4' | 'letter'): [number, number, number, number] {
    const fallback = medium === 'a4' ? 15 * PX_PER_MM : 0.6 * PX_PER_IN;
    const sides: [number, number, number, number] = [fallback, fallback, fallback, fallback];
    for (const decls of this.pageRules) {
      const margin = decls.get('margin');
      if (margin) {
        const values = boxValues(margin).map((v) => lengthPx(v, 16));
        values.forEach((v, i) => {
          if (v !== undefined) sides[i] = v;
        });
      }
      (['top', 'right', 'bottom', 'left'] as const).forEach((side, i) => {
        const v = decls.get(`margin-${side}`);
        const px = v === undefined ? undefined : lengthPx(v, 16);
        if (px !== undefined) sides[i] = px;
      });
    }
    return sides;
  }

  /** The computed font size of `el`, px (print styles). */
  fontSize(el: Element | null): number {
    if (!el || el.type !== 'tag') return 16;
    const known = this.sizes.get(el);
    if (known !== undefined) return known;
    const size = this.computeFontSize(el);
    this.sizes.set(el, size);
    return size;
  }

  private computeFontSize(el: Element): number {
    const parent = parentElement(el);
    const inherited = parent ? this.fontSize(parent) : 16;
    const value =
      this.own(el, 'font-size', 'print') ?? fontPart(this.own(el, 'font', 'print'), 'size') ?? UA_FONT[el.name];
    if (!value) return inherited;
    const v = value.trim();
    if (v.endsWith('%')) return (parseFloat(v) / 100) * inherited;
    if (v.endsWith('rem')) return parseFloat(v) * this.fontSize(this.elements.find((e) => e.name === 'html') ?? null);
    if (v === 'larger') return inherited * 1.2;
    if (v === 'smaller') return inherited / 1.2;
    return lengthPx(v, inherited) ?? inherited;
  }

  /** The computed line height of `el`, px (print styles; 'normal' is about 1.15 of the font size). */
  lineHeight(el: Element): number {
    const size = this.fontSize(el);
    for (let at: Element | null = el; at && at.type === 'tag'; at = parentElement(at)) {
      const value = this.own(at, 'line-height', 'print') ?? fontPart(this.own(at, 'font', 'print'), 'line-height');
      if (!value) continue;
      const v = value.trim();
      if (v === 'normal') return 1.15 * size;
      if (/^\d*\.?\d+$/.test(v)) return Number(v) * size;
      if (v.endsWith('%')) return (parseFloat(v) / 100) * this.fontSize(at);
      return lengthPx(v, this.fontSize(at)) ?? 1.15 * size;
    }
    return 1.15 * size;
  }

  /** One side of a box property (margin, padding, border width), px. */
  side(el: Element, prop: 'margin' | 'padding' | 'border', side: 'top' | 'bottom'): number {
    const size = this.fontSize(el);
    const index = side === 'top' ? 0 : 2;
    if (prop === 'border') {
      const longhand = this.own(el, `border-${side}-width`, 'print');
      if (longhand) return lengthPx(longhand, size) ?? 0;
      const sideValue = this.own(el, `border-${side}`, 'print') ?? this.own(el, 'border', 'print');
      if (!sideValue || /\bnone\b|\bhidden\b/.test(sideValue)) return 0;
      const width = sideValue
        .split(/\s+/)
        .map((p) => lengthPx(p, size))
        .find((n) => n !== undefined);
      return width ?? (/thin/.test(sideValue) ? 1 : /thick/.test(sideValue) ? 5 : 3);
    }
    const longhand = this.own(el, `${prop}-${side}`, 'print');
    if (longhand) return lengthPx(longhand, size) ?? 0;
    const shorthand = this.own(el, prop, 'print');
    if (shorthand) return lengthPx(boxValues(shorthand)[index] ?? '0', size) ?? 0;
    if (prop === 'margin') return (UA_MARGIN[el.name] ?? 0) * size;
    return 0;
  }

  /** The orphans or widows property (inherited; 2 by default). */
  orphans(el: Element, prop: 'orphans' | 'widows' = 'orphans'): number {
    for (let at: Element | null = el; at && at.type === 'tag'; at = parentElement(at)) {
      const v = this.own(at, prop, 'print');
      if (v && /^\d+$/.test(v.trim())) return Number(v.trim());
    }
    return 2;
  }

  /** The source with `edits` applied, and the fault's element's selector in it. */
  finish(
    type: IssueType,
    variant: string,
    edits: readonly Edit[],
    target: Target,
    media: readonly Medium[] = ALL_MEDIA,
  ): Injected | undefined {
    const sorted = [...edits].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i++)
      if (sorted[i]!.at < sorted[i - 1]!.at + sorted[i - 1]!.remove) throw new Error('overlapping edits');
    let html = '';
    let cursor = 0;
    const placed = new Map<Edit, number>();
    for (const edit of sorted) {
      html += this.html.slice(cursor, edit.at);
      placed.set(edit, html.length);
      html += edit.insert;
      cursor = edit.at + edit.remove;
    }
    html += this.html.slice(cursor);
    if ('none' in target) return { html, fault: { type, selector: 'body', media }, variant };
    let offset: number;
    if ('element' in target) {
      // An element of the clean source moves with the edits before it (an insertion right before it included).
      const start = target.element.sourceCodeLocation!.startOffset;
      offset =
        start + sorted.filter((e) => e.at + e.remove <= start).reduce((n, e) => n + e.insert.length - e.remove, 0);
    } else offset = placed.get(target.edit)! + target.local;
    const parsed = parseHtml(html);
    const element = elementsIn(parsed.document).find((el) => el.sourceCodeLocation?.startOffset === offset);
    if (!element) return undefined;
    return { html, fault: { type, selector: uniqueSelector(parsed, element), media }, variant };
  }
}

const parentElement = (el: Element): Element | null => {
  const p = el.parent;
  return p && isElement(p as AnyNode) ? (p as Element) : null;
};

function within(el: Element, ancestor: Element): boolean {
  for (let at: Element | null = parentElement(el); at; at = parentElement(at)) if (at === ancestor) return true;
  return false;
}

const UA_FONT: Record<string, string> = {
  h1: '2em',
  h2: '1.5em',
  h3: '1.17em',
  h4: '1em',
  h5: '0.83em',
  h6: '0.67em',
  small: '0.83em',
};
/** Block margins of the user agent's style sheet, in em of the element's font size. */
const UA_MARGIN: Record<string, number> = {
  h1: 0.67,
  h2: 0.83,
  h3: 1,
  h4: 1.33,
  h5: 1.67,
  h6: 2.33,
  p: 1,
  ul: 1,
  ol: 1,
  dl: 1,
  pre: 1,
  figure: 1,
  blockquote: 1,
};

function mediaApplies(media: string, medium: 'print' | 'screen' | 'any'): boolean {
  if (media === '' || medium === 'any') return true;
  if (/\bnot\b/.test(media)) return false;
  if (/\ball\b/.test(media)) return true;
  if (medium === 'print') return /\bprint\b/.test(media) || (!/\bscreen\b/.test(media) && !/width|height/.test(media));
  return /\bscreen\b/.test(media) || (!/\bprint\b/.test(media) && !/width|height/.test(media));
}

/** A length in px: px, pt, pc, in, cm, mm, q, em (of `em`), 0. */
function lengthPx(value: string, em: number): number | undefined {
  const m = /^(-?\d*\.?\d+)(px|pt|pc|in|cm|mm|q|em|rem)?$/i.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  switch ((m[2] ?? '').toLowerCase()) {
    case '':
      return n === 0 ? 0 : undefined;
    case 'px':
      return n;
    case 'pt':
      return (n * PX_PER_IN) / 72;
    case 'pc':
      return n * 16;
    case 'in':
      return n * PX_PER_IN;
    case 'cm':
      return n * 10 * PX_PER_MM;
    case 'mm':
      return n * PX_PER_MM;
    case 'q':
      return (n / 4) * PX_PER_MM;
    case 'em':
      return n * em;
    case 'rem':
      return n * 16;
  }
  return undefined;
}

/** "1mm 2mm" → [top, right, bottom, left]. */
function boxValues(value: string): [string, string, string, string] {
  const parts = value.trim().split(/\s+/);
  const [a = '0', b = a, c = a, d = b] = parts;
  return [a, b, c, d];
}

/** The size or line height of a `font` shorthand ("10.5pt/1.5 serif", "bold 12px Arial"). */
function fontPart(font: string | undefined, part: 'size' | 'line-height'): string | undefined {
  if (!font) return undefined;
  const m =
    /(?:^|\s)(\d*\.?\d+(?:px|pt|em|rem|%|mm|cm|in)|xx-small|x-small|small|medium|large|x-large|xx-large)(?:\s*\/\s*([^\s]+))?/.exec(
      font.replace(/"[^"]*"|'[^']*'/g, ''),
    );
  if (!m) return undefined;
  return part === 'size' ? m[1] : m[2];
}

/** Declarations of a block or a style attribute, lower-cased names, `!important` dropped. */
function parseDecls(text: string): Map<string, string> {
  const decls = new Map<string, string>();
  for (const part of splitTop(text, ';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    const value = part
      .slice(colon + 1)
      .replace(/!\s*important\s*$/i, '')
      .trim();
    if (name) decls.set(name, value);
  }
  return decls;
}

/** `text` split at `sep` outside quotes and parentheses. */
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A selector's specificity as one number (ids, then classes/attributes/pseudo-classes, then types). */
function specificity(selector: string): number {
  const s = selector.replace(/"[^"]*"|'[^']*'/g, '');
  const ids = (s.match(/#[\w-]+/g) ?? []).length;
  const classes = (s.match(/\.[\w-]+|\[[^\]]*\]|:(?!:)[\w-]+/g) ?? []).length;
  const types = (
    s.replace(/#[\w-]+|\.[\w-]+|\[[^\]]*\]|::?[\w-]+(\([^)]*\))?/g, ' ').match(/(^|[\s>+~])[a-z][\w-]*/gi) ?? []
  ).length;
  return ids * 10000 + classes * 100 + types;
}

/** Style rules (selectors split, pseudo-element rules dropped) and `@page` declarations, in order. */
function parseCss(source: string): { rules: Rule[]; pages: Map<string, string>[] } {
  const css = source.replace(/\/\*[\s\S]*?\*\//g, '');
  const rules: Rule[] = [];
  const pages: Map<string, string>[] = [];
  let order = 0;
  const block = (from: number): number => {
    // The index just after the `}` matching the `{` before `from`.
    let depth = 1;
    let quote = '';
    for (let i = from; i < css.length; i++) {
      const ch = css[i]!;
      if (quote) {
        if (ch === '\\') i++;
        else if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) return i + 1;
    }
    return css.length;
  };
  const walk = (from: number, to: number, media: string) => {
    let i = from;
    while (i < to) {
      const open = css.indexOf('{', i);
      const semi = css.indexOf(';', i);
      if (open < 0 || open >= to) return;
      const preludeEnd = semi >= 0 && semi < open && css.slice(i, semi).trim().startsWith('@') ? semi : -1;
      if (preludeEnd >= 0) {
        i = preludeEnd + 1; // @import, @charset
        continue;
      }
      const prelude = css.slice(i, open).trim();
      const end = block(open + 1);
      const inner = css.slice(open + 1, end - 1);
      if (prelude.startsWith('@media'))
        walk(open + 1, end - 1, `${media} ${prelude.slice(6).trim().toLowerCase()}`.trim());
      else if (prelude.startsWith('@supports') || prelude.startsWith('@layer')) walk(open + 1, end - 1, media);
      else if (prelude.startsWith('@page')) {
        if (/^@page\s*$/.test(prelude)) pages.push(parseDecls(inner));
      } else if (!prelude.startsWith('@')) {
        const decls = parseDecls(inner);
        for (const selector of splitTop(prelude, ',')) {
          const s = selector.trim();
          if (!s || s.includes('::') || /:(before|after|first-line|first-letter|marker)\b/.test(s)) continue;
          rules.push({ selector: s, specificity: specificity(s), order: order++, decls, media });
        }
      }
      i = end;
    }
  };
  walk(0, css.length, '');
  return { rules, pages };
}

// ---------------------------------------------------------------------------------------------
// Where faults go

/** The element's own text (not its descendants' blocks), white space collapsed. */
const textLength = (el: Element) => visibleText(el).length;

/** Paragraphs in plain block flow with at least `min` characters of text. */
function paragraphs(doc: SourceDoc, min: number): Element[] {
  return doc.all('p').filter((p) => textLength(p) >= min && doc.inPlainFlow(p));
}

/** Paragraphs in plain flow, or in any block that is not a table, a preformatted or a clipped box (for spills to the side). */
function textBlocks(doc: SourceDoc, min: number): Element[] {
  return doc
    .all('p')
    .filter(
      (p) =>
        textLength(p) >= min &&
        !doc.inside(
          p,
          (at) =>
            ['table', 'pre', 'svg', 'button'].includes(at.name) ||
            /hidden|auto|scroll|clip/.test(doc.own(at, 'overflow') ?? '') ||
            /absolute|fixed/.test(doc.own(at, 'position') ?? ''),
          true,
        ),
    );
}

/** Where an attribute is written in the source (parse5 records each one in the start tag). */
function attrLocation(el: Element, name: string): { startOffset: number; endOffset: number } | undefined {
  const startTag = el.sourceCodeLocation?.startTag as
    { attrs?: Record<string, { startOffset: number; endOffset: number }> } | undefined;
  return startTag?.attrs?.[name];
}

/** Where a start tag's name ends: attributes go in there. */
function afterTagName(el: Element): number {
  return el.sourceCodeLocation!.startTag!.startOffset + 1 + el.name.length;
}

/** An edit adding `css` to the element's inline style (after what it has, so it wins). */
function addStyle(doc: SourceDoc, el: Element, css: string): Edit {
  const attr = attrLocation(el, 'style');
  if (attr) {
    const text = doc.html.slice(attr.startOffset, attr.endOffset);
    const m = /^style\s*=\s*(["']?)/i.exec(text);
    if (m && m[1]) {
      const close = attr.endOffset - 1; // the closing quote
      const before = doc.html.slice(attr.startOffset + m[0].length, close).trim();
      const sep = before === '' || before.endsWith(';') ? ' ' : '; ';
      return { at: close, remove: 0, insert: `${sep}${css}` };
    }
    return { at: attr.startOffset, remove: attr.endOffset - attr.startOffset, insert: `style="${css}"` };
  }
  return { at: afterTagName(el), remove: 0, insert: ` style="${css}"` };
}

const insertBefore = (el: Element, text: string): Edit => ({
  at: el.sourceCodeLocation!.startOffset,
  remove: 0,
  insert: text,
});

function insertAfter(doc: SourceDoc, el: Element, text: string): Edit | undefined {
  const range = elementRange(doc.document, el);
  return range ? { at: range.end, remove: 0, insert: text } : undefined;
}

/** The next element sibling. */
function nextElement(el: Element): Element | undefined {
  for (let n = el.next; n; n = n.next) if (isElement(n)) return n;
  return undefined;
}

function previousElement(el: Element): Element | undefined {
  for (let n = el.prev; n; n = n.prev) if (isElement(n)) return n;
  return undefined;
}

const A4 = { width: 210 * PX_PER_MM, height: 297 * PX_PER_MM };
const LETTER = { width: 8.5 * PX_PER_IN, height: 11 * PX_PER_IN };

// ---------------------------------------------------------------------------------------------
// The injectors

const LONG_URLS = [
  'https://archive.example.org/documents/2026/supporting-material/full-data-tables-and-appendices-revised-edition-final-version-for-distribution.pdf',
  'https://files.example.net/shared/public/downloads/quarterly-and-annual-figures/complete-breakdown-by-region-department-and-month-v7.xlsx',
  'https://intranet.example.com/projects/records/attachments/0004518773/original-signed-scan-with-all-annexes-and-correspondence-2025-2026.pdf',
];
const NOTES = [
  'Figures are provisional and subject to final review.',
  'Updated on request of the review panel, see annex.',
  'Draft wording: to be confirmed before circulation.',
  'Revised after the meeting; earlier version withdrawn.',
];
const PLACEHOLDER_SVG = (width: number, height: number) =>
  `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#e8edf2"/><path d="M0 ${height} L${width * 0.3} ${height * 0.45} L${width * 0.55} ${height * 0.7} L${width * 0.8} ${height * 0.3} L${width} ${height * 0.5} V${height} Z" fill="#9fb3c8"/></svg>`,
  ).toString('base64')}`;
/** A real PNG (1×1), for the truncated one. */
const SMALL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC';

const overflow: FaultVariant[] = [
  {
    name: 'clipped-fixed-height',
    description:
      'a paragraph of several lines given a fixed height less than two lines and overflow: hidden (the rest of its text is cut off)',
    inject(doc, random) {
      const p = pick(random, textBlocks(doc, 260));
      if (!p) return undefined;
      return doc.finish('overflow', this.name, [addStyle(doc, p, 'height: 2.2em; overflow: hidden')], { element: p });
    },
  },
  {
    name: 'nowrap-url',
    description:
      'a sentence with a long URL kept on one line (white-space: nowrap) added to a paragraph: it runs past the column and the page',
    inject(doc, random) {
      const p = pick(random, textBlocks(doc, 60));
      const range = p && elementRange(doc.document, p);
      if (!p || !range) return undefined;
      const url = pick(random, LONG_URLS)!;
      const edit: Edit = {
        at: range.contentEnd,
        remove: 0,
        insert: ` The full material is at <span style="white-space: nowrap">${url}</span>.`,
      };
      return doc.finish('overflow', this.name, [edit], { edit, local: edit.insert.indexOf('<span') });
    },
  },
  {
    name: 'nowrap-paragraph',
    description: 'white-space: nowrap on a long paragraph: its text is one line far wider than the page',
    inject(doc, random) {
      const p = pick(random, textBlocks(doc, 220));
      if (!p) return undefined;
      return doc.finish('overflow', this.name, [addStyle(doc, p, 'white-space: nowrap')], { element: p });
    },
  },
  {
    name: 'wide-image',
    description:
      'an image or figure wider than its column: an existing <img>/<svg> set to 280 mm wide, or a 1100 px image inserted after a paragraph',
    inject(doc, random) {
      const images = doc
        .all('img', 'svg')
        .filter(
          (el) => !doc.inside(el, (at) => at.name === 'svg' || /absolute|fixed/.test(doc.own(at, 'position') ?? '')),
        )
        .filter((el) => !/absolute|fixed/.test(doc.own(el, 'position') ?? ''))
        .filter((el) =>
          el.name === 'img' ? true : el.attribs['viewbox'] !== undefined || el.attribs['viewBox'] !== undefined,
        );
      const existing = random() < 0.6 ? pick(random, images) : undefined;
      if (existing)
        return doc.finish(
          'overflow',
          this.name,
          [addStyle(doc, existing, 'width: 280mm; max-width: none; height: auto')],
          {
            element: existing,
          },
        );
      const p = pick(random, paragraphs(doc, 40));
      if (!p) return undefined;
      const img = `<img src="${PLACEHOLDER_SVG(1100, 300)}" alt="Chart of the figures above" width="1100" height="300" style="display: block; width: 1100px; max-width: none; height: auto; margin: 3mm 0">`;
      const edit = insertAfter(doc, p, `\n${img}`);
      return edit && doc.finish('overflow', this.name, [edit], { edit, local: 1 });
    },
  },
];

const overlap: FaultVariant[] = [
  {
    name: 'absolute-box',
    description:
      'an absolutely positioned note (no offsets: at its static position) inserted before a paragraph, whose text it covers',
    inject(doc, random) {
      const p = pick(
        random,
        paragraphs(doc, 80).filter(
          (el) => !doc.inside(el, (at) => /absolute|fixed/.test(doc.own(at, 'position') ?? '')),
        ),
      );
      if (!p) return undefined;
      const note = pick(random, NOTES)!;
      const edit = insertBefore(p, `<p style="position: absolute; margin: 0; font-weight: bold">${note}</p>\n`);
      return doc.finish('overlap', this.name, [edit], { edit, local: 0 });
    },
  },
  {
    name: 'absolute-inline',
    description:
      "an absolutely positioned note (a span, no offsets) put at the start of a paragraph: it is drawn over the paragraph's own first words",
    inject(doc, random) {
      const p = pick(random, paragraphs(doc, 80));
      const range = p && elementRange(doc.document, p);
      if (!p || !range) return undefined;
      const note = pick(random, ['Approved.', 'Revised.', 'Confirmed.', 'Updated.'])!;
      const edit: Edit = {
        at: range.contentStart,
        remove: 0,
        insert: `<span style="position: absolute; font-weight: bold">${note}</span>`,
      };
      return doc.finish('overlap', this.name, [edit], { edit, local: 0 });
    },
  },
  {
    name: 'negative-margin',
    description:
      'a negative top margin pulling a paragraph up over the paragraph before it (three quarters of a line into its last line)',
    inject(doc, random) {
      const pair = pick(random, pairs(doc));
      if (!pair) return undefined;
      const { before, after } = pair;
      const up = Math.round(
        doc.side(before, 'margin', 'bottom') + bottomEdge(doc, before) + 0.75 * doc.lineHeight(before),
      );
      return doc.finish('overlap', this.name, [addStyle(doc, after, `margin-top: -${up}px`)], { element: after });
    },
  },
  {
    name: 'transform',
    description: 'a transform (translateY) moving a paragraph up over the one before it',
    inject(doc, random) {
      const pair = pick(random, pairs(doc));
      if (!pair) return undefined;
      const up = Math.round(liftOver(doc, pair.before, pair.after));
      return doc.finish('overlap', this.name, [addStyle(doc, pair.after, `transform: translateY(-${up}px)`)], {
        element: pair.after,
      });
    },
  },
  {
    name: 'relative-offset',
    description: 'position: relative with a negative top on a paragraph, over the one before it',
    inject(doc, random) {
      const pair = pick(random, pairs(doc));
      if (!pair) return undefined;
      const up = Math.round(liftOver(doc, pair.before, pair.after));
      return doc.finish('overlap', this.name, [addStyle(doc, pair.after, `position: relative; top: -${up}px`)], {
        element: pair.after,
      });
    },
  },
];

/** The bottom padding and border of a block, px: what lies between its last line and its edge. */
const bottomEdge = (doc: SourceDoc, el: Element) =>
  doc.side(el, 'padding', 'bottom') + doc.side(el, 'border', 'bottom');

/** How far to move `after` up for its first line to cover three quarters of the last line of `before`, px. */
function liftOver(doc: SourceDoc, before: Element, after: Element): number {
  const gap = Math.max(doc.side(before, 'margin', 'bottom'), doc.side(after, 'margin', 'top'));
  return (
    gap +
    bottomEdge(doc, before) +
    doc.side(after, 'padding', 'top') +
    doc.side(after, 'border', 'top') +
    0.75 * doc.lineHeight(before)
  );
}

/** Paragraphs in plain flow that follow a paragraph of text (the one they are moved over), with it. */
function pairs(doc: SourceDoc): Array<{ before: Element; after: Element }> {
  const plain = new Set(paragraphs(doc, 40));
  const found: Array<{ before: Element; after: Element }> = [];
  for (const after of plain) {
    const before = previousElement(after);
    if (!before || !plain.has(before)) continue;
    // Nothing but white space between them.
    const a = elementRange(doc.document, before);
    if (a !== undefined && doc.html.slice(a.end, after.sourceCodeLocation!.startOffset).trim() === '')
      found.push({ before, after });
  }
  return found;
}

const brokenImage: FaultVariant[] = [
  {
    name: 'missing-asset',
    description:
      'an <img> whose src is a relative path to a file that is not served with the document (an existing image repointed, or a new figure)',
    inject(doc, random) {
      return imageFault(doc, random, this.name, 'images/figure-2-regional-breakdown.png');
    },
  },
  {
    name: 'remote-url',
    description: 'an <img> loading from a remote URL (nothing is fetched from the network)',
    inject(doc, random) {
      return imageFault(doc, random, this.name, 'https://cdn.example.com/assets/2026/header-photo-large.jpg');
    },
  },
  {
    name: 'truncated-data-uri',
    description:
      'an <img> whose data: URI is cut short (an existing one truncated, or a new one whose PNG stops inside its header)',
    inject(doc, random) {
      const withData = doc.all('img').filter((img) => /^data:image\//i.test(img.attribs['src'] ?? ''));
      const img = pick(random, withData);
      if (img) {
        const attr = attrLocation(img, 'src')!;
        const text = doc.html.slice(attr.startOffset, attr.endOffset);
        const start = text.indexOf('data:');
        const comma = text.indexOf(',', start);
        const end = text.length - (/["']$/.test(text) ? 1 : 0);
        const payload = end - comma - 1;
        if (comma < 0 || payload < 16) return undefined;
        // SVG breaks at any cut; a raster image is cut inside its header, so nothing of it decodes.
        const keep = /svg/i.test(text.slice(start, comma)) ? Math.floor(payload * 0.55) : 16;
        const edit: Edit = { at: attr.startOffset + comma + 1 + keep, remove: payload - keep, insert: '' };
        return doc.finish('broken-image', this.name, [edit], { element: img });
      }
      return imageFault(doc, random, this.name, `data:image/png;base64,${SMALL_PNG.slice(0, 24)}`, true);
    },
  },
];

/** An existing <img> repointed to `src`, or (`insertOnly`, or no image, or by chance) a new figure with one. */
function imageFault(
  doc: SourceDoc,
  random: Random,
  name: string,
  src: string,
  insertOnly = false,
): Injected | undefined {
  const images = doc.all('img').filter((img) => attrLocation(img, 'src'));
  const existing = !insertOnly && random() < 0.5 ? pick(random, images) : undefined;
  if (existing) {
    const attr = attrLocation(existing, 'src')!;
    return doc.finish(
      'broken-image',
      name,
      [{ at: attr.startOffset, remove: attr.endOffset - attr.startOffset, insert: `src="${src}"` }],
      {
        element: existing,
      },
    );
  }
  const p = pick(random, paragraphs(doc, 40));
  if (!p) return undefined;
  const figure = `\n<figure style="margin: 4mm 0"><img src="${src}" alt="Photograph of the site" width="240" height="135"><figcaption>Site photograph.</figcaption></figure>`;
  const edit = insertAfter(doc, p, figure);
  return edit && doc.finish('broken-image', name, [edit], { edit, local: figure.indexOf('<img') });
}

const lowContrast: FaultVariant[] = [
  {
    name: 'light-grey',
    description: 'light grey text (#b4b4b4: 2.1:1 on white) on a paragraph on a light background',
    inject(doc, random) {
      const p = pick(random, contrastTargets(doc, '#b4b4b4'));
      return p && doc.finish('low-contrast', this.name, [addStyle(doc, p, 'color: #b4b4b4')], { element: p });
    },
  },
  {
    name: 'dark-on-dark',
    description: 'a dark background with dark text (#3b4754 on #1c232b: 1.7:1) on a paragraph',
    inject(doc, random) {
      const p = pick(random, contrastTargets(doc, '#3b4754', '#1c232b'));
      return (
        p &&
        doc.finish('low-contrast', this.name, [addStyle(doc, p, 'background: #1c232b; color: #3b4754; padding: 2mm')], {
          element: p,
        })
      );
    },
  },
  {
    name: 'small-pale',
    description: 'small pale text (8 px, #a0a0a0: 2.6:1 on white) on a paragraph on a light background',
    inject(doc, random) {
      const p = pick(random, contrastTargets(doc, '#a0a0a0'));
      return (
        p && doc.finish('low-contrast', this.name, [addStyle(doc, p, 'font-size: 8px; color: #a0a0a0')], { element: p })
      );
    },
  },
];

/**
 * Paragraphs with text of their own, not in a table or a figure, on which text of colour `fg`
 * (on `bg`, or on the background the style sheet paints behind them) is below 3:1, so it fails
 * WCAG AA at any size.
 */
function contrastTargets(doc: SourceDoc, fg: string, bg?: string): Element[] {
  const front = parseColor(fg)!;
  return doc
    .all('p')
    .filter(
      (p) =>
        p.children.some((c) => c.type === 'text' && c.data.trim().length >= 20) &&
        !doc.inside(p, (at) => ['table', 'figure', 'svg', 'pre'].includes(at.name)),
    )
    .filter((p) => {
      const back = bg ? parseColor(bg) : doc.background(p);
      return back !== undefined && contrastRatio(front, back) < 3;
    });
}

/** WCAG's contrast ratio of two sRGB colours. */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const lum = (c: readonly number[]) => {
    const [r, g, bl] = [0, 1, 2].map((i) => {
      const v = (c[i] ?? 0) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const NAMED: Record<string, string> = { white: '#ffffff', black: '#000000', transparent: '#0000' };

/** #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), white, black, transparent → [r, g, b, a]. */
function parseColor(value: string): [number, number, number, number] | undefined {
  const v = (NAMED[value.trim().toLowerCase()] ?? value).trim().toLowerCase();
  let m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v);
  if (m) {
    let hex = m[1]!;
    if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
    const n = (i: number) => parseInt(hex.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), hex.length === 8 ? n(6) / 255 : 1];
  }
  m = /^rgba?\(([^)]*)\)$/.exec(v);
  if (m) {
    const parts = m[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map((x) => (x.endsWith('%') ? parseFloat(x) * 2.55 : Number(x)));
    if (parts.length < 3 || parts.some((x) => Number.isNaN(x))) return undefined;
    const alpha = parts[3] === undefined ? 1 : m[1]!.trim().endsWith('%') ? parts[3] / 255 : parts[3];
    return [parts[0]!, parts[1]!, parts[2]!, alpha];
  }
  return undefined;
}

const tableTooWide: FaultVariant[] = [
  {
    name: 'nowrap-columns',
    description:
      'twelve monthly columns added to a table, its cells kept on one line (white-space: nowrap; table-layout: auto)',
    inject(doc, random) {
      const table = pick(random, tables(doc));
      if (!table) return undefined;
      const edits: Edit[] = [addStyle(doc, table, 'white-space: nowrap; table-layout: auto')];
      const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
      for (const row of doc.all('tr').filter((tr) => closestTable(tr) === table)) {
        const cells = row.children.filter((c): c is Element => isElement(c) && (c.name === 'td' || c.name === 'th'));
        const last = cells.at(-1);
        const range = last && elementRange(doc.document, last);
        if (!range) continue;
        const head = parentElement(row)?.name === 'thead' || cells.every((c) => c.name === 'th');
        const extra = months
          .map((m, i) =>
            head
              ? `<th>${m} 2025 (actual)</th>`
              : `<td>${(1000 + ((i * 7919 + cells.length * 104729) % 9000)).toLocaleString('en-GB')}.${i % 10} units</td>`,
          )
          .join('');
        edits.push({ at: range.end, remove: 0, insert: extra });
      }
      return doc.finish('table-too-wide', this.name, edits, { element: table });
    },
  },
  {
    name: 'min-width',
    description: 'min-width: 300mm on a table (wider than any page)',
    inject(doc, random) {
      const table = pick(random, tables(doc));
      return (
        table && doc.finish('table-too-wide', this.name, [addStyle(doc, table, 'min-width: 300mm')], { element: table })
      );
    },
  },
  {
    name: 'fixed-px-width',
    description: 'a fixed pixel width of 1400 px on a table',
    inject(doc, random) {
      const table = pick(random, tables(doc));
      return (
        table && doc.finish('table-too-wide', this.name, [addStyle(doc, table, 'width: 1400px')], { element: table })
      );
    },
  },
];

function closestTable(el: Element): Element | undefined {
  for (let at = parentElement(el); at; at = parentElement(at)) if (at.name === 'table') return at;
  return undefined;
}

/**
 * Tables of two rows or more, not nested in another table, nor in a flex or grid container (a
 * table there widens its item, and moves the item's other content off the page with it).
 */
function tables(doc: SourceDoc): Element[] {
  return doc
    .all('table')
    .filter(
      (t) =>
        !closestTable(t) &&
        !doc.inside(t, (at) => /flex|grid/.test(doc.own(at, 'display') ?? '')) &&
        doc.all('tr').filter((tr) => closestTable(tr) === t).length >= 2,
    );
}

/**
 * Headings that can be pushed to the foot of a page: h2–h4 in plain block flow (no columns,
 * flex, grid, or ancestor that avoids breaks inside), not right after another heading (the
 * break forced before the heading would leave that one alone at the foot of its page), before a
 * block of text of a few lines that may be cut across pages (so that only the printed page size
 * the fault is placed for shows it: 66 px more or less room moves the heading off the foot of
 * the page).
 */
function orphanCandidates(doc: SourceDoc): Array<{ heading: Element; next: Element }> {
  const found: Array<{ heading: Element; next: Element }> = [];
  for (const heading of doc.all('h2', 'h3', 'h4')) {
    if (textLength(heading) === 0 || textLength(heading) > 60) continue;
    if (
      !doc.inPlainFlow(heading) ||
      doc.inMultiFlow(heading) ||
      doc.inside(heading, (at) => doc.avoidsBreakInside(at), true)
    )
      continue;
    const before = previousInFlow(heading);
    if (before && /^h[1-6]$/.test(before.name)) continue;
    const next = nextElement(heading);
    if (!next || !['p', 'ul', 'ol', 'dl', 'blockquote', 'div'].includes(next.name) || doc.avoidsBreakInside(next))
      continue;
    if (/absolute|fixed/.test(doc.own(next, 'position') ?? '') || /left|right/.test(doc.own(next, 'float') ?? ''))
      continue;
    if (/flex|grid|inline|table/.test(doc.own(next, 'display') ?? '')) continue;
    const first = firstTextBlock(next);
    if (doc.avoidsBreakInside(first) || estimatedLines(doc, first) < 1.8) continue;
    found.push({ heading, next });
  }
  return found;
}

/** About how many lines `el`'s text takes on a printed page (A4's content width; half an em a character). */
function estimatedLines(doc: SourceDoc, el: Element): number {
  const [, right, , left] = doc.pageMargins('a4');
  return (textLength(el) * 0.5 * doc.fontSize(el)) / (A4.width - left - right);
}

/** The element laid out just before `el`: its previous sibling's last descendant, or its parent's. */
function previousInFlow(el: Element): Element | undefined {
  for (let at: Element | null = el; at && at.name !== 'body'; at = parentElement(at)) {
    let previous = previousElement(at);
    if (!previous) continue;
    for (let last = lastElement(previous); last; last = lastElement(last)) previous = last;
    return previous;
  }
  return undefined;
}

function lastElement(el: Element): Element | undefined {
  for (let i = el.children.length - 1; i >= 0; i--) {
    const c = el.children[i]!;
    if (isElement(c)) return c;
  }
  return undefined;
}

/**
 * Where the heading's border box must start, px from the top of the page's content area, so that
 * it fits on the page with some room but the first lines of what follows do not.
 */
function orphanTop(doc: SourceDoc, heading: Element, next: Element, medium: 'a4' | 'letter'): number {
  const sheet = medium === 'a4' ? A4 : LETTER;
  const [top, right, bottom, left] = doc.pageMargins(medium);
  const contentHeight = sheet.height - top - bottom;
  const contentWidth = sheet.width - left - right;
  const size = doc.fontSize(heading);
  const lh = doc.lineHeight(heading);
  const lines = Math.max(1, Math.ceil((textLength(heading) * 0.58 * size) / contentWidth));
  const box =
    doc.side(heading, 'padding', 'top') +
    doc.side(heading, 'border', 'top') +
    lines * lh +
    doc.side(heading, 'padding', 'bottom') +
    doc.side(heading, 'border', 'bottom');
  // What must follow the heading on its page for it not to be an orphan: the gap, and the first
  // lines of the next block (all of it, when it is not cut across pages).
  const gap = Math.max(doc.side(heading, 'margin', 'bottom'), doc.side(next, 'margin', 'top'));
  const nextTop = doc.side(next, 'padding', 'top') + doc.side(next, 'border', 'top');
  const firstText = firstTextBlock(next);
  const innerTop =
    firstText === next ? 0 : doc.side(firstText, 'margin', 'top') + doc.side(firstText, 'padding', 'top');
  // A block of fewer lines than orphans + widows is never cut: all of it must fit.
  const nextLines = Math.max(2, Math.floor(estimatedLines(doc, firstText)));
  const orphans = doc.orphans(firstText);
  const first = nextLines < orphans + doc.orphans(firstText, 'widows') ? nextLines : orphans;
  const needed = gap + nextTop + innerTop + first * doc.lineHeight(firstText);
  const slack = 0.45 * needed;
  return Math.floor(contentHeight - box - slack - leadingEdges(doc, heading));
}

/**
 * A page break forced right before `el` moves up to the outermost ancestor it starts: their top
 * margins (kept after a forced break), borders and padding come first on the new page.
 */
function leadingEdges(doc: SourceDoc, el: Element): number {
  let total = 0;
  for (let at = el; ;) {
    const parent = parentElement(at);
    if (!parent || parent.name === 'body' || parent.name === 'html') break;
    const first = parent.children.find((c) => isElement(c) || (c.type === 'text' && c.data.trim() !== ''));
    if (first !== at) break;
    total += doc.side(parent, 'margin', 'top') + doc.side(parent, 'border', 'top') + doc.side(parent, 'padding', 'top');
    at = parent;
  }
  return total;
}

/** The first block of text inside `el` (itself when its text is its own). */
function firstTextBlock(el: Element): Element {
  let at = el;
  for (;;) {
    const firstChild = at.children.find((c) => isElement(c) || (c.type === 'text' && c.data.trim() !== ''));
    if (
      !firstChild ||
      !isElement(firstChild) ||
      ['span', 'a', 'strong', 'em', 'b', 'i', 'code', 'small'].includes(firstChild.name)
    )
      return at;
    at = firstChild;
  }
}

function orphanVariant(kind: 'spacer' | 'margin', medium: 'a4' | 'letter'): FaultVariant {
  const name = `${kind}-${medium}`;
  const sheet = medium === 'a4' ? 'A4' : 'US Letter';
  return {
    name,
    description:
      kind === 'spacer'
        ? `an empty block (forced page break before it, its height set from the page geometry) inserted before a heading, so that on ${sheet} the heading is the last thing on its page (its keep-with-next lifted)`
        : `a forced page break before a heading and a large top margin on it (set from the page geometry), so that on ${sheet} it is the last thing on its page (its keep-with-next lifted)`,
    inject(doc, random) {
      const choice = pick(random, orphanCandidates(doc));
      if (!choice) return undefined;
      const { heading, next } = choice;
      const top = orphanTop(doc, heading, next, medium);
      const keep = 'break-after: auto';
      if (kind === 'spacer') {
        const marginTop = doc.side(heading, 'margin', 'top');
        const height = Math.max(0, Math.round(top - marginTop));
        const spacer: Edit = insertBefore(heading, `<div style="break-before: page; height: ${height}px"></div>\n`);
        return doc.finish('orphan-heading', name, [spacer, addStyle(doc, heading, keep)], { element: heading }, [
          medium,
        ]);
      }
      return doc.finish(
        'orphan-heading',
        name,
        [addStyle(doc, heading, `break-before: page; margin-top: ${Math.round(top)}px; ${keep}`)],
        { element: heading },
        [medium],
      );
    },
  };
}

const orphanHeading: FaultVariant[] = [
  orphanVariant('spacer', 'a4'),
  orphanVariant('margin', 'letter'),
  orphanVariant('spacer', 'letter'),
  orphanVariant('margin', 'a4'),
];

const parseError: FaultVariant[] = [
  {
    name: 'stray-end-tag',
    description: 'a stray </div> after a paragraph where no <div> is open (the browser ignores it)',
    inject(doc, random) {
      const ps = doc.all('p').filter((p) => !doc.inside(p, (at) => at.name === 'div' || at.name === 'table', true));
      const p = pick(random, ps.length ? ps : doc.all('p'));
      const edit = p && insertAfter(doc, p, '</div>');
      return edit && doc.finish('parse-error', this.name, [edit], { none: true });
    },
  },
  {
    name: 'unclosed-section',
    description:
      "the end tag of a <section> (else an <article>, <aside> or <div>) that is the last thing in its parent removed: the browser closes it at the parent's end, where it ended anyway",
    inject(doc, random) {
      // Last in its parent (nothing but white space after its end tag, before the parent's):
      // left open, it holds nothing more than it did, and the page renders as it did.
      const lastInParent = (el: Element) => {
        const end = el.sourceCodeLocation?.endTag;
        const parent = parentElement(el);
        const parentEnd = parent?.sourceCodeLocation?.endTag;
        return end && parentEnd && doc.html.slice(end.endOffset, parentEnd.startOffset).trim() === '';
      };
      const withEnd = (names: string[]) => doc.all(...names).filter(lastInParent);
      const candidates = withEnd(['section']).length ? withEnd(['section']) : withEnd(['article', 'aside', 'div']);
      const el = pick(random, candidates);
      if (!el) return undefined;
      const end = el.sourceCodeLocation!.endTag!;
      return doc.finish(
        'parse-error',
        this.name,
        [{ at: end.startOffset, remove: end.endOffset - end.startOffset, insert: '' }],
        {
          none: true,
        },
      );
    },
  },
  {
    name: 'duplicate-attribute',
    description: 'an attribute repeated in a start tag (class="x" class="x")',
    inject(doc, random) {
      const el = pick(
        random,
        doc.all('p', 'li', 'td', 'th', 'span', 'div', 'section', 'h2', 'h3').filter((e) => e.attribs['class']),
      );
      if (!el) return undefined;
      const attr = attrLocation(el, 'class')!;
      const text = doc.html.slice(attr.startOffset, attr.endOffset);
      return doc.finish('parse-error', this.name, [{ at: attr.endOffset, remove: 0, insert: ` ${text}` }], {
        none: true,
      });
    },
  },
  {
    name: 'unterminated-quote',
    description:
      'a title attribute whose closing quote is missing, before the class of a small element (the class is lost)',
    inject(doc, random) {
      const el = pick(
        random,
        doc.all('td', 'th', 'li', 'span').filter((e) => e.attribs['class'] && Object.keys(e.attribs).length === 1),
      );
      if (!el) return undefined;
      return doc.finish('parse-error', this.name, [{ at: afterTagName(el), remove: 0, insert: ' title="Checked' }], {
        none: true,
      });
    },
  },
];

const headingOrder: FaultVariant[] = [
  {
    name: 'skip-level',
    description: 'a heading made two levels deeper than the heading before it (an h2 → h4 skip)',
    inject(doc, random) {
      const choices = headingPairs(doc).filter(
        ({ previous, heading }) => previous + 2 <= 6 && level(heading) <= previous + 1,
      );
      const choice = pick(random, choices);
      return choice && renameHeading(doc, choice.heading, choice.previous + 2, this.name);
    },
  },
  {
    name: 'h2-to-h5',
    description: 'an h2 after the first heading turned into an h5',
    inject(doc, random) {
      const choice = pick(
        random,
        headingPairs(doc).filter(({ heading, previous }) => heading.name === 'h2' && previous <= 3),
      );
      return choice && renameHeading(doc, choice.heading, 5, this.name);
    },
  },
];

const level = (h: Element) => Number(h.name[1]);

/** Every heading after the first, with the level of the heading before it. */
function headingPairs(doc: SourceDoc): Array<{ heading: Element; previous: number }> {
  const headings = doc.all('h1', 'h2', 'h3', 'h4', 'h5', 'h6').filter((h) => h.sourceCodeLocation?.endTag);
  return headings.slice(1).map((heading, i) => ({ heading, previous: level(headings[i]!) }));
}

/**
 * The heading renamed; a keep-with-next the style sheet gave it as it was is kept (inline), so
 * that the new level moves no page break.
 */
function renameHeading(doc: SourceDoc, heading: Element, to: number, variant: string): Injected | undefined {
  const loc = heading.sourceCodeLocation!;
  const edits: Edit[] = [
    { at: loc.startTag!.startOffset + 1, remove: 2, insert: `h${to}` },
    { at: loc.endTag!.startOffset + 2, remove: 2, insert: `h${to}` },
  ];
  if (/avoid/.test(doc.own(heading, 'break-after', 'print') ?? doc.own(heading, 'page-break-after', 'print') ?? ''))
    edits.push(addStyle(doc, heading, 'break-after: avoid'));
  return doc.finish('heading-order', variant, edits, { element: heading });
}

/** Every type's variants, in the order seeds take them. */
export const INJECTORS: Readonly<Record<IssueType, readonly FaultVariant[]>> = {
  overflow,
  overlap,
  'broken-image': brokenImage,
  'low-contrast': lowContrast,
  'table-too-wide': tableTooWide,
  'orphan-heading': orphanHeading,
  'parse-error': parseError,
  'heading-order': headingOrder,
};
