import { escapeRegExp } from './regexp.js';
import type { Task } from './task.js';

/** The prompt's own definitions, which the test's calls must reach instead of a candidate's. */
export interface PromptHelpers {
  readonly code: string;
  /** The entry point: the prompt's stub of it is the candidate's to write, never run as a helper. */
  readonly entry: string;
}

/**
 * What a prompt defines that the test may call besides the entry point (`poly` in
 * HumanEval/32, `encodeCyclic` in HumanEvalPack JS/38). The judge runs it in the test's scope,
 * so the test reaches the prompt's helpers and not a candidate's redefinition.
 * - Python: the whole prompt; the judge parses it and leaves out the entry point's own stub.
 * - JavaScript and TypeScript: the code before the entry point's declaration (a prompt ends
 *   in the entry point's unfinished body, which no parser here can complete).
 * Undefined when the prompt does not declare the entry point (MBPP's prose prompts).
 */
export function promptHelpers(task: Task): PromptHelpers | undefined {
  const entry = escapeRegExp(task.entryPoint);
  const declaration =
    task.language === 'python'
      ? new RegExp(`^(async[ \\t]+)?def[ \\t]+${entry}[ \\t]*\\(`, 'm')
      : new RegExp(
          `^(export[ \\t]+)?((async[ \\t]+)?function[ \\t]*(?:\\*[ \\t]*)?${entry}\\b|(const|let|var)[ \\t]+${entry}\\b)`,
          'm',
        );
  const at = task.prompt.search(declaration);
  if (at < 0) return undefined;
  const code = task.language === 'python' ? task.prompt : task.prompt.slice(0, at);
  return code.trim() ? { code, entry: task.entryPoint } : undefined;
}
