function median(nums) {
  if (!nums.length) return null;
  const s = Float64Array.from(nums).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
