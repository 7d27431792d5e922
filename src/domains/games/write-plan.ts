/**
 * ALIVE's one-shot planning: for a games task without a plan, the model writes one from the
 * prompt, once per task, before any game is played. The reply comes through structured output
 * and is checked with parsePlan; a plan that is not one is sent back once with what is wrong.
 * With a reference, the cases it fails are then dropped by prepareGameChecks, like any wrong case.
 */
import { z } from 'zod';
import type { ChatMessage, Model } from '../../models/index.js';
import { parsePlan, type PlanCase } from './plan.js';
import type { GameTask } from './task.js';

const envelope = z.object({
  cases: z.array(z.object({ name: z.string(), steps: z.array(z.record(z.string(), z.unknown())) })),
});

const FORMAT = `A plan is {"cases": [{"name": "...", "steps": [...]}]}. Every case starts from a fresh load of the game, with a virtual clock paused at 0. Steps, in order:
- {"click": "CSS selector"}
- {"key": "ArrowUp"} or {"key": "Enter", "target": "CSS selector"}  (Playwright key names)
- {"type": "CSS selector", "text": "..."}  (types into an input)
- {"wait": 1000}  (advances the virtual clock by that many ms: timers and animation frames due run)
- {"expect": {"selector": "CSS selector", "text": "exact trimmed textContent", "text_contains": "...", "count": 3, "attr": {"name": "value"}, "visible": true, "exists": false}}  (any of these fields)
Each case needs at least one expect, after the actions it checks. Use only selectors and texts the task states.`;

export async function writePlan(
  model: Model,
  task: GameTask,
  options: { readonly seed?: number; readonly signal?: AbortSignal } = {},
): Promise<{ plan: PlanCase[] } | { error: string }> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content:
        'You write test plans for small browser games: cases of actions and DOM assertions that check the game does what its task says, the rules and the edge cases (a win in every direction, a draw, a restart, a timer running out).',
    },
    { role: 'user', content: `The game's task:\n\n${task.prompt.trim()}\n\n${FORMAT}\n\nWrite 4 to 8 cases.` },
  ];
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await model.generate({
      messages,
      output: { schema: envelope, name: 'plan' },
      temperature: 0,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      label: `plan ${task.id}`,
    });
    const completion = result.completions[0];
    const parsed =
      completion?.value === undefined
        ? { error: completion?.outputError ?? 'no plan in the reply' }
        : parsePlan(completion.value);
    if ('plan' in parsed) return parsed;
    problem = parsed.error;
    messages.push(
      { role: 'assistant', content: completion?.text ?? '' },
      { role: 'user', content: `That is not a valid plan: ${problem}. Write the whole plan again.` },
    );
  }
  return { error: problem };
}
