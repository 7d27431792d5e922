/**
 * A docs task line: `{"task_id", "domain": "docs", "prompt", "assets"?, "draft"?, "expect"?, "media"?, "scripts"?}`.
 * The candidate is one HTML document, judged printed (A4, Letter) and on a screen. `assets`
 * names the files the document may load (images, fonts), each a `data:` URI or a path relative
 * to the task file, in its folder or below it (nothing else on the host is read); `draft` is a
 * document to start from (a task that fixes one); `expect` holds DOM assertions in the games
 * plan's format (what the document must contain); `media` narrows where it is judged; `scripts`
 * (default false) lets the document's scripts run, for a document that draws itself (a chart):
 * otherwise they do not, since a script could only change what the reviewer is shown. Task files
 * are JSON Lines of such lines, or a `.json` file holding one.
 */
import { readFileSync } from 'node:fs';
import { dirname, extname, normalize } from 'node:path';
import { z } from 'zod';
import { isTaskFileOf, readTaskLines } from '../task-lines.js';
import { pathInTaskFolder } from '../task-paths.js';
import { expectationSchema, type Expectation } from '../games/plan.js';
import { MEDIA, type Assets, type Medium } from './issues.js';

export interface DocTask {
  readonly id: string;
  readonly prompt: string;
  /** Files served beside the document, at their names. */
  readonly assets: Assets;
  /** A document to start from, if the task gives one. */
  readonly draft: string | undefined;
  /** What the document must show, checked on its screen rendering. */
  readonly expect: readonly Expectation[];
  readonly media: readonly Medium[];
  /** Whether the document's scripts run when it is judged. */
  readonly scripts: boolean;
}

const taskLine = z
  .object({
    task_id: z.string().min(1),
    domain: z.literal('docs'),
    prompt: z.string().min(1),
    assets: z.record(z.string().min(1), z.string()).optional(),
    draft: z.string().optional(),
    expect: z.array(expectationSchema).optional(),
    media: z.array(z.enum(MEDIA)).min(1).optional(),
    scripts: z.boolean().optional(),
  })
  .strict();

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

/** The content type a file is served with, by its extension. */
export const contentTypeOf = (name: string) => CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';

const DATA_URI = /^data:([^;,]+)?((?:;[^;,]+)*?)(;base64)?,(.*)$/s;

/** One asset's bytes: a data: URI's, or a file's in the task file's folder (task-paths.ts: nothing outside it); with no folder (a task a request sent), no file's. */
function assetOf(name: string, value: string, folder: string | null, where: string) {
  const data = DATA_URI.exec(value);
  if (data) {
    const body = data[3] ? Buffer.from(data[4]!, 'base64') : Buffer.from(decodeURIComponent(data[4]!), 'utf8');
    return { contentType: data[1] || contentTypeOf(name), body: new Uint8Array(body) };
  }
  if (folder === null)
    throw new Error(
      `${where}: asset ${name} names a file; a task sent in a request names none: give it as a data: URI`,
    );
  const file = pathInTaskFolder(value, {
    folder,
    where,
    what: `asset ${name}`,
    otherwise: 'or give it as a data: URI',
  });
  return { contentType: contentTypeOf(value), body: new Uint8Array(readFileSync(file)) };
}

/** One task line, or why it is not one; `folder` is where asset paths are relative to (null: none may be named). */
export function docTaskOf(value: unknown, where: string, folder: string | null = '.'): DocTask {
  const line = taskLine.safeParse(value);
  if (!line.success)
    throw new Error(
      `${where}: not a docs task line (${line.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')}); a line is {"task_id", "domain": "docs", "prompt", "assets"?, "draft"?, "expect"?, "media"?, "scripts"?}`,
    );
  const assets = new Map<string, { contentType: string; body: Uint8Array }>();
  for (const [name, asset] of Object.entries(line.data.assets ?? {})) {
    const path = normalize(name).replace(/^\/+/, '');
    if (path.startsWith('..')) throw new Error(`${where}: asset name ${name} leaves the document's folder`);
    assets.set(path, assetOf(name, asset, folder, where));
  }
  return {
    id: line.data.task_id,
    prompt: line.data.prompt,
    assets,
    draft: line.data.draft,
    expect: line.data.expect ?? [],
    media: line.data.media ?? MEDIA,
    scripts: line.data.scripts ?? false,
  };
}

export const readDocTasks = (file: string): DocTask[] =>
  readTaskLines(file, 'docs', (value, where) => docTaskOf(value, where, dirname(file)));

/** A task file whose first line is a docs task. */
export const isDocTaskFile = (file: string): boolean => isTaskFileOf(file, 'docs');
