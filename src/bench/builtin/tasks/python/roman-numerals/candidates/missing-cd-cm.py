def to_roman(n: int) -> str:
    table = [(1000, "M"), (500, "D"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    result = ""
    for value, symbol in table:
        while n >= value:
            result += symbol
            n -= value
    return result
