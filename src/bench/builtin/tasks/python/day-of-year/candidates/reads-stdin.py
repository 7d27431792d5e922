def day_of_year(date):
    year, month, day = (int(x) for x in date.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    months = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(months[: month - 1]) + day


print(day_of_year(input()))
