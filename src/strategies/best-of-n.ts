/**
 * `best-of-n`: sample n programs, judge each on the visible checks, rank them with the
 * selector (public examples, then agreement with the others on generated inputs), and
 * answer only when the selection's confidence reaches the calibrated threshold (if one is given).
 */
import type { Candidate } from '../core/task.js';
import { decide } from '../select/abstain.js';
import { CONFIDENCE_SCORE, selectForTask } from '../select/select.js';
import { Session, type Judged } from './session.js';
import { DEFAULT_SAMPLES } from './sample.js';
import type { Strategy } from './types.js';

export const bestOfN: Strategy = async (subject, context) => {
  const threshold = context.options?.threshold;
  if (threshold && threshold.score !== CONFIDENCE_SCORE) {
    throw new Error(
      `the threshold file was calibrated for the score "${threshold.score}", but this version computes "${CONFIDENCE_SCORE}"; run crucible calibrate again`,
    );
  }
  const session = await Session.open(subject, context);
  const n = context.options?.samples ?? DEFAULT_SAMPLES;
  const judged: Judged[] = [];
  return session.run(async () => {
    const asked = await session.ask(subject.solveMessages(), {
      label: 'sample',
      parent: null,
      n: Math.max(1, session.affordable(n)),
      temperature: context.options?.temperature ?? 0.8,
    });
    for (const [i, completion] of asked.completions.entries()) {
      const one = await session.judgeReply(completion.text, asked.eventId, `sample ${i + 1}`);
      if (one) judged.push(one);
    }
    if (judged.length === 0)
      return session.conclude(undefined, undefined, `none of ${asked.completions.length} replies holds code`);
    // Select over every sample, as `crucible calibrate` does, so the threshold means what it was calibrated for.
    const candidates: Candidate[] = judged.map((j, index) => ({ taskId: subject.task.id, index, program: j.program }));
    const selection = await session.sandbox(() =>
      selectForTask(subject.pack, subject.task, candidates, { seed: context.seed }),
    );
    const passing = judged
      .map((j, i) => ({ j, i, score: selection.candidates[i]!.agreement }))
      .filter(({ j }) => j.report.passed || j.report.unchecked);
    const selected = selection.selectedIndex === null ? undefined : judged[selection.selectedIndex];
    const answer =
      selected && (selected.report.passed || selected.report.unchecked)
        ? selected
        : passing.sort((a, b) => b.score - a.score || a.i - b.i)[0]?.j;
    const decision = decide(selection.confidence, threshold, selection.why);
    session.decision(
      'select',
      `confidence ${selection.confidence.toFixed(3)}: ${selection.why}`,
      asked.eventId,
      'selection',
      {
        selectedIndex: selection.selectedIndex,
        confidence: selection.confidence,
        clusters: selection.clusters,
        disagreements: selection.disagreements.map((d) => ({ input: d.input, groups: d.groups })),
      },
    );
    const { best } = session;
    if (!answer) {
      const why = best
        ? `; the best one fails ${best.report.failures[0]?.check ?? best.report.noVerdict ?? 'a check'}`
        : '';
      return session.conclude(undefined, best, `none of ${judged.length} samples passes the visible checks${why}`);
    }
    if (decision.decision === 'abstain') return session.finish('abstained', decision.reason, undefined, answer);
    return session.conclude(answer, best, '');
  });
};
