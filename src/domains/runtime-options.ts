import type { SandboxMode } from '../runtimes/sandbox.js';

/** The shared options a pack opens its runtime with (`--sandbox`, `--workers`). */
export interface RuntimeOptions {
  readonly sandbox: SandboxMode;
  readonly workers?: number;
}
