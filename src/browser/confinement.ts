/**
 * The judging browser in the project's own sandbox, as every other runtime is: chromium runs
 * inside bubblewrap with every namespace unshared — no network at all (its own empty network
 * namespace, so WebRTC's UDP, DNS and any socket a page could reach for go nowhere, whatever the
 * proxy and the routes miss) — as uid 65534 with no capabilities, an empty environment, a
 * read-only view of the system directories, and a sized private /tmp as its only writable
 * place (its profile is there). Playwright talks to it over a pipe (`--remote-debugging-pipe`,
 * file descriptors 3 and 4, which bubblewrap passes through), so no port is opened. A seccomp
 * filter refuses what no browser needs (sockets other than AF_UNIX, ptrace, bpf, io_uring, new
 * namespaces...), and a memory cgroup caps all its processes together: the ArrayBuffers and
 * WebAssembly memory `--max-old-space-size` does not count, where a renderer reached 1.68 GB.
 *
 * Playwright starts a browser from one executable path, so the confinement is a shell script
 * written for each launch: it joins the cgroups, then becomes bubblewrap.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { assertChromium } from './chromium.js';
import { commandCgroups, type CommandCgroups } from '../runtimes/cgroups.js';
import { buildSeccompFilter, seccompSupported } from '../runtimes/seccomp.js';
import { assertSandboxUsable, findBubblewrap } from '../runtimes/sandbox.js';

export interface ConfinementLimits {
  /** All the browser's processes together, MB (its cgroup's limit; also the size of its /tmp). */
  readonly memoryMb: number;
}

/** A launch's confinement: the executable Playwright starts, and what it can tell afterwards. */
export interface Confinement {
  readonly executablePath: string;
  /** What is enforced here: the memory cap needs cgroups Crucible may make (as root). */
  readonly limited: ReadonlyArray<'processes' | 'memory'>;
  /** Processes the kernel killed for passing the memory cap so far (a renderer that allocated without end). */
  oomKills(): Promise<number>;
  /** Kills what is left of the browser and removes the script and the cgroups. */
  dispose(): Promise<void>;
}

/** Processes at once in the browser's pids group: a browser runs tens; no page can make more than a few. */
const MAX_PROCESSES = 512;

/** File descriptor the seccomp program is read from (Playwright's pipe is 3 and 4; dash reads only 0–9). */
const SECCOMP_FD = 5;

/**
 * Debian's /usr/bin/chromium is a shell launcher (it sources /etc/chromium.d and prints a
 * harmless error); inside the sandbox the binary it starts is run directly.
 */
function browserBinary(executable: string): string {
  const real = realpathSync(executable);
  const head = readFileSync(real).subarray(0, 2).toString('latin1');
  if (head !== '#!') return real;
  const debian = '/usr/lib/chromium/chromium';
  if (existsSync(debian)) return debian;
  throw new Error(
    `${executable} is a script, not the browser itself: set CRUCIBLE_CHROMIUM to the chromium binary it starts`,
  );
}

/** `value` quoted for sh: inside single quotes nothing is special but the quote itself. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Writes the confinement for one launch of `executable` (which must exist). */
export async function confineBrowser(executable: string, limits: ConfinementLimits): Promise<Confinement> {
  assertChromium();
  assertSandboxUsable('bwrap');
  const bwrap = findBubblewrap()!;
  const binary = browserBinary(executable);
  const dir = mkdtempSync(join(tmpdir(), 'crucible-browser-'));
  const memoryBytes = limits.memoryMb * 1024 * 1024;
  let cgroups: CommandCgroups | undefined;
  try {
    cgroups = await commandCgroups({ processes: MAX_PROCESSES, memoryBytes });
    const mounts: string[] = [];
    for (const path of ['/usr', '/etc/fonts', '/etc/ld.so.cache', '/etc/localtime', '/var/cache/fontconfig'])
      if (existsSync(path)) mounts.push('--ro-bind', realpathSync(path), path);
    // Merged /usr (Debian 12): /bin, /lib, /lib64 and /sbin are links into it.
    for (const link of ['bin', 'lib', 'lib64', 'sbin']) mounts.push('--symlink', `usr/${link}`, `/${link}`);
    const binaryDir = dirname(binary);
    if (!binaryDir.startsWith('/usr/')) mounts.push('--ro-bind', binaryDir, binaryDir);
    // Playwright makes the profile under this process's temporary folder and names it to the
    // browser: that folder is the sandbox's private, sized one (and /tmp, where it differs).
    const scratch = [...new Set(['/tmp', tmpdir()])].flatMap((path) => [
      '--size',
      String(memoryBytes),
      '--tmpfs',
      path,
    ]);
    const seccomp = seccompSupported
      ? (writeFileSync(join(dir, 'seccomp.bpf'), buildSeccompFilter({ forbidExec: false, processTree: true })),
        ['--seccomp', String(SECCOMP_FD)])
      : [];
    const args = [
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
      '--clearenv',
      '--setenv',
      'HOME',
      '/tmp',
      '--setenv',
      'PATH',
      '/usr/bin:/bin',
      '--setenv',
      'LANG',
      'C.UTF-8',
      ...(process.env.TZ ? ['--setenv', 'TZ', process.env.TZ] : []),
      ...mounts,
      '--proc',
      '/proc',
      '--remount-ro',
      '/proc',
      '--dev',
      '/dev',
      '--remount-ro',
      '/dev',
      ...scratch,
      '--remount-ro',
      '/',
      ...seccomp,
      '--',
      binary,
    ];
    const joinGroups = (cgroups?.procs ?? []).map((procs) => `echo $$ > ${shellQuote(procs)} || exit 97\n`).join('');
    const script = join(dir, 'chromium');
    writeFileSync(
      script,
      `#!/bin/sh\n# Chromium confined for judging (written by Crucible: src/browser/confinement.ts).\n${joinGroups}` +
        `exec ${[bwrap, ...args].map(shellQuote).join(' ')} "$@"${seccomp.length ? ` ${SECCOMP_FD}<${shellQuote(join(dir, 'seccomp.bpf'))}` : ''}\n`,
      { mode: 0o755 },
    );
  } catch (error) {
    await cgroups?.remove();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    executablePath: join(dir, 'chromium'),
    limited: cgroups?.limited ?? [],
    oomKills: async () => (cgroups ? cgroups.oomKills() : 0),
    async dispose() {
      await cgroups?.remove();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
