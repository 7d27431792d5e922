/**
 * A one-shot command in the sandbox: what an agent runs (its `run` tool, the repository's
 * tests), and what a pack judged by a tool runs (a verifier, a compiler, a checker), inside
 * bubblewrap on a throwaway copy of a folder: the workspace is bound read-only and copied into the
 * sandbox's size-limited /tmp, so whatever the command writes (build output, caches, a
 * planted file) is gone when it ends, and the agent changes files only through its edit tools,
 * which are checked. Each command is a fresh sandbox: no network, its own PID namespace, no
 * capabilities, a read-only system, a wall-clock limit that kills its whole process group, and
 * its output kept to a head and a tail.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolvePython } from './recipes.js';
import { commandCgroups } from './cgroups.js';
import { interpreterPaths, sandboxArgv, withAddressLimit, type SandboxMode } from './sandbox.js';

export interface CommandLimits {
  readonly seconds: number;
  /** Output kept: the first quarter and the last three quarters of this many bytes. */
  readonly outputBytes: number;
  /** The sandbox's /tmp, which holds the workspace's copy. */
  readonly scratchBytes: number;
  /** Address space of each process. */
  readonly memoryBytes: number;
  /** Processes at once, and memory of all of them together (where cgroups can be made: runtimes/cgroups.ts). */
  readonly processes: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  seconds: 120,
  outputBytes: 64 << 10,
  scratchBytes: 512 << 20,
  memoryBytes: 4 * 2 ** 30,
  processes: 256,
};

export interface CommandResult {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** stdout and stderr as they came, interleaved, cut in the middle past the limit. */
  readonly output: string;
  readonly seconds: number;
}

/** Copies the workspace into the sandbox's own /tmp and runs the command there. */
const WRAPPER =
  'cp -RP /repo/. /tmp/w 2>/dev/null || { echo "the repository does not fit in the sandbox"; exit 125; }; cd /tmp/w && exec /bin/sh -c "$CRUCIBLE_COMMAND"';

export async function runSandboxed(
  root: string,
  command: string,
  options: {
    readonly mode?: SandboxMode;
    readonly limits?: Partial<CommandLimits>;
    /** node_modules folders whose packages the command's JavaScript may require (read-only; NODE_PATH). */
    readonly nodePath?: readonly string[];
  } = {},
): Promise<CommandResult> {
  const limits = { ...DEFAULT_COMMAND_LIMITS, ...options.limits };
  const nodePath = options.nodePath ?? [];
  const ipc = await mkdtemp(join(tmpdir(), 'crucible-command-'));
  if (options.mode === 'none') {
    // Unconfined (trusted code only): the same throwaway copy, made here.
    const copy = join(ipc, 'w');
    await cp(root, copy, { recursive: true, verbatimSymlinks: true });
    try {
      const env = { ...process.env, NO_COLOR: '1', ...(nodePath.length ? { NODE_PATH: nodePath.join(':') } : {}) };
      return await spawnCapped('/bin/sh', ['-c', command], env, copy, limits);
    } finally {
      await rm(ipc, { recursive: true, force: true });
    }
  }
  const node = process.execPath;
  const python = resolvePython();
  const argv = sandboxArgv(
    {
      command: withAddressLimit(['/bin/sh', '-c', WRAPPER], limits.memoryBytes),
      readOnly: [...interpreterPaths(node), ...interpreterPaths(python)],
      // Binds come after the private /tmp, so a folder under the host's /tmp is seen too.
      binds: [[root, '/repo'], ...nodePath.map((dir) => [dir, dir] as const)],
      ipcDir: ipc,
      scratchBytes: limits.scratchBytes,
      env: {
        CRUCIBLE_COMMAND: command,
        PATH: [...new Set([dirname(node), dirname(python), '/usr/local/bin', '/usr/bin', '/bin'])].join(':'),
        HOME: '/tmp',
        PYTHONDONTWRITEBYTECODE: '1',
        NO_COLOR: '1',
        ...(nodePath.length ? { NODE_PATH: nodePath.join(':') } : {}),
      },
    },
    'bwrap',
  );
  const cgroups = await commandCgroups(limits);
  try {
    // The sandbox joins its cgroups before it starts (the shell writes its own pid, then becomes bwrap).
    const joinGroups = cgroups?.procs.map((_, i) => `echo $$ > "$${i + 1}"`).join(' && ');
    const [file, args] = cgroups
      ? [
          '/bin/sh',
          [
            '-c',
            `${joinGroups} && shift ${cgroups.procs.length} && exec "$@"`,
            'sh',
            ...cgroups.procs,
            argv.file,
            ...argv.args,
          ],
        ]
      : [argv.file, argv.args];
    return await spawnCapped(file, args, argv.env, undefined, limits);
  } finally {
    await cgroups?.remove();
    await rm(ipc, { recursive: true, force: true });
  }
}

function spawnCapped(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string | undefined,
  limits: CommandLimits,
): Promise<CommandResult> {
  const started = performance.now();
  return new Promise<CommandResult>((resolve) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(file, [...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      // Arguments or environment too large (E2BIG), or no such program: the command did not start.
      const output = `could not start the command: ${(error as Error).message}\n`;
      resolve({ exitCode: null, timedOut: false, output, seconds: (performance.now() - started) / 1000 });
      return;
    }
    const output = new CappedOutput(limits.outputBytes);
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
    let timedOut = false;
    let done = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const finish = (exitCode: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(lingering);
      resolve({ exitCode, timedOut, output: output.text(), seconds: (performance.now() - started) / 1000 });
    };
    // What the command leaves running (a background job) ends with it: its process group is killed
    // (the sandbox's PID namespace ends the rest), and a pipe something still holds is not waited for.
    let lingering: NodeJS.Timeout | undefined;
    const stopWaiting = (exitCode: number | null) => {
      killGroup();
      lingering ??= setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(exitCode);
      }, LINGER_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopWaiting(null);
    }, limits.seconds * 1000);
    child.on('error', (error) => {
      output.add(Buffer.from(`could not start the command: ${error.message}\n`));
      finish(null);
    });
    child.on('exit', (code) => stopWaiting(timedOut ? null : code));
    child.on('close', (code) => finish(timedOut ? null : code));
  });
}

/** How long output is still read after the command exits (what its killed children wrote last). */
const LINGER_MS = 300;

/** Keeps the first quarter and the last three quarters of `limit` bytes (a failure's summary is at the end). */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const headRoom = Math.floor(this.limit / 4) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    let excess = this.tailBytes - (this.limit - Math.floor(this.limit / 4));
    while (excess > 0) {
      const first = this.tail[0]!;
      const cut = Math.min(first.length, excess);
      if (cut === first.length) this.tail.shift();
      else this.tail[0] = first.subarray(cut);
      this.tailBytes -= cut;
      this.dropped += cut;
      excess -= cut;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.dropped > 0 ? `${head}\n[… ${this.dropped} bytes of output left out …]\n${tail}` : head + tail;
  }
}
