/**
 * Debian's chromium through playwright-core, for the report's browser tests and its benchmark
 * (not for the product: nothing else imports this, and playwright-core is a dev dependency).
 * The flags keep the browser off the network (../shared/research/runtime-scout.md §7).
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env.CRUCIBLE_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails, saying how to install it, when the browser is missing: the tests must not pass without it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: the report is tested in a real browser. Install it with: apt-get install chromium (scripts/setup.sh does)`,
    );
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}
