import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SlotPool, type PoolOptions } from './pool.js';
import { interpreterPaths } from './sandbox.js';

const HARNESS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'python');

let resolved: string | undefined;

/**
 * The real interpreter binary. `python3` on PATH is often a shim (pyenv adds ~50 ms per
 * start and is unreadable inside the sandbox), so ask it once where it lives.
 */
export function resolvePython(requested = process.env.CRUCIBLE_PYTHON ?? 'python3'): string {
  if (resolved) return resolved;
  try {
    const out = execFileSync(requested, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
    resolved = realpathSync(out);
  } catch {
    throw new Error(`Python was not found as "${requested}". Install python3 or set CRUCIBLE_PYTHON to an interpreter.`);
  }
  return resolved;
}

export function createPythonRuntime(options: PoolOptions & { python?: string } = {}): SlotPool {
  const python = resolvePython(options.python);
  const mode = options.sandbox ?? 'bwrap';
  const harness = mode === 'bwrap' ? '/crucible/python' : HARNESS_DIR;
  return new SlotPool(
    'python',
    {
      candidateCommand: () => [python, '-I', `${harness}/candidate_worker.py`],
      judgeCommand: [python, '-I', `${harness}/judge_worker.py`],
      readOnly: [...interpreterPaths(python)],
      harnessDir: HARNESS_DIR,
      seccompOnWorker: false,
      scratchBytes: 256 << 20,
    },
    options,
  );
}
