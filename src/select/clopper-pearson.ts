/**
 * Exact (Clopper–Pearson) one-sided binomial confidence bounds, from the Beta quantile.
 * With k successes in n trials, each bound holds with probability at least 1 − δ.
 */
import { BadRequestError } from '../core/errors.js';
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';

/** An upper bound on the true rate: BetaInv(1 − δ; k + 1, n − k); 1 when k = n or n = 0. */
export function upperBound(k: number, n: number, delta: number): number {
  check(k, n, delta);
  return k >= n ? 1 : betaQuantile(1 - delta, k + 1, n - k);
}

/** A lower bound on the true rate: BetaInv(δ; k, n − k + 1); 0 when k = 0. */
export function lowerBound(k: number, n: number, delta: number): number {
  check(k, n, delta);
  return k <= 0 ? 0 : betaQuantile(delta, k, n - k + 1);
}

function check(k: number, n: number, delta: number): void {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n)
    throw new BadRequestError(`need whole numbers 0 ≤ k ≤ n, got k=${k}, n=${n}`);
  if (!(delta > 0 && delta < 1)) throw new BadRequestError(`δ must be between 0 and 1, got ${delta}`);
}
