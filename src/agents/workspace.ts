/**
 * The repository an agent works on, as a workspace: a copy of the user's folder (the folder
 * itself is never edited; the end result is a patch against it), with a pristine copy beside
 * it to diff against. Every path an agent gives goes through `resolve`, which refuses what
 * leads outside: absolute paths, `..`, and symlinks whose target is not in the workspace.
 * Refusals are values (`Refused`) with a message the model can act on, never exceptions: a
 * session goes on after one.
 */
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { createTwoFilesPatch, diffLines } from 'diff';

export class Refused {
  constructor(readonly message: string) {}
}

/** Folders no agent needs to see or change (and that make copies slow). */
export const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', '__pycache__', '.crucible', '.venv']);
/** Largest file read or written through the tools. */
export const MAX_FILE_BYTES = 1 << 20;

const isInside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

export interface FileChange {
  readonly path: string;
  /** Absent: the file is new. */
  readonly before: string | undefined;
  /** Absent: the file was deleted. */
  readonly after: string | undefined;
}

/**
 * The lines of `after` that differ from `before`, as 1-based inclusive ranges; a deletion marks
 * the line it happened before (the function it was in changed too).
 */
export function changedLines(before: string, after: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const mark = (from: number, to: number) => {
    const last = ranges.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  };
  let line = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) {
      mark(line, line + count - 1);
      line += count;
    } else if (part.removed) mark(Math.max(1, line - 1), line);
    else line += count;
  }
  return ranges;
}

export class Workspace {
  private constructor(
    /** The user's folder, as given. */
    readonly source: string,
    /** The agent's copy (real path). */
    readonly root: string,
    /** The copy as it was at the start, for the diff. */
    private readonly base: string,
    private readonly holder: string,
  ) {}

  /** Copies `source` (less SKIPPED_FOLDERS; symlinks as links) into a new temporary folder. */
  static async open(source: string): Promise<Workspace> {
    const info = await lstat(source).catch(() => undefined);
    if (!info?.isDirectory()) throw new Error(`${source} is not a folder: give the repository's folder (--repo DIR)`);
    const holder = await mkdtemp(join(tmpdir(), 'crucible-workspace-'));
    const root = join(holder, 'repo');
    const base = join(holder, 'base');
    const filter = (path: string) => !SKIPPED_FOLDERS.has(path.split(sep).pop() ?? '');
    await cp(source, root, { recursive: true, verbatimSymlinks: true, filter });
    await cp(root, base, { recursive: true, verbatimSymlinks: true });
    return new Workspace(source, await realpath(root), base, holder);
  }

  /**
   * The real path of `path` inside the workspace, or why not. For writing, the file need not
   * exist, but the deepest folder of it that does must be inside (a symlinked folder out is refused).
   */
  async resolve(path: unknown): Promise<string | Refused> {
    if (typeof path !== 'string' || path.trim() === '')
      return new Refused('give a path relative to the repository root');
    // A newline or escape in a name would garble every diff and listing that shows it.
    if (/[\x00-\x1f\x7f]/.test(path))
      return new Refused('a path cannot contain control characters (newlines, tabs, NUL)');
    if (isAbsolute(path))
      return new Refused(`${path} is absolute: paths are relative to the repository root (e.g. src/app.py)`);
    const full = resolvePath(this.root, path);
    if (!isInside(this.root, full))
      return new Refused(`${path} is outside the repository: paths are relative to its root and stay inside it`);
    // Not copied, and not the agent's to change: a file written into .git (a hook) would run on
    // the user's next commit once applied.
    const skipped = relative(this.root, full)
      .split(sep)
      .find((part) => SKIPPED_FOLDERS.has(part));
    if (skipped) return new Refused(`${path} is inside ${skipped}, which the agent does not see or change`);
    // The deepest part that exists, with every symlink on the way followed.
    let existing = full;
    for (;;) {
      const real = await realpath(existing).catch(() => undefined);
      if (real !== undefined) {
        if (!isInside(this.root, real))
          return new Refused(`${path} leads outside the repository through a symbolic link; it cannot be used`);
        return real === existing ? full : join(real, relative(existing, full));
      }
      // A dangling link is refused too: writing through it would create its target, wherever that is.
      if (
        await lstat(existing)
          .then((s) => s.isSymbolicLink())
          .catch(() => false)
      )
        return new Refused(`${path} is a symbolic link to nothing inside the repository; it cannot be used`);
      const parent = dirname(existing);
      if (parent === existing) return new Refused(`${path} cannot be resolved`);
      existing = parent;
    }
  }

  /** The path as the agent sees it: relative to the root, with forward slashes. */
  shown(full: string): string {
    return relative(this.root, full).split(sep).join('/') || '.';
  }

  async readText(path: string): Promise<{ full: string; text: string } | Refused> {
    const full = await this.resolve(path);
    if (full instanceof Refused) return full;
    const info = await lstat(full).catch(() => undefined);
    if (!info) return new Refused(`${path} does not exist (list_files shows what does)`);
    if (info.isDirectory()) return new Refused(`${path} is a folder: list_files shows what is in it`);
    if (info.size > MAX_FILE_BYTES)
      return new Refused(
        `${path} is ${info.size} bytes, more than the ${MAX_FILE_BYTES} a tool reads; search it instead`,
      );
    const bytes = await readFile(full);
    if (bytes.includes(0)) return new Refused(`${path} is a binary file`);
    return { full, text: bytes.toString('utf8') };
  }

  async writeText(path: string, text: string): Promise<string | Refused> {
    if (Buffer.byteLength(text) > MAX_FILE_BYTES)
      return new Refused(`the content is more than the ${MAX_FILE_BYTES} bytes a file written through a tool may be`);
    const full = await this.resolve(path);
    if (full instanceof Refused) return full;
    if (
      await lstat(full)
        .then((s) => s.isDirectory())
        .catch(() => false)
    )
      return new Refused(`${path} is a folder; give a file's path`);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, text);
    return full;
  }

  /** Files (not folders) under `folder`, breadth first, up to `limit`; symlinks listed, never followed. */
  async listFiles(folder: string, limit: number): Promise<{ files: string[]; truncated: boolean } | Refused> {
    const start = await this.resolve(folder);
    if (start instanceof Refused) return start;
    const files: string[] = [];
    const queue = [start];
    while (queue.length > 0) {
      const dir = queue.shift()!;
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
      if (!entries) return new Refused(`${folder} is not a folder`);
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) queue.push(full);
        else {
          if (files.length === limit) return { files, truncated: true };
          files.push(this.shown(full) + (entry.isSymbolicLink() ? ' (symbolic link)' : ''));
        }
      }
    }
    return { files, truncated: false };
  }

  /** Every text file, for search (paths relative; symlinks and large or binary files skipped). */
  async *textFiles(): AsyncGenerator<{ path: string; text: string }> {
    const queue = [this.root];
    while (queue.length > 0) {
      const dir = queue.shift()!;
      for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
        if (SKIPPED_FOLDERS.has(entry.name)) continue;
        const full = join(dir, entry.name);
        if (entry.isDirectory()) queue.push(full);
        else if (entry.isFile()) {
          const info = await lstat(full);
          if (info.size > MAX_FILE_BYTES) continue;
          const bytes = await readFile(full);
          if (!bytes.includes(0)) yield { path: this.shown(full), text: bytes.toString('utf8') };
        }
      }
    }
  }

  /** The files the agent changed, created or deleted, by path, in path order. */
  async changes(): Promise<FileChange[]> {
    const [before, after] = await Promise.all([snapshot(this.base), snapshot(this.root)]);
    return [...new Set([...before.keys(), ...after.keys()])]
      .sort()
      .filter((path) => before.get(path) !== after.get(path))
      .map((path) => ({ path, before: before.get(path), after: after.get(path) }));
  }

  /** What the agent changed, as a unified diff against the repository as it was (new and deleted files included). */
  async diff(): Promise<string> {
    return (await this.changes())
      .map(({ path, before, after }) =>
        createTwoFilesPatch(
          before === undefined ? '/dev/null' : `a/${path}`,
          after === undefined ? '/dev/null' : `b/${path}`,
          before ?? '',
          after ?? '',
          undefined,
          undefined,
          { context: 3 },
        ).replace(/^(Index: .*\n)?=+\n/, ''),
      )
      .join('');
  }

  /**
   * Writes the changes into the user's folder (`--apply`). A path that goes through a symbolic
   * link there, or a file changed there since the workspace was made, is refused, and nothing is written.
   */
  async applyTo(folder: string = this.source): Promise<FileChange[]> {
    const changes = await this.changes();
    for (const change of changes) {
      const target = join(folder, change.path);
      if (change.path.split('/').some((part) => SKIPPED_FOLDERS.has(part)))
        throw new Error(`${change.path} is inside a folder the agent may not change; nothing was applied`);
      for (let part = dirname(target); isInside(folder, part) && part !== folder; part = dirname(part))
        if (
          await lstat(part)
            .then((s) => s.isSymbolicLink())
            .catch(() => false)
        )
          throw new Error(
            `${change.path}: ${relative(folder, part)} is a symbolic link in ${folder}; nothing was applied`,
          );
      const now = await readFile(target, 'utf8').catch(() => undefined);
      if (now !== change.before)
        throw new Error(`${change.path} changed in ${folder} since the agent started; nothing was applied`);
    }
    for (const change of changes) {
      const target = join(folder, change.path);
      if (change.after === undefined) await rm(target, { force: true });
      else {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, change.after);
      }
    }
    return changes;
  }

  async close(): Promise<void> {
    await rm(this.holder, { recursive: true, force: true });
  }
}

/** Every regular file's text under `root`, by relative path (symlinks are not followed, nor diffed). */
async function snapshot(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const path = relative(root, full).split(sep).join('/');
      if (entry.isDirectory()) queue.push(full);
      else if (entry.isFile()) files.set(path, (await readFile(full)).toString('utf8'));
    }
  }
  return files;
}
