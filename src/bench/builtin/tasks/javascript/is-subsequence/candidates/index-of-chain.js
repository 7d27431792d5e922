function isSubsequence(needle, haystack) {
  let from = 0;
  for (const ch of needle) {
    const at = haystack.indexOf(ch, from);
    if (at === -1) return false;
    from = at + 1;
  }
  return true;
}
