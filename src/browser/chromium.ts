/**
 * Debian's chromium through playwright-core: the browser that judges games and documents
 * (src/browser/runtime.ts, which runs it confined: confinement.ts), and the one the report's
 * tests look through. The flags keep the browser's own traffic off the network
 * (../shared/research/runtime-scout.md §7); the judge adds its own (a proxy that goes nowhere).
 * `--no-sandbox`: chromium's own sandbox needs namespaces or a setuid helper the project's
 * sandbox does not give it; the judging browser is in bubblewrap instead.
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
export function assertChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: games, documents and the report are judged in a real browser. Install it with: apt-get install chromium (scripts/setup.sh does), or set CRUCIBLE_CHROMIUM`,
    );
}

/** Chromium, or what starts it (`executablePath`: a confinement's script). */
export async function launchChromium(
  options: { readonly args?: readonly string[]; readonly executablePath?: string } = {},
): Promise<Browser> {
  assertChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: options.executablePath ?? CHROMIUM,
    args: [...FLAGS, ...(options.args ?? [])],
  });
}
