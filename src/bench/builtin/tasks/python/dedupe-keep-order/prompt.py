def dedupe(items: list) -> list:
    """Return the items without repeats, keeping the first occurrence of each
    and the original order. Items are hashable (numbers or strings).

    >>> dedupe([3, 1, 3, 2, 1])
    [3, 1, 2]
    >>> dedupe(["b", "a", "b"])
    ['b', 'a']
    """
