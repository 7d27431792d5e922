/**
 * `graft` (FCGraft): solve by reusing verified code. The task's prompt retrieves the closest
 * skeletons of the library (src/skeletons); the model is shown them and asked to patch one —
 * `BASE: id` and SEARCH/REPLACE blocks that change only what must change, or `BASE: a + b` to
 * stitch several skeletons' functions into one program and patch that — or, when none fits, to write the function whole. The patched program is verified like
 * any other; a failure is fed back (with the smallest failing input) and the model patches
 * again, its last program now the base. Output tokens are what it saves: a patch is a few lines.
 */
import type { Task } from '../core/task.js';
import type { ChatMessage } from '../models/index.js';
import { SkeletonLibrary, type SearchHit } from '../skeletons/library.js';
import { applyBlocks, parsePatchReply, stitch } from '../skeletons/patch.js';
import { DEFAULT_ATTEMPTS } from './repair.js';
import { language, solveMessages } from './prompts.js';
import { Session } from './session.js';
import { codeOnly } from './subject.js';
import type { Strategy } from './types.js';

export const SKELETONS_SHOWN = 3;
/** The id the model's own last program goes by, as a base for the next patch. */
const LAST = 'last';

export const graft: Strategy = async (subject, context) => {
  const code = codeOnly(subject, 'graft');
  const task = code.task;
  const library = SkeletonLibrary.open(context.options?.library);
  const exclude = context.options?.excludeSkeleton;
  const hits = library.search(`${task.entryPoint} ${task.prompt}`, {
    k: SKELETONS_SHOWN,
    language: task.language,
    ...(exclude ? { exclude: (s) => exclude(s.source) } : {}),
  });
  const bases = new Map(hits.map((h) => [h.skeleton.id, h.skeleton.program]));
  const session = await Session.open(code, context);
  const attempts = context.options?.attempts ?? DEFAULT_ATTEMPTS;
  return session.run(async () => {
    let messages = graftMessages(task, hits);
    let parent: number | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const label = `attempt ${attempt}`;
      const asked = await session.ask(messages, { label, parent, temperature: context.options?.temperature ?? 0.2 });
      const reply = asked.completions[0]?.text ?? '';
      const patch = parsePatchReply(reply);
      let judged;
      let problem: string | undefined;
      if (patch) {
        const named = patch.bases.join(' + ');
        const unknown = patch.bases.filter((id) => !bases.has(id));
        const applied = unknown.length
          ? undefined
          : applyBlocks(stitch(patch.bases.map((id) => bases.get(id)!)), patch.blocks);
        if (!applied)
          problem = `there is no skeleton ${unknown.join(', ')}; the bases are ${[...bases.keys()].join(', ')}`;
        else if ('error' in applied) problem = `the patch does not apply to ${named}: ${applied.error}`;
        else
          judged = await session.judgeProgram(applied.program, asked.eventId, label, {
            shrink: true,
            form: `patch of ${named}`,
          });
      } else judged = await session.judgeReply(reply, asked.eventId, label, { shrink: true });
      if (judged && (judged.report.passed || judged.report.unchecked))
        return session.conclude(judged, session.best, '');
      if (judged?.report.noVerdict)
        return session.conclude(undefined, session.best, `the sandbox failed: ${judged.report.noVerdict}`);
      const feedback = problem ?? (judged ? code.feedback(judged.report)?.text : code.noArtifact) ?? code.noArtifact;
      if (attempt === attempts) break;
      parent = session.feedback(feedback, judged?.verdictId ?? asked.eventId, `feedback ${attempt}`);
      if (judged) bases.set(LAST, judged.program);
      messages = [
        ...messages,
        { role: 'assistant', content: reply },
        {
          role: 'user',
          content: `${feedback}\n\nPatch again: ${judged ? `BASE: ${LAST} (your last program)` : 'BASE: one of the skeletons'} and SEARCH/REPLACE blocks, or the whole function in a code block.`,
        },
      ];
    }
    const { best } = session;
    return session.conclude(undefined, best, `no program passed the visible checks in ${attempts} attempts`);
  });
};

/** The task, the skeletons to start from, and the reply's form. */
export function graftMessages(task: Task, hits: readonly SearchHit[]): ChatMessage[] {
  const [system, ask] = solveMessages(task);
  if (hits.length === 0) return [system!, ask!];
  const shown = hits
    .map(
      (h) =>
        `Skeleton ${h.skeleton.id} (${h.skeleton.verdict.checks}; from ${h.skeleton.source}):\n\`\`\`${task.language}\n${h.skeleton.program.trimEnd()}\n\`\`\``,
    )
    .join('\n\n');
  return [
    system!,
    {
      role: 'user',
      content:
        `${ask!.content}\n\nThese verified ${language(task)} functions are close to the task:\n\n${shown}\n\n` +
        'If one of them is a good start, reply with `BASE: <its id>` on the first line, then SEARCH/REPLACE blocks that change only what must change:\n' +
        '<<<<<<< SEARCH\n(lines of the skeleton, exactly)\n=======\n(the lines instead)\n>>>>>>> REPLACE\n' +
        'Each SEARCH must occur exactly once in the skeleton. When the task needs functions of several skeletons, stitch them: `BASE: <id> + <id>` patches their programs joined, in that order. ' +
        'If none fits, reply with the complete function in one fenced code block instead.',
    },
  ];
}
