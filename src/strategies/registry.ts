/** Strategies by the name `--strategy` takes. */
import { advermcts } from './advermcts/index.js';
import { bestOfN } from './best-of-n.js';
import { dccd } from './dccd.js';
import { graft } from './graft.js';
import { repair } from './repair.js';
import { sample } from './sample.js';
import type { Strategy } from './types.js';
import { STRATEGY_NAMES, type StrategyName } from '../core/constants.js';

export { STRATEGY_NAMES, type StrategyName };

export const STRATEGIES = {
  sample,
  'best-of-n': bestOfN,
  repair,
  advermcts,
  dccd,
  graft,
} as const satisfies Record<StrategyName, Strategy>;

/** The strategies that solve a task of any domain (the others write functions: subject.ts). */
export const ANY_DOMAIN_STRATEGIES: readonly StrategyName[] = ['sample', 'best-of-n', 'repair'];

export function isStrategyName(name: string): name is StrategyName {
  return Object.hasOwn(STRATEGIES, name);
}
