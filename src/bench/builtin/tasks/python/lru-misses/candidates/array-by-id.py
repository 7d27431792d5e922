def count_misses(capacity, requests):
    if not requests:
        return 0
    size = max(requests) + 1
    last_used = [-1] * size
    cached = [False] * size
    in_cache = []
    misses = 0
    for t, key in enumerate(requests):
        if not cached[key]:
            misses += 1
            if capacity > 0:
                if len(in_cache) == capacity:
                    victim = min(in_cache, key=lambda k: last_used[k])
                    in_cache.remove(victim)
                    cached[victim] = False
                in_cache.append(key)
                cached[key] = True
        last_used[key] = t
    return misses
