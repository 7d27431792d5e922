function matMul(a: number[][], b: number[][]): number[][] {
  const cols = b.length ? b[0].map((_, j) => b.map((row) => row[j])) : [];
  const dot = (u: number[], v: number[]) => u.reduce((sum, x, i) => sum + x * v[i], 0);
  return a.map((row) => cols.map((col) => dot(row, col)));
}
