from collections import OrderedDict


def count_misses(capacity, requests):
    cache = OrderedDict()
    misses = 0
    for key in requests:
        if key in cache:
            cache.move_to_end(key)
        else:
            misses += 1
            if len(cache) >= capacity:
                cache.popitem(last=False)
            cache[key] = True
    return misses
