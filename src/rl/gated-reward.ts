/**
 * Gated (hierarchical) reward after GenCircuit-RL (Flynn, arXiv 2605.14215;
 * research/seeds-000.md §3 "Spec (inferred — exact weights/formula not found)"):
 *
 *   R = Σₖ wₖ · Πⱼ≤ₖ sⱼ = s₁(w₁ + s₂(w₂ + s₃(w₃ + s₄(w₄ + s₅w₅)))),   Σwₖ = 1
 *
 * over the levels parses → loads → runs → public tests → hidden tests/properties, each
 * sⱼ ∈ [0, 1]. Each level multiplies the next, so a later level pays only as far as the
 * earlier ones pass: R is monotone in every sⱼ, 0 when s₁ = 0, and when sₖ = 0 nothing at
 * or after level k counts (R ≤ Σ_{i<k} wᵢ). Default weights are equal (the note gives
 * none); PRODUCT_WEIGHTS = [0,0,0,0,1] gives the strict product R = Π sⱼ.
 * A `vacuous` level (no tests at that level, e.g. no public tests) passes its gate but
 * carries no weight: its share goes to the other levels, so a program that fails every
 * hidden test earns only for the levels it really passed (3/4 for parses, loads and runs
 * with no public tests; not 4/5). Rewards are rounded to 12 decimals, so equal weights give
 * exact fractions (0.6, not 0.6000000000000001).
 * A `no-verdict` at any level (the sandbox failed, not the program) gives
 * `{ reward: null, reason }`, never 0 or 1. `passRate` is the plain fraction of tests
 * passed over the public and hidden levels, for comparison with the binary reward.
 */
import { BadRequestError } from '../core/errors.js';
import type { GatedLevels, LevelScore } from './schemas.js';

export const LEVELS = ['parses', 'loads', 'runs', 'publicTests', 'hidden'] as const;
export type Level = (typeof LEVELS)[number];

export const EQUAL_WEIGHTS: readonly number[] = [0.2, 0.2, 0.2, 0.2, 0.2];
export const PRODUCT_WEIGHTS: readonly number[] = [0, 0, 0, 0, 1];

export type GatedReward =
  | {
      readonly reward: number;
      readonly passRate: number;
      /** Πⱼ≤ₖ sⱼ for each level k: how much of that level was reached. */
      readonly gates: Readonly<Record<Level, number>>;
      /** The first level with sₖ < 1, whose diagnostics are the repair feedback. */
      readonly firstFailed: Level | null;
    }
  | { readonly reward: null; readonly passRate: null; readonly reason: string };

type Scored =
  | { readonly score: number; readonly counts?: { passed: number; total: number }; readonly vacuous?: true }
  | { readonly noVerdict: string };

/** A level's score in [0, 1] from a number, a {passed, total} count, or a no-verdict. */
export function scoreLevel(value: LevelScore, level: string): Scored {
  if (value === 'no-verdict') return { noVerdict: 'the sandbox gave no verdict' };
  if (value === 'vacuous') return { score: 1, vacuous: true };
  if (typeof value === 'number') {
    if (!(value >= 0 && value <= 1))
      throw new BadRequestError(`levels.${level} must be a number in [0, 1] (got ${value})`);
    return { score: value };
  }
  if ('noVerdict' in value) return { noVerdict: String(value.noVerdict) || 'the sandbox gave no verdict' };
  const { passed, total } = value;
  if (!Number.isInteger(passed) || !Number.isInteger(total) || total < 1 || passed < 0 || passed > total)
    throw new BadRequestError(
      `levels.${level} must have whole numbers 0 ≤ passed ≤ total and total ≥ 1 (got ${passed}/${total}); a level with no tests is vacuous: send 1`,
    );
  return { score: passed / total, counts: { passed, total } };
}

export function gatedReward(levels: GatedLevels, weights: readonly number[] = EQUAL_WEIGHTS): GatedReward {
  const given = normaliseWeights(weights);
  const scored = LEVELS.map((level) => {
    if (!(level in levels))
      throw new BadRequestError(`levels.${level} is missing: give a score for every level (${LEVELS.join(', ')})`);
    return scoreLevel(levels[level], level);
  });
  const missing = scored.findIndex((s) => 'noVerdict' in s);
  if (missing >= 0) {
    const why = (scored[missing] as { noVerdict: string }).noVerdict;
    return {
      reward: null,
      passRate: null,
      reason: `no verdict at level '${LEVELS[missing]}': ${why}; the sandbox failed, not the program (retry or drop this rollout)`,
    };
  }
  const s = scored as { score: number; counts?: { passed: number; total: number }; vacuous?: true }[];
  // A vacuous level's weight goes to the others, in proportion; if only vacuous levels carry
  // weight, the given weights stand (every gate is then 1 anyway).
  const real = given.map((x, k) => (s[k]!.vacuous ? 0 : x));
  const realTotal = real.reduce((a, b) => a + b, 0);
  const w = realTotal > 0 ? real.map((x) => x / realTotal) : given;
  let gate = 1;
  let reward = 0;
  const gates = {} as Record<Level, number>;
  LEVELS.forEach((level, k) => {
    gate *= s[k]!.score;
    gates[level] = gate;
    reward += w[k]! * gate;
  });
  const firstFailed = LEVELS.find((_, k) => s[k]!.score < 1) ?? null;
  return { reward: Math.min(1, exact(reward)), passRate: passRateOf(s[3]!, s[4]!), gates, firstFailed };
}

/** Rounded to 12 decimals: sums of weights such as 0.2 + 0.2 + 0.2 are exact fractions again. */
function exact(x: number): number {
  return Math.round(x * 1e12) / 1e12;
}

/** Pooled passed/total when both test levels are counts, else the mean of their two scores. */
function passRateOf(
  pub: { score: number; counts?: { passed: number; total: number }; vacuous?: true },
  hidden: typeof pub,
): number {
  if (pub.vacuous) return hidden.score;
  if (hidden.vacuous) return pub.score;
  if (pub.counts && hidden.counts)
    return (pub.counts.passed + hidden.counts.passed) / (pub.counts.total + hidden.counts.total);
  return (pub.score + hidden.score) / 2;
}

function normaliseWeights(weights: readonly number[]): number[] {
  if (weights.length !== LEVELS.length)
    throw new BadRequestError(`weights needs ${LEVELS.length} entries, one per level (got ${weights.length})`);
  weights.forEach((x, i) => {
    if (!Number.isFinite(x) || x < 0) throw new BadRequestError(`weights[${i}] must be a finite number ≥ 0 (got ${x})`);
  });
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) throw new BadRequestError('weights are all 0: at least one level must carry weight');
  return weights.map((x) => x / total);
}
