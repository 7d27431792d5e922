//Given integers sorted in ascending order (duplicates allowed), describe
// them as runs of consecutive values: "a->b" for a run from a to b, or "a" for
// a run of one value.
// >>> summarizeRanges([0, 1, 2, 4, 5, 7])
// ["0->2", "4->5", "7"]
// >>> summarizeRanges([1, 1, 2])
// ["1->2"]
function summarizeRanges(nums){
  const out = [];
  let i = 0;
  while (i < nums.length) {
    const start = nums[i];
    let end = start;
    i++;
    while (i < nums.length && (nums[i] === end || nums[i] === end + 1)) {
      end = nums[i];
      i++;
    }
    out.push(start === end ? String(start) : start + '->' + end);
  }
  return out;
}
