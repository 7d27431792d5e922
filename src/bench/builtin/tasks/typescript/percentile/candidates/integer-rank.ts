function percentile(values: number[], p: number): number {
  const sorted = values.slice().sort((x, y) => x - y);
  const rank = Math.floor((p * sorted.length + 99) / 100);
  return sorted[Math.max(rank, 1) - 1];
}
