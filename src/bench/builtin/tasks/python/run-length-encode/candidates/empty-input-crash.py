def run_length_encode(s: str) -> str:
    parts = []
    current, count = s[0], 0
    for ch in s:
        if ch == current:
            count += 1
        else:
            parts.append(current + str(count))
            current, count = ch, 1
    parts.append(current + str(count))
    return "".join(parts)
