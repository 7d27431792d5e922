function summarizeRanges(nums) {
  const values = [...new Set(nums)];
  const out = [];
  let start = 0;
  for (let i = 1; i <= values.length; i++) {
    if (i === values.length || values[i] !== values[i - 1] + 1) {
      out.push(start === i - 1 ? '' + values[start] : values[start] + '->' + values[i - 1]);
      start = i;
    }
  }
  return out;
}
