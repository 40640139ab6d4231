"""Click parameter types for engine values: exact decimals and dates, with clear messages.

Numbers are read by `stockbench.market.numbers` (plain decimal notation; a refusal is a user error, exit 1, with
the fix). How a number was normalised (full-width digits, thousands separators) is kept in the invocation's
notes (`typed_notes`), which `CliContext.emit` prints and adds to the JSON `notes`.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from stockbench.market.numbers import Typed
    from stockbench.messages import Note

NOTES_KEY = "stockbench.typed_notes"


def typed_notes(ctx: click.Context | None = None) -> list[Note]:
    """The notes on how this invocation's typed numbers were read (kept on the root context)."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return []
    found: list[Note] = ctx.find_root().meta.setdefault(NOTES_KEY, [])
    return found


def _label(param: click.Parameter | None) -> str:
    """How the value is named in a message: the option as typed (--price) or the argument (AMOUNT)."""
    if param is None:
        return "value"
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)
    return (param.name or "value").upper()


def _said(key: str, /, **params: str) -> str:
    """The catalogue's note `key` in the running invocation's language (a refusal of a typed value)."""
    from stockbench.cli.usage import current_language
    from stockbench.messages import note

    return note(key, **params).text(current_language())


def _kept(found: Typed, ctx: click.Context | None) -> Typed:
    typed_notes(ctx).extend(found.notes)
    return found


class DecimalType(click.ParamType[Decimal]):
    """An exact decimal, zero or more (prices, rates); never a binary float, never an exponent."""

    name = "decimal"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Decimal:
        if isinstance(value, Decimal):
            return value
        from stockbench.market.numbers import read_decimal

        return _kept(read_decimal(str(value), _label(param)), ctx).value


class MoneyType(click.ParamType[Decimal]):
    """An amount of money, zero or more, with at most two decimals."""

    name = "amount"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Decimal:
        if isinstance(value, Decimal):
            return value
        from stockbench.market.numbers import read_money

        return _kept(read_money(str(value), _label(param)), ctx).value


class QuantityType(click.ParamType[int]):
    """A whole number of shares, zero or more."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        from stockbench.market.numbers import read_quantity

        return _kept(read_quantity(str(value), _label(param)), ctx).whole


class PercentType(click.ParamType[Decimal]):
    """A percentage as a fraction: a bare number is percent ("1" and "1%" are both 0.01; "0.5" is 0.005)."""

    name = "percent"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Decimal:
        if isinstance(value, Decimal):
            return value
        text = str(value).strip()
        number = DECIMAL.convert(text.removesuffix("%").strip(), param, ctx) if text else None
        if number is None:
            self.fail(_said("cli.not_a_percent"), param, ctx)
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
            self.fail(_said("cli.not_a_date", value=str(value)), param, ctx)


DECIMAL = DecimalType()
MONEY = MoneyType()
QUANTITY = QuantityType()
PERCENT = PercentType()
DATE = DateType()
