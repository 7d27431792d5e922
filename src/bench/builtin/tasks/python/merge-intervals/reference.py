def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:
    """Merge overlapping closed intervals [start, end] and return the result
    sorted by start. Intervals that only touch, such as [1, 3] and [3, 5], also
    merge. The input may be in any order and may be empty.

    >>> merge_intervals([[1, 3], [2, 6], [8, 10]])
    [[1, 6], [8, 10]]
    >>> merge_intervals([[5, 7], [1, 2]])
    [[1, 2], [5, 7]]
    """
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
