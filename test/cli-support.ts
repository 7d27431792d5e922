/** Runs the `crucible` command as a user does: a real process through bin/crucible.js. */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const BIN = join(import.meta.dirname, '../bin/crucible.js');

/** `cwd`: where the command runs (its store and cache default to folders there). */
export async function crucible(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      maxBuffer: 1 << 26,
      ...options,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A JSONL file of `records`, one per line (datasets and samples files, as a user writes them). */
export function writeJsonl(path: string, records: readonly unknown[]): void {
  writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** A small SQL eval: the dataset `tasks` with one task (cities/all), and `samples` with a right sample and a wrong one. */
export function writeCitiesEval(tasks: string, samples: string): void {
  writeJsonl(tasks, [
    {
      task_id: 'cities/all',
      domain: 'sql',
      schema: 'CREATE TABLE city (name TEXT PRIMARY KEY)',
      setup: "INSERT INTO city VALUES ('austin');",
      question: 'Which cities are there?',
      reference: 'SELECT name FROM city',
    },
  ]);
  writeJsonl(samples, [
    { task_id: 'cities/all', solution: 'SELECT name FROM city' },
    { task_id: 'cities/all', solution: 'SELECT 1' },
  ]);
}
