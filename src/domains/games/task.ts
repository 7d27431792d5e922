/**
 * A games task line: `{"task_id", "domain": "games", "prompt", "plan"?, "reference"?}`. The
 * candidate is one HTML document (inline scripts and styles). Task files are JSON Lines of
 * such lines, or a `.json` file holding one.
 */
import { z } from 'zod';
import { isTaskFileOf, readTaskLines } from '../task-lines.js';
import { parsePlan, type PlanCase } from './plan.js';

export interface GameTask {
  readonly id: string;
  readonly prompt: string;
  /** The test plan; a task without one needs a plan written first (from the prompt). */
  readonly plan: readonly PlanCase[] | undefined;
  /** A correct game: the plan is checked against it. */
  readonly reference: string | undefined;
}

const taskLine = z.object({
  task_id: z.string().min(1),
  domain: z.literal('games'),
  prompt: z.string().min(1),
  plan: z.unknown().optional(),
  reference: z.string().optional(),
});

/** One task line, or why it is not one. */
export function gameTaskOf(value: unknown, where: string): GameTask {
  const line = taskLine.safeParse(value);
  if (!line.success)
    throw new Error(
      `${where}: not a games task line (${line.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')}); a line is {"task_id", "domain": "games", "prompt", "plan"?, "reference"?}`,
    );
  let plan: PlanCase[] | undefined;
  if (line.data.plan !== undefined) {
    const parsed = parsePlan(line.data.plan);
    if ('error' in parsed)
      throw new Error(`${where}: its plan is not valid: ${parsed.error} (src/domains/games/README.md has the format)`);
    plan = parsed.plan;
  }
  return { id: line.data.task_id, prompt: line.data.prompt, plan, reference: line.data.reference };
}

export const readGameTasks = (file: string): GameTask[] => readTaskLines(file, 'games', gameTaskOf);

/** A task file whose first line is a games task. */
export const isGameTaskFile = (file: string): boolean => isTaskFileOf(file, 'games');
