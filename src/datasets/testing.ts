/** Test helpers (used by the *.test.ts files only): temporary JSONL fixtures and the shared data folder. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The shared datasets folder (CRUCIBLE_DATASETS, else /work/shared/datasets beside the checkout). */
export const DATASETS = resolve(process.env.CRUCIBLE_DATASETS ?? join(import.meta.dirname, '../../../shared/datasets'));

/** `{ skip }` options for node:test: skip with a message when a real data file is absent. */
export function realFile(relative: string): { path: string; skip: false } | { path: string; skip: string } {
  const path = join(DATASETS, relative);
  return existsSync(path) ? { path, skip: false } : { path, skip: `data file absent: ${path}` };
}

export class Fixtures {
  private dir: string | undefined;

  /** Writes lines (objects are JSON-encoded, strings kept as is) to a temporary file; `.gz` names are gzipped. */
  async write(name: string, lines: readonly (string | object)[]): Promise<string> {
    this.dir ??= await mkdtemp(join(tmpdir(), 'crucible-datasets-'));
    const text = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
    const path = join(this.dir, name);
    await writeFile(path, name.endsWith('.gz') ? gzipSync(text) : text);
    return path;
  }

  async cleanup(): Promise<void> {
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}
