def check(candidate):
    assert candidate([1, 3, 5, 7], 4) == 2
    assert candidate([1, 3, 5, 7], 1) == 0
    assert candidate([1, 3, 5, 7], 7) == 3
    assert candidate([10, 20, 30], 0) == 0
    assert candidate([2, 4, 6, 8, 10, 12], 9) == 4
