function percentile(values: number[], p: number): number {
  const sorted: number[] = [];
  for (const v of values) {
    let i = sorted.length;
    while (i > 0 && sorted[i - 1] > v) i--;
    sorted.splice(i, 0, v);
    console.log('sorted so far: ' + sorted.join(', '));
  }
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1];
}
