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
DATE = DateType()
