def check(candidate):
    assert candidate([[1, 3], [2, 6], [8, 10]]) == [[1, 6], [8, 10]]
    assert candidate([[1, 4], [6, 8]]) == [[1, 4], [6, 8]]
    assert candidate([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]
    assert candidate([[0, 0]]) == [[0, 0]]
