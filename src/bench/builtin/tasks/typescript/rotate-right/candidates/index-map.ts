function rotateRight(xs: number[], k: number): number[] {
  const n = xs.length;
  return xs.map((_, i) => xs[(((i - k) % n) + n) % n]);
}
