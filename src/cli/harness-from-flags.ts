/** The harness that the options of withHarnessOptions (shared-options.ts) describe. */
import { checkNodePath } from '../runtimes/recipes.js';
import { Harness } from '../verify/harness.js';
import type { HarnessFlags } from './shared-options.js';

export function harnessFromFlags(flags: HarnessFlags): Harness {
  if (flags.sandbox === 'none') {
    process.stderr.write(
      'crucible: warning: --sandbox none runs candidate programs without isolation; use it only for code you trust.\n',
    );
  }
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
