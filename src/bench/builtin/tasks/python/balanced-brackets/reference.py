def is_balanced(text: str) -> bool:
    """Return True if the brackets (), [] and {} in text are balanced: every
    closing bracket matches the most recent unclosed opening bracket of the same
    kind, and nothing is left open. All other characters are ignored.

    >>> is_balanced("f(a[1], {b: 2})")
    True
    >>> is_balanced("([)]")
    False
    """
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
