def check(candidate):
    assert candidate(3) == "III"
    assert candidate(4) == "IV"
    assert candidate(9) == "IX"
    assert candidate(14) == "XIV"
    assert candidate(58) == "LVIII"
    assert candidate(90) == "XC"
    assert candidate(2024) == "MMXXIV"
