function groupAnagrams(words: string[]): string[][] {
  const order: string[] = [];
  const groups: Record<string, string[]> = {};
  for (const word of words) {
    const counts = new Map<string, number>();
    for (const ch of word) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    const key = [...counts.entries()].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([ch, n]) => ch + n).join('|');
    if (!(key in groups)) {
      groups[key] = [];
      order.push(key);
    }
    groups[key].push(word);
  }
  return order.map((key) => groups[key]);
}
