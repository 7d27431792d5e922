/** Rewards and advantage estimators for external RL engines (DESIGN.md, module `rl/`). */
export { DEFAULT_EPSILON, batchGroupAdvantages, groupAdvantages } from './group-advantage.js';
export { crossLanguageAdvantages, type CrossLanguageAdvantage } from './cross-language.js';
export {
  baselineVariance,
  baselineWeights,
  effectiveSampleSize,
  essLearningRateScale,
  minimumVarianceBaseline,
  sequenceLogWeight,
  vcpoAdvantages,
  weightsFromLogWeights,
  type BaselineSample,
  type EssScale,
  type VcpoResult,
} from './vcpo.js';
export {
  EQUAL_WEIGHTS,
  LEVELS,
  PRODUCT_WEIGHTS,
  gatedReward,
  scoreLevel,
  type GatedReward,
  type Level,
} from './gated-reward.js';
export { computeAdvantages, type AdvantagesResponse } from './advantages.js';
export * from './schemas.js';
