//Return the edit distance between a and b: the least number of single
// character insertions, deletions and substitutions that turn a into b.
// Strings may be a few hundred characters long.
// >>> levenshtein("kitten", "sitting")
// 3
// >>> levenshtein("", "abc")
// 3
function levenshtein(a: string, b: string): number {
