/**
 * Reading a program out of a model's reply: fenced blocks first (the one that defines the
 * entry point wins), else the whole text; a whole function is a program, anything else is
 * a body that completes the task's prompt.
 */
import type { Task } from '../core/task.js';
import { withPromptImports } from '../bench/samples.js';

export interface Extracted {
  readonly program: string;
  /** `function`: the reply defines the entry point; `body`: it was appended to the prompt. */
  readonly form: 'function' | 'body';
}

const FENCE = /```[ \t]*([\w+#.-]*)[^\n]*\n([\s\S]*?)```/g;

export function fencedBlocks(text: string): { lang: string; code: string }[] {
  return [...text.matchAll(FENCE)].map((m) => ({ lang: m[1]!.toLowerCase(), code: m[2]! }));
}

export function definesEntry(task: Pick<Task, 'language' | 'entryPoint'>, code: string): boolean {
  const name = task.entryPoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (task.language === 'python') return new RegExp(`^\\s*(async\\s+)?def\\s+${name}\\s*\\(`, 'm').test(code);
  return new RegExp(`(function\\s*\\*?\\s*${name}\\s*[(<])|((const|let|var)\\s+${name}\\s*[:=])`).test(code);
}

/** The code in a reply (undefined when the reply is empty). */
export function codeOf(task: Pick<Task, 'language' | 'entryPoint'>, text: string): string | undefined {
  const blocks = fencedBlocks(text);
  // An unclosed fence (a reply cut at max tokens) still holds code.
  const open = /```[ \t]*[\w+#.-]*[^\n]*\n([\s\S]*)$/.exec(text);
  const code = blocks.find((b) => definesEntry(task, b.code))?.code ?? blocks[0]?.code ?? (open ? open[1] : text);
  return code && code.trim() ? code.replace(/\s+$/, '') + '\n' : undefined;
}

export function extractProgram(task: Task, text: string): Extracted | undefined {
  const code = codeOf(task, text);
  if (code === undefined) return undefined;
  if (definesEntry(task, code)) return { program: withPromptImports(task, code), form: 'function' };
  return { program: task.completionPrefix + asBody(task, code), form: 'body' };
}

/** A body without indentation is indented (Python); braces the prompt opened are closed (JS/TS). */
function asBody(task: Task, code: string): string {
  if (task.language === 'python') {
    const first = code.split('\n').find((l) => l.trim());
    return first && !/^\s/.test(first) ? code.split('\n').map((l) => (l.trim() ? `    ${l}` : l)).join('\n') : code;
  }
  const open = braceDepth(task.completionPrefix + code);
  return open > 0 ? code + '}\n'.repeat(open) : code;
}

/** Unclosed braces, ignoring those in strings and comments (roughly: enough for a function body). */
function braceDepth(source: string): number {
  const stripped = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
  let depth = 0;
  for (const c of stripped) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
  return depth;
}
