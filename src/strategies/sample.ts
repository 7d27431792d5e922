/** `sample`: n independent samples; the first that passes the visible checks is the answer. */
import { Session } from './session.js';
import type { Strategy } from './types.js';

export const DEFAULT_SAMPLES = 4;

export const sample: Strategy = async (subject, context) => {
  const session = await Session.open(subject, context);
  const n = context.options?.samples ?? DEFAULT_SAMPLES;
  return session.run(async () => {
    const asked = await session.ask(subject.solveMessages(), {
      label: 'sample',
      parent: null,
      n: Math.max(1, session.affordable(n)),
      temperature: context.options?.temperature ?? 0.8,
    });
    for (const [i, completion] of asked.completions.entries()) {
      const judged = await session.judgeReply(completion.text, asked.eventId, `sample ${i + 1}`);
      if (judged && (judged.report.passed || judged.report.unchecked))
        return session.conclude(judged, session.best, '');
    }
    const { best } = session;
    const why = best
      ? `; the best one fails ${best.report.failures[0]?.check ?? best.report.noVerdict ?? 'a check'}`
      : '';
    return session.conclude(
      undefined,
      best,
      `none of ${asked.completions.length} samples passes the visible checks${why}`,
    );
  });
};
