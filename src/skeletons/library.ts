/**
 * A library of validated function skeletons (FCGraft): every function Crucible has verified —
 * a dataset's references that pass their tests, a verified solve run's program, the functions an
 * agent's verified run changed — kept with its signature, docstring and verdict, and found again
 * by what a new task says (minisearch over names, signatures, docstrings and identifiers). A JSON
 * Lines file (`.crucible/skeletons.jsonl` by default): one skeleton per line, readable and
 * diffable, appended to; the same program is kept once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { definitions } from '../agents/syntax.js';

import { DEFAULT_LIBRARY } from './paths.js';

export { DEFAULT_LIBRARY };

export const skeletonSchema = z.object({
  id: z.string(),
  language: z.enum(['python', 'javascript', 'typescript']),
  name: z.string(),
  signature: z.string(),
  docstring: z.string(),
  program: z.string(),
  /** How it was verified: what judged it and how it did. */
  verdict: z.object({ status: z.literal('pass'), checks: z.string() }),
  /** Where it came from: `dataset FILE:TASK`, `run RUN`. */
  source: z.string(),
  added: z.string(),
});
export type Skeleton = z.infer<typeof skeletonSchema>;

export interface SearchHit {
  readonly skeleton: Skeleton;
  readonly score: number;
}

const EXTENSIONS = { python: 'x.py', javascript: 'x.js', typescript: 'x.ts' } as const;

/** The skeleton language of a file, by its extension; undefined for any other file. */
export function languageOfPath(path: string): Skeleton['language'] | undefined {
  if (path.endsWith('.py')) return 'python';
  if (/\.[cm]?js$/.test(path)) return 'javascript';
  if (/\.[cm]?ts$/.test(path) && !path.endsWith('.d.ts')) return 'typescript';
  return undefined;
}

/**
 * The top-level functions of a verified program, each a skeleton: the whole program is kept
 * with each (a function may need its helpers), named by the function.
 */
export async function skeletonsOf(
  program: string,
  language: Skeleton['language'],
  origin: {
    readonly source: string;
    readonly checks: string;
    /** Only the function of this name (a dataset task's entry point). */
    readonly only?: string;
    /** Only the functions that overlap these line ranges (1-based, inclusive: what a run changed). */
    readonly changedLines?: ReadonlyArray<readonly [number, number]>;
  },
): Promise<Skeleton[]> {
  const changed = (d: { startLine: number; endLine: number }) =>
    !origin.changedLines || origin.changedLines.some(([from, to]) => from <= d.endLine && to >= d.startLine);
  const found = (await definitions(EXTENSIONS[language], program)).filter(
    (d) =>
      !d.name.includes('.') && /function|method/.test(d.kind) && (!origin.only || d.name === origin.only) && changed(d),
  );
  const added = new Date().toISOString();
  return found.map((d) => {
    const text = program.slice(d.start, d.end);
    return {
      id: createHash('sha256').update(`${d.name}\0${program}`).digest('hex').slice(0, 12),
      language,
      name: d.name,
      signature:
        text
          .split('\n')
          .find((line) => /\bdef\b|\bfunction\b|=>/.test(line))
          ?.trim() ?? text.split('\n')[0]!,
      docstring: docstringOf(text, language),
      program,
      verdict: { status: 'pass', checks: origin.checks },
      source: origin.source,
      added,
    };
  });
}

function docstringOf(text: string, language: Skeleton['language']): string {
  if (language === 'python') {
    const match = /:\s*\n\s*(?:[rRuU]?)("""|''')([\s\S]*?)\1/.exec(text);
    return match ? match[2]!.trim() : '';
  }
  const comment = /\/\*\*?([\s\S]*?)\*\//.exec(text);
  return comment ? comment[1]!.replace(/^\s*\*\s?/gm, '').trim() : '';
}

export class SkeletonLibrary {
  private readonly skeletons = new Map<string, Skeleton>();
  private index: MiniSearch<Skeleton> | undefined;

  private constructor(readonly path: string) {}

  /** Reads the library (a missing file is an empty library; a bad line is an error naming it). */
  static open(path: string = DEFAULT_LIBRARY): SkeletonLibrary {
    const library = new SkeletonLibrary(path);
    if (!existsSync(path)) return library;
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          throw new Error(`${path}:${i + 1}: not JSON; the skeleton library is one JSON object per line`);
        }
        const parsed = skeletonSchema.safeParse(value);
        if (!parsed.success) throw new Error(`${path}:${i + 1}: not a skeleton (${parsed.error.issues[0]?.message})`);
        library.skeletons.set(parsed.data.id, parsed.data);
      });
    return library;
  }

  get size(): number {
    return this.skeletons.size;
  }

  list(): Skeleton[] {
    return [...this.skeletons.values()];
  }

  /** Adds the skeletons not there yet; returns those added. */
  async add(skeletons: readonly Skeleton[]): Promise<Skeleton[]> {
    const fresh = skeletons.filter((s) => !this.skeletons.has(s.id));
    if (fresh.length === 0) return [];
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, fresh.map((s) => JSON.stringify(s)).join('\n') + '\n');
    for (const s of fresh) this.skeletons.set(s.id, s);
    this.index = undefined;
    return fresh;
  }

  /** The skeletons closest to `query` (a task's prompt, or words), best first; `exclude` drops some (leave-one-out). */
  search(
    query: string,
    options: { k?: number; language?: Skeleton['language']; exclude?: (s: Skeleton) => boolean } = {},
  ): SearchHit[] {
    this.index ??= this.buildIndex();
    const hits = this.index.search(query, {
      prefix: true,
      fuzzy: 0.2,
      boost: { name: 3, signature: 2 },
      combineWith: 'OR',
      ...(options.language || options.exclude
        ? {
            filter: (hit) => {
              const s = this.skeletons.get(String(hit.id))!;
              return (!options.language || s.language === options.language) && !options.exclude?.(s);
            },
          }
        : {}),
    });
    return hits
      .slice(0, options.k ?? 5)
      .map((hit) => ({ skeleton: this.skeletons.get(String(hit.id))!, score: hit.score }));
  }

  private buildIndex(): MiniSearch<Skeleton> {
    const index = new MiniSearch<Skeleton>({
      fields: ['name', 'signature', 'docstring', 'program'],
      // Identifiers are words: snake_case and camelCase split, and kept whole.
      tokenize: (text) => {
        const words = text.match(/[A-Za-z0-9_]+/g) ?? [];
        return [...words, ...words.flatMap((w) => w.split(/_|(?<=[a-z])(?=[A-Z])/))].filter((w) => w.length > 1);
      },
      processTerm: (term) => term.toLowerCase(),
    });
    index.addAll(this.list());
    return index;
  }
}
