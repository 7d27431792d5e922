def get_path(data, path: str, default=None):
    """Look up a value in nested dicts and lists. path is a sequence of keys
    separated by dots, where [n] indexes a list: "users[0].name". Return
    default when a key is missing, an index is out of range, or a step meets a
    value of the wrong type. A present value is returned as it is, even if it
    is None, 0 or empty. The empty path returns data itself.

    >>> get_path({"a": {"b": [10, 20]}}, "a.b[1]")
    20
    >>> get_path({"a": 1}, "a.b", "none")
    'none'
    """
    import re
    current = data
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if index:
            if not isinstance(current, list) or int(index) >= len(current):
                return default
            current = current[int(index)]
        else:
            if not isinstance(current, dict) or key not in current:
                return default
            current = current[key]
    return current
