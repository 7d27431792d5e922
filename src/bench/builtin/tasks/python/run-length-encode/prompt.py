def run_length_encode(s: str) -> str:
    """Compress a string by replacing every run of a repeated character with the
    character followed by the length of the run. Every run gets a count, even a
    run of one, and counts may have several digits.

    >>> run_length_encode("aaabcc")
    'a3b1c2'
    >>> run_length_encode("zzzzzzzzzzzz")
    'z12'
    """
