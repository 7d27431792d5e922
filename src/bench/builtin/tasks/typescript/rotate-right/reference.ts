//Return a new array with the elements of xs rotated k places to the right
// (k >= 0; k may be larger than the length). The input is not modified.
// >>> rotateRight([1, 2, 3, 4, 5], 2)
// [4, 5, 1, 2, 3]
// >>> rotateRight([1, 2, 3], 4)
// [3, 1, 2]
function rotateRight(xs: number[], k: number): number[] {
  const n = xs.length;
  if (n === 0) return [];
  const shift = k % n;
  return [...xs.slice(n - shift), ...xs.slice(0, n - shift)];
}
