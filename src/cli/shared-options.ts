import { Harness } from '../verify/harness.js';
import type { SandboxMode } from '../runtimes/sandbox.js';

export interface HarnessFlags {
  readonly workers?: number;
  readonly sandbox: SandboxMode;
  readonly timeFloor?: number;
  readonly timeFactor?: number;
  readonly memoryMb?: number;
  readonly typeCheck?: boolean;
  readonly strictTypes?: boolean;
}

export function harnessFromFlags(flags: HarnessFlags): Harness {
  if (flags.sandbox === 'none') {
    process.stderr.write('crucible: warning: --sandbox none runs candidate programs without isolation; use it only for code you trust.\n');
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
  });
}
