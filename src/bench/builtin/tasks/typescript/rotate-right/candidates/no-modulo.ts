function rotateRight(xs: number[], k: number): number[] {
  return [...xs.slice(-k), ...xs.slice(0, -k)];
}
