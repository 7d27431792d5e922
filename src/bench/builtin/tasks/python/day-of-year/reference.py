def day_of_year(date: str) -> int:
    """Given a Gregorian date "YYYY-MM-DD", return its day number within the
    year (January 1 is day 1). Do not use the datetime module. Leap years are
    divisible by 4, except centuries, which must be divisible by 400.

    >>> day_of_year("2024-03-01")
    61
    >>> day_of_year("2023-12-31")
    365
    """
    year, month, day = (int(part) for part in date.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days_in_month = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(days_in_month[: month - 1]) + day
