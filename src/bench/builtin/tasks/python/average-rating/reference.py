def average_rating(ratings: list[int]) -> float:
    """Return the mean of star ratings (integers 1 to 5) rounded to one decimal
    place, with exact halves rounded up: a mean of 4.25 gives 4.3. The average
    of no ratings is 0.0.

    >>> average_rating([4, 5])
    4.5
    >>> average_rating([4, 4, 4, 5])
    4.3
    """
    if not ratings:
        return 0.0
    total, n = sum(ratings), len(ratings)
    tenths = (20 * total + n) // (2 * n)
    return tenths / 10
