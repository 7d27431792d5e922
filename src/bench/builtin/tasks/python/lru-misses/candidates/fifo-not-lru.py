from collections import deque


def count_misses(capacity, requests):
    order = deque()
    cached = set()
    misses = 0
    for key in requests:
        if key in cached:
            continue
        misses += 1
        if capacity == 0:
            continue
        if len(order) == capacity:
            cached.discard(order.popleft())
        order.append(key)
        cached.add(key)
    return misses
