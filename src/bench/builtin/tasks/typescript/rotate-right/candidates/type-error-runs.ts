function rotateRight(xs: number[], k: number): number[] {
  if (xs.length === 0) return [];
  const shift: string = k % xs.length;
  const cut = xs.length - (shift as any);
  return xs.slice(cut).concat(xs.slice(0, cut));
}
