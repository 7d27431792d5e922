def top_k_words(words, k):
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
        print("counts so far:", counts)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [word for word, _ in ranked[:k]]
