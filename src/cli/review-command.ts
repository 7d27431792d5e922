/**
 * `crucible review FILE.html [--json F] [--media a4,letter,screen] [--assets DIR] [--scripts]`: the documents
 * reviewer on one file. One line per issue, then a summary; exit 0 with no error-level issue, 1
 * with one (or when the page loops or crashes), 2 on bad input (main.ts turns a thrown error into
 * that).
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { BrowserRuntime } from '../browser/runtime.js';
import { MEDIA, type Assets, type DocIssue, type Medium } from '../domains/docs/issues.js';
import { mediumName } from '../domains/docs/media.js';
import { reviewDocument, type Review } from '../domains/docs/review.js';
import { contentTypeOf } from '../domains/docs/task.js';

export interface ReviewFlags {
  readonly json?: string;
  readonly media?: string;
  readonly assets?: string;
  readonly scripts?: boolean;
}

/** The media `--media` names, in MEDIA's order; an unknown one is an error that lists the right ones. */
export function parseMedia(value: string | undefined): Medium[] {
  if (value === undefined) return [...MEDIA];
  const names = value
    .split(',')
    .map((m) => m.trim().toLowerCase())
    .filter(Boolean);
  const unknown = names.filter((m) => !(MEDIA as readonly string[]).includes(m));
  if (unknown.length || names.length === 0)
    throw new Error(
      `--media ${value}: ${unknown.length ? `unknown medium ${unknown.map((m) => `"${m}"`).join(', ')}` : 'no medium given'}; give one or more of ${MEDIA.join(', ')}, comma-separated (--media a4,screen)`,
    );
  return MEDIA.filter((m) => names.includes(m));
}

/** Every file under `dir`, at its path relative to it (with `/`), typed by its extension. */
export function readAssets(dir: string): Assets {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new Error(
      `--assets ${dir}: no such folder; give the folder that holds the document's images, fonts and style sheets`,
    );
  const assets = new Map<string, { contentType: string; body: Uint8Array }>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile())
        assets.set(relative(dir, path).split(sep).join('/'), {
          contentType: contentTypeOf(entry.name),
          body: new Uint8Array(readFileSync(path)),
        });
    }
  };
  walk(resolve(dir));
  return assets;
}

/** One issue as a line: `error  overflow  a4 p.2  div.sidebar > p:nth-of-type(3)  the text runs…`. */
export function formatIssue(issue: DocIssue): string {
  const where =
    issue.medium === null ? 'all' : issue.medium === 'screen' ? 'screen' : `${issue.medium} p.${issue.page ?? '?'}`;
  return [
    issue.severity.padEnd(7),
    issue.type.padEnd(14),
    where.padEnd(10),
    issue.selector || '(source)',
    issue.message,
  ].join('  ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `3 errors, 1 warning on 2 A4 pages, 2 Letter pages, screen`. */
export function formatSummary(review: Review, media: readonly Medium[]): string {
  if (review.abort) return `not reviewed: ${review.abort.message}`;
  const errors = review.issues.filter((i) => i.severity === 'error').length;
  const warnings = review.issues.length - errors;
  const counts =
    [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(', ') ||
    'no issues';
  const on = media
    .map((m) => (m === 'screen' ? 'screen' : plural(review.pages[m] ?? 0, `${mediumName(m)} page`)))
    .join(', ');
  return `${counts} on ${on}`;
}

export async function runReview(file: string | undefined, flags: ReviewFlags): Promise<void> {
  if (file === undefined)
    throw new Error('give the HTML document to review: crucible review report.html [--media a4,letter,screen]');
  if (!existsSync(file) || !statSync(file).isFile())
    throw new Error(`${file}: no such file; give the path of the HTML document to review`);
  const media = parseMedia(flags.media);
  const assets = flags.assets === undefined ? undefined : readAssets(flags.assets);
  const html = readFileSync(file, 'utf8');
  const runtime = new BrowserRuntime();
  let review: Review;
  try {
    review = await reviewDocument(runtime, html, {
      media,
      scripts: Boolean(flags.scripts),
      ...(assets ? { assets } : {}),
    });
  } finally {
    await runtime.close();
  }
  const lines = review.issues.map(formatIssue);
  if (review.abort) lines.push(`${review.abort.status}: ${review.abort.message}`);
  lines.push(formatSummary(review, media));
  process.stdout.write(`${lines.join('\n')}\n`);
  if (flags.json !== undefined)
    writeFileSync(
      flags.json,
      `${JSON.stringify({ issues: review.issues, pages: review.pages, ...(review.abort ? { abort: review.abort } : {}) }, null, 1)}\n`,
    );
  if (review.abort || review.issues.some((i) => i.severity === 'error')) process.exitCode = 1;
}
