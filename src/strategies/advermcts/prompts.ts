/** What AdverMCTS's three roles (solver, attacker, arbiter) are asked. */
import { z } from 'zod';
import { callText } from '../../feedback/index.js';
import type { Task } from '../../core/task.js';
import type { ChatMessage } from '../../models/index.js';
import type { PromptExample } from '../../domains/code/generate/examples.js';
import { language, solveMessages, SYSTEM } from '../prompts.js';

export const StepsSchema = z.object({ steps: z.array(z.object({ thought: z.string(), score: z.number() })) });
export const AttackSchema = z.object({ inputs: z.array(z.string()) });
export const ArbiterSchema = z.object({ valid: z.boolean(), output: z.string() });

const spec = (task: Task) => `\`\`\`\n${task.prompt.trimEnd()}\n\`\`\``;
const numbered = (steps: readonly string[]) => steps.map((s, i) => `${i + 1}. ${s}`).join('\n');

export function expandMessages(
  task: Task,
  plan: readonly string[],
  count: number,
  lastFailure: string | undefined,
): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `We are designing the ${language(task)} function \`${task.entryPoint}\`:\n\n${spec(task)}\n\n` +
        (plan.length ? `The reasoning so far:\n${numbered(plan)}\n\n` : '') +
        (lastFailure ? `A program written from this reasoning failed: ${lastFailure}\n\n` : '') +
        `Propose up to ${count} different next reasoning steps (an approach, an edge case to handle, a correction), ` +
        'each with a score from 0 to 1 for how likely it leads to a correct program. No code.',
    },
  ];
}

export function simulateMessages(task: Task, plan: readonly string[]): ChatMessage[] {
  const [system, user] = solveMessages(task);
  if (plan.length === 0) return [system!, user!];
  return [system!, { role: 'user', content: `${user!.content}\n\nFollow this reasoning:\n${numbered(plan)}` }];
}

export function attackMessages(
  task: Task,
  programs: readonly string[],
  strategy: string,
  count: number,
): ChatMessage[] {
  return [
    { role: 'system', content: 'You are a tester who finds inputs on which programs behave differently.' },
    {
      role: 'user',
      content:
        `Specification of \`${task.entryPoint}\`:\n\n${spec(task)}\n\n` +
        programs.map((p, i) => `Program ${i + 1}:\n\`\`\`\n${p.trimEnd()}\n\`\`\``).join('\n\n') +
        `\n\nTesting strategy: ${strategy}.\nWrite up to ${count} valid inputs (allowed by the specification) on which these programs may return different results. ` +
        `Write each input as the arguments inside the call's parentheses, as ${language(task)} literals (e.g. \`[1, 2], 3\`).`,
    },
  ];
}

export function arbiterMessages(
  task: Task,
  examples: readonly PromptExample[],
  input: string,
  outputs: readonly string[],
): ChatMessage[] {
  const shown = examples.map((e) => `${task.entryPoint}(${e.argsText}) == ${e.outputText}`).join('\n');
  return [
    {
      role: 'system',
      content: 'You are a careful judge of what a function must return, according to its specification.',
    },
    {
      role: 'user',
      content:
        `Specification of \`${task.entryPoint}\`:\n\n${spec(task)}\n\n` +
        (shown ? `Known examples:\n${shown}\n\n` : '') +
        `Input: ${callText(task.entryPoint, input)}\nPrograms returned these different results:\n${outputs.map((o, i) => `${i + 1}. ${o}`).join('\n')}\n\n` +
        'Which result is correct? Answer with `output`: the correct result exactly as listed, and `valid`: true; ' +
        'or `valid`: false if the input is not allowed by the specification or the answer is ambiguous.',
    },
  ];
}

/** The attacker's persistent testing strategies (the first level of its tree). */
export const ATTACK_STRATEGIES = [
  'edge cases: empty, minimal and single-element inputs',
  'boundary values and off-by-one positions',
  'duplicates, repeated and equal elements',
  'unusual but valid values: negatives, zero, large numbers, special characters',
  'larger inputs that exercise every branch',
] as const;
