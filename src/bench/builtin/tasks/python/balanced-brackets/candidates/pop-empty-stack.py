def is_balanced(text: str) -> bool:
    closing = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in closing and stack.pop() != closing[ch]:
            return False
    return len(stack) == 0
