/** A task as plain HumanEval writes them: examples in the prompt, a reference, no contract. */
import type { Task } from '../src/core/task.js';

export const DEPTH_PROMPT =
  'def depth(s: str) -> int:\n    """The deepest nesting of the parentheses in s.\n    >>> depth("(()) ()")\n    2\n    >>> depth("((( )))")\n    3\n    """\n';
export const DEPTH_BODY =
  "    d = m = 0\n    for c in s:\n        if c == '(':\n            d += 1\n            m = max(m, d)\n        elif c == ')':\n            d -= 1\n";
export const depthTask: Task = {
  id: 'plain/depth',
  language: 'python',
  prompt: DEPTH_PROMPT,
  entryPoint: 'depth',
  completionPrefix: DEPTH_PROMPT,
  reference: DEPTH_PROMPT + DEPTH_BODY + '    return m\n',
  knownWrong: [],
  suites: [],
  source: 'test',
};
/** Right on every string of parentheses and spaces; refuses other characters, which the reference ignores. */
export const depthStrict =
  DEPTH_PROMPT +
  DEPTH_BODY.replace(
    '            d -= 1\n',
    "            d -= 1\n        elif c != ' ':\n            raise ValueError(f'not a parenthesis: {c!r}')\n",
  ) +
  '    return m\n';
