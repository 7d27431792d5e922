function median(nums) {
  if (nums.length === 0) return null;
  const sorted = nums.slice().sort();
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 0) return (sorted[mid - 1] + sorted[mid]) / 2;
  return sorted[mid];
}
