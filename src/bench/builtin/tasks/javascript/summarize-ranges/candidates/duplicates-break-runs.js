function summarizeRanges(nums) {
  const out = [];
  for (let i = 0; i < nums.length; i++) {
    const start = nums[i];
    while (i + 1 < nums.length && nums[i + 1] === nums[i] + 1) i++;
    out.push(start === nums[i] ? String(start) : start + '->' + nums[i]);
  }
  return out;
}
