#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so there is no build step to forget.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before loading anything else.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const registerTsx = async () => (await import('tsx/esm/api')).register();
  // The command line from its bundle (cli-bundle.js): help and usage errors without tsx, which is
  // registered only when a command runs. Without a bundle, tsx runs the sources.
  const { cliBundle } = await import('./cli-bundle.js');
  const bundle = await cliBundle();
  const cli = bundle ? await import(bundle).catch(() => undefined) : undefined;
  if (cli) {
    await cli.main(process.argv, { beforeAction: registerTsx });
  } else {
    await registerTsx();
    const { main } = await import('../src/cli/main.ts');
    await main(process.argv);
  }
}
