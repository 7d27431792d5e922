from bisect import bisect_left


def first_at_least(xs, target):
    return bisect_left(xs, target)
