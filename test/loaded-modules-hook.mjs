/**
 * `node --import ./test/loaded-modules-hook.mjs …` with CRUCIBLE_MODULE_LOG=FILE: appends the URL
 * of every module the process resolves to FILE, one a line. ESM does not show in
 * process.moduleLoadList, so the start-up tests see what `--help` loads through this hook.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const log = process.env.CRUCIBLE_MODULE_LOG;
// Imported twice: by --import on the main thread (which registers it) and as the hooks module.
if (isMainThread && log) register(import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (log) appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
