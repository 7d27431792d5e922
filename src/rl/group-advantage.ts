/**
 * GRPO's group-normalised advantage (Shao et al. 2024, DeepSeekMath §4.1.2; used by VCPO,
 * GenCircuit-RL and GXPO — research/seeds-000.md §8 "Typical run: GRPO advantages",
 * seeds-003.md §11):
 *
 *   Aᵢ = (rᵢ − mean(r)) / (std(r) + ε)        per group of rollouts for one prompt
 *
 * Options: `std` 'sample' (n − 1, torch.std's default as in verl and TRL; the default here)
 * or 'population' (n, as in the VCPO repo's compute_grad_info); `scaleByStd: false` gives
 * Dr. GRPO's Aᵢ = rᵢ − mean(r) (Liu et al. 2025, "Understanding R1-Zero-Like Training");
 * `epsilon` defaults to 1e-6 (verl). A group whose rewards are all equal, or that has a
 * single rollout, carries no signal: its advantages are exactly 0, never NaN.
 */
import { BadRequestError } from '../core/errors.js';
import type { GroupedReward, GrpoOptions } from './schemas.js';
import {
  allEqual,
  assertEpsilon,
  assertFinite,
  assertNonEmpty,
  indicesBy,
  maxOf,
  mean,
  stdOfCentred,
} from './stats.js';

export const DEFAULT_EPSILON = 1e-6;

/** Advantages for one group's rewards, in the same order. */
export function groupAdvantages(rewards: readonly number[], options: GrpoOptions = {}): number[] {
  if (rewards.length === 0) throw new BadRequestError('a group is empty: every group needs at least one rollout');
  assertFinite(rewards, (i) => `rewards[${i}]`);
  return unchecked(rewards, options);
}

/** Advantages for a batch of rollouts grouped by `group`, in input order. */
export function batchGroupAdvantages(rollouts: readonly GroupedReward[], options: GrpoOptions = {}): number[] {
  assertNonEmpty(rollouts, 'rollouts');
  assertFinite(
    rollouts.map((r) => r.reward),
    (i) => `rollouts[${i}].reward`,
  );
  const out = new Array<number>(rollouts.length).fill(0);
  for (const indices of indicesBy(rollouts, (r) => r.group).values()) {
    const advantages = unchecked(
      indices.map((i) => rollouts[i]!.reward),
      options,
    );
    indices.forEach((index, k) => (out[index] = advantages[k]!));
  }
  return out;
}

function unchecked(rewards: readonly number[], options: GrpoOptions): number[] {
  const { std = 'sample', scaleByStd = true, epsilon = DEFAULT_EPSILON } = options;
  assertEpsilon(epsilon);
  if (allEqual(rewards)) return rewards.map(() => 0);
  // Work on r / max|r| so huge rewards cannot overflow the sums; A is unchanged because
  // (d/M) / (s/M + ε/M) = d / (s + ε).
  const scale = maxOf(rewards.map(Math.abs));
  const x = rewards.map((r) => r / scale);
  const m = mean(x);
  const centred = x.map((v) => v - m);
  if (!scaleByStd) return centred.map((d) => d * scale);
  const s = stdOfCentred(centred, std);
  // s can underflow to 0 for rewards a few ulps apart; such a group is degenerate too.
  if (s === 0) return rewards.map(() => 0);
  return centred.map((d) => d / (s + epsilon / scale));
}
