function isSubsequence(needle, haystack) {
  const n = needle.length, m = haystack.length;
  const width = m + 1;
  const lcs = new Float64Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      lcs[i * width + j] = needle[i - 1] === haystack[j - 1]
        ? lcs[(i - 1) * width + j - 1] + 1
        : Math.max(lcs[(i - 1) * width + j], lcs[i * width + j - 1]);
    }
  }
  return lcs[n * width + m] === n;
}
