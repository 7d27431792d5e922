/**
 * A compact outline of an HTML document, for a model whose context has no room for the whole
 * source (FormAct's edit-triggered context compression keeps this instead of the source): the
 * headings as a tree, then the document's blocks with a selector the editor accepts, their size
 * and first words, tables with rows × columns, images with their src. It is cut to fit
 * `maxChars` by showing fewer levels first, then fewer lines, and says so.
 */
import type { Element } from 'domhandler';
import { size } from './editor.js';
import {
  elementRange,
  elementsIn,
  isElement,
  parseHtml,
  uniqueSelector,
  visibleText,
  type ParsedHtml,
} from './parse.js';

/** Elements shown as blocks of the structure (others are counted in their parent's line). */
const BLOCKS = new Set([
  'header',
  'footer',
  'main',
  'section',
  'article',
  'aside',
  'nav',
  'div',
  'figure',
  'table',
  'form',
  'ul',
  'ol',
  'dl',
  'blockquote',
  'pre',
  'address',
  'details',
  'img',
  'svg',
  'picture',
  'canvas',
  'iframe',
  'video',
]);
/** Blocks whose inside is summarized, never listed. */
const LEAVES = new Set([
  'table',
  'ul',
  'ol',
  'dl',
  'pre',
  'img',
  'svg',
  'picture',
  'canvas',
  'iframe',
  'video',
  'address',
]);
const HEADING = /^h[1-6]$/;
/** Blocks nested deeper than this are counted in their parent's line. */
const MAX_DEPTH = 8;

interface Options {
  readonly headingSelectors: boolean;
  readonly words: number;
}

/** A line of the outline; when not everything fits, lower priorities go in first. */
interface Line {
  readonly text: string;
  /** 0: always; a heading's level; a block's depth + 0.5. */
  readonly priority: number;
}

/**
 * The outline: everything when it fits in `maxChars`; else the headings and blocks of the
 * outer levels first (h1, top blocks, h2, their children, …), in document order, as many as
 * fit, with a note of what was left out.
 */
export function outline(source: string, maxChars = 4000): string {
  const parsed = parseHtml(source);
  const full = render(parsed, source, { headingSelectors: true, words: 10 });
  const text = full.map((l) => l.text).join('\n');
  if (text.length <= maxChars) return text;

  const lines = render(parsed, source, { headingSelectors: false, words: 8 });
  const counted = lines.filter((l) => l.priority > 0).length;
  const note = (shown: number) =>
    `… ${counted - shown} of ${counted} headings and blocks left out (outline limited to ${maxChars} characters); view a selector to see inside`;
  const budget = maxChars - note(counted).length - 8;
  const keep = new Set<number>();
  let used = 0;
  lines.forEach((l, i) => {
    if (l.priority === 0) {
      keep.add(i);
      used += l.text.length + 1;
    }
  });
  const priorities = [...new Set(lines.map((l) => l.priority).filter((p) => p > 0))].sort((x, y) => x - y);
  fill: for (const priority of priorities) {
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.priority !== priority) continue;
      const cost = lines[i]!.text.length + 1;
      if (used + cost > budget) break fill;
      keep.add(i);
      used += cost;
    }
  }
  const kept = lines.filter((_, i) => keep.has(i)).map((l) => l.text);
  const shown = lines.filter((l, i) => keep.has(i) && l.priority > 0).length;
  const result = [...kept, note(shown)].join('\n');
  return result.length <= maxChars ? result : result.slice(0, maxChars);
}

function render(parsed: ParsedHtml, source: string, options: Options): Line[] {
  const { document } = parsed;
  const all = elementsIn(document);
  const lines: Line[] = [];
  const fixed = (text: string) => lines.push({ text, priority: 0 });
  const title = all.find((el) => el.name === 'title');
  const problems = parsed.errors.filter((p) => p.severity === 'error').length;
  fixed(
    `document: ${size(Buffer.byteLength(source))}, ${source.split('\n').length} lines` +
      (title ? `, title ${JSON.stringify(clip(visibleTextOf(title), 60))}` : '') +
      (problems ? `, ${problems} parse error${problems === 1 ? '' : 's'}` : ''),
  );

  const styles = all.filter((el) => el.name === 'style');
  if (styles.length > 0)
    fixed(
      `styles: ${styles
        .slice(0, 5)
        .map((el) => `${uniqueSelector(parsed, el)} [${sizeOf(parsed, source, el)}]`)
        .join(', ')}${styles.length > 5 ? `, … (${styles.length})` : ''}`,
    );

  const headings = all.filter((el) => HEADING.test(el.name) && !inTemplate(el));
  if (headings.length > 0) {
    fixed('headings:');
    for (const h of headings) {
      const level = Number(h.name[1]);
      const line = h.sourceCodeLocation ? ` (line ${h.sourceCodeLocation.startLine})` : '';
      const selector = options.headingSelectors ? `  ${uniqueSelector(parsed, h)}` : '';
      lines.push({
        text: `${'  '.repeat(level)}${h.name} ${JSON.stringify(clip(visibleText(h), 70))}${line}${selector}`,
        priority: level,
      });
    }
  }

  const body = all.find((el) => el.name === 'body');
  if (body) {
    fixed('blocks (selector [size] contents "first words"):');
    const visit = (parent: Element, depth: number) => {
      for (const child of parent.children) {
        if (!isElement(child)) continue;
        if (!BLOCKS.has(child.name)) {
          // A block inside an inline wrapper (a <a> around a <div>) still shows.
          if (child.children.some((c) => isElement(c) && BLOCKS.has(c.name)) && !HEADING.test(child.name))
            visit(child, depth);
          continue;
        }
        lines.push({ text: `${'  '.repeat(depth)}${describe(parsed, source, child, options)}`, priority: depth + 0.5 });
        if (!LEAVES.has(child.name) && depth < MAX_DEPTH) visit(child, depth + 1);
      }
    };
    visit(body, 1);
  }
  return lines;
}

function describe(parsed: ParsedHtml, source: string, el: Element, options: Options): string {
  const selector = uniqueSelector(parsed, el);
  const parts = [selector, `[${sizeOf(parsed, source, el)}]`];
  if (el.name === 'table') {
    const { rows, cols } = tableShape(el);
    parts.push(`${rows}×${cols}`);
    const caption = el.children.find((c): c is Element => isElement(c) && c.name === 'caption');
    const text = caption ? visibleText(caption) : visibleText(el);
    if (text) parts.push(`${caption ? 'caption ' : ''}${JSON.stringify(words(text, options.words))}`);
    return parts.join(' ');
  }
  if (el.name === 'img') {
    parts.push(`src=${JSON.stringify(src(el.attribs['src'] ?? ''))}`);
    if (el.attribs['alt'] !== undefined) parts.push(`alt=${JSON.stringify(clip(el.attribs['alt'], 40))}`);
    return parts.join(' ');
  }
  if (el.name === 'svg') {
    const box = el.attribs['viewBox'] ?? el.attribs['viewbox'];
    const dims =
      el.attribs['width'] && el.attribs['height']
        ? `${el.attribs['width']}×${el.attribs['height']}`
        : box
          ? `viewBox ${box}`
          : '';
    if (dims) parts.push(`inline svg ${dims}`);
    const label = el.attribs['aria-label'] ?? el.children.find((c): c is Element => isElement(c) && c.name === 'title');
    if (label) parts.push(JSON.stringify(clip(typeof label === 'string' ? label : visibleText(label), 40)));
    return parts.join(' ');
  }
  if (el.name === 'ul' || el.name === 'ol' || el.name === 'dl') {
    const items = el.children.filter((c) => isElement(c) && (c.name === 'li' || c.name === 'dt')).length;
    parts.push(`${items} item${items === 1 ? '' : 's'}`);
  } else {
    const counts = new Map<string, number>();
    for (const c of el.children) if (isElement(c)) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
    if (counts.size > 0)
      parts.push(
        `(${[...counts]
          .slice(0, 6)
          .map(([name, n]) => (n > 1 ? `${n} ${name}` : name))
          .join(', ')}${counts.size > 6 ? ', …' : ''})`,
      );
    const images = elementsIn(el).filter((c) => c.name === 'img');
    if (el.name === 'figure' && images[0]) parts.push(`img src=${JSON.stringify(src(images[0].attribs['src'] ?? ''))}`);
  }
  const text = visibleText(el);
  if (text) parts.push(JSON.stringify(words(text, options.words)));
  return parts.join(' ');
}

function tableShape(table: Element): { rows: number; cols: number } {
  let rows = 0;
  let cols = 0;
  const visit = (node: Element) => {
    for (const child of node.children) {
      if (!isElement(child) || child.name === 'table') continue;
      if (child.name === 'tr') {
        rows++;
        let width = 0;
        for (const cell of child.children)
          if (isElement(cell) && (cell.name === 'td' || cell.name === 'th'))
            width += Math.max(1, Number.parseInt(cell.attribs['colspan'] ?? '1', 10) || 1);
        cols = Math.max(cols, width);
      } else visit(child);
    }
  };
  visit(table);
  return { rows, cols };
}

function sizeOf(parsed: ParsedHtml, source: string, el: Element): string {
  const range = elementRange(parsed, el);
  return range ? size(Buffer.byteLength(source.slice(range.start, range.end))) : 'implied';
}

function src(value: string): string {
  if (value.startsWith('data:')) {
    const head = value.slice(0, value.indexOf(',') + 1 || 40);
    return `${clip(head, 40)}… (${size(value.length)})`;
  }
  return clip(value, 60);
}

function inTemplate(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.type === 'root' && p.parent) return true;
  return false;
}

const visibleTextOf = (el: Element) =>
  el.children
    .map((c) => (c.type === 'text' ? c.data : ''))
    .join('')
    .trim();
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function words(text: string, n: number): string {
  const all = text.split(/\s+/).filter(Boolean);
  const first = all.slice(0, n).join(' ');
  return clip(first, n * 12) + (all.length > n ? '…' : '');
}
