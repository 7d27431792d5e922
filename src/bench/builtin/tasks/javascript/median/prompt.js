//Return the median of an array of numbers: the middle value after sorting
// in ascending numeric order, or the mean of the two middle values when the
// count is even. Return null for an empty array. Do not modify the input.
// >>> median([3, 1, 2])
// 2
// >>> median([4, 1, 3, 2])
// 2.5
function median(nums){
