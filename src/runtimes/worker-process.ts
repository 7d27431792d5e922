/** Starting a warm worker in its sandbox and checking it answers: shared by the slots (candidate and judge workers) and the program workers. */
import { closeSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isMessage, LineProcess, NoMessage, type Channel } from './line-process.js';
import { sandboxArgv, type SandboxMode } from './sandbox.js';
import { buildSeccompFilter, seccompSupported } from './seccomp.js';

/** How a language starts one kind of worker. */
export interface WorkerRecipe {
  /** The command inside the sandbox; paths as seen there. */
  readonly command: readonly string[];
  /** Host paths exposed read-only at the same place (an interpreter outside /usr). */
  readonly readOnly: readonly string[];
  /** Host directory with the worker scripts, visible at /crucible/<name> inside. */
  readonly harnessDir: string;
  readonly scratchBytes: number;
  /** bwrap installs the no-new-processes filter on the worker itself (for workers that cannot fork per run). */
  readonly seccompOnWorker: boolean;
  /** More host directories made visible read-only: [host, inside] (e.g. allow-listed packages). */
  readonly binds?: ReadonlyArray<readonly [string, string]>;
}

export interface WorkerSpawn extends WorkerRecipe {
  /** The worker's private directory (/ipc inside the sandbox). */
  readonly dir: string;
  readonly mode: SandboxMode;
  /** A worker that writes a longer line is killed (one that runs code Crucible does not trust). */
  readonly maxLineBytes?: number;
  /** A worker that writes a line that is not a reply is killed (untrusted code can reach its stdout). */
  readonly killOnMalformed?: boolean;
}

/** Whether a node process's stderr says it ran out of heap (V8's messages for it). */
export function isNodeOutOfMemory(stderr: string): boolean {
  return /heap out of memory|Fatal process out of memory|Allocation failed/i.test(stderr);
}

let spawned = 0;

export function spawnWorker<Request extends object, Reply extends object>(
  spec: WorkerSpawn,
  channel: Channel<Request, Reply>,
): LineProcess<Request, Reply> {
  let fd: number | undefined;
  if (spec.seccompOnWorker && seccompSupported && spec.mode === 'bwrap') {
    // A file of its own per spawn: a slot starts a spare while another worker of it is still
    // starting, and rewriting a shared file under a bwrap that is reading it gave bwrap a
    // truncated filter (EINVAL). The open descriptor outlives the name.
    const path = join(spec.dir, `worker-seccomp-${++spawned}.bpf`);
    writeFileSync(path, buildSeccompFilter({ forbidExec: false }));
    fd = openSync(path, 'r');
    unlinkSync(path);
  }
  const argv = sandboxArgv(
    {
      command: spec.command,
      readOnly: spec.readOnly,
      binds: [[spec.harnessDir, `/crucible/${basename(spec.harnessDir)}`], ...(spec.binds ?? [])],
      ipcDir: spec.dir,
      scratchBytes: spec.scratchBytes,
      ...(fd !== undefined ? { seccompFd: 3 } : {}),
    },
    spec.mode,
  );
  const process = new LineProcess({
    ...argv,
    channel,
    ...(fd !== undefined ? { extraFds: [fd] } : {}),
    ...(spec.maxLineBytes ? { maxLineBytes: spec.maxLineBytes } : {}),
    ...(spec.killOnMalformed ? { killOnMalformed: true } : {}),
  });
  if (fd !== undefined) closeSync(fd);
  return process;
}

/** Undefined when the worker answers a ping within `timeoutMs`; else why not, with the end of its stderr. */
export async function pingWorker<Reply extends { op: string }>(
  process: LineProcess<{ op: 'ping' }, Reply>,
  timeoutMs: number,
): Promise<string | undefined> {
  process.send({ op: 'ping' });
  const answer = await process.next(timeoutMs);
  if (isMessage(answer) && answer.op === 'pong') return undefined;
  return `${describeMessage(answer)}: ${process.stderrTail.slice(-800)}`;
}

export function describeMessage(value: object): string {
  if (!(value instanceof NoMessage)) return `unexpected message ${JSON.stringify(value).slice(0, 200)}`;
  return value.kind === 'malformed' ? value.why : value.kind;
}
