//Return the median of an array of numbers: the middle value after sorting
// in ascending numeric order, or the mean of the two middle values when the
// count is even. Return null for an empty array. Do not modify the input.
// >>> median([3, 1, 2])
// 2
// >>> median([4, 1, 3, 2])
// 2.5
function median(nums){
  if (nums.length === 0) return null;
  const sorted = [...nums].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
