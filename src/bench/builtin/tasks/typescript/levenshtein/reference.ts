//Return the edit distance between a and b: the least number of single
// character insertions, deletions and substitutions that turn a into b.
// Strings may be a few hundred characters long.
// >>> levenshtein("kitten", "sitting")
// 3
// >>> levenshtein("", "abc")
// 3
function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost));
    }
    prev = cur;
  }
  return prev[b.length];
}
