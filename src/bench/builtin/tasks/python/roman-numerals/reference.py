def to_roman(n: int) -> str:
    """Write n (1 <= n <= 3999) as a Roman numeral in standard form, using the
    subtractive pairs IV, IX, XL, XC, CD and CM.

    >>> to_roman(14)
    'XIV'
    >>> to_roman(1994)
    'MCMXCIV'
    """
    table = [
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
        (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
        (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]
    out = []
    for value, symbol in table:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)
