/**
 * The unbiased pass@k estimator of Chen et al. (2021): 1 − C(n−c, k) / C(n, k), computed
 * as a running product so large n does not overflow.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || c > n || k < 1) {
    throw new RangeError(`pass@k needs whole numbers with 0 ≤ c ≤ n and k ≥ 1 (got n=${n}, c=${c}, k=${k})`);
  }
  if (k > n) throw new RangeError(`pass@${k} needs at least ${k} samples per task (got ${n})`);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/** The k values reported: standard ones that every task has enough samples for. */
export function reportableKs(samplesPerTask: readonly number[]): number[] {
  const fewest = samplesPerTask.length === 0 ? 0 : Math.min(...samplesPerTask);
  return [1, 2, 5, 10, 20, 50, 100].filter((k) => k <= fewest);
}

/** Mean pass@k over tasks, given [n, c] per task. */
export function meanPassAtK(counts: ReadonlyArray<readonly [n: number, c: number]>, k: number): number {
  if (counts.length === 0) return 0;
  return counts.reduce((sum, [n, c]) => sum + passAtK(n, c, k), 0) / counts.length;
}
