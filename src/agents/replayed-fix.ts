/**
 * The dataset's own fix served as the model's edits (`crucible eval --agent --model fixes`):
 * write the fixed module, run the tests, finish. No model is asked; the whole agent runtime
 * runs as with one (tool calls, the sandbox, budgets, traces), so this measures the runtime and
 * checks that every repository task can end verified.
 */
import type { Model } from '../models/index.js';
import { inMemoryModel } from '../models/in-memory.js';
import type { RepoTask } from './repo-tasks.js';

export const REPLAYED_FIXES = 'fixes';

export function replayedFixModel(task: RepoTask): Model {
  const turns = [
    { name: 'write_file', input: { path: task.module, content: task.fixed } },
    { name: 'run_tests', input: {} },
    { name: 'finish', input: { summary: `replayed the dataset's fix of ${task.module}` } },
  ];
  return inMemoryModel({
    name: `${REPLAYED_FIXES}:${task.id}`,
    script: (request) => {
      const turn = request.messages.filter((m) => m.role === 'assistant').length;
      const call = turns[Math.min(turn, turns.length - 1)]!;
      return { toolCalls: [{ ...call, id: `fix-${turn}` }] };
    },
  });
}
