"""`stockbench rules fees`: the itemised fees of one order on a date, under an account's commission terms."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any, cast

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import merged
from stockbench.cli.params import typed_notes
from stockbench.clock import parse_date, today_in
from stockbench.errors import InvalidInput
from stockbench.market.fees import FeeSettings, Side, order_fees
from stockbench.market.numbers import Typed, read_decimal, read_quantity
from stockbench.market.tables import RuleTables
from stockbench.messages import user_error


def parse_amount(text: str, what: str) -> Decimal:
    """A decimal, zero or more, from user text (read by stockbench.market.numbers; its notes are kept)."""
    return _kept(read_decimal(text, what)).value


def parse_quantity(text: str) -> int:
    """A positive whole number of shares from user text."""
    found = _kept(read_quantity(text, "--qty")).whole
    if found <= 0:
        raise user_error(InvalidInput, "qty_not_whole_positive", text=text)
    return found


def _kept(found: Typed) -> Typed:
    typed_notes().extend(found.notes)
    return found


def _settings(
    market: str, tables: RuleTables, rate: str | None, minimum: str | None, bundled: bool | None
) -> FeeSettings:
    """The default commission terms of `market`, overridden by whatever the user gave."""
    if rate is not None and minimum is not None:
        parsed = parse_amount(rate, "--commission-rate"), parse_amount(minimum, "--commission-min")
        settings = FeeSettings(*parsed)
    else:
        settings = FeeSettings.default(market, tables)
        if rate is not None:
            settings = replace(settings, commission_rate=parse_amount(rate, "--commission-rate"))
        if minimum is not None:
            settings = replace(settings, commission_min=parse_amount(minimum, "--commission-min"))
    return settings if bundled is None else replace(settings, bundled_exchange_fees=bundled)


def _human(cli: CliContext, data: dict[str, Any]) -> str:
    rows = [{"item": name, "amount": amount} for name, amount in data["items"].items()]
    lines = [
        cli.say("cli.fees.order", symbol=data["symbol"], side=cli.word("side", data["side"]), qty=data["qty"],
                price=data["price"], date=data["date"]),
        cli.say("cli.fees.amount", amount=data["amount"], currency=data["currency"]),
        "",
        cli.table([*rows, {"item": "total", "amount": data["total"]}], ["item", "amount"], {"item": "fee_item"}),
    ]  # fmt: skip
    if data["unconfirmed"]:
        items = ", ".join(cli.word("fee_item", u) for u in data["unconfirmed"])
        lines.append("\n" + cli.say("cli.fees.unconfirmed", items=items))
    return "\n".join(lines)


@click.command()
@click.argument("symbol")
@click.option("--side", type=click.Choice(["buy", "sell"]), required=True, help="Buy or sell.")
@click.option("--qty", required=True, metavar="N", help="Number of shares.")
@click.option("--price", required=True, metavar="P", help="Price per share in the market's currency.")
@click.option("--date", "day", metavar="D", help="Trade date YYYY-MM-DD (default: today in the market).")
@click.option("--commission-rate", metavar="R", help="Commission rate on the traded amount, e.g. 0.00025.")
@click.option("--commission-min", metavar="M", help="Minimum commission per order, e.g. 5.")
@click.option(
    "--bundled/--unbundled",
    default=None,
    help="Exchange handling and regulatory fees are inside the commission (A-shares).",
)
@pass_cli
def fees(
    cli: CliContext,
    symbol: str,
    side: str,
    qty: str,
    price: str,
    day: str | None,
    commission_rate: str | None,
    commission_min: str | None,
    bundled: bool | None,
) -> None:
    """Itemised fees of an order: commission, stamp duty, exchange fees and levies in force on the date."""
    shares, unit_price = parse_quantity(qty), parse_amount(price, "--price")
    bench = cli.bench()
    instrument = bench.market.registry.instrument(symbol)
    tables = bench.market.tables
    trade_day = parse_date(day) if day else today_in(bench.clock, instrument.market)
    settings = _settings(instrument.market, tables, commission_rate, commission_min, bundled)
    order = (instrument, cast(Side, side), shares, unit_price, trade_day)
    found = order_fees(*order, settings=settings, tables=tables)
    data = {"symbol": instrument.symbol, "side": side, "qty": shares, "price": unit_price, "date": trade_day}
    cli.emit(merged(data, found), lambda d: _human(cli, d))
