/**
 * Reads the built-in tasks from their folders, tasks/<language>/<slug>/ (each file is
 * described in tasks/README.md), in the order and with the checks tasks/index.ts lists.
 * Synchronous on purpose: `builtinTasks` is a plain export that commands and tests read
 * as soon as they import it. The program files are read as text and never imported; they
 * are the programs the sandbox runs, and several are wrong on purpose.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, type Language } from '../../core/task.js';
import type { Status } from '../../core/verdict.js';
import { defineTask, type BuiltinTask } from './define.js';
import { TASKS, type TaskEntry } from './tasks/index.js';

const ROOT = new URL('./tasks/', import.meta.url);
const EXTENSION: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };

/** task.json: the entry point, and the candidates in the order they are listed and sampled. */
interface TaskMeta {
  readonly entryPoint: string;
  readonly candidates: readonly { readonly label: string; readonly expected: Status; readonly why: string }[];
}

function loadTask({ language, slug, checks }: TaskEntry): BuiltinTask {
  const dir = new URL(`${language}/${slug}/`, ROOT);
  const where = fileURLToPath(dir);
  const ext = EXTENSION[language];
  const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
  const meta = JSON.parse(read('task.json')) as TaskMeta;
  const prompt = read(`prompt.${ext}`);
  const reference = read(`reference.${ext}`);
  // The reference is stored whole so that it runs on its own; the task still needs it to complete the prompt.
  if (!reference.startsWith(prompt)) throw new Error(`${where}: reference.${ext} does not begin with prompt.${ext}`);
  // A candidate file that task.json does not list would silently never run.
  const listed = meta.candidates.map((c) => `${c.label}.${ext}`).sort();
  const present = readdirSync(new URL('candidates/', dir))
    .filter((name) => name.endsWith(`.${ext}`))
    .sort();
  if (JSON.stringify(listed) !== JSON.stringify(present)) {
    throw new Error(
      `${where}: task.json lists candidates ${listed.join(', ')}; candidates/ holds ${present.join(', ')}`,
    );
  }
  const plusFile = new URL('plus.json', dir);
  return defineTask({
    language,
    slug,
    entryPoint: meta.entryPoint,
    prompt,
    reference,
    // HumanEval's layout defines check(candidate) and leaves the call to the harness; MultiPL-E's test file calls test() itself.
    base:
      language === 'python'
        ? { code: read('base_test.py'), invoke: `check(${meta.entryPoint})` }
        : { code: read(`base_test.${ext}`) },
    ...(existsSync(plusFile) && { plus: JSON.parse(readFileSync(plusFile, 'utf8')) as unknown[][] }),
    candidates: meta.candidates.map(({ label, expected, why }) => ({
      label,
      expected,
      why,
      program: read(`candidates/${label}.${ext}`),
    })),
    ...(checks && { checks }),
  });
}

/** Every task of tasks/index.ts, in its order; a task folder it does not list is an error, not a task quietly left out. */
export function loadBuiltinTasks(): BuiltinTask[] {
  const listed = new Set(TASKS.map(({ language, slug }) => `${language}/${slug}`));
  for (const language of LANGUAGES) {
    const folder = new URL(`${language}/`, ROOT);
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory() && !listed.has(`${language}/${entry.name}`)) {
        throw new Error(
          `${fileURLToPath(new URL(entry.name, folder))}: a task folder not listed in ${fileURLToPath(new URL('index.ts', ROOT))}`,
        );
      }
    }
  }
  return TASKS.map(loadTask);
}
