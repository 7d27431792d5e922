def merge_intervals(intervals):
    result = []
    for lo, hi in sorted(intervals, key=lambda iv: (iv[0], iv[1])):
        if not result or lo > result[-1][1]:
            result.append([lo, hi])
        elif hi > result[-1][1]:
            result[-1][1] = hi
    return result
