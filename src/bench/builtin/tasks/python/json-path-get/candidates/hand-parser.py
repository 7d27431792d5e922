def get_path(data, path, default=None):
    current = data
    i = 0
    while i < len(path):
        ch = path[i]
        if ch == ".":
            i += 1
        elif ch == "[":
            j = path.index("]", i)
            index = int(path[i + 1:j])
            if not isinstance(current, list) or index >= len(current):
                return default
            current = current[index]
            i = j + 1
        else:
            j = i
            while j < len(path) and path[j] not in ".[":
                j += 1
            key = path[i:j]
            if not isinstance(current, dict) or key not in current:
                return default
            current = current[key]
            i = j
    return current
