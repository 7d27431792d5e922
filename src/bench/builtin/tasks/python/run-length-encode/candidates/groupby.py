from itertools import groupby


def run_length_encode(s: str) -> str:
    return "".join(f"{ch}{len(list(group))}" for ch, group in groupby(s))
