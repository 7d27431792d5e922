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

// --- SQL (SQLite through better-sqlite3; PostgreSQL through PGlite) --------------------------

const SQL_HARNESS = join(HERE, 'sql');

/** SQLite's own allowance for one SQL worker's queries (page cache, sorts, values), unless a pool asks for another. */
export const SQL_DEFAULT_MEMORY = 256 * 2 ** 20;
/** The SQL worker's V8 heap: its own code and the rows of one result (at most the result byte limit, as JSON). */
export const SQL_WORKER_HEAP = 128 * 2 ** 20;

export interface SqlRecipeOptions {
  readonly sandbox?: SandboxMode | undefined;
  /** Bytes the engine may allocate for queries beyond the worker's own needs (SQLite: the address space limit is this plus node's heap and overhead; Postgres: `pgRecipe`). */
  readonly memoryBytes?: number | undefined;
}

/** How to start an SQL worker (sql/sql-worker.cjs, sql/pg-worker.mjs); `sql-pool.ts` adds each SQLite database file as a bind of its own. */
export interface SqlRecipe extends WorkerRecipe {
  readonly isOutOfMemory: (stderr: string) => boolean;
  /** How long the worker may take to answer its first ping (default 20 s). */
  readonly startMs?: number;
}

/** better-sqlite3's package folder on the host (its JavaScript and its native addon), found as node would. */
export function betterSqliteDir(): string {
  return realpathSync(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')));
}

/**
 * What both SQL workers share: node running trusted code on untrusted SQL, so no candidate
 * hardening flags beyond refusing code generation from strings; the engine's package folder
 * bound read-only at /crucible/<name>; the no-new-processes filter on the worker (neither
 * engine forks); a 16 MB private /tmp; and an address space limit of `addressBytes`.
 */
function sqlWorkerRecipe(
  sandbox: SandboxMode | undefined,
  engine: { readonly dir: string; readonly name: string },
  build: (paths: { harness: string; engine: string }) => { flags: string[]; script: string; args: string[] },
  addressBytes: number,
  extraBinds: ReadonlyArray<readonly [string, string]> = [],
): SqlRecipe {
  const node = realpathSync(process.execPath);
  const sandboxed = (sandbox ?? 'bwrap') === 'bwrap';
  const engineInside = sandboxed ? `/crucible/${engine.name}` : engine.dir;
  const { flags, script, args } = build({ harness: sandboxed ? '/crucible/sql' : SQL_HARNESS, engine: engineInside });
  const argv = [node, '--no-warnings', '--disallow-code-generation-from-strings', ...flags, script, ...args];
  return {
    command: withAddressLimit(argv, addressBytes),
    readOnly: interpreterPaths(node),
    harnessDir: SQL_HARNESS,
    seccompOnWorker: true,
    scratchBytes: 16 << 20,
    ...(sandboxed ? { binds: [[engine.dir, engineInside] as const, ...extraBinds] } : {}),
    isOutOfMemory: isNodeOutOfMemory,
  };
}

/**
 * The SQLite worker: better-sqlite3 bound read-only at /crucible/better-sqlite3, and an
 * address space limit, which is what stops SQLite's allocations (its own `hard_heap_limit` is
 * not enforced: better-sqlite3 builds it with SQLITE_DEFAULT_MEMSTATUS=0).
 */
export function sqlRecipe(options: SqlRecipeOptions = {}): SqlRecipe {
  const memory = options.memoryBytes ?? SQL_DEFAULT_MEMORY;
  return sqlWorkerRecipe(
    options.sandbox,
    { dir: betterSqliteDir(), name: 'better-sqlite3' },
    (paths) => ({
      flags: [`--max-old-space-size=${Math.floor(SQL_WORKER_HEAP / 2 ** 20)}`],
      script: `${paths.harness}/sql-worker.cjs`,
      // Databases built from SQL text are kept between requests in at most a quarter of it.
      args: [`--sqlite=${paths.engine}`, `--cache-bytes=${Math.floor(memory / 4)}`],
    }),
    memory + SQL_WORKER_HEAP + NODE_ADDRESS_OVERHEAD,
  );
}

/** Postgres's own part of its WebAssembly memory, before any query: its code's data, 32 MB of shared buffers, caches (~130 MB measured). */
export const PG_BASE_MEMORY = 192 * 2 ** 20;
/** The Postgres worker's V8 heap: PGlite's JavaScript and the rows of one result. */
export const PG_WORKER_HEAP = 192 * 2 ** 20;
/** PGlite's in-memory file system, in ArrayBuffers outside both: the data directory (~45 MB), its WAL (max_wal_size 64 MB), the databases kept, the template while it loads. */
export const PG_FILES_MEMORY = 320 * 2 ** 20;
const WASM_PAGE = 64 * 2 ** 10;

/** PGlite's package folder on the host (its JavaScript, Postgres compiled to WebAssembly, and its files), found as node would. */
export function pgliteDir(): string {
  return realpathSync(dirname(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))));
}

export interface PgRecipeOptions extends SqlRecipeOptions {
  /** The host folder where the runner keeps the data directory every worker starts from (`template.tar.gz`, made by `maker`). */
  readonly templateDir: string;
}

export interface PgRecipe extends SqlRecipe {
  /** The worker that makes the data directory (initdb, then Crucible's role and grants) once per runner, writes it as one line and exits. */
  readonly maker: SqlRecipe;
  /** Where that data directory must be on the host before a worker starts. */
  readonly template: string;
}

/**
 * The Postgres worker (sql/pg-worker.mjs): PGlite bound read-only at /crucible/pglite, the
 * runner's template folder at /crucible/pg-template. Memory has two walls:
 * - `--wasm-max-mem-pages` caps Postgres's WebAssembly memory at PG_BASE_MEMORY plus
 *   `memoryBytes`: past it, Postgres's own allocations fail, and it answers `out of memory`
 *   (SQLSTATE 53200) and stays up. Temporary files (sorts, hashes, a function's or a CTE's
 *   rows that spill) live in PGlite's in-memory file system, outside that memory:
 *   `temp_file_limit` is half of `memoryBytes` (Postgres answers 53400 past it).
 * - The address space limit: all of that, PGlite's other files, the V8 heap and node's
 *   overhead; what is left past it fails an allocation, which kills the worker. V8
 *   reserves 10 GB of address space for each WebAssembly memory, for guard pages, unless
 *   `--disable-wasm-trap-handler` (Node 20.20) has it check bounds in the code instead; it then
 *   reserves the memory's maximum, and a limit of a few GB works (measured: VmSize 1.5 GB with
 *   a 256 MB cap, where the trap handler made it 11 GB).
 */
export function pgRecipe(options: PgRecipeOptions): PgRecipe {
  const memory = options.memoryBytes ?? SQL_DEFAULT_MEMORY;
  const wasmBytes = Math.ceil((PG_BASE_MEMORY + memory) / WASM_PAGE) * WASM_PAGE;
  const engine = { dir: pgliteDir(), name: 'pglite' };
  const template = join(options.templateDir, 'template.tar.gz');
  const sandboxed = (options.sandbox ?? 'bwrap') === 'bwrap';
  // A file of PGlite's grows into a new ArrayBuffer an eighth bigger, the old one copied and
  // left to the collector: room for three times what temporary files may hold (with only the
  // limit's worth, a spilling query broke the instance before Postgres's own check).
  const tempBytes = Math.floor(memory / 2);
  const addressBytes = wasmBytes + 3 * tempBytes + PG_FILES_MEMORY + PG_WORKER_HEAP + NODE_ADDRESS_OVERHEAD;
  const worker = (templateArgs: string[]) => (paths: { harness: string; engine: string }) => ({
    flags: [
      '--disable-wasm-trap-handler',
      `--wasm-max-mem-pages=${wasmBytes / WASM_PAGE}`,
      `--max-old-space-size=${Math.floor(PG_WORKER_HEAP / 2 ** 20)}`,
    ],
    script: `${paths.harness}/pg-worker.mjs`,
    // Databases built from SQL text are kept between requests in at most a quarter of it.
    args: [
      `--pglite=${paths.engine}`,
      `--temp-bytes=${tempBytes}`,
      `--cache-bytes=${Math.floor(memory / 4)}`,
      ...templateArgs,
    ],
  });
  const templateInside = sandboxed ? '/crucible/pg-template/template.tar.gz' : template;
  const recipe = sqlWorkerRecipe(options.sandbox, engine, worker([`--template=${templateInside}`]), addressBytes, [
    [options.templateDir, '/crucible/pg-template'],
  ]);
  return {
    ...recipe,
    // Loading the data directory takes about a second, several on a loaded machine.
    startMs: 60_000,
    template,
    // It runs no query: room for initdb's own WebAssembly memory (under the same cap), and
    // for zlib while it packs the data directory.
    maker: {
      ...sqlWorkerRecipe(options.sandbox, engine, worker(['--make-template']), 2 * addressBytes),
      startMs: 120_000,
    },
  };
}
