/**
 * The one way a pack reads a path a task file gives (a docs task's assets, an SQL task's
 * database, the databases a Spider split names by db_id, any pack's to come): a file in the
 * task file's own folder or below it. A task file comes from elsewhere (a dataset download, a
 * colleague, a generated batch), and what it names is read and then served to a page or
 * queried, so it must not reach the rest of the host: an absolute path is refused, and so is
 * anything that leads out, judged by where it really points (`realpath`: a `..` or a symbolic
 * link, however it is spelled). The answer is the real path, so that what was checked is what
 * is read.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { BadRequestError } from '../core/errors.js';

export interface TaskPathContext {
  /** The task file's folder. */
  readonly folder: string;
  /** Where the path was given, for the message: `FILE:LINE`, or `FILE: entry 3 (db_id)`. */
  readonly where: string;
  /** What the path is, for the message: `the database`, `asset logo.png`. */
  readonly what: string;
  /** Another way to give it, said after the rule (a docs asset may be a data: URI). */
  readonly otherwise?: string;
}

/** Whether `path` is `folder` or under it (both real paths). */
const isWithin = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The real path of the file `value` names in the task file's folder; a BadRequestError that says what to do, else. */
export function pathInTaskFolder(value: string, context: TaskPathContext): string {
  const folder = realpathSync(resolve(context.folder));
  const refuse = (problem: string): never => {
    throw new BadRequestError(
      `${context.where}: ${context.what} is ${JSON.stringify(value)}, ${problem}. A task file names only files in its own folder ` +
        `(${folder}) or below it: put the file there and give its path relative to it${context.otherwise ? `, ${context.otherwise}` : ''}.`,
    );
  };
  if (value === '') refuse('which is empty');
  if (isAbsolute(value)) refuse('an absolute path');
  const named = resolve(folder, value);
  // Refused before it is looked at: whether a file exists outside is none of the task's business.
  if (!isWithin(named, folder)) refuse('which leads out of the task file’s folder');
  let real: string;
  try {
    real = realpathSync(named);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(code === 'ENOENT' ? `which does not exist (looked at ${named})` : `which cannot be read (${code})`);
  }
  if (!isWithin(real, folder)) refuse('which leads out of the task file’s folder through a symbolic link');
  if (!statSync(real).isFile()) refuse('which is not a file');
  return real;
}
