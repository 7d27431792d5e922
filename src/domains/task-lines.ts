/**
 * Task files of the domains that have a line format of their own (games, docs): JSON Lines of
 * `{"task_id", "domain", …}`, or a `.json` file holding one line. What a file is, and its lines
 * read each with where it came from (`FILE:LINE`) for the errors a user fixes.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The file's lines as values, each read by `of` with where it is. */
export function readTaskLines<T>(file: string, domain: string, of: (value: unknown, where: string) => T): T[] {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.json')) return [of(JSON.parse(text), file)];
  return text
    .split('\n')
    .map((line, i) => [line, i] as const)
    .filter(([line]) => line.trim())
    .map(([line, i]) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${i + 1}: not JSON; a ${domain} task file has one JSON object per line`);
      }
      return of(value, `${file}:${i + 1}`);
    });
}

/** A task file (`.jsonl` or `.json`) whose first line is a task of `domain`. */
export function isTaskFileOf(file: string, domain: string): boolean {
  if (!/\.jsonl?$/.test(file) || !existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const first = file.endsWith('.json') ? text : text.split('\n').find((line) => line.trim());
  try {
    return first !== undefined && (JSON.parse(first) as { domain?: unknown }).domain === domain;
  } catch {
    return false;
  }
}
