function levenshtein(a: string, b: string): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (a[0] === b[0]) return levenshtein(a.slice(1), b.slice(1));
  return 1 + Math.min(levenshtein(a.slice(1), b), levenshtein(a, b.slice(1)), levenshtein(a.slice(1), b.slice(1)));
}
