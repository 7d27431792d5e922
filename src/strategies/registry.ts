/** Strategies by the name `--strategy` takes. */
import { advermcts } from './advermcts/index.js';
import { bestOfN } from './best-of-n.js';
import { dccd } from './dccd.js';
import { formact } from './formact.js';
import { graft } from './graft.js';
import { repair } from './repair.js';
import { sample } from './sample.js';
import type { Strategy } from './types.js';
import type { Writes } from '../domains/pack-module.js';
import { STRATEGY_NAMES, type StrategyName } from '../core/constants.js';

export { STRATEGY_NAMES, type StrategyName };

export const STRATEGIES = {
  sample,
  'best-of-n': bestOfN,
  repair,
  advermcts,
  dccd,
  graft,
  formact,
} as const satisfies Record<StrategyName, Strategy>;

/** The strategies that solve a task of any domain (the others write functions: subject.ts). */
export const ANY_DOMAIN_STRATEGIES: readonly StrategyName[] = ['sample', 'best-of-n', 'repair'];

/** The strategies that solve a task whose artifact is `writes`: functions take all but formact, documents the any-domain ones and formact. */
export function strategiesFor(writes: Writes): readonly StrategyName[] {
  if (writes === 'function') return STRATEGY_NAMES.filter((s) => s !== 'formact');
  return writes === 'document' ? [...ANY_DOMAIN_STRATEGIES, 'formact'] : ANY_DOMAIN_STRATEGIES;
}

/** Why `strategy` does not solve tasks whose artifact is `writes` (and which do), or undefined when it does. */
export function strategyMisfit(strategy: StrategyName, writes: Writes, what: string): string | undefined {
  const fits = strategiesFor(writes);
  if (fits.includes(strategy)) return undefined;
  return `--strategy ${strategy} writes ${strategy === 'formact' ? 'documents' : 'functions'}; ${what} is solved with --strategy ${fits.join(', ')}`;
}

export function isStrategyName(name: string): name is StrategyName {
  return Object.hasOwn(STRATEGIES, name);
}
