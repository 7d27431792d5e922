def day_of_year(date):
    year, month, day = (int(x) for x in date.split("-"))
    months = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if year % 4 == 0:
        months[1] = 29
    return sum(months[: month - 1]) + day
