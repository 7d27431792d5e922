def count_misses(capacity: int, requests: list[int]) -> int:
    """Simulate a least-recently-used cache holding at most capacity keys
    (capacity >= 0) and return how many requests miss. A hit makes the key the
    most recently used; a miss inserts the key, first evicting the least
    recently used key if the cache is full. Keys are non-negative integer ids.

    >>> count_misses(2, [1, 2, 1, 3, 2])
    4
    >>> count_misses(2, [1, 2, 1, 3, 1])
    3
    """
    from collections import OrderedDict
    cache = OrderedDict()
    misses = 0
    for key in requests:
        if key in cache:
            cache.move_to_end(key)
            continue
        misses += 1
        if capacity == 0:
            continue
        if len(cache) >= capacity:
            cache.popitem(last=False)
        cache[key] = True
    return misses
