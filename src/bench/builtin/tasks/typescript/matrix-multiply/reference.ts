//Multiply an n x m matrix a by an m x p matrix b (arrays of rows) and return
// the n x p product. Matrices need not be square.
// >>> matMul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
// [[19, 22], [43, 50]]
// >>> matMul([[1, 2, 3]], [[1], [2], [3]])
// [[14]]
function matMul(a: number[][], b: number[][]): number[][] {
  const inner = b.length;
  const cols = inner === 0 ? 0 : b[0].length;
  return a.map((row) => {
    const out: number[] = new Array(cols).fill(0);
    for (let k = 0; k < inner; k++) {
      for (let j = 0; j < cols; j++) out[j] += row[k] * b[k][j];
    }
    return out;
  });
}
