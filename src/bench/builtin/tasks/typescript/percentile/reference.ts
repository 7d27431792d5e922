//Return the p-th percentile (0 <= p <= 100, an integer) of a non-empty array
// by the nearest-rank method: sort ascending and take the value at rank
// ceil(p / 100 * n), counting from 1, where rank 0 means rank 1.
// >>> percentile([15, 20, 35, 40, 50], 40)
// 20
// >>> percentile([3, 1, 2], 0)
// 1
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  // p * n / 100 keeps the rank exact for integer p; p / 100 * n can land just above an integer.
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1];
}
