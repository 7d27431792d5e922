function groupAnagrams(words: string[]): string[][] {
  const groups = new Map<number, string[]>();
  for (const word of words) {
    let key = 0;
    for (let i = 0; i < word.length; i++) key += word.charCodeAt(i);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(word);
  }
  return Array.from(groups.values());
}
