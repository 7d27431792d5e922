def to_roman(n: int) -> str:
    """Write n (1 <= n <= 3999) as a Roman numeral in standard form, using the
    subtractive pairs IV, IX, XL, XC, CD and CM.

    >>> to_roman(14)
    'XIV'
    >>> to_roman(1994)
    'MCMXCIV'
    """
