def check(candidate):
    assert candidate("the quick brown fox jumps over the lazy dog", 10) == ["the quick", "brown fox", "jumps over", "the lazy", "dog"]
    assert candidate("hello world", 20) == ["hello world"]
    assert candidate("one two three", 5) == ["one", "two", "three"]
    assert candidate("", 8) == []
