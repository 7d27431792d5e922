/**
 * Zod schemas for the inputs of the `rl/` estimators. They are the request bodies of
 * `POST /v1/rewards/advantages` and the gated-reward call to come; the library functions
 * accept the same shapes (z.infer) and repeat the checks that matter with BadRequestErrors.
 */
import { z } from 'zod';

const finite = (what: string) =>
  z.number({ error: `${what} must be a finite number (NaN and ±Infinity are rejected)` });
const reward = finite('reward');
const key = (what: string) => z.string({ error: `${what} must be a string` }).min(1, `${what} must not be empty`);

export const GrpoOptionsSchema = z.strictObject({
  /** 'sample' divides by n − 1 (torch.std default: verl, TRL); 'population' by n (the VCPO repo). */
  std: z.enum(['sample', 'population']).optional(),
  /** false = Dr. GRPO: advantages are r − mean, not divided by the std. */
  scaleByStd: z.boolean().optional(),
  /** Added to the std before dividing; default 1e-6 (verl). */
  epsilon: z.number().min(0, 'epsilon must be ≥ 0').optional(),
});
export type GrpoOptions = z.infer<typeof GrpoOptionsSchema>;

export const GroupedRewardSchema = z.strictObject({
  /** Rollouts with the same group share a prompt (verl's `uid`). */
  group: key('group'),
  reward,
});
export type GroupedReward = z.infer<typeof GroupedRewardSchema>;

const rollouts = <T extends z.ZodType>(item: T) => z.array(item).min(1, 'rollouts is empty: send at least one rollout');

export const GrpoRequestSchema = z.strictObject({
  method: z.literal('grpo'),
  rollouts: rollouts(GroupedRewardSchema),
  options: GrpoOptionsSchema.optional(),
});

export const GxpoOptionsSchema = GrpoOptionsSchema.extend({
  /** α in A = α·A_language + (1 − α)·A_cross; default 0.5. */
  languageWeight: z
    .number()
    .min(0, 'languageWeight must be in [0, 1]')
    .max(1, 'languageWeight must be in [0, 1]')
    .optional(),
});
export type GxpoOptions = z.infer<typeof GxpoOptionsSchema>;

export const LanguageRewardSchema = z.strictObject({
  /** Rollouts with the same problem form one GXPO group, whatever their language. */
  problem: key('problem'),
  language: key('language'),
  reward,
});
export type LanguageReward = z.infer<typeof LanguageRewardSchema>;

export const GxpoRequestSchema = z.strictObject({
  method: z.literal('gxpo'),
  rollouts: rollouts(LanguageRewardSchema),
  options: GxpoOptionsSchema.optional(),
});

export const EssOptionsSchema = z.strictObject({
  /** ρ_base in lr scale = rule(min(1, ρ / ρ_base)); VCPO scripts use 1.0. */
  baseEssRatio: z.number().gt(0, 'baseEssRatio must be in (0, 1]').max(1, 'baseEssRatio must be in (0, 1]').optional(),
  /** 'sqrt' for AdamW (VCPO's default), 'linear' for SGD. */
  rule: z.enum(['sqrt', 'linear']).optional(),
});
export type EssOptions = z.infer<typeof EssOptionsSchema>;

export const BaselineOptionsSchema = z.strictObject({
  /** How rewards are combined under the weights Wᵢ; VCPO's default is 'mean' (the closed form). */
  aggregation: z.enum(['mean', 'median', 'winsorized']).optional(),
  /** Divide Wᵢ by the response length squared (VCPO `normalize_by_length`, default off). */
  normalizeByLength: z.boolean().optional(),
  /** Divide Rᵢ − b* by the group's population std (VCPO scripts: `norm_by_std=True`); default true. */
  normalizeByStd: z.boolean().optional(),
});
export type BaselineOptions = z.infer<typeof BaselineOptionsSchema>;

const nonNegative = (what: string) => finite(what).min(0, `${what} must be ≥ 0`);

export const WeightedRolloutSchema = z
  .strictObject({
    group: key('group'),
    reward,
    /** Sequence importance weight wᵢ = π_learner(τ)/π_rollout(τ) ≥ 0 … */
    weight: nonNegative('weight').optional(),
    /** … or its log, Σₜ (log π_learner − log π_rollout); exactly one of the two. */
    logWeight: finite('logWeight').optional(),
    /** ‖∇θ log π(τᵢ)‖, the per-trajectory gradient norm (not squared). */
    gradNorm: nonNegative('gradNorm'),
    /** Response length in tokens; needed only with normalizeByLength. */
    length: z.number().int('length must be a whole number of tokens').positive('length must be ≥ 1').optional(),
  })
  .refine((r) => (r.weight === undefined) !== (r.logWeight === undefined), {
    error: 'give exactly one of weight and logWeight for each rollout',
  });
export type WeightedRollout = z.infer<typeof WeightedRolloutSchema>;

export const VcpoRequestSchema = z.strictObject({
  method: z.literal('vcpo'),
  rollouts: rollouts(WeightedRolloutSchema),
  options: BaselineOptionsSchema.extend(EssOptionsSchema.shape).optional(),
});

/** The body of `POST /v1/rewards/advantages`. */
export const AdvantagesRequestSchema = z.discriminatedUnion('method', [
  GrpoRequestSchema,
  GxpoRequestSchema,
  VcpoRequestSchema,
]);
export type AdvantagesRequest = z.infer<typeof AdvantagesRequestSchema>;

export const LevelScoreSchema = z.union([
  z.number().min(0, 'a level score must be in [0, 1]').max(1, 'a level score must be in [0, 1]'),
  z.literal('no-verdict'),
  /** A level with no tests: it gates nothing and carries no weight (its share goes to the others). */
  z.literal('vacuous'),
  z.strictObject({ noVerdict: z.string() }),
  z
    .strictObject({
      passed: z.number().int().min(0, 'passed must be ≥ 0'),
      total: z.number().int().min(1, 'total must be ≥ 1 (a level with no tests has no score: send "vacuous")'),
    })
    .refine((c) => c.passed <= c.total, { error: 'passed must not exceed total' }),
]);
export type LevelScore = z.infer<typeof LevelScoreSchema>;

export const GatedLevelsSchema = z.strictObject({
  parses: LevelScoreSchema,
  loads: LevelScoreSchema,
  runs: LevelScoreSchema,
  publicTests: LevelScoreSchema,
  hidden: LevelScoreSchema,
});
export type GatedLevels = z.infer<typeof GatedLevelsSchema>;

export const GatedRewardRequestSchema = z.strictObject({
  levels: GatedLevelsSchema,
  /** wₖ per level, in level order; non-negative, normalised to sum 1; default equal. */
  weights: z
    .array(z.number().min(0, 'level weights must be ≥ 0'))
    .length(5, 'weights needs one entry per level (5)')
    .optional(),
});
export type GatedRewardRequest = z.infer<typeof GatedRewardRequestSchema>;
