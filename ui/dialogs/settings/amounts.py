"""Amounts typed into the settings (a commission rate, a cost ceiling): non-negative decimals, read exactly."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from stockbench.errors import InvalidInput


def parse_amount(text: str, what: str) -> Decimal | None:
    """`text` as a non-negative Decimal (None when empty); InvalidInput naming `what` otherwise."""
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InvalidInput(f"{what} '{text}' is not a number", "for example 0.00025") from None
    if not value.is_finite() or value < 0:
        raise InvalidInput(f"{what} must be zero or more")
    return value
