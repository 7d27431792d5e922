/** The harness (and the SQL engine, and any pack's runtime) that the options of withHarnessOptions (shared-options.ts) describe. */
import { checkNodePath } from '../runtimes/recipes.js';
import { SqlRunner } from '../runtimes/sql-pool.js';
import { Harness } from '../domains/code/harness.js';
import type { AnyPackModule, OpenPack } from '../domains/registry.js';
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

/** A pack of the registry on its runtime, as --sandbox and --workers say. */
export function openPackFromFlags(
  module: AnyPackModule,
  flags: Pick<HarnessFlags, 'sandbox' | 'workers'>,
): Promise<OpenPack> {
  warnUnsandboxed(flags, module.runs);
  return module.open({ sandbox: flags.sandbox, ...(flags.workers ? { workers: flags.workers } : {}) });
}
