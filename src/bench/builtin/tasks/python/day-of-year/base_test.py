def check(candidate):
    assert candidate("2024-03-01") == 61
    assert candidate("2023-03-01") == 60
    assert candidate("2023-12-31") == 365
    assert candidate("2024-12-31") == 366
    assert candidate("2019-01-09") == 9
