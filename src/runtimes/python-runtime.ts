import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SlotPool, type PoolOptions } from './pool.js';
import { interpreterPaths } from './sandbox.js';

const HARNESS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'python');

interface PythonInstall {
  readonly executable: string;
  /** site-packages directories, put on sys.path by hand: the workers run without `site`. */
  readonly sitePackages: readonly string[];
}

const installs = new Map<string, PythonInstall>();

/**
 * The real interpreter binary and its site-packages. `python3` on PATH is often a shim
 * (pyenv adds ~50 ms per start and is unreadable inside the sandbox), so ask it once.
 */
export function resolvePythonInstall(requested = process.env.CRUCIBLE_PYTHON ?? 'python3'): PythonInstall {
  let install = installs.get(requested);
  if (install) return install;
  try {
    const script = 'import json, site, sys; print(json.dumps([sys.executable, site.getsitepackages()]))';
    const [executable, sitePackages] = JSON.parse(execFileSync(requested, ['-c', script], { encoding: 'utf8' })) as [string, string[]];
    install = { executable: realpathSync(executable), sitePackages };
  } catch {
    throw new Error(`Python was not found as "${requested}". Install python3 or set CRUCIBLE_PYTHON to an interpreter.`);
  }
  installs.set(requested, install);
  return install;
}

export function resolvePython(requested?: string): string {
  return resolvePythonInstall(requested).executable;
}

export function createPythonRuntime(options: PoolOptions & { python?: string } = {}): SlotPool {
  const { executable: python, sitePackages } = resolvePythonInstall(options.python);
  const mode = options.sandbox ?? 'bwrap';
  const harness = mode === 'bwrap' ? '/crucible/python' : HARNESS_DIR;
  // -S: no `site`. Its start-up hooks (.pth files; imports of random and threading, which
  // register fork handlers) double the cost of every fork; candidates still see
  // site-packages, which the worker adds to sys.path itself.
  return new SlotPool(
    'python',
    {
      candidateCommand: () => [python, '-I', '-S', `${harness}/candidate_worker.py`, ...sitePackages],
      judgeCommand: [python, '-I', '-S', `${harness}/judge_worker.py`],
      forkingJudgeArgs: ['--fork-per-run'],
      readOnly: [...interpreterPaths(python)],
      harnessDir: HARNESS_DIR,
      seccompOnWorker: false,
      scratchBytes: 256 << 20,
    },
    options,
  );
}
