/**
 * Names and defaults that `crucible --help` shows. This module imports nothing of the
 * implementation, so the command line defines its options without loading the code behind
 * them (which took most of a second); the implementation takes the same values from here.
 */
import { join } from 'node:path';

/** What `--strategy` takes; src/strategies/registry.ts maps each to its code (and the compiler checks the two agree). */
export const STRATEGY_NAMES = ['sample', 'best-of-n', 'repair', 'advermcts', 'dccd', 'graft', 'formact'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** The run store (`--db`). */
export const DEFAULT_STORE_PATH = join('.crucible', 'crucible.db');

/** The model response cache (`--cache-dir`). */
export const DEFAULT_CACHE_DIR = join('.crucible', 'cache');
