/**
 * The built-in suite `crucible eval` runs when no dataset is given: about thirty small
 * tasks written for Crucible (Python, JavaScript, TypeScript), each with a reference and
 * a handful of candidate programs whose verdicts are known in advance — right answers
 * written differently, subtly wrong ones that only the "plus" suite catches, and programs
 * that crash, hang, exhaust memory or print too much. A newcomer with no data and no
 * model sees every kind of verdict. Each task is a folder of real program files under
 * tasks/ (see tasks/README.md), read by load.ts.
 */
import type { Candidate, Task } from '../../core/task.js';
import type { BuiltinTask } from './define.js';
import { loadBuiltinTasks } from './load.js';

export type { BuiltinCandidate, BuiltinTask } from './define.js';

/** Every task with its hand-written precondition and properties (tasks/<language>/<slug>/checks.ts). */
export const builtinTasks: readonly BuiltinTask[] = loadBuiltinTasks();

export function builtinDataset(): { name: 'builtin'; tasks: Task[] } {
  return { name: 'builtin', tasks: builtinTasks.map((entry) => entry.task) };
}

/** Every candidate of every task; index is its position in its task's candidate list. */
export function builtinSamples(): Candidate[] {
  return builtinTasks.flatMap(({ task, candidates }) =>
    candidates.map((candidate, index) => ({ taskId: task.id, index, program: candidate.program })),
  );
}
