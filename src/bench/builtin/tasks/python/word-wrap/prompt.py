def wrap(text: str, width: int) -> list[str]:
    """Greedily wrap the words of text (separated by any whitespace) into lines
    of at most width characters, joining words on a line with single spaces.
    A word longer than width is never split: it goes on a line of its own.
    Text with no words gives an empty list.

    >>> wrap("the quick brown fox", 10)
    ['the quick', 'brown fox']
    >>> wrap("a extraordinarily b", 5)
    ['a', 'extraordinarily', 'b']
    """
