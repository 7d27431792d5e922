/**
 * VCPO estimators (Huang et al., arXiv 2602.17616; research/seeds-000.md §8 "VCPO —
 * variance-controlled policy optimization", formulas read from mit-han-lab/vcpo):
 *
 *   wᵢ   = exp(Σₜ (log π_learner − log π_rollout))        sequence importance weight
 *   ESS  = (Σwᵢ)² / Σwᵢ²,  ρ = ESS / B                     (1 ≤ ESS ≤ B)
 *   lr scale = √min(1, ρ / ρ_base)   ('sqrt' rule for AdamW; 'linear' drops the root)
 *   b*   = Σ Wᵢ Rᵢ / Σ Wᵢ,  Wᵢ = wᵢ² ‖∇log π(τᵢ)‖² (/ Lᵢ² optionally), per prompt group
 *   Aᵢ   = (Rᵢ − b*) / std_pop(R)   (std division as the repo's norm_by_std; off: Rᵢ − b*)
 *
 * b* minimises Σ Wᵢ (Rᵢ − b)², the b-dependent part of the estimator's variance
 * (`baselineVariance`). ESS and b* are scale-invariant in w, so weights are rescaled to a
 * maximum of 1 before squaring, which keeps huge or tiny ratios from overflowing.
 */
import { BadRequestError } from '../core/errors.js';
import type { BaselineOptions, EssOptions, WeightedRollout } from './schemas.js';
import { allEqual, assertFinite, assertNonEmpty, indicesBy, maxOf, mean, minOf, stdOfCentred } from './stats.js';

/** Σₜ (log π_learner − log π_rollout) over the response tokens: log wᵢ for one trajectory. */
export function sequenceLogWeight(learnerLogProbs: readonly number[], rolloutLogProbs: readonly number[]): number {
  if (learnerLogProbs.length !== rolloutLogProbs.length)
    throw new BadRequestError(
      `log-prob arrays differ in length (${learnerLogProbs.length} vs ${rolloutLogProbs.length}): give one entry per response token in both`,
    );
  assertFinite(learnerLogProbs, (i) => `learnerLogProbs[${i}]`);
  assertFinite(rolloutLogProbs, (i) => `rolloutLogProbs[${i}]`);
  let sum = 0;
  for (let t = 0; t < learnerLogProbs.length; t++) sum += learnerLogProbs[t]! - rolloutLogProbs[t]!;
  return sum;
}

/** exp(ℓᵢ − max ℓ): weights relative to the largest (which is 1), without overflow. */
export function weightsFromLogWeights(logWeights: readonly number[]): number[] {
  assertNonEmpty(logWeights, 'logWeights');
  assertFinite(logWeights, (i) => `logWeights[${i}]`);
  const top = maxOf(logWeights);
  return logWeights.map((l) => Math.exp(l - top));
}

export function assertWeights(weights: readonly number[], label: (i: number) => string = (i) => `weights[${i}]`): void {
  assertFinite(weights, label);
  weights.forEach((w, i) => {
    if (w < 0)
      throw new BadRequestError(`${label(i)} is negative (${w}); importance weights are ratios of probabilities, ≥ 0`);
  });
}

/** (Σw)² / Σw², clamped to [1, B] against rounding. */
export function effectiveSampleSize(weights: readonly number[]): number {
  assertNonEmpty(weights, 'weights');
  assertWeights(weights);
  const top = maxOf(weights);
  if (top === 0) throw new BadRequestError('all importance weights are 0: at least one must be positive');
  let sum = 0;
  let squares = 0;
  for (const w of weights) {
    const x = w / top;
    sum += x;
    squares += x * x;
  }
  return Math.min(weights.length, Math.max(1, (sum * sum) / squares));
}

export interface EssScale {
  readonly ess: number;
  /** ρ = ESS / B ∈ [1/B, 1]. */
  readonly ratio: number;
  /** Multiply the base learning rate by this; ∈ (0, 1]. */
  readonly lrScale: number;
}

export function essLearningRateScale(weights: readonly number[], options: EssOptions = {}): EssScale {
  const { baseEssRatio = 1, rule = 'sqrt' } = options;
  if (!(baseEssRatio > 0 && baseEssRatio <= 1))
    throw new BadRequestError(`baseEssRatio must be in (0, 1] (got ${baseEssRatio})`);
  const ess = effectiveSampleSize(weights);
  const ratio = ess / weights.length;
  const linear = Math.min(1, ratio / baseEssRatio);
  return { ess, ratio, lrScale: rule === 'sqrt' ? Math.sqrt(linear) : linear };
}

/** One trajectory of a prompt group, for the baseline: wᵢ ≥ 0, gradNorm = ‖∇log π(τᵢ)‖. */
export interface BaselineSample {
  readonly reward: number;
  readonly weight: number;
  readonly gradNorm: number;
  readonly length?: number | undefined;
}

/** The per-trajectory weights Wᵢ = wᵢ²‖gᵢ‖²(/Lᵢ²), rescaled so their ratios are exact. */
export function baselineWeights(
  group: readonly BaselineSample[],
  options: Pick<BaselineOptions, 'normalizeByLength'> = {},
): number[] {
  assertNonEmpty(group, 'the group');
  assertFinite(
    group.map((s) => s.reward),
    (i) => `group[${i}].reward`,
  );
  assertWeights(
    group.map((s) => s.weight),
    (i) => `group[${i}].weight`,
  );
  assertWeights(
    group.map((s) => s.gradNorm),
    (i) => `group[${i}].gradNorm`,
  );
  const factors = group.map((s, i) => {
    if (!options.normalizeByLength) return 1;
    if (s.length === undefined || !(s.length > 0))
      throw new BadRequestError(`group[${i}].length must be ≥ 1 when normalizeByLength is on`);
    return 1 / s.length;
  });
  const w = relative(group.map((s) => s.weight));
  const g = relative(group.map((s) => s.gradNorm));
  const l = relative(factors);
  return group.map((_, i) => (w[i]! * g[i]! * l[i]!) ** 2);
}

/** xᵢ / max x (all 0 when the maximum is 0). */
function relative(xs: readonly number[]): number[] {
  const top = maxOf(xs);
  return xs.map((x) => (top > 0 ? x / top : 0));
}

/**
 * b* for one prompt group. 'median' and 'winsorized' (values clipped to the weighted 5%
 * and 95% quantiles) are the repo's alternatives to the closed-form weighted mean. When
 * every Wᵢ is 0 the variance does not depend on b, and the plain mean reward is returned.
 */
export function minimumVarianceBaseline(group: readonly BaselineSample[], options: BaselineOptions = {}): number {
  const W = baselineWeights(group, options);
  const R = group.map((s) => s.reward);
  const total = W.reduce((a, b) => a + b, 0);
  if (total === 0) return mean(R);
  switch (options.aggregation ?? 'mean') {
    case 'mean':
      return weightedMean(R, W, total);
    case 'median':
      return weightedQuantile(R, W, total, 0.5);
    case 'winsorized': {
      const lo = weightedQuantile(R, W, total, 0.05);
      const hi = weightedQuantile(R, W, total, 0.95);
      return weightedMean(
        R.map((r) => Math.min(hi, Math.max(lo, r))),
        W,
        total,
      );
    }
  }
}

/**
 * Σ Wᵢ (Rᵢ − b)²: the part of the policy-gradient variance that a baseline b controls
 * (Σ‖wᵢ(Rᵢ − b)gᵢ‖²), up to one positive factor per group because Wᵢ are rescaled.
 */
export function baselineVariance(
  group: readonly BaselineSample[],
  baseline: number,
  options: Pick<BaselineOptions, 'normalizeByLength'> = {},
): number {
  const W = baselineWeights(group, options);
  return group.reduce((sum, s, i) => sum + W[i]! * (s.reward - baseline) ** 2, 0);
}

function weightedMean(values: readonly number[], weights: readonly number[], total: number): number {
  let sum = 0;
  values.forEach((v, i) => (sum += v * weights[i]!));
  // Rounding can push a weighted mean a hair outside [min, max]; keep it inside.
  return Math.min(maxOf(values), Math.max(minOf(values), sum / total));
}

/** The smallest value whose cumulative weight reaches q of the total (the repo's rule). */
function weightedQuantile(values: readonly number[], weights: readonly number[], total: number, q: number): number {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  let cumulative = 0;
  for (const i of order) {
    cumulative += weights[i]!;
    if (cumulative >= q * total) return values[i]!;
  }
  return values[order[order.length - 1]!]!;
}

export interface VcpoResult {
  /** Per rollout, in input order. */
  readonly advantages: number[];
  /** b* per group. */
  readonly baselines: Record<string, number>;
  /** ESS over the whole batch (B = rollouts.length) and the learning-rate scale. */
  readonly ess: EssScale;
}

/** VCPO over a batch: ESS-scaled step size for the batch, b* and advantages per group. */
export function vcpoAdvantages(
  rollouts: readonly WeightedRollout[],
  options: BaselineOptions & EssOptions = {},
): VcpoResult {
  assertNonEmpty(rollouts, 'rollouts');
  assertFinite(
    rollouts.map((r) => r.reward),
    (i) => `rollouts[${i}].reward`,
  );
  assertWeights(
    rollouts.map((r) => r.gradNorm),
    (i) => `rollouts[${i}].gradNorm`,
  );
  const weights = resolveWeights(rollouts);
  const ess = essLearningRateScale(weights, options);
  const advantages = new Array<number>(rollouts.length).fill(0);
  const baselines: [string, number][] = [];
  for (const [group, indices] of indicesBy(rollouts, (r) => r.group)) {
    const samples = indices.map((i) => ({ ...rollouts[i]!, weight: weights[i]! }));
    const b = minimumVarianceBaseline(samples, options);
    baselines.push([group, b]);
    const rewards = samples.map((s) => s.reward);
    if (allEqual(rewards)) continue;
    const std = stdOfCentred(
      rewards.map((r) => r - mean(rewards)),
      'population',
    );
    const divisor = (options.normalizeByStd ?? true) && std > 1e-8 ? std : 1;
    indices.forEach((index, k) => (advantages[index] = (rewards[k]! - b) / divisor));
  }
  // fromEntries defines own properties, so a group named __proto__ is stored, not obeyed
  return { advantages, baselines: Object.fromEntries(baselines), ess };
}

/** Weights from `weight` or `logWeight` (exactly one per rollout), on one common scale. */
function resolveWeights(rollouts: readonly WeightedRollout[]): number[] {
  rollouts.forEach((r, i) => {
    if ((r.weight === undefined) === (r.logWeight === undefined))
      throw new BadRequestError(`rollouts[${i}] needs exactly one of weight and logWeight`);
  });
  rollouts.forEach((r, i) => {
    if (r.weight !== undefined) assertWeights([r.weight], () => `rollouts[${i}].weight`);
    else assertFinite([r.logWeight!], () => `rollouts[${i}].logWeight`);
  });
  const direct = rollouts.map((r) => r.weight);
  if (direct.every((w): w is number => w !== undefined)) return direct;
  // Mixed or log form: compare in log space, then rescale so the largest weight is 1.
  const logs = rollouts.map((r) => (r.weight !== undefined ? Math.log(r.weight) : r.logWeight!));
  const top = maxOf(logs);
  if (top === -Infinity) throw new BadRequestError('all importance weights are 0: at least one must be positive');
  return logs.map((l) => Math.exp(l - top));
}
