def check(candidate):
    assert candidate("([]{})") is True
    assert candidate("f(a[1], {b: 2})") is True
    assert candidate("") is True
    assert candidate("(]") is False
    assert candidate("([)]") is False
    assert candidate("no brackets here") is True
