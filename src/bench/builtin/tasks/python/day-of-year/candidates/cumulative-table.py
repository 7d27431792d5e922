def day_of_year(date):
    y, m, d = map(int, date.split("-"))
    before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
    is_leap = (y % 400 == 0) or (y % 4 == 0 and y % 100 != 0)
    return before[m - 1] + d + (1 if is_leap and m > 2 else 0)
