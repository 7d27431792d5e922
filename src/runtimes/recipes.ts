/**
 * How each language's workers start — the one place for interpreters, their flags and the
 * limits they are started with. A language has three workers: the candidate worker (loads a
 * candidate and calls it), the judge (runs the tests and compares), and the program worker
 * (a whole program on stdin, as `python main.py` would run it). The slot pool (pool.ts)
 * runs the first two, the program pool the third; TypeScript is transpiled
 * (typescript-service.ts `transpileProgram`) and runs on JavaScript's workers.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Limits } from './runtime.js';
import { interpreterPaths, withAddressLimit, type SandboxMode } from './sandbox.js';
import type { SlotRecipe } from './slot.js';
import type { ProgramRecipe } from './program-worker.js';
import { isNodeOutOfMemory, type WorkerRecipe } from './worker-process.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const PYTHON_HARNESS = join(HERE, 'python');
const NODE_HARNESS = join(HERE, 'node');

/**
 * JavaScript code shares its worker's heap, fixed when the worker starts, and V8 takes
 * seconds to fill a large one: unless a limit is asked for, 512 MiB (Python keeps
 * EvalPlus's 4 GiB address space: MBPP+ needs it).
 */
export const JAVASCRIPT_DEFAULT_HEAP = 512 * 2 ** 20;
/** Address space node needs besides its heap: ~0.7 GB is reserved at start (measured, Node 20). */
export const NODE_ADDRESS_OVERHEAD = 1 << 30;

// --- Python ---------------------------------------------------------------------------

export interface PythonInstall {
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
    const [executable, sitePackages] = JSON.parse(execFileSync(requested, ['-c', script], { encoding: 'utf8' })) as [
      string,
      string[],
    ];
    install = { executable: realpathSync(executable), sitePackages };
  } catch {
    throw new Error(
      `Python was not found as "${requested}". Install python3 or set CRUCIBLE_PYTHON to an interpreter.`,
    );
  }
  installs.set(requested, install);
  return install;
}

export function resolvePython(requested?: string): string {
  return resolvePythonInstall(requested).executable;
}

/**
 * -I: isolated (no PYTHON* variables, no user site, no script folder on sys.path). -S: no
 * `site`: its start-up hooks (.pth files; imports of random and threading, which register
 * fork handlers) double the cost of every fork; candidates still see site-packages, which
 * the workers add to sys.path themselves.
 */
export const PYTHON_FLAGS = ['-I', '-S'] as const;

export interface PythonRecipeOptions {
  readonly python?: string | undefined;
  readonly sandbox?: SandboxMode | undefined;
}

/** The candidate worker, the judge (forking one process per untrusted run) and the program worker. */
export function pythonRecipes(options: PythonRecipeOptions = {}): { slot: SlotRecipe; program: ProgramRecipe } {
  const { executable: python, sitePackages } = resolvePythonInstall(options.python);
  const harness = (options.sandbox ?? 'bwrap') === 'bwrap' ? '/crucible/python' : PYTHON_HARNESS;
  const worker = {
    readOnly: interpreterPaths(python),
    harnessDir: PYTHON_HARNESS,
    seccompOnWorker: false,
    scratchBytes: 256 << 20,
  };
  return {
    slot: {
      ...worker,
      candidateCommand: () => [python, ...PYTHON_FLAGS, `${harness}/candidate_worker.py`, ...sitePackages],
      judgeCommand: [python, ...PYTHON_FLAGS, `${harness}/judge_worker.py`],
      forkingJudgeArgs: ['--fork-per-run'],
    },
    program: {
      ...worker,
      command: [python, ...PYTHON_FLAGS, `${harness}/program_worker.py`, ...sitePackages],
      silenceIsTimeout: false,
    },
  };
}

// --- JavaScript and TypeScript ---------------------------------------------------------

export interface NodeRecipeOptions {
  readonly sandbox?: SandboxMode | undefined;
  /**
   * Heap for candidate code and whole programs. A worker is long-lived and its heap limit
   * is fixed when it starts, so this (else the first run's memory limit) holds for the pool.
   */
  readonly memoryBytes?: number | undefined;
  /**
   * node_modules folders whose packages candidates may `require` (as with NODE_PATH), seen
   * read-only inside the sandbox. Packages run in the candidate's own context.
   */
  readonly nodePath?: readonly string[] | undefined;
}

/** Checks each --node-path folder; the error says what to do. */
export function checkNodePath(dirs: readonly string[]): string[] {
  return dirs.map((dir) => {
    const full = resolve(dir);
    if (!existsSync(full) || !statSync(full).isDirectory()) {
      throw new Error(
        `--node-path ${dir}: no such folder (install packages with: npm install --prefix DIR PACKAGE, then pass DIR/node_modules)`,
      );
    }
    if (basename(full) !== 'node_modules') {
      throw new Error(
        `--node-path ${dir}: pass a node_modules folder (npm install --prefix DIR PACKAGE puts packages in DIR/node_modules)`,
      );
    }
    return realpathSync(full);
  });
}

/**
 * A node worker that runs code Crucible does not trust. The flags matter for isolation:
 * - --disallow-code-generation-from-strings and --frozen-intrinsics harden THIS realm: if
 *   a candidate ever got hold of one of its objects, it could neither compile code with
 *   it (the Function constructor refuses) nor patch built-ins for the next candidate.
 *   Each candidate's own context re-enables eval for itself.
 * - --experimental-vm-modules lets the worker answer `import()` itself (with an error of
 *   the candidate's realm); without it node rejects with an error object of this realm.
 * - --max-old-space-size bounds the heap; prlimit --as bounds memory outside it (ArrayBuffers).
 */
export function hardenedNode(script: string, heapBytes: number, args: readonly string[] = []): string[] {
  const argv = [
    realpathSync(process.execPath),
    '--experimental-vm-modules',
    '--disallow-code-generation-from-strings',
    '--frozen-intrinsics',
    '--no-warnings',
    `--max-old-space-size=${Math.max(64, Math.floor(heapBytes / 2 ** 20))}`,
    script,
    ...args,
  ];
  return withAddressLimit(argv, heapBytes + NODE_ADDRESS_OVERHEAD);
}

/** The candidate worker and judge of JavaScript (and TypeScript, transpiled), and the program worker. */
export function nodeRecipes(options: NodeRecipeOptions = {}): { slot: SlotRecipe; program: ProgramRecipe } {
  const node = realpathSync(process.execPath);
  const sandboxed = (options.sandbox ?? 'bwrap') === 'bwrap';
  const harness = sandboxed ? '/crucible/node' : NODE_HARNESS;
  // Inside the sandbox each folder is named node_modules under its own parent, where node's
  // resolution looks for it (host-bridge.cjs).
  const packageDirs = checkNodePath(options.nodePath ?? []);
  const packagesInside = packageDirs.map((dir, i) => (sandboxed ? `/crucible/packages/${i}/node_modules` : dir));
  const binds = packageDirs.map((dir, i) => [dir, packagesInside[i]!] as const);
  const worker = {
    readOnly: interpreterPaths(node),
    harnessDir: NODE_HARNESS,
    seccompOnWorker: true,
    scratchBytes: 16 << 20,
    isOutOfMemory: isNodeOutOfMemory,
  };
  const packages = packagesInside.length > 0 ? [`--packages=${packagesInside.join(':')}`] : [];
  return {
    slot: {
      ...worker,
      candidateCommand: (limits: Limits) =>
        hardenedNode(`${harness}/candidate-worker.cjs`, options.memoryBytes ?? limits.memoryBytes, packages),
      judgeCommand: [node, '--no-warnings', `${harness}/judge-worker.cjs`],
      ...(sandboxed && binds.length > 0 ? { binds } : {}),
      killWorkerToStop: true,
    },
    program: {
      ...worker,
      command: hardenedNode(`${harness}/program-worker.cjs`, options.memoryBytes ?? JAVASCRIPT_DEFAULT_HEAP),
      silenceIsTimeout: true,
    },
  };
}

// --- SQL (SQLite through better-sqlite3) ------------------------------------------------

const SQL_HARNESS = join(HERE, 'sql');

/** SQLite's own allowance for one SQL worker's queries (page cache, sorts, values), unless a pool asks for another. */
export const SQL_DEFAULT_MEMORY = 256 * 2 ** 20;
/** The SQL worker's V8 heap: its own code and the rows of one result (at most the result byte limit, as JSON). */
export const SQL_WORKER_HEAP = 128 * 2 ** 20;

export interface SqlRecipeOptions {
  readonly sandbox?: SandboxMode | undefined;
  /** Bytes SQLite may allocate beyond the worker's own needs (the address space limit is this plus node's heap and overhead). */
  readonly memoryBytes?: number | undefined;
}

/** How to start an SQL worker (sql/sql-worker.cjs); `sql-pool.ts` adds each database file as a bind of its own. */
export interface SqlRecipe extends WorkerRecipe {
  readonly isOutOfMemory: (stderr: string) => boolean;
}

/** better-sqlite3's package folder on the host (its JavaScript and its native addon), found as node would. */
export function betterSqliteDir(): string {
  return realpathSync(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')));
}

/**
 * The SQL worker: node running trusted code on untrusted SQL, so no candidate hardening flags
 * beyond refusing code generation from strings; better-sqlite3 bound read-only at
 * /crucible/better-sqlite3; the no-new-processes filter on the worker (SQLite needs no fork);
 * and an address space limit, which is what stops SQLite's allocations (its own
 * `hard_heap_limit` is not enforced: better-sqlite3 builds it with SQLITE_DEFAULT_MEMSTATUS=0).
 */
export function sqlRecipe(options: SqlRecipeOptions = {}): SqlRecipe {
  const node = realpathSync(process.execPath);
  const sandboxed = (options.sandbox ?? 'bwrap') === 'bwrap';
  const harness = sandboxed ? '/crucible/sql' : SQL_HARNESS;
  const packageDir = betterSqliteDir();
  const packageInside = sandboxed ? '/crucible/better-sqlite3' : packageDir;
  const memory = options.memoryBytes ?? SQL_DEFAULT_MEMORY;
  const argv = [
    node,
    '--no-warnings',
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${Math.floor(SQL_WORKER_HEAP / 2 ** 20)}`,
    `${harness}/sql-worker.cjs`,
    `--sqlite=${packageInside}`,
    // Databases built from SQL text are kept between requests in at most a quarter of it.
    `--cache-bytes=${Math.floor(memory / 4)}`,
  ];
  return {
    command: withAddressLimit(argv, memory + SQL_WORKER_HEAP + NODE_ADDRESS_OVERHEAD),
    readOnly: interpreterPaths(node),
    harnessDir: SQL_HARNESS,
    seccompOnWorker: true,
    scratchBytes: 16 << 20,
    ...(sandboxed ? { binds: [[packageDir, packageInside] as const] } : {}),
    isOutOfMemory: isNodeOutOfMemory,
  };
}
