def check(candidate):
    assert candidate(2, [1, 2, 1, 2]) == 2
    assert candidate(2, [1, 2, 3]) == 3
    assert candidate(1, [1, 1, 1]) == 1
    assert candidate(3, [1, 2, 3, 4, 1]) == 5
    assert candidate(3, []) == 0
