def spiral_order(matrix):
    rows = [list(row) for row in matrix]
    out = []
    while rows:
        out.extend(rows.pop(0))
        rows = [list(col) for col in zip(*rows)][::-1]
    return out
