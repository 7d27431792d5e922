/** Strategies by the name `--strategy` takes. */
import { advermcts } from './advermcts/index.js';
import { bestOfN } from './best-of-n.js';
import { dccd } from './dccd.js';
import { formact } from './formact.js';
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
  formact,
} as const satisfies Record<StrategyName, Strategy>;

/** The strategies that solve a task of any domain (the others write functions: subject.ts). */
export const ANY_DOMAIN_STRATEGIES: readonly StrategyName[] = ['sample', 'best-of-n', 'repair'];

/** The strategies that solve a task of a pack: functions take all but formact, documents the any-domain ones and formact. */
export function strategiesFor(pack: string): readonly StrategyName[] {
  if (pack === 'code') return STRATEGY_NAMES.filter((s) => s !== 'formact');
  return pack === 'docs' ? [...ANY_DOMAIN_STRATEGIES, 'formact'] : ANY_DOMAIN_STRATEGIES;
}

/** Why `strategy` does not solve tasks of `pack` (and which do), or undefined when it does. */
export function strategyMisfit(strategy: StrategyName, pack: string, what: string): string | undefined {
  const fits = strategiesFor(pack);
  if (fits.includes(strategy)) return undefined;
  return `--strategy ${strategy} writes ${strategy === 'formact' ? 'documents' : 'functions'}; ${what} is solved with --strategy ${fits.join(', ')}`;
}

export function isStrategyName(name: string): name is StrategyName {
  return Object.hasOwn(STRATEGIES, name);
}
