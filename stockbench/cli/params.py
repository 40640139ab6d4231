"""Click parameter types for engine values: exact decimals and dates, with clear messages."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

import click


class DecimalType(click.ParamType[Decimal]):
    """An exact decimal (prices, amounts, rates); never a binary float."""

    name = "decimal"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Decimal:
        if isinstance(value, Decimal):
            return value
        try:
            number = Decimal(str(value).strip().replace(",", ""))
        except InvalidOperation:
            self.fail(f"'{value}' is not a number", param, ctx)
        if not number.is_finite():
            self.fail(f"'{value}' is not a finite number", param, ctx)
        return number


class PercentType(click.ParamType[Decimal]):
    """A percentage as a fraction: a bare number is percent ("1" and "1%" are both 0.01; "0.5" is 0.005)."""

    name = "percent"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Decimal:
        if isinstance(value, Decimal):
            return value
        text = str(value).strip()
        number = DECIMAL.convert(text.removesuffix("%").strip(), param, ctx) if text else None
        if number is None:
            self.fail("an empty value is not a percentage (e.g. 1 or 1% for one percent)", param, ctx)
        return number / 100


class DateType(click.ParamType[date]):
    """A calendar date, YYYY-MM-DD."""

    name = "date"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> date:
        if isinstance(value, date):
            return value
        try:
            return date.fromisoformat(str(value).strip())
        except ValueError:
            self.fail(f"'{value}' is not a date (use YYYY-MM-DD)", param, ctx)


DECIMAL = DecimalType()
PERCENT = PercentType()
DATE = DateType()
