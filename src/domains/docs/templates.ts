/**
 * FormAct's template retriever: a library of professional, print-ready HTML documents a model
 * starts a draft from, ranked for a query with BM25 (MiniSearch scores with BM25+) over each
 * template's name, its `<meta name="description">` and `<meta name="keywords">`, its headings
 * and its text. Crucible ships six (templates/*.html, written for it); a folder of one's own
 * loads the same way.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { elementsIn, parseHtml, visibleText } from './parse.js';

export interface Template {
  /** The file name without `.html`. */
  readonly name: string;
  readonly description: string;
  readonly keywords: readonly string[];
  readonly headings: readonly string[];
  readonly html: string;
}

export interface TemplateHit {
  readonly name: string;
  readonly description: string;
  readonly score: number;
  readonly html: string;
}

/** The shipped templates' folder. */
export const SHIPPED_TEMPLATES = new URL('./templates/', import.meta.url);

/** Words too common to rank by ("invoice with line items and totals"). */
const STOP_WORDS = new Set(
  'a an and are as at be by for from in into is it of on or that the this to with without'.split(' '),
);

interface Indexed {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly keywords: string;
  readonly headings: string;
  readonly text: string;
}

/** Reads a template's metadata and text from its HTML. */
export function describeTemplate(name: string, html: string): Template {
  const { document } = parseHtml(html);
  const elements = elementsIn(document);
  const meta = (key: string) =>
    elements
      .find((el) => el.name === 'meta' && el.attribs['name']?.toLowerCase() === key)
      ?.attribs['content']?.trim() ?? '';
  const keywords = meta('keywords')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const headings = elements.filter((el) => /^h[1-6]$/.test(el.name)).map((el) => visibleText(el));
  return { name, description: meta('description'), keywords, headings, html };
}

export class TemplateLibrary {
  private static shippedLibrary: TemplateLibrary | undefined;
  private readonly index: MiniSearch<Indexed>;

  constructor(readonly templates: readonly Template[]) {
    this.index = new MiniSearch<Indexed>({
      fields: ['name', 'description', 'keywords', 'headings', 'text'],
      storeFields: [],
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
      // "line-items", "meeting-minutes", "two-column": hyphens split terms too.
      tokenize: (text) => text.split(/[\s\-_.,;:!?()[\]{}"'/\\|<>@#&*+=~`^%$·—–]+/u).filter(Boolean),
      searchOptions: {
        boost: { name: 4, keywords: 3, description: 2, headings: 1.5, text: 1 },
        fuzzy: (term) => (term.length >= 6 ? 0.15 : 0),
        prefix: (term) => term.length >= 4,
        combineWith: 'OR',
      },
    });
    this.index.addAll(
      templates.map((t, id) => ({
        id,
        name: t.name.replace(/[-_]/g, ' '),
        description: t.description,
        keywords: t.keywords.join(', '),
        headings: t.headings.join(' \n '),
        text: visibleText(parseHtml(t.html).document),
      })),
    );
  }

  /** The six templates Crucible ships (read once). */
  static shipped(): TemplateLibrary {
    if (!TemplateLibrary.shippedLibrary) {
      const dir = fileURLToPath(SHIPPED_TEMPLATES);
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.html'))
        .sort();
      TemplateLibrary.shippedLibrary = new TemplateLibrary(
        files.map((f) => describeTemplate(basename(f, '.html'), readFileSync(join(dir, f), 'utf8'))),
      );
    }
    return TemplateLibrary.shippedLibrary;
  }

  /** Every `*.html` in a folder, named by its file. */
  static async fromFolder(dir: string | URL): Promise<TemplateLibrary> {
    const path = typeof dir === 'string' ? dir : fileURLToPath(dir);
    const files = (await readdir(path)).filter((f) => f.endsWith('.html')).sort();
    const templates = await Promise.all(
      files.map(async (f) => describeTemplate(basename(f, '.html'), await readFile(join(path, f), 'utf8'))),
    );
    return new TemplateLibrary(templates);
  }

  /** The names of the templates, sorted. */
  names(): string[] {
    return this.templates.map((t) => t.name).sort();
  }

  get(name: string): Template | undefined {
    return this.templates.find((t) => t.name === name);
  }

  /** The `k` templates that best fit the query, best first (fewer when fewer match at all). */
  search(query: string, k = 3): TemplateHit[] {
    if (query.trim() === '' || k <= 0) return [];
    return this.index
      .search(query)
      .slice(0, k)
      .map((hit) => {
        const t = this.templates[hit.id as number]!;
        return { name: t.name, description: t.description, score: hit.score, html: t.html };
      });
  }
}
