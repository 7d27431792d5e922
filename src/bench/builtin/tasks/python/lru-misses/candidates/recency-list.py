def count_misses(capacity, requests):
    recent = []
    misses = 0
    for key in requests:
        if key in recent:
            recent.remove(key)
            recent.append(key)
            continue
        misses += 1
        if capacity > 0:
            if len(recent) == capacity:
                recent.pop(0)
            recent.append(key)
    return misses
