/**
 * One entry point for `POST /v1/rewards/advantages`: validates the body with
 * AdvantagesRequestSchema (throws a ZodError that names the bad field) and dispatches to
 * GRPO (group-advantage.ts), GXPO (cross-language.ts) or VCPO (vcpo.ts).
 */
import { crossLanguageAdvantages, type CrossLanguageAdvantage } from './cross-language.js';
import { batchGroupAdvantages } from './group-advantage.js';
import { AdvantagesRequestSchema } from './schemas.js';
import { vcpoAdvantages, type VcpoResult } from './vcpo.js';

export type AdvantagesResponse =
  | { readonly method: 'grpo'; readonly advantages: number[] }
  | { readonly method: 'gxpo'; readonly advantages: number[]; readonly terms: CrossLanguageAdvantage[] }
  | ({ readonly method: 'vcpo' } & VcpoResult);

export function computeAdvantages(body: unknown): AdvantagesResponse {
  const request = AdvantagesRequestSchema.parse(body);
  switch (request.method) {
    case 'grpo':
      return { method: 'grpo', advantages: batchGroupAdvantages(request.rollouts, request.options) };
    case 'gxpo': {
      const terms = crossLanguageAdvantages(request.rollouts, request.options);
      return { method: 'gxpo', advantages: terms.map((t) => t.advantage), terms };
    }
    case 'vcpo':
      return { method: 'vcpo', ...vcpoAdvantages(request.rollouts, request.options) };
  }
}
