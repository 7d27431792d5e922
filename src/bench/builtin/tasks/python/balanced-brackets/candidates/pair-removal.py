def is_balanced(text: str) -> bool:
    s = "".join(ch for ch in text if ch in "()[]{}")
    previous = None
    while s != previous:
        previous = s
        s = s.replace("()", "").replace("[]", "").replace("{}", "")
    return s == ""
