def dedupe(items: list) -> list:
    """Return the items without repeats, keeping the first occurrence of each
    and the original order. Items are hashable (numbers or strings).

    >>> dedupe([3, 1, 3, 2, 1])
    [3, 1, 2]
    >>> dedupe(["b", "a", "b"])
    ['b', 'a']
    """
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
