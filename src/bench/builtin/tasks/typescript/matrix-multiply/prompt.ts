//Multiply an n x m matrix a by an m x p matrix b (arrays of rows) and return
// the n x p product. Matrices need not be square.
// >>> matMul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
// [[19, 22], [43, 50]]
// >>> matMul([[1, 2, 3]], [[1], [2], [3]])
// [[14]]
function matMul(a: number[][], b: number[][]): number[][] {
