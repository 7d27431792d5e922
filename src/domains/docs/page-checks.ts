/**
 * The reviewer's measurements, run in the judge's own world of the rendered page (review.ts
 * sends them there: src/browser/judge-world.ts), where no script of the document's can change
 * what they read. Every function sent is self-contained — no imports, nothing from this
 * module's scope — so that its source can be sent as it is (src/browser/in-page.ts).
 *
 * Geometry is in document coordinates (CSS px from the top left of the document, scroll added).
 *
 * Printed pages are not measured from chromium's paginator, which a script cannot see into: the
 * document is laid out once at the page's content width, with print styles, and cut into pages
 * of the content height here (`paginate`). That is what gives every element a page number (the
 * orphan-heading check needs them, and every issue names its page), and it follows the rules
 * that move chromium's breaks: a line, an image or an inline-block is never cut; a block whose
 * first line does not fit goes whole to the next page; forced breaks (`break-before/after:
 * page`, `page-break-*: always`); `break-inside: avoid`; `break-after/before: avoid`; `orphans`
 * and `widows`; a table's header repeated on each page it continues on. What it does not model:
 * multi-column layouts longer than a page (columns are balanced on one tall page here, while
 * print fills each page's columns in turn), `@page :first`/named pages, running elements, and
 * margin truncation inside nested formatting contexts. test/docs-review.test.ts checks the page
 * count against chromium's own (page.pdf) on several documents.
 */

/** What one pass over one medium measures. */
export interface PageCheckConfig {
  /** Print media: pages are cut and orphan headings looked for. */
  readonly print: boolean;
  /** The width the document is laid out in, px: the page's content width, or the screen's viewport. */
  readonly width: number;
  /** A printed page's content height, px (on a screen: the viewport's; not cut). */
  readonly height: number;
  /** How the page is named to a person: "A4's content area (680 px wide)", "the 1280 px window". */
  readonly pageText: string;
  /** Also run the checks that hold on every medium (broken images, heading order). */
  readonly documentChecks: boolean;
  /** Where `runContrast` left its findings on the page, to turn into low-contrast ones; null: not this pass. */
  readonly contrastKey: string | null;
  /** The origin the document is served at, and the asset paths served there. */
  readonly origin: string;
  readonly assets: readonly string[];
}

/** One issue the page found, before review.ts gives it its medium. */
export interface Finding {
  readonly type:
    'overflow' | 'overlap' | 'broken-image' | 'low-contrast' | 'table-too-wide' | 'orphan-heading' | 'heading-order';
  readonly severity: 'error' | 'warning';
  readonly selector: string;
  /** From 1; null for what holds on every medium. */
  readonly page: number | null;
  readonly message: string;
  /** The element's place in document order, for sorting. */
  readonly order: number;
  /** True for the medium-independent checks (broken images, heading order). */
  readonly everyMedium: boolean;
}

export interface PageCheckResult {
  readonly pages: number;
  readonly findings: Finding[];
  /** Where each page starts, px from the top of the document (print). */
  readonly breaks: number[];
}

/**
 * Waits for what changes the layout after `load`: images (lazy ones are made eager: a printed
 * page shows them all) and web fonts; and puts every CSS animation and transition at its end
 * (infinite ones at their start), so that what is measured is what a reader sees once it settles,
 * the same on every run.
 */
export async function settlePage(): Promise<void> {
  const settleAnimations = () => {
    for (const animation of document.getAnimations()) {
      try {
        animation.finish();
      } catch {
        animation.pause();
        animation.currentTime = 0;
      }
    }
  };
  settleAnimations();
  for (const img of Array.from(document.images)) if (img.loading === 'lazy') img.loading = 'eager';
  await Promise.all(
    Array.from(document.images)
      .filter((img) => !img.complete)
      .map(
        (img) =>
          new Promise<void>((resolve) => {
            img.addEventListener('load', () => resolve(), { once: true });
            img.addEventListener('error', () => resolve(), { once: true });
          }),
      ),
  );
  await document.fonts.ready;
  settleAnimations();
}

/**
 * The margins of the document's `@page` rule (the last one without a selector, in a sheet and
 * `@media` block that apply now), px; `fallback` for each side it does not set, or sets in a
 * unit this does not read (`calc()`, `auto`).
 */
export function readPageMargins(arg: { width: number; height: number; fallback: number }): {
  top: number;
  right: number;
  bottom: number;
  left: number;
  fromDocument: boolean;
} {
  const sides = ['top', 'right', 'bottom', 'left'] as const;
  const found: Partial<Record<(typeof sides)[number], string>> = {};
  const visit = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSPageRule) {
        if (rule.selectorText.trim() !== '') continue;
        for (const side of sides) {
          const value = rule.style.getPropertyValue(`margin-${side}`).trim();
          if (value) found[side] = value;
        }
      } else if (rule instanceof CSSMediaRule) {
        if (window.matchMedia(rule.media.mediaText).matches) visit(rule.cssRules);
      } else if (rule instanceof CSSImportRule) {
        if (rule.styleSheet && (!rule.media.mediaText || window.matchMedia(rule.media.mediaText).matches))
          visit(rule.styleSheet.cssRules);
      } else if (rule instanceof CSSSupportsRule || rule instanceof CSSLayerBlockRule) {
        visit(rule.cssRules);
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      if (sheet.disabled || (sheet.media.mediaText && !window.matchMedia(sheet.media.mediaText).matches)) continue;
      visit(sheet.cssRules);
    } catch {
      // A sheet that cannot be read sets no margin here.
    }
  }
  const rootFont = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const UNITS: Record<string, number> = {
    px: 1,
    mm: 96 / 25.4,
    cm: 96 / 2.54,
    q: 96 / 101.6,
    in: 96,
    pt: 96 / 72,
    pc: 16,
    em: 16,
    rem: rootFont,
  };
  const toPx = (value: string | undefined, extent: number): number | undefined => {
    if (value === undefined) return undefined;
    const m = /^(-?\d*\.?\d+)([a-z%]*)$/i.exec(value);
    if (!m) return undefined;
    const n = Number(m[1]);
    const unit = (m[2] ?? '').toLowerCase();
    if (unit === '') return n === 0 ? 0 : undefined;
    if (unit === '%') return (n / 100) * extent;
    const factor = UNITS[unit];
    return factor === undefined ? undefined : Math.max(0, n * factor);
  };
  const top = toPx(found.top, arg.height);
  const right = toPx(found.right, arg.width);
  const bottom = toPx(found.bottom, arg.height);
  const left = toPx(found.left, arg.width);
  return {
    top: top ?? arg.fallback,
    right: right ?? arg.fallback,
    bottom: bottom ?? arg.fallback,
    left: left ?? arg.fallback,
    fromDocument: [top, right, bottom, left].some((v) => v !== undefined),
  };
}

/** The elements `selectors` name, outlined in red (for a picture of a review). */
export function outlineElements(selectors: readonly string[]): number {
  let n = 0;
  for (const selector of selectors) {
    let el: Element | null = null;
    try {
      el = document.querySelector(selector);
    } catch {
      el = null;
    }
    if (!(el instanceof HTMLElement) && !(el instanceof SVGElement)) continue;
    el.style.setProperty('outline', '3px solid rgba(220, 0, 0, 0.9)', 'important');
    el.style.setProperty('outline-offset', '1px', 'important');
    n++;
  }
  return n;
}

/** Where `runContrast` leaves axe-core's findings for `checkPage` (read once, then removed). */
export const CONTRAST_KEY = '__crucibleContrast';

/** One element axe-core's color-contrast rule failed: its selector (axe's), and what it measured. */
interface ContrastNode {
  readonly target: string[];
  readonly data?: {
    readonly fgColor?: string;
    readonly bgColor?: string;
    readonly contrastRatio?: number;
    readonly fontSize?: string;
    readonly fontWeight?: string;
    readonly expectedContrastRatio?: string;
  };
}

/** Text axe-core could not judge (over an image, a gradient, an overlapping box): review.ts looks at its pixels. */
export interface UndecidedContrast {
  readonly target: string[];
  /** The text's colour, with its alpha times the opacity above it: `rgba(r, g, b, a)` numbers. */
  readonly fg: readonly [number, number, number, number];
  readonly expected: number;
  /** Its box, px from the document's top left. */
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  readonly fontSize?: string;
  readonly fontWeight?: string;
}

/**
 * Runs axe-core's color-contrast rule alone (axe must be on the page: review.ts evaluates it
 * there) and leaves the failing elements for `checkPage`. What axe cannot decide — text over an
 * image, a gradient or another box — is returned, for review.ts to decide from a screenshot;
 * icons and single characters are not.
 */
export async function runContrast(key: string): Promise<UndecidedContrast[]> {
  type Node = { target: unknown[]; any: Array<{ data?: Record<string, unknown> }> };
  const axe = (window as unknown as Record<string, unknown>)['axe'] as {
    run(
      context: Document,
      options: Record<string, unknown>,
    ): Promise<{ violations: Array<{ nodes: Node[] }>; incomplete: Array<{ nodes: Node[] }> }>;
  };
  const result = await axe.run(document, {
    runOnly: { type: 'rule', values: ['color-contrast'] },
    resultTypes: ['violations', 'incomplete'],
    preload: false,
    iframes: false,
    elementRef: false,
  });
  const nodes = result.violations.flatMap((v) =>
    v.nodes.map((n) => ({ target: n.target.map(String), data: n.any[0]?.data })),
  );
  (window as unknown as Record<string, unknown>)[key] = nodes;
  const UNDECIDED = new Set([
    'bgImage',
    'bgGradient',
    'imgNode',
    'fgAlpha',
    // The text lies over something (not under it: what covers text is an overlap).
    'elmPartiallyObscuring',
    'outsideViewport',
  ]);
  const undecided: UndecidedContrast[] = [];
  for (const n of result.incomplete.flatMap((v) => v.nodes)) {
    const data = n.any[0]?.data ?? {};
    if (!UNDECIDED.has(String(data['messageKey'])) || n.target.length !== 1) continue;
    let el: Element | null = null;
    try {
      el = document.querySelector(String(n.target[0]));
    } catch {
      el = null;
    }
    if (!el) continue;
    const m = /rgba?\(([^)]*)\)/.exec(getComputedStyle(el).color);
    const parts = (m?.[1] ?? '0, 0, 0')
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    let alpha = parts[3] ?? 1;
    for (let at: Element | null = el; at; at = at.parentElement) alpha *= Number(getComputedStyle(at).opacity) || 0;
    const expected = parseFloat(String(data['expectedContrastRatio'] ?? '4.5'));
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    undecided.push({
      box: { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height },
      target: n.target.map(String),
      fg: [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, alpha],
      expected: Number.isFinite(expected) ? expected : 4.5,
      ...(typeof data['fontSize'] === 'string' ? { fontSize: data['fontSize'] } : {}),
      ...(typeof data['fontWeight'] === 'string' ? { fontWeight: data['fontWeight'] } : {}),
    });
  }
  return undecided;
}

/** Adds elements review.ts found too faint from their pixels to what `checkPage` reads. */
export function addContrast(arg: { key: string; nodes: unknown[] }): void {
  const holder = window as unknown as Record<string, unknown[]>;
  holder[arg.key] = [...(holder[arg.key] ?? []), ...arg.nodes];
}

/**
 * Every geometric check on the page as it is laid out now (one medium), and, with
 * `documentChecks`, the ones that hold on every medium. Thresholds: see the constants at the top.
 */
export function checkPage(config: PageCheckConfig): PageCheckResult {
  /** How far content may stick out of a box before it counts (sub-pixel layout, glyph metrics), px. */
  const TOLERANCE = 4;
  /** Two texts overlap when their boxes share more than this in each direction, px, and this area, px². */
  const OVERLAP_SIDE = 2;
  const OVERLAP_AREA = 16;
  /** A text element this transparent (opacity × its colour's alpha), placed out of flow, is a watermark. */
  const WATERMARK_ALPHA = 0.5;
  const SAMPLE = 40;

  type Box = { left: number; top: number; right: number; bottom: number };
  type Item = {
    readonly el: Element;
    readonly node: globalThis.Text | null;
    /** Glyphs across, line box down (the smaller of the two). */
    readonly rect: Box;
    readonly atom: Element | null;
  };
  type Piece = {
    top: number;
    bottom: number;
    container: Element;
    /** Tops of the blocks this piece is the first content of (a break before it may move them too). */
    lead: number[];
    index: number;
  };

  const doc = document;
  const root = doc.documentElement;
  const body = doc.body;
  const findings: Finding[] = [];
  if (!body) return { pages: 1, findings, breaks: [0] };
  const sx = window.scrollX;
  const sy = window.scrollY;
  const elements = Array.from(doc.querySelectorAll('*'));
  const order = new Map<Element, number>();
  elements.forEach((el, i) => order.set(el, i));
  const orderOf = (el: Element) => order.get(el) ?? 0;

  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (el: Element) => {
    let s = styles.get(el);
    if (!s) styles.set(el, (s = getComputedStyle(el)));
    return s;
  };
  const visibility = new Map<Element, boolean>();
  const shown = (el: Element) => {
    let v = visibility.get(el);
    if (v === undefined) {
      v = el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions);
      visibility.set(el, v);
    }
    return v;
  };
  const boxOf = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    return { left: r.left + sx, top: r.top + sy, right: r.right + sx, bottom: r.bottom + sy };
  };
  const paddingBox = (el: Element): Box => {
    const r = el.getBoundingClientRect();
    const left = r.left + sx + el.clientLeft;
    const top = r.top + sy + el.clientTop;
    return { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
  };
  const contentBox = (el: Element): Box => {
    const p = paddingBox(el);
    const s = style(el);
    return {
      left: p.left + (parseFloat(s.paddingLeft) || 0),
      top: p.top + (parseFloat(s.paddingTop) || 0),
      right: p.right - (parseFloat(s.paddingRight) || 0),
      bottom: p.bottom - (parseFloat(s.paddingBottom) || 0),
    };
  };
  const intersect = (a: Box, b: Box): Box => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const width = (b: Box) => b.right - b.left;
  const height = (b: Box) => b.bottom - b.top;
  const px = (n: number) => `${Math.round(n)} px`;
  const clip = (text: string) => {
    const t = text.replace(/\s+/g, ' ').trim();
    return t.length > SAMPLE ? `${t.slice(0, SAMPLE - 1)}…` : t;
  };
  const alphaOf = (color: string) => {
    const m = /rgba?\(([^)]*)\)/.exec(color);
    if (!m) return color === 'transparent' ? 0 : 1;
    const parts = m[1]!.split(/[\s,/]+/).filter(Boolean);
    if (parts.length < 4) return 1;
    const a = parts[3]!;
    return a.endsWith('%') ? parseFloat(a) / 100 : parseFloat(a);
  };

  // -- selectors ------------------------------------------------------------------------------
  const cssEscape = (s: string) => CSS.escape(s);
  const unique = (selector: string) => {
    try {
      return doc.querySelectorAll(selector).length === 1;
    } catch {
      return false;
    }
  };
  const selectors = new Map<Element, string>();
  /** The element's id if it is unique; else the shortest chain of `tag`, `tag.class` or `tag:nth-of-type(k)` steps up from it that is. */
  const selectorOf = (el: Element): string => {
    const known = selectors.get(el);
    if (known) return known;
    const steps: string[] = [];
    for (let at: Element | null = el; at; at = at.parentElement) {
      if (at.id && unique(`#${cssEscape(at.id)}`)) {
        steps.unshift(`#${cssEscape(at.id)}`);
        break;
      }
      const tag = at.localName;
      const parent: Element | null = at.parentElement;
      let step = tag;
      if (parent) {
        // A class makes the step readable; it must name this element among its siblings, or the position does.
        const same = Array.from(parent.children).filter((c) => c.localName === tag);
        const named = Array.from(at.classList).filter((c) => /^-?[_a-zA-Z][\w-]*$/.test(c));
        const cls = named.find((c) => same.filter((x) => x.classList.contains(c)).length === 1);
        if (cls) step = `${tag}.${cssEscape(cls)}`;
        else if (same.length > 1) {
          const shared = named[0];
          step = `${tag}${shared ? `.${cssEscape(shared)}` : ''}:nth-of-type(${same.indexOf(at) + 1})`;
        }
      }
      steps.unshift(step);
      // Unique, and built to match `el`: so it names `el`.
      if (unique(steps.join(' > '))) break;
    }
    const result = steps.join(' > ');
    selectors.set(el, result);
    return result;
  };

  // -- what counts as what ----------------------------------------------------------------------
  /** Boxes that do not contain their content: inline boxes, `display: contents`, a table's rows. */
  const passThrough = (el: Element) => {
    const d = style(el).display;
    return (
      d === 'inline' ||
      d === 'contents' ||
      d.startsWith('ruby') ||
      d.startsWith('table-row') ||
      d === 'table-header-group' ||
      d === 'table-footer-group' ||
      d.startsWith('table-column') ||
      d === 'table-caption' ||
      d === 'none'
    );
  };
  const ATOMS = new Set([
    'img',
    'svg',
    'video',
    'canvas',
    'iframe',
    'object',
    'embed',
    'input',
    'select',
    'textarea',
    'button',
    'meter',
    'progress',
    'audio',
    'hr',
  ]);
  const SKIP = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'datalist', 'option']);
  const outOfFlow = (el: Element) => {
    const p = style(el).position;
    return p === 'absolute' || p === 'fixed';
  };
  const isHeading = (el: Element) => /^h[1-6]$/.test(el.localName);
  const painted = (el: Element) => {
    const s = style(el);
    if (alphaOf(s.backgroundColor) > 0.05 || s.backgroundImage !== 'none' || s.boxShadow !== 'none') return true;
    return (['Top', 'Right', 'Bottom', 'Left'] as const).some(
      (side) =>
        (parseFloat(s.getPropertyValue(`border-${side.toLowerCase()}-width`)) || 0) > 0 &&
        !/none|hidden/.test(s.getPropertyValue(`border-${side.toLowerCase()}-style`)) &&
        alphaOf(s.getPropertyValue(`border-${side.toLowerCase()}-color`)) > 0.05,
    );
  };
  /** The box `el` is laid out in: itself when it is a block, else its nearest block ancestor. */
  const blockOf = (el: Element): Element =>
    passThrough(el) || /^inline/.test(style(el).display) ? containerOf(el) : el;
  /** The nearest ancestor that is a box of its own. */
  const containerOf = (el: Element): Element => {
    let at = el.parentElement;
    while (at && at !== root && passThrough(at)) at = at.parentElement;
    return at ?? root;
  };
  const monolithic = (el: Element) => {
    if (ATOMS.has(el.localName)) return true;
    const s = style(el);
    if (/^inline-(block|flex|grid|table)$/.test(s.display)) return true;
    return /auto|scroll/.test(s.overflowY) && el !== body && el !== root;
  };
  const monoCache = new Map<Element, Element | null>();
  /** The outermost box around `el` that chromium never cuts across pages, if any. */
  const monolithOf = (el: Element): Element | null => {
    if (monoCache.has(el)) return monoCache.get(el)!;
    const parent = el.parentElement;
    const above = parent && parent !== body && parent !== root ? monolithOf(parent) : null;
    const result = above ?? (monolithic(el) && style(el).position !== 'fixed' ? el : null);
    monoCache.set(el, result);
    return result;
  };
  const lineHeightOf = (el: Element, fallback: number) => {
    const s = style(el);
    const lh = parseFloat(s.lineHeight);
    return Number.isFinite(lh) && s.lineHeight.endsWith('px') ? lh : fallback;
  };
  const fixedInside = (el: Element) => {
    for (let at: Element | null = el; at && at !== root; at = at.parentElement)
      if (style(at).position === 'fixed') return true;
    return false;
  };
  /** A transform that turns or skews (not a plain move). */
  const rotated = (s: CSSStyleDeclaration) => {
    const m = /^matrix\(([^)]*)\)$/.exec(s.transform);
    if (!m) return s.transform !== 'none' && s.transform !== '';
    const [, b, c] = m[1]!.split(',').map(Number);
    return Math.abs(b ?? 0) > 1e-6 || Math.abs(c ?? 0) > 1e-6;
  };
  const transformCache = new Map<Element, boolean>();
  /** Whether `el` or a box above it is transformed: its client sizes are then not its drawn ones. */
  const transformed = (el: Element): boolean => {
    const known = transformCache.get(el);
    if (known !== undefined) return known;
    const parent = el.parentElement;
    const t = style(el).transform;
    const result = (t !== 'none' && t !== '') || (parent && parent !== root ? transformed(parent) : false);
    transformCache.set(el, result);
    return result;
  };
  const floatedBetween = (from: Element, to: Element) => {
    for (let at: Element | null = from; at && at !== to; at = at.parentElement)
      if (style(at).float !== 'none') return true;
    return false;
  };

  // -- the rendered content: every line of text and every atom, in document order ---------------
  const texts: Item[] = [];
  const pieces: Piece[] = [];
  const range = doc.createRange();
  const firstPieceOf = new Map<Element, Piece>();
  const lastPieceOf = new Map<Element, Piece>();
  const monoPieces = new Map<Element, Piece>();
  const addPiece = (top: number, bottom: number, container: Element, owner: Element) => {
    const piece: Piece = { top, bottom, container, lead: [], index: pieces.length };
    pieces.push(piece);
    for (let at: Element | null = owner; at && at !== root; at = at.parentElement) {
      lastPieceOf.set(at, piece);
      if (firstPieceOf.has(at)) continue;
      firstPieceOf.set(at, piece);
      if (at !== body && !passThrough(at) && !outOfFlow(at) && style(at).float === 'none') {
        const t = boxOf(at).top;
        if (t < top) piece.lead.push(t);
      }
    }
    return piece;
  };
  const pieceFor = (top: number, bottom: number, owner: Element) => {
    const mono = monolithOf(owner);
    if (mono) {
      let piece = monoPieces.get(mono);
      if (!piece) {
        const b = boxOf(mono);
        piece = addPiece(b.top, b.bottom, blockOf(mono), mono);
        monoPieces.set(mono, piece);
      }
      return piece;
    }
    return addPiece(top, bottom, blockOf(owner), owner);
  };
  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node as globalThis.Text;
      if (!/\S/.test(text.data)) return;
      const el = text.parentElement;
      if (!el || !shown(el) || fixedInside(el)) return;
      range.selectNodeContents(text);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width >= 0.5 && r.height >= 0.5);
      for (const r of rects) {
        const lh = lineHeightOf(el, r.height);
        const middle = (r.top + r.bottom) / 2 + sy;
        const lineTop = middle - lh / 2;
        const lineBottom = middle + lh / 2;
        const rect = {
          left: r.left + sx,
          right: r.right + sx,
          top: Math.max(r.top + sy, lineTop),
          bottom: Math.min(r.bottom + sy, lineBottom),
        };
        texts.push({ el, node: text, rect, atom: null });
        pieceFor(Math.min(r.top + sy, lineTop), Math.max(r.bottom + sy, lineBottom), el);
      }
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const el = node as Element;
    if (SKIP.has(el.localName)) return;
    if (ATOMS.has(el.localName)) {
      if (shown(el) && !fixedInside(el)) {
        const b = boxOf(el);
        if (width(b) > 0 && height(b) > 0) {
          texts.push({ el, node: null, rect: b, atom: el });
          pieceFor(b.top, b.bottom, el);
        }
      }
      return;
    }
    if (style(el).display === 'none') return;
    for (let child = el.firstChild; child; child = child.nextSibling) visit(child);
  };
  visit(body);

  // -- pages ------------------------------------------------------------------------------------
  const breaks: number[] = [0];
  const pageOf = (y: number) => {
    if (!config.print) return 1;
    let lo = 0;
    let hi = breaks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (breaks[mid]! <= y + 0.5) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  /** The page a box is on: where its first few pixels are (a break never cuts a line, so no rounding moves it). */
  const pageOfBox = (top: number, bottom: number) => pageOf(top + Math.min(Math.max(0, bottom - top) / 2, 8));
  if (config.print) paginate();

  function paginate() {
    const H = config.height;
    let end = 0;
    for (const p of pieces) end = Math.max(end, p.bottom);
    for (const el of elements) {
      if (el === root || el === body || !body!.contains(el) || !shown(el) || fixedInside(el)) continue;
      const b = el.getBoundingClientRect();
      if (b.height > 0) end = Math.max(end, b.bottom + sy);
    }
    const forced: number[] = [];
    const avoidInside: Box[] = [];
    const avoidAfter: Element[] = [];
    const avoidBefore: Element[] = [];
    const headers: Array<{ table: Box; header: number }> = [];
    const FORCED = /^(page|left|right|recto|verso|always|all)$/;
    const AVOID = /^avoid(-page)?$/;
    for (const el of elements) {
      if (el === root || !body!.contains(el) || !shown(el) || fixedInside(el) || passThrough(el)) continue;
      const s = style(el);
      if (outOfFlow(el) || s.float !== 'none') continue;
      if (FORCED.test(s.breakBefore)) forced.push(boxOf(el).top - Math.max(0, parseFloat(s.marginTop) || 0));
      if (FORCED.test(s.breakAfter)) forced.push(boxOf(el).bottom);
      if (AVOID.test(s.breakInside)) avoidInside.push(boxOf(el));
      if (AVOID.test(s.breakAfter)) avoidAfter.push(el);
      if (AVOID.test(s.breakBefore)) avoidBefore.push(el);
      if (el.localName === 'table' || s.display === 'table') {
        const head = Array.from(el.children).find((c) => style(c).display === 'table-header-group');
        if (head) headers.push({ table: boxOf(el), header: height(boxOf(head)) });
      }
    }
    // Lines per block, for orphans and widows.
    const lines = new Map<Element, Array<{ top: number; bottom: number; first: Piece }>>();
    const lineOf = new Map<Piece, number>();
    for (const piece of pieces) {
      let list = lines.get(piece.container);
      if (!list) lines.set(piece.container, (list = []));
      const last = list[list.length - 1];
      const overlap = last ? Math.min(last.bottom, piece.bottom) - Math.max(last.top, piece.top) : 0;
      if (last && overlap > 0.5 * Math.min(last.bottom - last.top, piece.bottom - piece.top)) {
        last.top = Math.min(last.top, piece.top);
        last.bottom = Math.max(last.bottom, piece.bottom);
      } else list.push({ top: piece.top, bottom: piece.bottom, first: piece });
      lineOf.set(piece, list.length - 1);
    }
    const EPS = 0.5;
    let start = 0;
    let room = H;
    const contentBetween = (from: number, to: number) => pieces.some((p) => p.top >= from - EPS && p.top < to - EPS);
    for (let guard = 0; guard < 5000; guard++) {
      const limit = start + room;
      const breakAt = (piece: Piece, floor: number) => {
        let top = piece.top;
        for (const t of piece.lead) if (t > floor + EPS && t < top) top = t;
        return top;
      };
      let b = limit;
      // A forced break with nothing before it on the page, or nothing after it, makes no page.
      const forcedHere = forced.filter(
        (f) =>
          f > start + EPS && f <= limit + EPS && contentBetween(start, f) && pieces.some((p) => p.bottom > f + EPS),
      );
      if (forcedHere.length) b = Math.min(...forcedHere);
      else if (limit >= end - 1) break;
      else {
        for (let round = 0; round < 100; round++) {
          let moved = b;
          for (const p of pieces)
            if (p.top > start + EPS && p.top < moved - EPS && p.bottom > moved + EPS) moved = breakAt(p, start);
          for (const g of avoidInside)
            if (g.top > start + EPS && g.top < moved - EPS && g.bottom > moved + EPS && height(g) <= room)
              moved = g.top;
          if (moved === b) {
            // Orphans and widows of the block the break falls in.
            for (const [container, list] of lines) {
              const before = list.filter((l) => l.top >= start - EPS && l.bottom <= moved + EPS).length;
              const after = list.filter((l) => l.top >= moved - EPS).length;
              if (before === 0 || after === 0) continue;
              const firstHere = list.findIndex((l) => l.top >= start - EPS);
              const s = style(container);
              const orphans = parseInt(s.orphans, 10) || 2;
              const widows = parseInt(s.widows, 10) || 2;
              if (before < orphans) {
                const top = breakAt(list[firstHere]!.first, start);
                if (top > start + EPS) moved = Math.min(moved, top);
              } else if (after < widows) {
                const k = list.length - widows;
                if (k - firstHere >= orphans) moved = Math.min(moved, breakAt(list[k]!.first, start));
                else {
                  const top = breakAt(list[firstHere]!.first, start);
                  if (top > start + EPS) moved = Math.min(moved, top);
                }
              }
            }
            // break-after: avoid (headings, mostly) and break-before: avoid.
            const next = pieces.find((p) => p.top >= moved - EPS && p.top > start + EPS);
            if (next) {
              const previous = pieces[next.index - 1];
              for (const el of avoidAfter) {
                const last = lastPieceOf.get(el);
                if (last && last === previous && last.bottom <= moved + EPS) {
                  const first = firstPieceOf.get(el);
                  const top = first ? breakAt(first, start) : boxOf(el).top;
                  if (top > start + EPS) moved = Math.min(moved, top);
                }
              }
              for (const el of avoidBefore)
                if (firstPieceOf.get(el) === next && previous && previous.top > start + EPS)
                  moved = Math.min(moved, breakAt(previous, start));
            }
          }
          if (moved === b) break;
          b = moved;
        }
      }
      if (b <= start + EPS) b = limit;
      breaks.push(b);
      const header = headers.find((h) => h.table.top < b - EPS && h.table.bottom > b + EPS && h.header < H / 4);
      room = H - (header ? header.header : 0);
      start = b;
    }
  }

  const pageOfElement = (el: Element) => {
    const first = firstPieceOf.get(el);
    if (first) return pageOfBox(first.top, first.bottom);
    const b = boxOf(el);
    return pageOfBox(b.top, b.bottom);
  };

  // -- table-too-wide -----------------------------------------------------------------------------
  const wideTables = new Set<Element>();
  const tables = elements.filter(
    (el) => body.contains(el) && /^(inline-)?table$/.test(style(el).display) && shown(el) && !fixedInside(el),
  );
  const scrollsBetween = (el: Element) => {
    for (let at = el.parentElement; at && at !== body && at !== root; at = at.parentElement)
      if (/auto|scroll|hidden/.test(style(at).overflowX)) return true;
    return false;
  };
  const tooWide: Array<{ el: Element; message: string }> = [];
  for (const table of tables) {
    const w = width(boxOf(table));
    const container = containerOf(table);
    const room = container === root ? config.width : width(contentBox(container));
    const scrolled = scrollsBetween(table);
    let message: string | undefined;
    if (w > config.width + TOLERANCE && (config.print || !scrolled))
      message = `the table is ${px(w)} wide; ${config.pageText} is ${px(config.width)} wide${config.print && scrolled ? ' (printed, its scrolling box cuts it off)' : ''}`;
    else if (!scrolled && w > room + TOLERANCE && container !== body)
      message = `the table is ${px(w)} wide; its container ${selectorOf(container)} is ${px(room)} wide`;
    else if (!scrolled && w > room + TOLERANCE) message = `the table is ${px(w)} wide; the body is ${px(room)} wide`;
    if (message) {
      wideTables.add(table);
      tooWide.push({ el: table, message });
    }
  }
  for (const { el, message } of tooWide) {
    if (tooWide.some((t) => t.el !== el && el.contains(t.el))) continue;
    findings.push({
      type: 'table-too-wide',
      severity: 'error',
      selector: selectorOf(el),
      page: pageOfElement(el),
      message,
      order: orderOf(el),
      everyMedium: false,
    });
  }

  // -- overflow -------------------------------------------------------------------------------------
  type Spill = {
    kind: 'clipped' | 'out' | 'page';
    dx: number;
    dy: number;
    sample: string;
    page: number;
    atom: Element | null;
  };
  const spills = new Map<Element, Spill>();
  const claimed = new Set<Item>();
  const record = (el: Element, kind: Spill['kind'], dx: number, dy: number, item: Item, at: Box) => {
    claimed.add(item);
    const sample = item.atom ? '' : clip(item.node?.data ?? '');
    const known = spills.get(el);
    if (known) {
      known.dx = Math.max(known.dx, dx);
      known.dy = Math.max(known.dy, dy);
      return;
    }
    spills.set(el, { kind, dx, dy, sample, page: pageOfBox(at.top, at.bottom), atom: item.atom });
  };
  /** Whether `r` (content outside `el`'s box) lies over other text or an image. */
  const hitsOtherText = (r: Box, el: Element) =>
    texts.some((t) => {
      if (el.contains(t.el) || t.el.contains(el)) return false;
      const i = intersect(r, t.rect);
      return width(i) > OVERLAP_SIDE && height(i) > OVERLAP_SIDE;
    });
  const clipExempt = (el: Element) => {
    const s = style(el);
    return (
      s.textOverflow === 'ellipsis' ||
      (s.getPropertyValue('-webkit-line-clamp') || 'none') !== 'none' ||
      el.clientWidth <= 2 ||
      el.clientHeight <= 2 ||
      (s.clip && s.clip !== 'auto') ||
      s.clipPath !== 'none'
    );
  };
  for (const item of texts) {
    if (transformed(item.el)) continue;
    let r: Box = item.rect;
    // An image placed out of the flow sticks out where it was put: only the page's edge counts for it.
    let at: Element | null = item.atom ? (outOfFlow(item.atom) ? null : item.atom.parentElement) : item.el;
    const chain: Element[] = [];
    let settled = false;
    let vertical = true;
    let from: Element = item.atom ?? item.el;
    while (at && at !== body && at !== root) {
      if (passThrough(at)) {
        at = at.parentElement;
        continue;
      }
      chain.push(at);
      // Cut into columns: its box is its first column's, and says nothing of the rest.
      if (at.getClientRects().length > 1) {
        at = at.parentElement;
        continue;
      }
      if (wideTables.has(at)) {
        settled = true;
        break;
      }
      if (vertical && floatedBetween(from, at)) vertical = false;
      from = at;
      const s = style(at);
      const p = paddingBox(at);
      const dx = r.right - p.right;
      const dy = vertical ? r.bottom - p.bottom : 0;
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        if (/auto|scroll/.test(s.overflowX + s.overflowY)) {
          settled = true;
          break;
        }
        if ((dx > TOLERANCE || dy > TOLERANCE) && !clipExempt(at)) {
          record(at, 'clipped', dx, dy, item, r);
          settled = true;
          break;
        }
        r = intersect(r, p);
        if (width(r) <= 0 || height(r) <= 0) {
          settled = true;
          break;
        }
      } else if (dx > TOLERANCE || dy > TOLERANCE) {
        const container = containerOf(at);
        const room =
          container === root ? { left: 0, top: 0, right: config.width, bottom: Infinity } : contentBox(container);
        const past: Box = {
          left: dx > TOLERANCE ? p.right : r.left,
          top: dy > TOLERANCE && dx <= TOLERANCE ? p.bottom : r.top,
          right: r.right,
          bottom: r.bottom,
        };
        const seen =
          painted(at) ||
          (dx > TOLERANCE && r.right > room.right + TOLERANCE) ||
          (dy > TOLERANCE && r.bottom > room.bottom + TOLERANCE) ||
          r.right > config.width + TOLERANCE ||
          hitsOtherText(past, at);
        if (seen) {
          record(at, 'out', dx, dy, item, r);
          settled = true;
          break;
        }
      }
      if (outOfFlow(at)) break;
      at = at.parentElement;
    }
    if (!settled && r.right > config.width + TOLERANCE) {
      let culprit: Element | undefined;
      for (const el of [...chain, body]) if (boxOf(el).right > config.width + TOLERANCE) culprit = el;
      culprit ??= chain[0] ?? item.atom ?? item.el;
      if (culprit === root) culprit = body;
      record(culprit, 'page', r.right - config.width, 0, item, r);
    }
  }
  for (const [el, spill] of spills) {
    const what = spill.atom
      ? `the ${spill.atom.localName} (${px(width(boxOf(spill.atom)))} wide)`
      : spill.sample
        ? `the text "${spill.sample}"`
        : 'its content';
    const s = style(el);
    let message: string;
    if (spill.kind === 'clipped') {
      const where = spill.dx > TOLERANCE ? `${px(spill.dx)} past its right edge` : `${px(spill.dy)} below its bottom`;
      message = `${what} is cut off: it runs ${where} and overflow: ${s.overflowX === s.overflowY ? s.overflowX : `${s.overflowX} ${s.overflowY}`} hides it`;
    } else if (spill.kind === 'page') {
      message = `${what} runs ${px(spill.dx)} past the right edge of ${config.pageText} (${px(config.width)} wide)`;
    } else if (spill.dx > TOLERANCE) {
      const right = boxOf(el).left + el.clientLeft + spill.dx + el.clientWidth;
      const page = right > config.width + TOLERANCE ? `, and off ${config.pageText}` : '';
      message = `${what} runs ${px(spill.dx)} past its right edge (it is ${px(el.clientWidth)} wide${page})`;
    } else {
      message = `${what} runs ${px(spill.dy)} below its bottom (it is ${px(el.clientHeight)} high)`;
    }
    findings.push({
      type: 'overflow',
      severity: 'error',
      selector: selectorOf(el),
      page: spill.page,
      message,
      order: orderOf(el),
      everyMedium: false,
    });
  }

  // -- overlap --------------------------------------------------------------------------------------
  const clipCache = new Map<Element, Box>();
  const ALL: Box = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  const clipOf = (el: Element): Box => {
    const known = clipCache.get(el);
    if (known) return known;
    const parent = el.parentElement;
    let box = parent && el !== body ? clipOf(parent) : ALL;
    const s = style(el);
    if (el !== body && el !== root && (s.overflowX !== 'visible' || s.overflowY !== 'visible'))
      box = intersect(box, paddingBox(el));
    if (s.clipPath !== 'none' || (s.clip && s.clip !== 'auto')) box = intersect(box, boxOf(el));
    clipCache.set(el, box);
    return box;
  };
  const faintCache = new Map<Element, boolean>();
  /** A watermark or decoration: out of flow and faint, or not to be pointed at. */
  const overlay = (el: Element): boolean => {
    const known = faintCache.get(el);
    if (known !== undefined) return known;
    let alpha = alphaOf(style(el).color);
    let placed = false;
    let inert = false;
    let turned = false;
    for (let at: Element | null = el; at && at !== root; at = at.parentElement) {
      const s = style(at);
      alpha *= parseFloat(s.opacity) || 0;
      if (s.position === 'absolute' || s.position === 'fixed') placed = true;
      if (s.pointerEvents === 'none' && s.position !== 'static') inert = true;
      if (rotated(s)) turned = true;
    }
    // Faint, inert or turned (a stamp, a "DRAFT" across the page), and placed over the page on purpose.
    const result = alpha < 0.02 || (placed && (alpha <= WATERMARK_ALPHA || inert || turned));
    faintCache.set(el, result);
    return result;
  };
  const displacedCache = new Map<Element, Element | null>();
  /** The nearest element at or above `el` that was moved off its place in the flow. */
  const displaced = (el: Element): Element | null => {
    if (displacedCache.has(el)) return displacedCache.get(el)!;
    let result: Element | null = null;
    for (let at: Element | null = el; at && at !== body && at !== root; at = at.parentElement) {
      const s = style(at);
      const moved =
        s.position === 'absolute' ||
        s.position === 'fixed' ||
        (s.position === 'relative' &&
          [s.top, s.left, s.bottom, s.right].some((v) => v !== 'auto' && parseFloat(v) !== 0)) ||
        (s.transform !== 'none' && s.transform !== '') ||
        (parseFloat(s.marginTop) || 0) < 0 ||
        (parseFloat(s.marginLeft) || 0) < 0;
      if (moved) {
        result = at;
        break;
      }
    }
    displacedCache.set(el, result);
    return result;
  };
  /** The box placed out of the flow at or above `inner`, below `outer`, if any. */
  const placedWithin = (inner: Element, outer: Element): Element | null => {
    for (let at: Element | null = inner; at && at !== outer; at = at.parentElement) if (outOfFlow(at)) return at;
    return null;
  };
  const candidates = texts
    .filter((t) => !t.atom && !claimed.has(t) && !overlay(t.el))
    .map((t) => ({ t, r: intersect(t.rect, clipOf(t.el)) }))
    .filter(({ r }) => width(r) > 0 && height(r) > 0)
    .sort((a, b) => a.r.top - b.r.top);
  const overlaps = new Map<Element, { other: Element; area: number; w: number; h: number; page: number }>();
  for (let i = 0; i < candidates.length; i++) {
    const a = candidates[i]!;
    for (let j = i + 1; j < candidates.length; j++) {
      const b = candidates[j]!;
      if (b.r.top >= a.r.bottom) break;
      if (a.t.el === b.t.el) continue;
      const outer = a.t.el.contains(b.t.el) ? a : b.t.el.contains(a.t.el) ? b : null;
      // Text inside text (a link in a paragraph) sits in its lines; only a box placed out of the
      // flow inside it can be drawn over its words.
      const placed = outer && placedWithin(outer === a ? b.t.el : a.t.el, outer.t.el);
      if (outer && !placed) continue;
      const x = intersect(a.r, b.r);
      const w = width(x);
      const h = height(x);
      if (w <= OVERLAP_SIDE || h <= OVERLAP_SIDE || w * h <= OVERLAP_AREA) continue;
      let culprit: Element;
      let other: Element;
      if (outer && placed) [culprit, other] = [placed, outer.t.el];
      else {
        const da = displaced(a.t.el);
        const db = displaced(b.t.el);
        const aMoved = da !== null && !da.contains(b.t.el);
        const bMoved = db !== null && !db.contains(a.t.el);
        if (aMoved && !bMoved) [culprit, other] = [da!, b.t.el];
        else if (bMoved && !aMoved) [culprit, other] = [db!, a.t.el];
        else {
          const later = orderOf(a.t.el) > orderOf(b.t.el) ? a : b;
          const earlier = later === a ? b : a;
          const moved = later === a ? (aMoved ? da : null) : bMoved ? db : null;
          [culprit, other] = [moved ?? later.t.el, earlier.t.el];
        }
      }
      const known = overlaps.get(culprit);
      if (!known || known.area < w * h)
        overlaps.set(culprit, { other, area: w * h, w, h, page: pageOfBox(x.top, x.bottom) });
    }
  }
  for (const [el, o] of overlaps) {
    findings.push({
      type: 'overlap',
      severity: 'error',
      selector: selectorOf(el),
      page: o.page,
      message: `its text overlaps the text of ${selectorOf(o.other)} (${px(o.w)} × ${px(o.h)})`,
      order: orderOf(el),
      everyMedium: false,
    });
  }

  // -- orphan headings (print) --------------------------------------------------------------------
  if (config.print) {
    const headingOf = (el: Element) => el.closest('h1, h2, h3, h4, h5, h6');
    const inColumns = (el: Element) => {
      for (let at: Element | null = el; at && at !== root; at = at.parentElement) {
        const s = style(at);
        if (s.columnCount !== 'auto' || s.columnWidth !== 'auto') return true;
      }
      return false;
    };
    for (const h of elements) {
      if (!isHeading(h) || !shown(h) || outOfFlow(h) || style(h).float !== 'none' || inColumns(h)) continue;
      const last = lastPieceOf.get(h);
      if (!last) continue;
      const level = Number(h.localName[1]);
      let next: Piece | undefined;
      let emptySection = false;
      for (let k = last.index + 1; k < pieces.length; k++) {
        const p = pieces[k]!;
        const ph = headingOf(p.container);
        if (ph) {
          if (Number(ph.localName[1]) <= level) {
            emptySection = true;
            break;
          }
          continue;
        }
        next = p;
        break;
      }
      if (!next || emptySection) continue;
      const page = pageOfBox(last.top, last.bottom);
      const nextPage = pageOfBox(next.top, next.bottom);
      if (nextPage <= page) continue;
      // A block that holds the heading and not what follows, and runs to the foot of the page (a
      // cover, a title page): the page was made so.
      const pageEnd = breaks[page] ?? Infinity;
      let designed = false;
      for (let at = h.parentElement; at && at !== body && at !== root; at = at.parentElement)
        if (!at.contains(next.container) && boxOf(at).bottom >= pageEnd - 1) designed = true;
      if (!designed)
        findings.push({
          type: 'orphan-heading',
          severity: 'warning',
          selector: selectorOf(h),
          page,
          message: `the heading "${clip(h.textContent ?? '')}" is the last thing on page ${page}; its section starts on page ${nextPage} (keep them together: break-after: avoid)`,
          order: orderOf(h),
          everyMedium: false,
        });
    }
  }

  // -- what holds on every medium -----------------------------------------------------------------
  if (config.documentChecks) {
    let previous = 0;
    for (const h of elements) {
      if (!isHeading(h) || !body.contains(h) || !shown(h)) continue;
      const level = Number(h.localName[1]);
      let message: string | undefined;
      if (previous === 0 && level > 2)
        message = `the document's first heading is an h${level}: start with an h1 (or h2)`;
      else if (previous > 0 && level > previous + 1)
        message = `an h${level} follows an h${previous}: a level is skipped (make it an h${previous + 1})`;
      if (message)
        findings.push({
          type: 'heading-order',
          severity: 'warning',
          selector: selectorOf(h),
          page: null,
          message,
          order: orderOf(h),
          everyMedium: true,
        });
      previous = level;
    }

    const served = new Set(config.assets);
    const assetList = config.assets.length
      ? `the task's assets are ${config.assets.slice(0, 5).join(', ')}${config.assets.length > 5 ? ', …' : ''}`
      : 'the task has none';
    const why = (src: string): string | undefined => {
      let url: URL;
      try {
        url = new URL(src, doc.baseURI);
      } catch {
        return `its source ${clip(src)} is not a URL`;
      }
      if (url.protocol === 'data:') return undefined;
      if (url.origin === config.origin) {
        let path = url.pathname;
        try {
          path = decodeURIComponent(path);
        } catch {
          // kept as it is
        }
        path = path.replace(/^\/+/, '');
        if (served.has(path)) return undefined;
        return `${clip(path)} is not one of the task's assets: only the task's assets are served beside the document (${assetList})`;
      }
      return `it loads from ${clip(url.href)}: nothing is fetched from the network, only the task's assets are served beside the document (${assetList})`;
    };
    for (const img of Array.from(doc.images)) {
      if (!body.contains(img) || !shown(img) || !img.complete || img.naturalWidth !== 0) continue;
      const src = img.currentSrc || img.getAttribute('src') || '';
      let message: string;
      if (!src.trim() && !img.getAttribute('srcset')) message = 'the image has no src';
      else {
        const reason = why(src);
        message = reason
          ? `the image did not load: ${reason}`
          : `the image ${clip(src.startsWith('data:') ? 'data: URI' : src)} loaded but is not an image the browser can decode`;
      }
      findings.push({
        type: 'broken-image',
        severity: 'error',
        selector: selectorOf(img),
        page: null,
        message,
        order: orderOf(img),
        everyMedium: true,
      });
    }
    for (const el of elements) {
      if (!body.contains(el) && el !== body && el !== root) continue;
      const bg = style(el).backgroundImage;
      if (!bg || bg === 'none' || !shown(el)) continue;
      for (const m of bg.matchAll(/url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)\s]*))\s*\)/g)) {
        const src = m[1] ?? m[2] ?? m[3] ?? '';
        const reason = why(src);
        if (!reason) continue;
        findings.push({
          type: 'broken-image',
          severity: 'error',
          selector: selectorOf(el),
          page: null,
          message: `its background image did not load: ${reason}`,
          order: orderOf(el),
          everyMedium: true,
        });
        break;
      }
    }
  }

  if (config.contrastKey !== null) {
    const holder = window as unknown as Record<string, unknown>;
    const found = holder[config.contrastKey] as ContrastNode[] | undefined;
    delete holder[config.contrastKey];
    const seen = new Set<Element>();
    for (const node of found ?? []) {
      let el: Element | null = null;
      try {
        el = node.target.length === 1 ? doc.querySelector(node.target[0]!) : null;
      } catch {
        el = null;
      }
      // A watermark is faint on purpose.
      if (!el || seen.has(el) || overlay(el)) continue;
      seen.add(el);
      const d = node.data;
      const pt = d?.fontSize ? parseFloat(d.fontSize) : NaN;
      const size = Number.isFinite(pt)
        ? ` at ${Math.round(pt * 10) / 10} pt${d?.fontWeight === 'bold' ? ' bold' : ''}`
        : '';
      findings.push({
        type: 'low-contrast',
        severity: 'error',
        selector: selectorOf(el),
        page: null,
        message: d?.contrastRatio
          ? `its text is ${d.fgColor} on ${d.bgColor}${size}: a contrast of ${d.contrastRatio}:1, below the ${d.expectedContrastRatio ?? '4.5:1'} WCAG AA asks for`
          : 'its text does not contrast enough with its background (WCAG AA)',
        order: orderOf(el),
        everyMedium: true,
      });
    }
  }

  return { pages: config.print ? breaks.length : 1, findings, breaks };
}
