//Return true if the characters of needle appear in haystack in the same
// order, not necessarily next to each other. The empty string is a
// subsequence of every string. Strings can be hundreds of thousands of
// characters long.
// >>> isSubsequence("ace", "abcde")
// true
// >>> isSubsequence("aec", "abcde")
// false
function isSubsequence(needle, haystack){
