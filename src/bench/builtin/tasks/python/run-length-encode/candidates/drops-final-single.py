def run_length_encode(s: str) -> str:
    out = ""
    i = 0
    while i < len(s) - 1:
        j = i
        while j < len(s) - 1 and s[j] == s[j + 1]:
            j += 1
        out += s[i] + str(j - i + 1)
        i = j + 1
    return out
