def check(candidate):
    assert candidate([4, 5]) == 4.5
    assert candidate([5, 5, 4]) == 4.7
    assert candidate([3]) == 3.0
    assert candidate([1, 2, 3, 4]) == 2.5
