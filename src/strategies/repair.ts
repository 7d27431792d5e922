/**
 * `repair` (PGS + SPADA): write a program, judge it on the visible checks, feed back the
 * one failing fact with the fewest input tokens (shrunk to a minimal counterexample where
 * a reference or a property allows), and revise; stop when verified, after the attempts,
 * or when the budget is spent. Optionally the model first writes tests of its own, which
 * are used only once validated.
 */
import { addModelTests } from './model-tests.js';
import { Session } from './session.js';
import { isCodeSubject, type Identified, type Subject } from './subject.js';
import type { Checks } from '../domains/types.js';
import type { Strategy, StrategyContext, StrategyResult } from './types.js';

/** PGS's iteration count. */
export const DEFAULT_ATTEMPTS = 5;

export const repair: Strategy = (subject, context) =>
  // The model's own tests are calls of a function: other domains have none to write.
  isCodeSubject(subject) && context.options?.modelTests !== false
    ? repairOn(subject, context, (session) => addModelTests(session, subject, session.view))
    : repairOn(subject, context, async (session) => session.view);

/** The loop, with the checks the attempts are judged on (the solver's, with the model's tests where it wrote some). */
async function repairOn<T extends Identified, C extends Checks<T>>(
  subject: Subject<T, C>,
  context: StrategyContext,
  checksFor: (session: Session<T, C>) => Promise<C>,
): Promise<StrategyResult> {
  const session = await Session.open(subject, context);
  const attempts = context.options?.attempts ?? DEFAULT_ATTEMPTS;
  return session.run(async () => {
    const view = await checksFor(session);
    let messages = subject.solveMessages();
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
        feedback = subject.noArtifact;
        feedbackParent = asked.eventId;
      } else {
        if (judged.report.passed || judged.report.unchecked) return session.conclude(judged, session.best, '');
        if (judged.report.noVerdict)
          return session.conclude(
            undefined,
            session.best,
            `the sandbox failed, so nothing is known about the program: ${judged.report.noVerdict}`,
          );
        const told = subject.feedback(judged.report);
        if (!told)
          return session.conclude(
            undefined,
            session.best,
            `the program fails (${judged.report.verdict.status}) without a failure to report`,
          );
        feedback = told.text;
        feedbackParent = judged.verdictId;
        fact = told.fact;
      }
      if (attempt === attempts) break;
      parent = session.feedback(feedback, feedbackParent, `feedback ${attempt}`, fact ? { fact } : {});
      messages = subject.repairMessages(reply, feedback);
    }
    const { best } = session;
    const why = best ? `: the best one fails ${best.report.failures[0]?.check ?? 'a check'}` : '';
    return session.conclude(undefined, best, `no program passed the visible checks in ${attempts} attempts${why}`);
  });
}
