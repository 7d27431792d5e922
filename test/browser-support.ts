/**
 * Shared set-up for the browser tests (the reports from file://, the dashboard over loopback) in
 * Debian's chromium through playwright-core: a page opened with its requests and errors kept,
 * axe-core's serious findings, and screenshots to test-artifacts/report/ (and, with
 * CRUCIBLE_DOC_SCREENSHOTS=1, to docs/ for the README, for the views a test names there).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, ViewportSize } from 'playwright-core';

const ROOT = join(import.meta.dirname, '..');
/** Where every screenshot goes. */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'report');
/** Where the README's pictures go, when CRUCIBLE_DOC_SCREENSHOTS is set; otherwise nowhere. */
export const DOCS = process.env.CRUCIBLE_DOC_SCREENSHOTS ? join(ROOT, 'docs') : undefined;
/** axe-core's source, to evaluate in a page. */
export const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Opened {
  page: Page;
  /** Every request the page made, and every console error or uncaught exception. */
  requests: string[];
  errors: string[];
}

export interface OpenOptions {
  /** The page's size; a context's pages have the context's unless this is given. */
  viewport?: ViewportSize | undefined;
  /** The selector that says the page is ready (the report's and the dashboard's); null: the load alone. */
  waitFor?: string | null | undefined;
}

const VIEWPORT: ViewportSize = { width: 1400, height: 900 };

/** `url` (file:// or http://) in a new page of `opener`, once the page says it is ready. */
export async function openPage(
  opener: Browser | BrowserContext,
  url: string | URL,
  { viewport, waitFor = 'html[data-ready]' }: OpenOptions = {},
): Promise<Opened> {
  let page: Page;
  if ('newContext' in opener) page = await opener.newPage({ viewport: viewport ?? VIEWPORT });
  else {
    page = await opener.newPage();
    if (viewport) await page.setViewportSize(viewport);
  }
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(String(url));
  if (waitFor !== null) await page.waitForSelector(waitFor);
  return { page, requests, errors };
}

/**
 * axe-core's serious and critical violations on the page, one line each (empty: nothing serious).
 * Strings, not functions, go to the page: tsx names functions with a helper the page lacks.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`,
  )) as { id: string; impact: string; help: string; nodes: string[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.join(', ')})`);
}

/**
 * The page as test-artifacts/report/NAME.png, and, when `docsName` is given and
 * CRUCIBLE_DOC_SCREENSHOTS is set, as the README's docs/DOCSNAME.png too.
 */
export async function screenshot(
  page: Page,
  name: string,
  docsName?: string,
  { fullPage = false } = {},
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
  if (DOCS && docsName) {
    mkdirSync(DOCS, { recursive: true });
    await page.screenshot({ path: join(DOCS, `${docsName}.png`), fullPage });
  }
}
