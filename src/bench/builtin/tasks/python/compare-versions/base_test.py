def check(candidate):
    assert candidate("1.2.3", "1.2.4") == -1
    assert candidate("2.0.0", "1.9.9") == 1
    assert candidate("1.10.0", "1.9.0") == 1
    assert candidate("3.1", "3.1") == 0
    assert candidate("1.0", "1.0.0") == 0
