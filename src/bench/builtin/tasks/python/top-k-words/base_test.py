def check(candidate):
    assert candidate(["b", "a", "b", "c", "a", "b"], 2) == ["b", "a"]
    assert candidate(["x", "y", "x"], 1) == ["x"]
    assert candidate(["apple", "fig", "pear"], 3) == ["apple", "fig", "pear"]
    assert candidate([], 3) == []
