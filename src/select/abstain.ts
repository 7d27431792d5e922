/**
 * Calibrated abstention (FuzzEval's selective generator): answer a task only when the
 * selected program's confidence reaches a threshold τ chosen on labelled calibration
 * tasks so that, among answered tasks, the share of wrong programs stays under α with
 * probability at least 1 − δ.
 *
 * τ is the smallest threshold whose Clopper–Pearson upper bound on the error among the
 * calibration tasks it answers is at most α. Every candidate threshold is tested: the bound
 * does not fall steadily as τ rises (fewer answered tasks widen it), so a search that assumed
 * it would (a binary search, as in the paper) missed thresholds that certify α. The
 * candidates are the distinct confidences (a selector's are few), or MAX_LEVELS evenly spaced
 * among them when there are more, and each bound is taken at δ / (number of candidates):
 * with that (Bonferroni) correction, every threshold that passes holds its bound at once
 * with probability at least 1 − δ, so choosing among them keeps the guarantee.
 */
import { BadRequestError } from '../core/errors.js';
import { z } from 'zod';
import { upperBound } from './clopper-pearson.js';

export interface CalibrationItem {
  readonly confidence: number;
  /** The selected program is right (by the dataset's full tests). */
  readonly correct: boolean;
}

export interface Threshold {
  readonly kind: 'crucible-threshold';
  readonly version: 1;
  /** Answer when confidence ≥ threshold; `null` means no threshold met α: always abstain. */
  readonly threshold: number | null;
  readonly alpha: number;
  readonly delta: number;
  /** Calibration tasks, and how many of them the threshold answers and gets wrong. */
  readonly calibrationTasks: number;
  readonly answered: number;
  readonly wrong: number;
  /** The certified bound on the error among answered tasks. */
  readonly errorBound: number;
  /** How confidence is computed (so a threshold is not used with another score). */
  readonly score: string;
}

/** One tested threshold: what it answers among the calibration tasks and the certified bound on its error. */
export interface ThresholdLevel {
  readonly threshold: number;
  readonly answered: number;
  readonly wrong: number;
  /** The Clopper–Pearson upper bound on the error among answered tasks, at δ / (number of levels). */
  readonly errorBound: number;
}

/**
 * Every threshold calibration tests, ascending, with its figures (the risk–coverage curve
 * `crucible calibrate` writes beside the chosen threshold, as `levels`).
 */
export function testedLevels(items: readonly CalibrationItem[], delta: number): ThresholdLevel[] {
  const levels = candidateLevels(items);
  const perTest = delta / levels.length;
  return levels.map((threshold) => {
    const answered = items.filter((i) => i.confidence >= threshold);
    const wrong = answered.filter((i) => !i.correct).length;
    return { threshold, answered: answered.length, wrong, errorBound: upperBound(wrong, answered.length, perTest) };
  });
}

export function calibrateThreshold(
  items: readonly CalibrationItem[],
  alpha: number,
  delta: number,
  score: string,
): Threshold {
  if (!(alpha > 0 && alpha < 1)) throw new BadRequestError(`α must be between 0 and 1, got ${alpha}`);
  if (!(delta > 0 && delta < 1)) throw new BadRequestError(`δ must be between 0 and 1, got ${delta}`);
  const n = items.length;
  const base = { kind: 'crucible-threshold', version: 1, alpha, delta, calibrationTasks: n, score } as const;
  if (n === 0) return { ...base, threshold: null, answered: 0, wrong: 0, errorBound: 1 };
  // The smallest tested threshold whose bound certifies α.
  const chosen = testedLevels(items, delta).find((level) => level.errorBound <= alpha);
  if (chosen) return { ...base, ...chosen };
  return { ...base, threshold: null, answered: 0, wrong: 0, errorBound: 1 };
}

/**
 * Most thresholds tested: each costs a share of δ, so with more distinct confidences a grid of
 * them is used. On HumanEval's 82-task calibration halves (bench:select), 16 answered 14.5% /
 * 55% / 82% of tasks at α = 0.1 / 0.15 / 0.2; 32 answered 5.6% / 49% / 81% (finer is not
 * better at this size).
 */
export const MAX_LEVELS = 16;

/** The thresholds to test, ascending: the distinct confidences, or MAX_LEVELS evenly spaced among them. */
export function candidateLevels(items: readonly CalibrationItem[]): number[] {
  const levels = [...new Set(items.map((i) => i.confidence))].sort((a, b) => a - b);
  if (levels.length <= MAX_LEVELS) return levels;
  return Array.from(
    { length: MAX_LEVELS },
    (_, i) => levels[Math.round((i * (levels.length - 1)) / (MAX_LEVELS - 1))]!,
  );
}

export type Decision = { readonly decision: 'answer' } | { readonly decision: 'abstain'; readonly reason: string };

export function decide(confidence: number, threshold: Threshold | undefined, why: string): Decision {
  if (!threshold) return { decision: 'answer' };
  if (threshold.threshold === null)
    return {
      decision: 'abstain',
      reason: `no threshold keeps the error under α=${threshold.alpha} on the calibration tasks`,
    };
  if (confidence >= threshold.threshold) return { decision: 'answer' };
  return {
    decision: 'abstain',
    reason: `confidence ${confidence.toFixed(3)} is below the calibrated threshold ${threshold.threshold.toFixed(3)}: ${why}`,
  };
}

/** A threshold file as `crucible calibrate` writes it. */
export const ThresholdSchema = z.object({
  kind: z.literal('crucible-threshold'),
  version: z.literal(1),
  threshold: z.number().nullable(),
  alpha: z.number().gt(0).lt(1),
  delta: z.number().gt(0).lt(1),
  calibrationTasks: z.number().int().nonnegative(),
  answered: z.number().int().nonnegative(),
  wrong: z.number().int().nonnegative(),
  errorBound: z.number(),
  score: z.string(),
});
