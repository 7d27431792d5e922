/**
 * GXPO cross-language group advantages (research/seeds-003.md §11 "GXPO — Group Cross-lingual
 * Relative Policy Optimization", mechanism as the note states it; the combination is the
 * note's "inferred form"):
 *
 *   group q      = every rollout for problem q, in all L languages (L×G rollouts)
 *   A_language   = (r − mean_ℓ) / (std_ℓ + ε)   within the language subgroup (q, ℓ)
 *   A_cross      = (r − mean_q) / (std_q + ε)   over the whole problem group q
 *   A            = α·A_language + (1 − α)·A_cross,   α = `languageWeight`, default 0.5
 *
 * The note says only "a combination" of the two terms; the convex mix is our choice: α = 1
 * is independent per-language GRPO, α = 0 plain GRPO over the pooled group. Both terms use
 * the GRPO options (std kind, Dr. GRPO, ε) and the same degenerate-group rule (zeros).
 * Languages may have different numbers of rollouts.
 */
import { BadRequestError } from '../core/errors.js';
import { groupAdvantages } from './group-advantage.js';
import type { GxpoOptions, LanguageReward } from './schemas.js';
import { assertFinite, assertNonEmpty, indicesBy } from './stats.js';

export interface CrossLanguageAdvantage {
  readonly advantage: number;
  readonly languageAdvantage: number;
  readonly crossAdvantage: number;
}

export function crossLanguageAdvantages(
  rollouts: readonly LanguageReward[],
  options: GxpoOptions = {},
): CrossLanguageAdvantage[] {
  assertNonEmpty(rollouts, 'rollouts');
  assertFinite(
    rollouts.map((r) => r.reward),
    (i) => `rollouts[${i}].reward`,
  );
  const { languageWeight: alpha = 0.5, ...grpo } = options;
  if (!(alpha >= 0 && alpha <= 1)) throw new BadRequestError(`languageWeight must be in [0, 1] (got ${alpha})`);
  const language = new Array<number>(rollouts.length).fill(0);
  const cross = new Array<number>(rollouts.length).fill(0);
  for (const problem of indicesBy(rollouts, (r) => r.problem).values()) {
    scatter(
      cross,
      problem,
      groupAdvantages(
        problem.map((i) => rollouts[i]!.reward),
        grpo,
      ),
    );
    for (const subgroup of indicesBy(problem, (i) => rollouts[i]!.language).values()) {
      const indices = subgroup.map((k) => problem[k]!);
      scatter(
        language,
        indices,
        groupAdvantages(
          indices.map((i) => rollouts[i]!.reward),
          grpo,
        ),
      );
    }
  }
  return rollouts.map((_, i) => ({
    advantage: alpha * language[i]! + (1 - alpha) * cross[i]!,
    languageAdvantage: language[i]!,
    crossAdvantage: cross[i]!,
  }));
}

function scatter(target: number[], indices: readonly number[], values: readonly number[]): void {
  indices.forEach((index, k) => (target[index] = values[k]!));
}
