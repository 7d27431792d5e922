def compare_versions(a, b):
    for x, y in zip(a.split("."), b.split(".")):
        if int(x) < int(y):
            return -1
        if int(x) > int(y):
            return 1
    return 0
