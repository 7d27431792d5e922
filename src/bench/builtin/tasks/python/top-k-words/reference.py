def top_k_words(words: list[str], k: int) -> list[str]:
    """Return the k most frequent words, most frequent first. Words with the
    same count are ordered alphabetically. If there are fewer than k distinct
    words, return all of them.

    >>> top_k_words(["b", "a", "b", "c", "a", "b"], 2)
    ['b', 'a']
    >>> top_k_words(["pear", "fig", "apple"], 2)
    ['apple', 'fig']
    """
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))[:k]
