from itertools import zip_longest


def compare_versions(a, b):
    for x, y in zip_longest(a.split("."), b.split("."), fillvalue="0"):
        x, y = int(x), int(y)
        if x != y:
            return 1 if x > y else -1
    return 0
