import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';

/**
 * How a worker process is confined. Each worker runs inside bubblewrap with every
 * namespace unshared (no network: only a private loopback; its own PID, IPC, UTS and
 * mount namespaces), as uid 65534 with no capabilities, an empty environment, a
 * read-only view of only the system and interpreter directories (and of /, /proc and
 * /dev), and a size-limited private /tmp as its only writable place.
 */
export interface SandboxSpec {
  /** The program and its arguments, as seen inside the sandbox. */
  readonly command: readonly string[];
  /** Host paths made visible read-only at the same place. */
  readonly readOnly: readonly string[];
  /** Host directories made visible read-only elsewhere: [host, inside]. */
  readonly binds?: ReadonlyArray<readonly [string, string]>;
  /** Host directory visible read-only at /ipc (the FIFOs between judge and candidate). */
  readonly ipcDir: string;
  /** Size of the private /tmp in bytes. */
  readonly scratchBytes: number;
  /** Environment variables set inside (everything else is cleared). */
  readonly env?: Readonly<Record<string, string>>;
  /** File descriptor number (in the spawned bwrap) holding a seccomp program. */
  readonly seccompFd?: number;
}

export type SandboxMode = 'bwrap' | 'none';

export class SandboxUnavailableError extends Error {
  readonly code = 'SANDBOX_UNAVAILABLE';
}

let bwrapPath: string | null | undefined;

export function findBubblewrap(): string | null {
  if (bwrapPath !== undefined) return bwrapPath;
  bwrapPath = null;
  for (const candidate of ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']) {
    if (existsSync(candidate)) {
      bwrapPath = candidate;
      break;
    }
  }
  return bwrapPath;
}

/** Fails with a message that says what to do when the sandbox cannot be used here. */
export function assertSandboxUsable(mode: SandboxMode): void {
  if (mode === 'none') return;
  const bwrap = findBubblewrap();
  if (!bwrap) {
    throw new SandboxUnavailableError(
      'bubblewrap (bwrap) is not installed, so untrusted code cannot be isolated. ' +
        'Install it (Debian/Ubuntu: apt-get install bubblewrap) or, only for code you trust, pass --sandbox none.',
    );
  }
  try {
    execFileSync(bwrap, [...baseArgs(['/usr']), '--', '/bin/true'], { stdio: 'pipe' });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new SandboxUnavailableError(
      `bubblewrap is installed but cannot create namespaces here (${stderr || String(error)}). ` +
        'Run as root, enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1), ' +
        'or, only for code you trust, pass --sandbox none.',
    );
  }
}

function mountArgs(paths: readonly string[]): string[] {
  const args: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path) || !existsSync(path)) continue;
    seen.add(path);
    if (lstatSync(path).isSymbolicLink()) {
      args.push('--symlink', readlinkSync(path), path);
      const target = realpathSync(path);
      if (!seen.has(target)) {
        seen.add(target);
        args.push('--ro-bind', target, target);
      }
    } else {
      args.push('--ro-bind', path, path);
    }
  }
  return args;
}

const SYSTEM_PATHS = ['/usr', '/bin', '/lib', '/lib64', '/sbin', '/etc/ld.so.cache', '/etc/localtime'];

function baseArgs(readOnly: readonly string[]): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    // The worker itself is PID 1: no bwrap reaper whose memory a candidate (same user)
    // could write through /proc/1/mem, and signals from inside cannot kill or stop the
    // worker (the kernel delivers to a namespace's init only signals it handles).
    '--as-pid-1',
    '--clearenv',
    '--proc',
    '/proc',
    // When Crucible runs as root, the sandbox user is root outside the namespace, and
    // host-wide sysctls under /proc/sys (vm.drop_caches, kernel.core_pattern...) would be
    // writable; bwrap covers /proc/sys only when it is not. Nothing in /proc needs writing.
    '--remount-ro',
    '/proc',
    '--dev',
    '/dev',
    // /dev is a tmpfs without a size limit (/dev/shm): unbounded memory, and files that
    // would outlive the candidate.
    '--remount-ro',
    '/dev',
    ...mountArgs([...SYSTEM_PATHS, ...readOnly]),
  ];
}

/** The argv that runs `spec.command` confined, or unconfined with mode 'none'. */
export function sandboxArgv(
  spec: SandboxSpec,
  mode: SandboxMode,
): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const env = { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', ...spec.env };
  if (mode === 'none') {
    const [file, ...args] = spec.command;
    return {
      file: file!,
      args,
      env: { ...env, CRUCIBLE_IPC: spec.ipcDir, CRUCIBLE_SCRATCH: `${spec.ipcDir}/scratch` },
    };
  }
  const bwrap = findBubblewrap();
  if (!bwrap) throw new SandboxUnavailableError('bubblewrap (bwrap) is not installed');
  const args = [
    ...baseArgs(spec.readOnly),
    '--size',
    String(spec.scratchBytes),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    spec.ipcDir,
    '/ipc',
    '--chdir',
    '/tmp',
  ];
  for (const [host, inside] of spec.binds ?? []) args.push('--ro-bind', host, inside);
  // The root is a tmpfs without a size limit: writable, a candidate could fill memory and
  // leave files (/etc, /) for the next candidate. Only the sized /tmp stays writable.
  args.push('--remount-ro', '/');
  for (const [key, value] of Object.entries(env)) args.push('--setenv', key, value);
  if (spec.seccompFd !== undefined) args.push('--seccomp', String(spec.seccompFd));
  args.push('--', ...spec.command);
  return { file: bwrap, args, env: {} };
}

const PRLIMIT = '/usr/bin/prlimit';

/** `command` with its address space limited to `bytes` and no core dumps, where prlimit is installed. */
export function withAddressLimit(command: readonly string[], bytes: number): string[] {
  return existsSync(PRLIMIT) ? [PRLIMIT, `--as=${bytes}`, '--core=0', '--', ...command] : [...command];
}

/** Directories an interpreter binary needs (its installation prefix when outside /usr). */
export function interpreterPaths(binary: string): string[] {
  const real = realpathSync(binary);
  if (real.startsWith('/usr/')) return [];
  // e.g. /root/.pyenv/versions/3.11.7/bin/python3.11 -> /root/.pyenv/versions/3.11.7
  return [dirname(dirname(real))];
}
