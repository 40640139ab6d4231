"""Issue 21: the one reader of typed numbers. Plain decimal notation is read exactly; full-width digits and
thousands separators are read and noted; exponents, NaN/Infinity, decimal commas, negatives and too many decimals
are refused with the way to write them; prices are shown in their tick's decimals."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from stockbench.errors import InvalidInput
from stockbench.market.instruments import parse_symbol
from stockbench.market.numbers import price_text, read_decimal, read_money, read_quantity
from stockbench.messages import error_words

DAY = date(2024, 1, 2)


@pytest.mark.parametrize(
    ("typed", "value", "how"),
    [
        ("12.5", "12.5", None),
        (" 12.50 ", "12.50", None),
        ("１２.５", "12.5", "full-width characters made plain"),
        ("１２．５", "12.5", "full-width characters made plain"),
        ("1,234.5", "1234.5", "thousands separators removed"),
        ("1，234，567", "1234567", "full-width characters made plain; thousands separators removed"),
        ("－３", "-3", "full-width characters made plain"),
    ],
)
def test_accepted_forms_and_their_notes(typed: str, value: str, how: str | None) -> None:
    found = read_decimal(typed, "price", negative=True)
    assert found.value == Decimal(value) and str(found.value) == value
    if how is None:
        assert found.notes == ()
    else:
        assert [n.text("en") for n in found.notes] == [f"price '{typed.strip()}' was read as {value} ({how})"]
        assert f"已按 {value} 读取" in found.notes[0].text("zh")


@pytest.mark.parametrize(
    ("typed", "message", "hint"),
    [
        ("1e3", "price '1e3' is written with an exponent", "write 1000"),
        ("1E+3", "price '1E+3' is written with an exponent", "write 1000"),
        ("2.5e-1", "price '2.5e-1' is written with an exponent", "write 0.25"),
        ("1e999999", "price '1e999999' is written with an exponent", "write it in plain digits, e.g. 1000"),
        ("NaN", "price 'NaN' is not a finite number", "write an amount in plain digits, e.g. 12.5"),
        ("-Infinity", "price '-Infinity' is not a finite number", "write an amount in plain digits, e.g. 12.5"),
        ("inf", "price 'inf' is not a finite number", "write an amount in plain digits, e.g. 12.5"),
        ("12,5", "price '12,5': a comma only separates thousands (1,234.5)", "write 12.5 for a decimal point"),
        ("1,23,4", "price '1,23,4' is not a number", "write plain digits with '.' for decimals, e.g. 12.5"),
        ("1 000", "price '1 000' is not a number", "write plain digits with '.' for decimals, e.g. 12.5"),
        ("1_000", "price '1_000' is not a number", "write plain digits with '.' for decimals, e.g. 12.5"),
        ("0x10", "price '0x10' is not a number", "write plain digits with '.' for decimals, e.g. 12.5"),
        ("-3", "price -3 is negative", "enter zero or more"),
        ("", "price is empty", "enter a number, e.g. 12.5"),
    ],
)
def test_refused_forms_say_how_to_write_them(typed: str, message: str, hint: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        read_decimal(typed, "price")
    assert (caught.value.message, caught.value.hint) == (message, hint)
    zh_message, zh_hint = error_words(caught.value, "zh")
    assert zh_message != message and "价格" in zh_message and zh_hint


def test_money_has_two_decimals_and_a_quantity_is_whole() -> None:
    assert read_money("5.10", "fee").value == Decimal("5.10")
    with pytest.raises(InvalidInput) as caught:
        read_money("5.105", "fee")
    assert (caught.value.message, caught.value.hint) == (
        "fee 5.105 has 3 decimals; at most 2 are allowed",
        "write at most 2 decimals, e.g. 5.10",
    )
    assert read_money("5.1000", "fee").value == Decimal("5.1000")  # trailing zeros are the same amount
    assert read_quantity("１,０００").whole == 1000
    for typed in ("100.5", "100.0", "1e2"):
        with pytest.raises(InvalidInput):
            read_quantity(typed)


@pytest.mark.parametrize(
    ("symbol", "price", "shown"),
    [
        ("600519.SH", "12.5", "12.50"),
        ("600519.SH", "1E+3", "1000.00"),
        ("600519.SH", "1650.0000", "1650.00"),
        ("510300.SH", "3.5", "3.500"),  # an exchange fund: 0.001
        ("00700.HK", "320", "320.0"),  # tick 0.2 at that price
        ("02971.HK", "9.9", "9.90"),  # tick 0.01 between 0.5 and 10
        ("00700.HK", "5500", "5500"),  # tick 5 above 5000 (old table)
        ("600519.SH", "12.345", "12.345"),  # off the tick: never rounded away when shown
    ],
)
def test_prices_are_shown_in_their_ticks_decimals(symbol: str, price: str, shown: str) -> None:
    assert price_text(parse_symbol(symbol), Decimal(price), DAY) == shown
