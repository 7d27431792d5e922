/** What strategies say to the model. Plain instructions; the task's prompt is quoted as given. */
import type { Task } from '../core/task.js';
import { revision } from '../domains/subject.js';
import type { ChatMessage } from '../models/index.js';

export { revision };

const LANGUAGE_NAMES = { python: 'Python', javascript: 'JavaScript', typescript: 'TypeScript' } as const;
const FENCE_TAGS = { python: 'python', javascript: 'javascript', typescript: 'typescript' } as const;

export const SYSTEM =
  'You are a careful programmer. You write correct, complete, self-contained code and nothing else.';

export function language(task: Task): string {
  return LANGUAGE_NAMES[task.language];
}

export function solveMessages(task: Task): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Implement the ${language(task)} function \`${task.entryPoint}\` described below.\n\n` +
        `\`\`\`${FENCE_TAGS[task.language]}\n${task.prompt.trimEnd()}\n\`\`\`\n\n` +
        'Reply with the complete function (signature included, plus any imports or helpers it needs) in one fenced code block.',
    },
  ];
}

export function repairMessages(task: Task, previousReply: string, feedback: string): ChatMessage[] {
  return revision(solveMessages(task), previousReply, feedback);
}

export function testsMessages(task: Task, count: number): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content:
        `Here is the specification of the ${language(task)} function \`${task.entryPoint}\`:\n\n` +
        `\`\`\`${FENCE_TAGS[task.language]}\n${task.prompt.trimEnd()}\n\`\`\`\n\n` +
        `Write up to ${count} small, deterministic tests that a correct implementation must pass, edge cases included. ` +
        `For each test give \`input\`: the arguments exactly as they would be written inside the call's parentheses, as ${language(task)} literals ` +
        `(e.g. \`[1, 2], 3\`), and \`output\`: the exact return value as a ${language(task)} literal. Do not write the implementation.`,
    },
  ];
}

/** DCCD, step 2: the final answer, constrained to `{"code": ...}`, conditioned on the free draft. */
export function finalAnswerMessages(task: Task, draft: string): ChatMessage[] {
  return [
    ...solveMessages(task),
    { role: 'assistant', content: draft },
    {
      role: 'user',
      content: `Now give your final answer as JSON: {"code": "<the complete ${language(task)} function, with its imports>"}. Put only code in "code", no prose and no fences.`,
    },
  ];
}

/** DCCD, step 1: think freely before the constrained answer. */
export function draftMessages(task: Task): ChatMessage[] {
  const [system, user] = solveMessages(task);
  return [
    system!,
    { role: 'user', content: `${user!.content}\n\nThink it through first: the cases, the edge cases, then the code.` },
  ];
}
