/**
 * The report as one HTML file: styles, the app's script and the documents inline, so it opens
 * from file:// or as an attachment with nothing to fetch. The Content-Security-Policy forbids
 * every request outright (default-src 'none'): a report cannot phone home, even by mistake.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { appScript } from './bundle.js';
import type { ReportDocument } from './read.js';

/** What the app reads from the page (src/report/app/payload.js decodes it). */
export interface ReportPayload {
  readonly format: 1;
  readonly documents: readonly ReportDocument[];
}

/**
 * The documents as JSON, gzipped and base64-encoded: 16,024 samples are 14 MB of JSON and
 * about 1 MB this way, and the browser's own DecompressionStream undoes it in tens of
 * milliseconds (faster than it parses the JSON).
 */
export function encodePayload(documents: readonly ReportDocument[]): string {
  const payload: ReportPayload = { format: 1, documents };
  return gzipSync(JSON.stringify(payload), { level: 9 }).toString('base64');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Inline script text must not close its element or open an HTML comment. */
const inlineScript = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

const APP = join(import.meta.dirname, 'app');

/** The app's styles: the shared sheet, then each view's own (app/styles/*.css, in name order); the dashboard serves them too. */
export async function appStyles(): Promise<string> {
  const own = (await readdir(join(APP, 'styles'))).filter((name) => name.endsWith('.css')).sort();
  const sheets = [join(APP, 'styles.css'), ...own.map((name) => join(APP, 'styles', name))];
  return (await Promise.all(sheets.map((path) => readFile(path, 'utf8')))).join('\n');
}

export async function reportHtml(documents: readonly ReportDocument[]): Promise<string> {
  if (documents.length === 0) throw new Error('a report needs at least one document');
  const [script, styles] = await Promise.all([appScript(), appStyles()]);
  const title = `Crucible report: ${documents.map((d) => d.name).join(' vs ')}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="crucible report">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<div id="app"><p class="loading">Loading the report…</p><noscript>This report needs JavaScript to show its data.</noscript></div>
<script type="application/json" id="crucible-report-data" data-encoding="gzip+base64">${encodePayload(documents)}</script>
<script>${inlineScript(script)}</script>
</body>
</html>
`;
}
