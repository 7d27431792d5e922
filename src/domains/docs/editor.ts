/**
 * The syntax-aware editor of FormAct's editing agent: edits address elements by CSS selector and
 * are applied by splicing the original source at the elements' source offsets, so every byte
 * outside the edit stays as it was (nothing is re-serialized). An edit is refused, with what to
 * do instead, when it would make the document worse: when the html it brings does not parse
 * cleanly where it goes, when the document would have more parse errors of some kind than it
 * had, or when an element outside the edit would move in the tree (an unclosed tag swallowing
 * its siblings). A refusal leaves nothing changed: the function is pure.
 */
import type { Document, Element, ParentNode } from 'domhandler';
import { z } from 'zod';
import {
  describeElement,
  elementRange,
  elementsIn,
  isElement,
  parseFragmentHtml,
  parseHtml,
  position,
  selectAll,
  VOID_ELEMENTS,
  type ParsedHtml,
  type ParseProblem,
} from './parse.js';

export type DocEdit =
  | { op: 'replace'; selector: string; html: string; all?: boolean | undefined }
  | { op: 'replace_inner'; selector: string; html: string; all?: boolean | undefined }
  | { op: 'insert'; selector: string; position: 'before' | 'after' | 'prepend' | 'append'; html: string }
  | { op: 'remove'; selector: string; all?: boolean | undefined }
  | { op: 'set_attribute'; selector: string; name: string; value: string | null; all?: boolean | undefined }
  | { op: 'replace_text'; find: string; replace: string };

export type EditOutcome = { ok: true; source: string; summary: string } | { ok: false; reason: string };

const selector = z
  .string()
  .min(1)
  .describe(
    'a CSS selector for the element(s) to edit: tag, #id, .class, [attr=value], :nth-of-type(n), ">" (as in the outline)',
  );
const all = z
  .boolean()
  .optional()
  .describe('edit every element the selector matches (default: the selector must match exactly one)');

/** What a model's edit tool call is checked against. */
export const docEditSchema = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('replace').describe('replace the whole element (its outerHTML)'),
      selector,
      html: z.string().describe('the HTML that takes the element’s place (empty removes it)'),
      all,
    })
    .describe('replace elements, tags included'),
  z
    .object({
      op: z.literal('replace_inner').describe('replace what is inside the element (its innerHTML), keeping its tags'),
      selector,
      html: z.string().describe('the new content of the element'),
      all,
    })
    .describe('replace the content of elements'),
  z
    .object({
      op: z.literal('insert').describe('insert HTML next to or inside one element'),
      selector,
      position: z
        .enum(['before', 'after', 'prepend', 'append'])
        .describe('before/after the element, or inside it as its first (prepend) or last (append) content'),
      html: z.string().min(1).describe('the HTML to insert'),
    })
    .describe('insert HTML'),
  z
    .object({
      op: z.literal('remove').describe('remove elements, content included'),
      selector,
      all,
    })
    .describe('remove elements'),
  z
    .object({
      op: z.literal('set_attribute').describe('set or remove an attribute on elements'),
      selector,
      name: z.string().min(1).describe('the attribute name, e.g. class, style, src, colspan'),
      value: z
        .string()
        .nullable()
        .describe('the literal value (Crucible quotes and escapes it), or null to remove the attribute'),
      all,
    })
    .describe('set an attribute'),
  z
    .object({
      op: z.literal('replace_text').describe('replace an exact piece of the source, which must occur exactly once'),
      find: z
        .string()
        .min(1)
        .describe(
          'text exactly as it is in the source (markup and entities such as &amp; included); include neighbouring words to make it unique',
        ),
      replace: z.string().describe('what replaces it'),
    })
    .describe('replace text'),
]);

/** One change to the original source: [start, end) becomes `text`. */
interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Where the inserted html is parsed as a fragment: an element's name and namespace, null for a template's content, undefined for no check. */
  readonly context?: { readonly name: string; readonly namespace?: string | undefined } | null | undefined;
}

const refuse = (reason: string): EditOutcome => ({ ok: false, reason });
const UNCHANGED = 'the document is unchanged';

/** Applies one edit to the source, or says why not (the source is then the caller's, untouched). */
export function applyEdit(source: string, edit: DocEdit): EditOutcome {
  const checked = docEditSchema.safeParse(edit);
  if (!checked.success)
    return refuse(
      `refused: not a valid edit (${checked.error.issues.map((i) => `${i.path.join('.') || 'edit'}: ${i.message}`).join('; ')})`,
    );
  const before = parseHtml(source);
  const plan = planEdit(before, source, checked.data as DocEdit);
  if ('reason' in plan) return refuse(`refused: ${plan.reason}; ${UNCHANGED}`);
  const splices = [...plan.splices].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < splices.length; i++)
    if (splices[i]!.start < splices[i - 1]!.end)
      return refuse(
        `refused: the selector matches elements inside one another; make it match only the outer or the inner ones; ${UNCHANGED}`,
      );

  // The html must parse cleanly where it goes.
  for (const s of splices) {
    if (s.context === undefined || s.text === '') continue;
    const fragment = parseFragmentHtml(s.text, s.context ?? undefined);
    const bad = fragment.errors.filter((p) => p.severity === 'error');
    if (bad.length > 0) {
      const where = s.context ? `inside <${s.context.name}>` : 'here';
      return refuse(
        `refused: your html does not parse cleanly ${where} (positions are in your html): ${bad
          .slice(0, 3)
          .map((p) => p.message)
          .join('; ')}; ${UNCHANGED}`,
      );
    }
  }

  let result = '';
  let at = 0;
  for (const s of splices) {
    result += source.slice(at, s.start) + s.text;
    at = s.end;
  }
  result += source.slice(at);
  if (result === source) return refuse(`refused: the edit changes nothing; ${UNCHANGED}`);

  const after = parseHtml(result);
  const added = addedErrors(before.errors, after.errors, splices);
  if (added.length > 0)
    return refuse(
      `refused: the edit would add ${added.length === 1 ? 'a parse error' : `${added.length} parse errors`}: ${added
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}; fix the html and try again; ${UNCHANGED}`,
    );
  const moved = movedElement(before, after, source, result, splices);
  if (moved) return refuse(`refused: ${moved}; close every element your html opens; ${UNCHANGED}`);
  return { ok: true, source: result, summary: plan.summary };
}

/** Error-level problems whose code the edit makes more frequent, nearest the edit first. */
function addedErrors(
  before: readonly ParseProblem[],
  after: readonly ParseProblem[],
  splices: readonly Splice[],
): ParseProblem[] {
  const count = (problems: readonly ParseProblem[]) => {
    const counts = new Map<string, number>();
    for (const p of problems) if (p.severity === 'error') counts.set(p.code, (counts.get(p.code) ?? 0) + 1);
    return counts;
  };
  const was = count(before);
  const now = count(after);
  const grown = new Set([...now].filter(([code, n]) => n > (was.get(code) ?? 0)).map(([code]) => code));
  if (grown.size === 0) return [];
  // The edited regions in the new source.
  const regions: [number, number][] = [];
  let delta = 0;
  for (const s of splices) {
    regions.push([s.start + delta, s.start + delta + s.text.length]);
    delta += s.text.length - (s.end - s.start);
  }
  const distance = (offset: number) =>
    Math.min(...regions.map(([a, b]) => (offset < a ? a - offset : offset > b ? offset - b : 0)));
  return after
    .filter((p) => p.severity === 'error' && grown.has(p.code))
    .sort((a, b) => distance(a.offset) - distance(b.offset) || a.offset - b.offset);
}

/**
 * The first element outside the edit that the edit would move to another parent or dissolve,
 * described; undefined when the rest of the tree stays as it was.
 */
function movedElement(
  before: ParsedHtml,
  after: ParsedHtml,
  oldSource: string,
  newSource: string,
  splices: readonly Splice[],
) {
  const map = (offset: number) => {
    let shift = 0;
    for (const s of splices) {
      if (s.start === s.end ? s.start <= offset : s.end <= offset) shift += s.text.length - (s.end - s.start);
      else break;
    }
    return offset + shift;
  };
  /** Whether an element's range is replaced by the edit or cut by it (neither: it must keep its place). */
  const touched = (start: number, end: number) =>
    splices.some((s) => {
      if (s.start === s.end) return false; // an insertion point splits nothing
      if (start <= s.start && s.end <= end && !(start === s.start && end === s.end)) return false; // it contains the edit
      return start < s.end && s.start < end;
    });
  const byStart = (doc: Document) => {
    const found = new Map<number, Element>();
    const twice = new Set<number>();
    for (const el of elementsIn(doc)) {
      const start = el.sourceCodeLocation?.startOffset;
      if (start === undefined) continue;
      if (found.has(start)) twice.add(start);
      else found.set(start, el);
    }
    for (const start of twice) found.delete(start);
    return found;
  };
  const parentKey = (el: Element, mapOld: boolean): string => {
    const parent: ParentNode | null = el.parent;
    if (!parent) return 'none';
    if (isElement(parent)) {
      const loc = parent.sourceCodeLocation;
      if (loc) return `@${mapOld ? map(loc.startOffset) : loc.startOffset}`;
      return `${parent.name}/${parentKey(parent, mapOld)}`;
    }
    const host = parent.parent;
    return host && isElement(host)
      ? `content/${parentKey(host, mapOld)}@${host.sourceCodeLocation?.startOffset ?? ''}`
      : 'root';
  };
  const parentName = (el: Element) => (el.parent && isElement(el.parent) ? describeElement(el.parent) : 'the document');
  const newByStart = byStart(after.document);
  for (const [start, old] of byStart(before.document)) {
    const range = elementRange(before, old);
    if (!range || touched(range.start, range.end)) continue;
    const line = position(oldSource, start).line;
    const now = newByStart.get(map(start));
    if (!now || now.name !== old.name)
      return `${describeElement(old)} at line ${line} would no longer be an element (your html swallows it: an unclosed quote, comment or tag?)`;
    if (parentKey(old, true) !== parentKey(now, false)) {
      const newLine = position(newSource, map(start)).line;
      return `${describeElement(old)} at line ${line} would move from ${parentName(old)} into ${parentName(now)} (line ${newLine} after the edit)`;
    }
  }
  return undefined;
}

interface Plan {
  readonly splices: readonly Splice[];
  readonly summary: string;
}

function planEdit(parsed: ParsedHtml, source: string, edit: DocEdit): Plan | { reason: string } {
  if (edit.op === 'replace_text') return planReplaceText(source, edit.find, edit.replace);
  const many = edit.op !== 'insert' && edit.all === true;
  const found = targets(parsed, edit.selector, many);
  if ('reason' in found) return found;
  const { elements } = found;
  const where = (el: Element) => `${describeElement(el)} at line ${el.sourceCodeLocation!.startLine}`;
  const label = elements.length === 1 ? where(elements[0]!) : `${elements.length} × ${describeElement(elements[0]!)}`;
  const ranges = elements.map((el) => elementRange(parsed, el)!);
  const oldSize = ranges.reduce((n, r) => n + bytes(source.slice(r.start, r.end)), 0);
  const contextOf = (el: Element): Splice['context'] => {
    const parent = el.parent;
    if (parent && isElement(parent)) return { name: parent.name, namespace: parent.namespace };
    if (parent && parent.type === 'root' && parent.parent) return null; // a template's content
    return undefined;
  };
  const own = (el: Element): Splice['context'] => ({ name: el.name, namespace: el.namespace });

  switch (edit.op) {
    case 'replace': {
      for (const el of elements)
        if (isPage(el.name) && !new RegExp(`^\\s*<${el.name}[\\s>]`, 'i').test(edit.html))
          return {
            reason: `replacing <${el.name}> must keep a <${el.name}> element; use replace_inner to change its content`,
          };
      const splices = elements.map((el, i) => ({
        start: ranges[i]!.start,
        end: ranges[i]!.end,
        text: edit.html,
        context: contextOf(el),
      }));
      const newSize = bytes(edit.html) * elements.length;
      return { splices, summary: `replaced ${label} (${size(oldSize)} → ${size(newSize)})` };
    }
    case 'replace_inner': {
      for (const el of elements)
        if (VOID_ELEMENTS.has(el.name) && isHtml(el))
          return { reason: `${where(el)} is a void element and has no content; use replace or set_attribute` };
      const inner = ranges.reduce((n, r) => n + bytes(source.slice(r.contentStart, r.contentEnd)), 0);
      const splices = elements.map((el, i) => ({
        start: ranges[i]!.contentStart,
        end: ranges[i]!.contentEnd,
        text: edit.html,
        context: own(el),
      }));
      return {
        splices,
        summary: `replaced the content of ${label} (${size(inner)} → ${size(bytes(edit.html) * elements.length)})`,
      };
    }
    case 'insert': {
      const el = elements[0]!;
      const r = ranges[0]!;
      const inside = edit.position === 'prepend' || edit.position === 'append';
      if (inside && VOID_ELEMENTS.has(el.name) && isHtml(el))
        return { reason: `${where(el)} is a void element and cannot contain anything; insert before or after it` };
      if (!inside && el.name === 'html')
        return { reason: 'nothing goes before or after <html>; prepend or append inside <body>' };
      const at = { before: r.start, after: r.end, prepend: r.contentStart, append: r.contentEnd }[edit.position];
      return {
        splices: [{ start: at, end: at, text: edit.html, context: inside ? own(el) : contextOf(el) }],
        summary: `inserted ${size(bytes(edit.html))} ${edit.position === 'prepend' ? 'at the start of' : edit.position === 'append' ? 'at the end of' : edit.position} ${label}`,
      };
    }
    case 'remove': {
      for (const el of elements)
        if (isPage(el.name))
          return { reason: `<${el.name}> cannot be removed (a document needs it); use replace_inner to empty it` };
      const splices = ranges.map((r) => ({ start: r.start, end: r.end, text: '' }));
      return { splices, summary: `removed ${label} (${size(oldSize)})` };
    }
    case 'set_attribute': {
      if (!/^[^\s"'>/=\u0000-\u001f\u007f]+$/.test(edit.name))
        return { reason: `${JSON.stringify(edit.name)} is not an attribute name (no spaces, quotes, "=", "/" or ">")` };
      const name = edit.name.toLowerCase();
      const splices: Splice[] = [];
      for (const el of elements) {
        const loc = el.sourceCodeLocation!;
        const attrs = (loc as { attrs?: Record<string, { startOffset: number; endOffset: number }> }).attrs ?? {};
        const existing = attrs[name];
        const written = edit.value === null ? '' : `${edit.name}="${escapeAttribute(edit.value)}"`;
        if (existing) {
          if (edit.value === null) {
            let start = existing.startOffset;
            while (start > loc.startOffset && /\s/.test(source[start - 1]!)) start--;
            splices.push({ start, end: existing.endOffset, text: '' });
          } else splices.push({ start: existing.startOffset, end: existing.endOffset, text: written });
        } else if (edit.value !== null) {
          const ends = Object.values(attrs).map((a) => a.endOffset);
          const nameEnd =
            loc.startOffset +
            (/^<[^\s/>]+/.exec(source.slice(loc.startOffset, loc.startOffset + 100))?.[0].length ?? 1);
          const at = Math.max(nameEnd, ...ends);
          splices.push({ start: at, end: at, text: ` ${written}` });
        } else if (!many) return { reason: `${where(el)} has no ${edit.name} attribute to remove` };
      }
      if (splices.length === 0)
        return { reason: `none of the ${elements.length} elements has a ${edit.name} attribute to remove` };
      return {
        splices,
        summary:
          edit.value === null
            ? `removed the ${edit.name} attribute from ${label}`
            : `set ${edit.name}="${shorten(edit.value, 40)}" on ${label}`,
      };
    }
  }
}

function planReplaceText(source: string, find: string, replace: string): Plan | { reason: string } {
  const hits: number[] = [];
  for (let i = source.indexOf(find); i !== -1 && hits.length < 6; i = source.indexOf(find, i + 1)) hits.push(i);
  if (hits.length === 0)
    return {
      reason: `${JSON.stringify(shorten(find, 60))} is not in the source; it must match the source exactly (markup, white space and entities such as &amp; included): view the element to copy it`,
    };
  if (hits.length > 1)
    return {
      reason: `${JSON.stringify(shorten(find, 60))} occurs ${hits.length > 5 ? 'more than 5' : hits.length} times (lines ${hits
        .slice(0, 5)
        .map((h) => position(source, h).line)
        .join(', ')}); include neighbouring text to make it unique, or edit the element by selector`,
    };
  const at = hits[0]!;
  return {
    splices: [{ start: at, end: at + find.length, text: replace }],
    summary: `replaced text at line ${position(source, at).line} (${size(bytes(find))} → ${size(bytes(replace))})`,
  };
}

/** The elements an edit applies to, or why it cannot apply. */
function targets(parsed: ParsedHtml, selector: string, many: boolean): { elements: Element[] } | { reason: string } {
  const selection = selectAll(parsed, selector);
  if (!selection.ok) return { reason: selection.reason };
  const elements = selection.elements;
  if (elements.length === 0) {
    const ids = elementsIn(parsed.document)
      .map((el) => el.attribs['id'])
      .filter((id): id is string => !!id)
      .slice(0, 8);
    return {
      reason: `no element matches ${JSON.stringify(selector)}; look at the outline or view the source for a selector${ids.length ? ` (ids in the document: ${ids.map((id) => `#${id}`).join(', ')})` : ''}`,
    };
  }
  if (elements.length > 1 && !many) {
    const listed = elements
      .slice(0, 5)
      .map(
        (el) => `${describeElement(el)}${el.sourceCodeLocation ? ` at line ${el.sourceCodeLocation.startLine}` : ''}`,
      )
      .join(', ');
    return {
      reason: `${JSON.stringify(selector)} matches ${elements.length} elements (${listed}${elements.length > 5 ? ', …' : ''}); make it match one (add an #id, a .class, :nth-of-type(n) or a parent with ">") or pass all: true`,
    };
  }
  const starts = new Map<number, number>();
  for (const el of elementsIn(parsed.document)) {
    const start = el.sourceCodeLocation?.startOffset;
    if (start !== undefined) starts.set(start, (starts.get(start) ?? 0) + 1);
  }
  for (const el of elements) {
    const loc = el.sourceCodeLocation;
    if (!loc)
      return {
        reason: `the <${el.name}> that ${JSON.stringify(selector)} matches is implied by the parser (there is no <${el.name}> tag in the source); edit ${el.name === 'tbody' ? 'its rows or the table' : 'the elements inside it or around it'} instead`,
      };
    if ((starts.get(loc.startOffset) ?? 0) > 1)
      return {
        reason: `${describeElement(el)} at line ${loc.startLine} is misnested (the parser duplicated it); fix the misnesting first, e.g. replace its parent`,
      };
  }
  return { elements };
}

const isPage = (name: string) => name === 'html' || name === 'head' || name === 'body';
const isHtml = (el: Element) => (el.namespace ?? 'http://www.w3.org/1999/xhtml') === 'http://www.w3.org/1999/xhtml';
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** "812 B", "2.4 kB". */
export function size(n: number): string {
  return n < 1000 ? `${n} B` : n < 1_000_000 ? `${(n / 1000).toFixed(1)} kB` : `${(n / 1_000_000).toFixed(1)} MB`;
}

// ---------------------------------------------------------------------------------------------
// Viewing

export type ViewOutcome = { ok: true; text: string } | { ok: false; reason: string };

/** Lines longer than this are cut in a view (a data: URI, minified CSS). */
const MAX_LINE = 1000;
const MAX_MATCHES = 20;

/**
 * The source of the elements a selector matches, whole lines with their numbers, or without a
 * selector the whole source; at most `maxChars` characters, with a note saying what was cut.
 */
export function view(source: string, selector?: string, maxChars = 8000): ViewOutcome {
  const lines = source.split('\n');
  const width = String(lines.length).length;
  const numbered = (from: number, to: number) => {
    const out: string[] = [];
    for (let n = from; n <= to; n++) {
      const line = lines[n - 1] ?? '';
      const shown =
        line.length > MAX_LINE
          ? `${line.slice(0, MAX_LINE)}… [line cut: ${line.length - MAX_LINE} more characters]`
          : line;
      out.push(`${String(n).padStart(width)}  ${shown}`);
    }
    return out;
  };
  const blocks: { header?: string; lines: string[] }[] = [];
  let more = '';
  if (selector === undefined || selector.trim() === '') {
    blocks.push({ lines: numbered(1, lines.length) });
  } else {
    const parsed = parseHtml(source);
    const selection = selectAll(parsed, selector);
    if (!selection.ok) return { ok: false, reason: selection.reason };
    if (selection.elements.length === 0) return { ok: false, reason: `no element matches ${JSON.stringify(selector)}` };
    for (const el of selection.elements.slice(0, MAX_MATCHES)) {
      const range = elementRange(parsed, el);
      if (!range) {
        blocks.push({
          header: `<${el.name}> is implied by the parser (no tag in the source); view its parent or children`,
          lines: [],
        });
        continue;
      }
      const first = position(source, range.start).line;
      const last = position(source, Math.max(range.start, range.end - 1)).line;
      blocks.push({
        header: `${describeElement(el)} lines ${first}-${last} (${size(bytes(source.slice(range.start, range.end)))}):`,
        lines: numbered(first, last),
      });
    }
    if (selection.elements.length > MAX_MATCHES)
      more = `\n(${selection.elements.length} elements match; only the first ${MAX_MATCHES} are shown)`;
  }
  const budget = Math.max(0, maxChars - Math.min(220, Math.floor(maxChars / 4)) - more.length);
  const out: string[] = [];
  let used = 0;
  let cut: string | undefined;
  outer: for (const block of blocks) {
    for (const line of block.header ? [block.header, ...block.lines] : block.lines) {
      if (used + line.length + 1 > budget) {
        const firstNumber = /^\s*(\d+)/.exec(line)?.[1];
        cut = `… cut at ${maxChars} characters${firstNumber ? ` (next line: ${firstNumber} of ${lines.length})` : ''}; view a narrower selector, or the outline for a map of the document`;
        break outer;
      }
      out.push(line);
      used += line.length + 1;
    }
  }
  const text = out.join('\n') + (cut ? `\n${cut}` : '') + more;
  return { ok: true, text: text.length > maxChars ? text.slice(0, maxChars) : text };
}
