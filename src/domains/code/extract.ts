/**
 * Reading a program out of a model's reply: fenced blocks first (the one that defines the
 * entry point wins), else the whole text; a whole function is a program, anything else is
 * a body that completes the task's prompt.
 */
import { fences } from '../../core/fences.js';
import { escapeRegExp } from '../../core/regexp.js';
import type { Task } from '../../core/task.js';
import { withPromptImports } from '../../datasets/samples.js';

export interface Extracted {
  readonly program: string;
  /** `function`: the reply defines the entry point; `body`: it was appended to the prompt. */
  readonly form: 'function' | 'body';
}

export function fencedBlocks(text: string): { lang: string; code: string }[] {
  return fences(text)
    .filter((fence) => fence.closed)
    .map((fence) => ({ lang: /^[ \t]*([\w+#.-]*)/.exec(fence.info)![1]!.toLowerCase(), code: fence.code }));
}

export function definesEntry(task: Pick<Task, 'language' | 'entryPoint'>, code: string): boolean {
  const name = escapeRegExp(task.entryPoint);
  // No two whitespace runs that can trade characters (`\\s*\\*?\\s*`, `^\\s*` across lines): those
  // backtracked quadratically on long runs of spaces or blank lines.
  if (task.language === 'python')
    return new RegExp(`^[ \\t]*(async[ \\t]+)?def[ \\t]+${name}[ \\t]*\\(`, 'm').test(code);
  return new RegExp(`(function\\s*(?:\\*\\s*)?${name}\\s*[(<])|((const|let|var)\\s+${name}\\s*[:=])`).test(code);
}

/** The code in a reply (undefined when the reply is empty). */
export function codeOf(task: Pick<Task, 'language' | 'entryPoint'>, text: string): string | undefined {
  const blocks = fencedBlocks(text);
  // An unclosed fence (a reply cut at max tokens) still holds code.
  const open = blocks.length === 0 ? fences(text)[0] : undefined;
  const code = blocks.find((b) => definesEntry(task, b.code))?.code ?? blocks[0]?.code ?? (open ? open.code : text);
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
    return first && !/^\s/.test(first)
      ? code
          .split('\n')
          .map((l) => (l.trim() ? `    ${l}` : l))
          .join('\n')
      : code;
  }
  const open = braceDepth(task.completionPrefix + code);
  return open > 0 ? code + '}\n'.repeat(open) : code;
}

/**
 * Unclosed braces, ignoring those in strings and comments (roughly: enough for a function
 * body). One pass, not regular expressions: `/*` without its end, repeated, made those quadratic.
 */
function braceDepth(source: string): number {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) break;
      i = end + 1;
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) break;
      i = j;
    } else if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  return depth;
}
