def compare_versions(a: str, b: str) -> int:
    """Compare two version strings made of dot-separated non-negative integers.
    Return -1 if a < b, 0 if they are equal, 1 if a > b. Parts are compared as
    numbers from left to right; missing parts count as 0, so "1.2" equals
    "1.2.0", and leading zeros do not matter ("1.02" equals "1.2").

    >>> compare_versions("1.2.10", "1.2.9")
    1
    >>> compare_versions("1.0", "1.0.0")
    0
    """
    pa = [int(p) for p in a.split(".")]
    pb = [int(p) for p in b.split(".")]
    n = max(len(pa), len(pb))
    pa += [0] * (n - len(pa))
    pb += [0] * (n - len(pb))
    return (pa > pb) - (pa < pb)
