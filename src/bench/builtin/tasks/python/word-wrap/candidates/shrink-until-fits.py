def wrap(text, width):
    words = text.split()
    lines = []
    while words:
        n = len(words)
        while len(" ".join(words[:n])) > width:
            n -= 1
        lines.append(" ".join(words[:n]))
        words = words[n:]
    return lines
