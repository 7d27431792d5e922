import re


def get_path(data, path, default=None):
    current = data
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if index:
            if not isinstance(current, list):
                return default
            current = current[int(index)]
        elif isinstance(current, dict) and key in current:
            current = current[key]
        else:
            return default
    return current
