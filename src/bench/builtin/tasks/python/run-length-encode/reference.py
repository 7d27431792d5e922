def run_length_encode(s: str) -> str:
    """Compress a string by replacing every run of a repeated character with the
    character followed by the length of the run. Every run gets a count, even a
    run of one, and counts may have several digits.

    >>> run_length_encode("aaabcc")
    'a3b1c2'
    >>> run_length_encode("zzzzzzzzzzzz")
    'z12'
    """
    if not s:
        return ""
    out = []
    current, count = s[0], 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            out.append(f"{current}{count}")
            current, count = ch, 1
    out.append(f"{current}{count}")
    return "".join(out)
