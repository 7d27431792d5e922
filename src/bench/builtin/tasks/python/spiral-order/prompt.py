def spiral_order(matrix: list[list[int]]) -> list[int]:
    """Return the elements of a rectangular matrix in clockwise spiral order,
    starting at the top-left corner. The matrix may have any number of rows and
    columns, including none.

    >>> spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    [1, 2, 3, 6, 9, 8, 7, 4, 5]
    >>> spiral_order([[1, 2], [3, 4], [5, 6]])
    [1, 2, 4, 6, 5, 3]
    """
