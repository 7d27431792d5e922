def check(candidate):
    assert candidate("aaabcc") == "a3b1c2"
    assert candidate("xyzz") == "x1y1z2"
    assert candidate("zzzzzzzzzzzz") == "z12"
    assert candidate("aabbaa") == "a2b2a2"
