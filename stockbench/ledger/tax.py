"""A-share dividend tax for individuals, settled at sale by the holding period of each FIFO lot.

Holding period runs from the day the shares were acquired to the day before the sale. Held one month
or less (inclusive): the dividend is taxed at 20%; over one month up to one year (inclusive): 10%
(half of it taxable at 20%); over one year: exempt. Bonus shares (送股) count as a dividend at their
par value of 1 CNY per share; capitalisation shares (转增) are not taxed.
"""

from __future__ import annotations

import calendar
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

BONUS_PAR_VALUE = Decimal(1)
CENT = Decimal("0.01")


def add_months(day: date, months: int) -> date:
    """The same day `months` later, clamped to the month's end (Jan 31 + 1 month = Feb 28/29)."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def dividend_tax_rate(acquired: date, sold: date) -> Decimal:
    """The effective tax rate on dividends received by shares acquired and sold on these dates."""
    if sold <= add_months(acquired, 1):
        return Decimal("0.20")
    if sold <= add_months(acquired, 12):
        return Decimal("0.10")
    return Decimal(0)


def dividend_tax(taxable_dividend: Decimal, acquired: date, sold: date) -> Decimal:
    """Tax due at sale on `taxable_dividend` received by shares held from `acquired` to `sold`."""
    return (taxable_dividend * dividend_tax_rate(acquired, sold)).quantize(CENT, ROUND_HALF_UP)
