/** The harness (and the SQL engine, and the browser) that the options of withHarnessOptions (shared-options.ts) describe. */
import { BrowserRuntime } from '../browser/runtime.js';
import { checkNodePath } from '../runtimes/recipes.js';
import { SqlRunner } from '../runtimes/sql-pool.js';
import { Harness } from '../verify/harness.js';
import type { HarnessFlags } from './shared-options.js';

function warnUnsandboxed(flags: Pick<HarnessFlags, 'sandbox'>, what: string): void {
  if (flags.sandbox === 'none')
    process.stderr.write(
      `crucible: warning: --sandbox none runs candidate ${what} without isolation; use it only for code you trust.\n`,
    );
}

export function harnessFromFlags(flags: HarnessFlags): Harness {
  warnUnsandboxed(flags, 'programs');
  return new Harness({
    sandbox: flags.sandbox,
    ...(flags.workers ? { workers: flags.workers } : {}),
    time: {
      ...(flags.timeFloor ? { callFloorSeconds: flags.timeFloor } : {}),
      ...(flags.timeFactor ? { factor: flags.timeFactor } : {}),
    },
    ...(flags.memoryMb ? { limits: { memoryBytes: flags.memoryMb * 1024 * 1024 } } : {}),
    typeCheck: flags.typeCheck !== false,
    strictTypes: Boolean(flags.strictTypes),
    ...(flags.nodePath?.length ? { nodePath: checkNodePath(flags.nodePath) } : {}),
  });
}

/** The SQL engine's warm workers, as many as --workers says (default one per core). */
export function sqlRunnerFromFlags(flags: Pick<HarnessFlags, 'sandbox' | 'workers'>): SqlRunner {
  warnUnsandboxed(flags, 'queries');
  return new SqlRunner({ ...(flags.workers ? { workers: flags.workers } : {}), sandbox: flags.sandbox });
}

/** The judging browser, confined unless --sandbox none says otherwise (src/browser/confinement.ts). */
export function browserFromFlags(flags: Pick<HarnessFlags, 'sandbox'>): BrowserRuntime {
  warnUnsandboxed(flags, 'pages');
  return new BrowserRuntime({ sandbox: flags.sandbox });
}
