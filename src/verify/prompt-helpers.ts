import type { Task } from '../core/task.js';

/**
 * The part of a prompt that defines what the test may call besides the entry point: the code
 * before the entry point's own declaration (`poly` before `find_zero` in HumanEval/32,
 * `encodeCyclic` before `decodeCyclic` in HumanEvalPack JS/38). The judge runs it in the
 * test's scope, so the test reaches the prompt's helpers and not a candidate's redefinition.
 * Undefined when the prompt does not declare the entry point (MBPP's prose prompts).
 */
export function promptHelpers(task: Task): string | undefined {
  const entry = task.entryPoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const declaration =
    task.language === 'python'
      ? new RegExp(`^(async\\s+)?def\\s+${entry}\\s*\\(`, 'm')
      : new RegExp(`^(export\\s+)?((async\\s+)?function\\s*\\*?\\s*${entry}\\b|(const|let|var)\\s+${entry}\\b)`, 'm');
  const at = task.prompt.search(declaration);
  if (at <= 0) return undefined;
  const helpers = task.prompt.slice(0, at);
  // Imports and comments alone define nothing a test calls.
  const defines = task.language === 'python' ? /^(async\s+)?(def|class)\s/m : /^(export\s+)?((async\s+)?function\b|(const|let|var|class)\s)/m;
  return defines.test(helpers) ? helpers : undefined;
}
