from decimal import Decimal, ROUND_HALF_UP


def average_rating(ratings):
    if len(ratings) == 0:
        return 0.0
    mean = Decimal(sum(ratings)) / Decimal(len(ratings))
    return float(mean.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
