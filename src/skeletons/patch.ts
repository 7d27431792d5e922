/**
 * Patching a skeleton instead of writing from scratch (FCGraft): the model names the skeleton it
 * starts from (or several, stitched into one program) and gives SEARCH/REPLACE blocks (Aider's format, which models know) that change only
 * what must change. Each SEARCH must occur exactly once in what it edits, in order; a block that
 * does not apply makes the whole reply a failed patch, said as such, never a guess.
 */
import { diffLines } from 'diff';

export interface ReplaceBlock {
  readonly search: string;
  readonly replace: string;
}

export interface PatchReply {
  /** The skeletons patched, by id: one, or several stitched together (`BASE: a + b`). */
  readonly bases: readonly string[];
  readonly blocks: readonly ReplaceBlock[];
}

const BLOCK = /<{7} SEARCH\n([\s\S]*?)\n?={7}\n([\s\S]*?)\n?>{7} REPLACE/g;

/**
 * A reply of the patch form (`BASE: id`, or `BASE: a + b` to stitch several skeletons, then the
 * blocks), or undefined for any other reply.
 */
export function parsePatchReply(text: string): PatchReply | undefined {
  const line = /^\s*BASE:[ \t]*(.+)$/m.exec(text)?.[1];
  const bases = line
    ?.split(/[+,]/)
    .map((id) => id.trim().replace(/^`|`$/g, ''))
    .filter(Boolean);
  if (!bases?.length) return undefined;
  const blocks = [...text.matchAll(BLOCK)].map((m) => ({ search: m[1]!, replace: m[2]! }));
  return { bases, blocks };
}

/** Several skeletons' programs as one program to patch: each once, in the order named. */
export function stitch(programs: readonly string[]): string {
  return [...new Set(programs.map((p) => p.trimEnd()))].join('\n\n\n') + '\n';
}

/** The program with the blocks applied in order, or why they do not apply. */
export function applyBlocks(program: string, blocks: readonly ReplaceBlock[]): { program: string } | { error: string } {
  let text = program;
  for (const [i, block] of blocks.entries()) {
    if (block.search === '') {
      text = `${text.replace(/\n?$/, '\n')}${block.replace}\n`;
      continue;
    }
    const at = text.indexOf(block.search);
    if (at < 0) return { error: `block ${i + 1}: its SEARCH text is not in the program (it must match exactly)` };
    if (text.indexOf(block.search, at + 1) >= 0)
      return { error: `block ${i + 1}: its SEARCH text occurs more than once; include more lines to make it unique` };
    text = text.slice(0, at) + block.replace + text.slice(at + block.search.length);
  }
  return { program: text };
}

/**
 * The blocks that turn `from` into `to`: each changed run of lines, widened by unchanged lines
 * around it until its SEARCH text is unique (what a model replying in this form would write).
 */
export function blocksBetween(from: string, to: string): ReplaceBlock[] {
  const parts = diffLines(from, to);
  const lines = (text: string) => text.split('\n').slice(0, text.endsWith('\n') ? -1 : undefined);
  // The old program as lines, and the changes as [first old line, old line count, new lines].
  const changes: Array<{ start: number; count: number; replacement: string[] }> = [];
  let line = 0;
  for (const part of parts) {
    const n = lines(part.value).length;
    if (part.added) {
      const last = changes.at(-1);
      if (last && last.start + last.count === line) last.replacement.push(...lines(part.value));
      else changes.push({ start: line, count: 0, replacement: lines(part.value) });
    } else if (part.removed) {
      changes.push({ start: line, count: n, replacement: [] });
      line += n;
    } else line += n;
  }
  const old = lines(from);
  const blocks: ReplaceBlock[] = [];
  for (const change of changes) {
    let start = change.start;
    let end = change.start + change.count;
    const text = (a: number, b: number) => old.slice(a, b).join('\n');
    const unique = (a: number, b: number) => {
      const search = text(a, b);
      return search !== '' && from.indexOf(search) === from.lastIndexOf(search);
    };
    while (!unique(start, end) && (start > 0 || end < old.length)) {
      if (start > 0) start--;
      if (!unique(start, end) && end < old.length) end++;
    }
    const before = old.slice(start, change.start);
    const after = old.slice(change.start + change.count, end);
    blocks.push({ search: text(start, end), replace: [...before, ...change.replacement, ...after].join('\n') });
  }
  return blocks;
}

export function formatPatchReply(bases: string | readonly string[], blocks: readonly ReplaceBlock[]): string {
  return [
    `BASE: ${typeof bases === 'string' ? bases : bases.join(' + ')}`,
    ...blocks.map((b) => `<<<<<<< SEARCH\n${b.search}\n=======\n${b.replace}\n>>>>>>> REPLACE`),
  ].join('\n');
}
