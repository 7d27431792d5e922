//Split arr into consecutive chunks of size elements (size >= 1). The last
// chunk holds whatever is left over and may be shorter. Returns a new array.
// >>> chunk([1, 2, 3, 4, 5], 2)
// [[1, 2], [3, 4], [5]]
// >>> chunk([], 3)
// []
function chunk(arr, size){
  const out = [];
  for (let i = 0; i < arr.length; i += size) {
    out.push(arr.slice(i, i + size));
  }
  return out;
}
