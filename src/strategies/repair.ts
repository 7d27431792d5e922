/**
 * `repair` (PGS + SPADA): write a program, judge it on the visible checks, feed back the
 * one failing fact with the fewest input tokens (shrunk to a minimal counterexample where
 * a reference or a property allows), and revise; stop when verified, after the attempts,
 * or when the budget is spent. Optionally the model first writes tests of its own, which
 * are used only once validated.
 */
import { pickMinimal, renderFeedback } from '../feedback/index.js';
import { addModelTests } from './model-tests.js';
import { repairMessages, solveMessages } from './prompts.js';
import { Session } from './session.js';
import type { Strategy } from './types.js';

/** PGS's iteration count. */
export const DEFAULT_ATTEMPTS = 5;

export const repair: Strategy = async (task, context) => {
  const session = await Session.open(task, context);
  const attempts = context.options?.attempts ?? DEFAULT_ATTEMPTS;
  return session.run(async () => {
    const view = context.options?.modelTests === false ? session.view : await addModelTests(session, session.view);
    let messages = solveMessages(task);
    let parent: number | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const label = `attempt ${attempt}`;
      const asked = await session.ask(messages, { label, parent, temperature: context.options?.temperature ?? 0.2 });
      const reply = asked.completions[0]?.text ?? '';
      const judged = await session.judgeReply(reply, asked.eventId, label, { shrink: true, view });
      let feedback: string;
      let feedbackParent: number;
      let fact: unknown;
      if (!judged) {
        feedback = 'Your reply has no code. Reply with the complete function in one fenced code block.';
        feedbackParent = asked.eventId;
      } else {
        if (judged.report.passed || judged.report.unchecked) return session.conclude(judged, session.best, '');
        if (judged.report.noVerdict)
          return session.conclude(
            undefined,
            session.best,
            `the sandbox failed, so nothing is known about the program: ${judged.report.noVerdict}`,
          );
        const minimal = pickMinimal(judged.report.failures);
        if (!minimal)
          return session.conclude(
            undefined,
            session.best,
            `the program fails (${judged.report.verdict.status}) without a failure to report`,
          );
        feedback = renderFeedback(minimal, task.entryPoint);
        feedbackParent = judged.verdictId;
        fact = minimal;
      }
      if (attempt === attempts) break;
      parent = session.feedback(feedback, feedbackParent, `feedback ${attempt}`, fact ? { fact } : {});
      messages = repairMessages(task, reply, feedback);
    }
    const { best } = session;
    const why = best ? `: the best one fails ${best.report.failures[0]?.check ?? 'a check'}` : '';
    return session.conclude(undefined, best, `no program passed the visible checks in ${attempts} attempts${why}`);
  });
};
