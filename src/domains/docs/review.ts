/**
 * The documents reviewer (FormAct's review agent, made deterministic): renders an HTML document
 * in chromium on each medium — printed on A4 and on US Letter, and on a screen — and reports the
 * formatting errors a reader would see there (issues.ts), each with a selector for the element at
 * fault and the page it is on.
 *
 * One `runtime.judge` per document, one load: each medium is a re-layout of the same page
 * (`setViewportSize` + `emulateMedia`). A printed medium is laid out at its page's content width
 * — the sheet less the document's own `@page` margins, or 15 mm (A4) / 0.6 in (Letter) when it
 * sets none — with print styles, and cut into pages of the content height (page-checks.ts says
 * why and how closely that follows chromium's own paginator). The screen is a 1280 × 800 window.
 * The sheet is the medium's, whatever `@page { size }` says: a document is judged on the paper it
 * will be printed on.
 *
 * What is judged where: parse errors from the source (parse.ts); broken images, heading order
 * and contrast once (medium null: contrast from the screen pass, or the first one); overflow,
 * overlap, tables too wide and orphan headings per medium. A page that loops or exhausts its
 * memory gives `abort` and no issues.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { ARTIFACT_ORIGIN, type Abort, type BrowserRuntime, type BrowserSession } from '../../browser/runtime.js';
import { MEDIA, SEVERITY_RANK, type Assets, type DocIssue, type Medium } from './issues.js';
import { MEDIA_LAYOUT, contentBox, mediumName } from './media.js';
import {
  CONTRAST_KEY,
  addContrast,
  checkPage,
  readPageMargins,
  runContrast,
  settlePage,
  type PageCheckResult,
  type UndecidedContrast,
} from './page-checks.js';
import { parseHtml } from './parse.js';

export interface ReviewOptions {
  /** Where to judge the document; default all of MEDIA. */
  readonly media?: readonly Medium[];
  /** Files served beside the document; everything else it asks for is refused. */
  readonly assets?: Assets;
  /**
   * Whether the document's scripts run (default false: a document is read, not run; a script
   * could only change what it shows the reviewer). The reviewer reads in a world of its own
   * either way.
   */
  readonly scripts?: boolean;
}

export interface Review {
  /** Errors first, then by medium (every medium first, then A4, Letter, screen), page and document order. */
  readonly issues: DocIssue[];
  /** Printed pages per print medium (the screen: 1). */
  readonly pages: Partial<Record<Medium, number>>;
  /** The page looped or crashed: no issues judged. */
  readonly abort?: Abort;
  /** Wall time of the review, ms. */
  readonly ms: number;
}

/** How long the page may take to settle (images, fonts) before it is measured as it is, ms. */
const SETTLE_MS = 3_000;

let axeSource: string | undefined;
/**
 * axe-core, evaluated with timers of its own: the page's clock is paused (runtime.ts) and axe
 * waits on setTimeout between rules. Its zero-delay timers run as message-channel tasks; the
 * long ones (preload and frame time-outs, neither used here) never fire.
 */
function axeScript(): string {
  axeSource ??= `(() => {
  const channel = new MessageChannel();
  const due = new Map();
  let next = 0;
  channel.port1.onmessage = (event) => {
    const run = due.get(event.data);
    due.delete(event.data);
    if (run) run();
  };
  const setTimeout = (fn, ms, ...args) => {
    const id = ++next;
    if ((ms || 0) > 100) return id;
    due.set(id, () => fn(...args));
    channel.port2.postMessage(id);
    return id;
  };
  const clearTimeout = (id) => void due.delete(id);
  ${readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}
})();`;
  return axeSource;
}

const MEDIUM_RANK: Record<Medium, number> = { a4: 1, letter: 2, screen: 3 };

export async function reviewDocument(
  runtime: BrowserRuntime,
  html: string,
  options: ReviewOptions = {},
): Promise<Review> {
  const started = performance.now();
  const media = MEDIA.filter((m) => (options.media ?? MEDIA).includes(m));
  const assets = options.assets ?? new Map();
  const judged = await runtime.judge(html, (session) => measure(session, media, [...assets.keys()]), {
    assets,
    scripts: options.scripts ?? false,
  });
  if ('abort' in judged)
    return { issues: [], pages: {}, abort: judged.abort, ms: Math.round(performance.now() - started) };

  const keyed: Array<{ issue: DocIssue; order: number }> = parseHtml(html).errors.map((e) => ({
    issue: { type: 'parse-error', severity: e.severity, selector: '', page: null, medium: null, message: e.message },
    order: e.offset,
  }));
  const seen = new Set<string>();
  const pages: Partial<Record<Medium, number>> = {};
  for (const { medium, result } of judged.value) {
    pages[medium] = result.pages;
    for (const f of result.findings) {
      const issue: DocIssue = {
        type: f.type,
        severity: f.severity,
        selector: f.selector,
        page: f.everyMedium ? null : f.page,
        medium: f.everyMedium ? null : medium,
        message: f.message,
      };
      // Once per medium (and once in all for what holds on every medium).
      const key = `${issue.type}\0${issue.medium}\0${issue.selector}`;
      if (seen.has(key)) continue;
      seen.add(key);
      keyed.push({ issue, order: f.order });
    }
  }
  keyed.sort(
    (a, b) =>
      SEVERITY_RANK[b.issue.severity] - SEVERITY_RANK[a.issue.severity] ||
      rank(a.issue.medium) - rank(b.issue.medium) ||
      (a.issue.page ?? 0) - (b.issue.page ?? 0) ||
      (a.issue.type === 'parse-error' ? 0 : 1) - (b.issue.type === 'parse-error' ? 0 : 1) ||
      a.order - b.order,
  );
  return { issues: keyed.map((k) => k.issue), pages, ms: Math.round(performance.now() - started) };
}

const rank = (medium: Medium | null) => (medium === null ? 0 : MEDIUM_RANK[medium]);

/** Each medium's layout and checks, in one load of the document. */
async function measure(
  session: BrowserSession,
  media: readonly Medium[],
  assets: readonly string[],
): Promise<Array<{ medium: Medium; result: PageCheckResult }>> {
  await session.load();
  const page = session.page;
  const settle = () => Promise.race([session.inspect(settlePage, undefined), sleep(SETTLE_MS)]).catch(() => undefined);
  await settle();
  // Contrast is judged on the screen when the document is judged there, else on its first medium.
  const contrastOn = media.includes('screen') ? 'screen' : media[0];
  const results: Array<{ medium: Medium; result: PageCheckResult }> = [];
  for (const [i, medium] of media.entries()) {
    const layout = MEDIA_LAYOUT[medium];
    let width: number;
    let height: number;
    let pageText: string;
    if (layout.kind === 'print') {
      await session.step(() => page.emulateMedia({ media: 'print' }));
      const margins = await session.inspect(readPageMargins, {
        width: layout.width,
        height: layout.height,
        fallback: layout.defaultMargin,
      });
      ({ width, height } = contentBox(layout, margins));
      pageText = `the ${mediumName(medium)} page's content area`;
    } else {
      await session.step(() => page.emulateMedia({ media: 'screen' }));
      ({ width, height } = layout);
      pageText = 'the window';
    }
    // The viewport is whole pixels; the page is cut at its exact height.
    await session.step(() =>
      page.setViewportSize({ width: Math.max(1, Math.floor(width)), height: Math.max(1, Math.floor(height)) }),
    );
    await settle();
    let contrastKey: string | null = null;
    if (medium === contrastOn) {
      await session.inspect(axeScript());
      const undecided = (await session.inspect(runContrast, CONTRAST_KEY)) as UndecidedContrast[];
      const faint = await faintFromPixels(session, undecided.slice(0, MAX_UNDECIDED));
      if (faint.length) await session.inspect(addContrast, { key: CONTRAST_KEY, nodes: faint });
      contrastKey = CONTRAST_KEY;
    }
    const result = await session.inspect(checkPage, {
      print: layout.kind === 'print',
      width: Math.floor(width),
      height,
      pageText,
      documentChecks: i === 0,
      contrastKey,
      origin: ARTIFACT_ORIGIN,
      assets,
    });
    results.push({ medium, result });
  }
  return results;
}

/** At most this many elements axe could not judge are looked at in pixels (each is a screenshot). */
const MAX_UNDECIDED = 30;

/** The largest part of the page taken in one screenshot, px² (a tall document is taken in parts). */
const MAX_SHOT_AREA = 1280 * 4000;

/**
 * The undecided elements whose text is too faint on the background their pixels show: a
 * screenshot of the part of the page they are in (or one each, when they are far apart); each
 * element's background the most common colour in its box (text covers less of a box than its
 * background does), the text's colour composited over it.
 */
async function faintFromPixels(session: BrowserSession, undecided: readonly UndecidedContrast[]) {
  const faint: Array<{ target: string[]; data: Record<string, unknown> }> = [];
  if (undecided.length === 0) return faint;
  type Box = UndecidedContrast['box'];
  const shoot = async (clip: Box) => {
    const shot = await session.step(() =>
      session.page
        .screenshot({ fullPage: true, clip, animations: 'disabled', caret: 'hide', scale: 'css', timeout: 3_000 })
        .catch(() => undefined),
    );
    const image = shot && decodePng(shot);
    return image && { image, clip };
  };
  const union = (boxes: readonly Box[]): Box => {
    const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x))));
    const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y))));
    return {
      x,
      y,
      width: Math.ceil(Math.max(...boxes.map((b) => b.x + b.width))) - x,
      height: Math.ceil(Math.max(...boxes.map((b) => b.y + b.height))) - y,
    };
  };
  const all = union(undecided.map((u) => u.box));
  const shared = all.width * all.height <= MAX_SHOT_AREA ? await shoot(all) : undefined;
  for (const u of undecided) {
    const taken = shared ?? (await shoot(union([{ ...u.box, height: Math.min(u.box.height, 1000) }])));
    if (!taken) continue;
    const bg = commonColour(taken.image, { ...u.box, x: u.box.x - taken.clip.x, y: u.box.y - taken.clip.y });
    if (!bg) continue;
    const [r, g, b, a] = u.fg;
    const fg: [number, number, number] = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
    const ratio = contrast(fg, bg);
    if (ratio >= u.expected) continue;
    faint.push({
      target: u.target,
      data: {
        fgColor: hex(fg),
        bgColor: hex(bg),
        contrastRatio: Math.round(ratio * 100) / 100,
        expectedContrastRatio: `${u.expected}:1`,
        ...(u.fontSize ? { fontSize: u.fontSize } : {}),
        ...(u.fontWeight ? { fontWeight: u.fontWeight } : {}),
      },
    });
  }
  return faint;
}

/** WCAG 2's contrast ratio of two sRGB colours. */
function contrast(a: readonly number[], b: readonly number[]): number {
  const luminance = (c: readonly number[]) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const hex = (c: readonly number[]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** The most common colour in a box of an image (in 4-bit-per-channel bins, averaged within its bin). */
function commonColour(
  image: { width: number; height: number; rgba: Uint8Array },
  box: { x: number; y: number; width: number; height: number },
): [number, number, number] | undefined {
  const bins = new Map<number, [number, number, number, number]>();
  const { rgba } = image;
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      const key = ((rgba[i]! >> 4) << 8) | ((rgba[i + 1]! >> 4) << 4) | (rgba[i + 2]! >> 4);
      const bin = bins.get(key) ?? [0, 0, 0, 0];
      bin[0] += rgba[i]!;
      bin[1] += rgba[i + 1]!;
      bin[2] += rgba[i + 2]!;
      bin[3]++;
      bins.set(key, bin);
    }
  let best: [number, number, number, number] | undefined;
  for (const bin of bins.values()) if (!best || bin[3] > best[3]) best = bin;
  return best && [best[0] / best[3], best[1] / best[3], best[2] / best[3]];
}

/** An 8-bit, non-interlaced RGB or RGBA PNG (what chromium's screenshots are) as RGBA; undefined for any other. */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } | undefined {
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (buf.length < 33 || buf.readUInt32BE(0) !== 0x89504e47) return undefined;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at + 8 <= buf.length;) {
    const length = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) return undefined;
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!width || !height || !channels) return undefined;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? row[x - channels]! : 0;
      const up = previous[x]!;
      const corner = x >= channels ? previous[x - channels]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      row[x] = (line[x]! + predicted) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      out.set(row.subarray(x * channels, x * channels + 3), (y * width + x) * 4);
      out[(y * width + x) * 4 + 3] = channels === 4 ? row[x * channels + 3]! : 255;
    }
    previous = row;
  }
  return { width, height, rgba: out };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
