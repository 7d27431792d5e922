function isSubsequence(needle, haystack) {
  for (const ch of needle) {
    if (!haystack.includes(ch)) return false;
  }
  return needle.length <= haystack.length;
}
