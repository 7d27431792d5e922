def first_at_least(xs: list[int], target: int) -> int:
    """xs is sorted in ascending order and may contain duplicates. Return the
    smallest index i with xs[i] >= target, or len(xs) if there is none. Use
    binary search: xs can be long.

    >>> first_at_least([1, 3, 5, 7], 4)
    2
    >>> first_at_least([1, 2, 2, 2, 3], 2)
    1
    >>> first_at_least([1, 2], 9)
    2
    """
