import textwrap


def wrap(text, width):
    return textwrap.wrap(text, width)
