def check(candidate):
    assert candidate([1, 2, 2, 3, 1]) == [1, 2, 3]
    assert candidate([]) == []
    assert candidate(["a", "a"]) == ["a"]
    assert candidate([4, 4, 5]) == [4, 5]
