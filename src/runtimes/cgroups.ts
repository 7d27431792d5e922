/**
 * Cgroups of a sandboxed command's own (an agent's command, the judging browser), where
 * Crucible may make them (as root): a pids group (a fork bomb stops at the limit) and a memory
 * group (all its processes together, not each on its own address limit: a browser's renderers
 * and the ArrayBuffers and WebAssembly memory no heap flag counts). cgroup v1 hierarchies get a child of Crucible's own group in each (a
 * managed host puts Crucible in one: moving out of it is not ours to do); cgroup v2 gets one
 * child with both limits where the controllers are enabled. Where neither can be made,
 * RLIMIT_NPROC would not help (it counts every process of the real user, and root is exempt),
 * so the wall-clock limit alone ends a runaway: best effort, said so by `limited`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CommandCgroups {
  /** The cgroup.procs files the command joins before it starts. */
  readonly procs: readonly string[];
  /** What is limited. */
  readonly limited: ReadonlyArray<'processes' | 'memory'>;
  /** How many processes the kernel has killed in the memory group for passing its limit (0 without one). */
  oomKills(): Promise<number>;
  /** Kills whatever is left in them and removes them. */
  remove(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
let made = 0;

/** This process's own path in each v1 hierarchy (`4:memory:/a/b`), and its v2 path (`0::/a`). */
function ownPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, controllers, path] = line.split(':');
      if (path === undefined) continue;
      for (const controller of controllers ? controllers.split(',') : ['']) paths.set(controller, path);
    }
  } catch {
    // No /proc/self/cgroup: no cgroups.
  }
  return paths;
}

export async function commandCgroups(limits: {
  processes: number;
  memoryBytes: number;
}): Promise<CommandCgroups | undefined> {
  const own = ownPaths();
  const name = `crucible-command-${process.pid}-${++made}`;
  const wanted: Array<{
    dir: string;
    writes: Array<[string, string]>;
    limits: CommandCgroups['limited'];
    /** The file that counts the group's OOM kills (`oom_kill N` on its own line). */
    oomFile?: string;
  }> = [];
  if (existsSync(join(ROOT, 'pids', 'cgroup.procs')) || existsSync(join(ROOT, 'memory', 'cgroup.procs'))) {
    if (own.has('pids'))
      wanted.push({
        dir: join(ROOT, 'pids', own.get('pids')!, name),
        writes: [['pids.max', String(limits.processes)]],
        limits: ['processes'],
      });
    if (own.has('memory'))
      wanted.push({
        dir: join(ROOT, 'memory', own.get('memory')!, name),
        writes: [['memory.limit_in_bytes', String(limits.memoryBytes)]],
        limits: ['memory'],
        oomFile: 'memory.oom_control',
      });
  } else if (own.has('') && existsSync(join(ROOT, 'cgroup.controllers'))) {
    const parent = join(ROOT, own.get('')!);
    const enabled = (await readFile(join(parent, 'cgroup.subtree_control'), 'utf8').catch(() => '')).split(/\s+/);
    const writes: Array<[string, string]> = [];
    const limited: Array<'processes' | 'memory'> = [];
    if (enabled.includes('pids')) (writes.push(['pids.max', String(limits.processes)]), limited.push('processes'));
    if (enabled.includes('memory')) (writes.push(['memory.max', String(limits.memoryBytes)]), limited.push('memory'));
    if (writes.length)
      wanted.push({
        dir: join(parent, name),
        writes,
        limits: limited,
        ...(limited.includes('memory') ? { oomFile: 'memory.events' } : {}),
      });
  }
  const groups: Array<(typeof wanted)[number]> = [];
  for (const group of wanted) {
    try {
      await mkdir(group.dir);
      for (const [file, value] of group.writes) await writeFile(join(group.dir, file), value);
      groups.push(group);
    } catch {
      // Not ours to make (not root, a read-only hierarchy): that limit is not there.
      await rmdir(group.dir).catch(() => undefined);
    }
  }
  if (groups.length === 0) return undefined;
  return {
    procs: groups.map((g) => join(g.dir, 'cgroup.procs')),
    limited: groups.flatMap((g) => g.limits),
    async oomKills() {
      let kills = 0;
      for (const group of groups) {
        if (!group.oomFile) continue;
        const text = await readFile(join(group.dir, group.oomFile), 'utf8').catch(() => '');
        kills += Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
      }
      return kills;
    },
    async remove() {
      for (const group of groups) {
        // The sandbox is gone, so nothing should be left; whatever is, is killed first.
        const pids = (await readFile(join(group.dir, 'cgroup.procs'), 'utf8').catch(() => '')).split('\n');
        for (const pid of pids.filter(Boolean))
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // Gone already.
          }
        for (
          let i = 0;
          i < 40 &&
          !(await rmdir(group.dir).then(
            () => true,
            () => false,
          ));
          i++
        )
          await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
