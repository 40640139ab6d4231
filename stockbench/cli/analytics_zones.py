"""`stockbench zones`, `size` and `scan`: buy and sell zones with their anchors, order sizing against an account,
and the opportunity scan. Prices in the JSON output are exact strings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table
from stockbench.cli.params import DECIMAL


def _zone_line(name: str, zone: dict[str, Any]) -> str:
    anchors = ", ".join(f"{a['name']} {a['value']} ({a['day']})" for a in zone["anchors"] if a["role"] != "width")
    return f"{name:<5} {zone['low']} - {zone['high']}   on {anchors}"


def _zones_human(data: dict[str, Any]) -> str:
    lines = [
        f"{data['symbol']} as of {data['as_of']}: price {data['price']} is {data['position'].replace('_', ' ')}",
        _zone_line("buy", data["buy"]),
        _zone_line("sell", data["sell"]),
        f"stop  {data['stop']}",
        f"next session {data['trade_day']['day']}: limits {data['trade_day']['limit_down']} - "
        f"{data['trade_day']['limit_up']}",
    ]
    lines += [f"note: {flag}" for flag in data["flags"]]
    return "\n".join(lines)


@click.command()
@click.argument("symbol")
@click.option("--price", type=DECIMAL, help="Place this price against the zones (default: the last close).")
@pass_cli
def zones(cli: CliContext, symbol: str, price: Decimal | None) -> None:
    """Buy zone, sell zone and stop of SYMBOL on its last session (--as-of D to look back), with their anchors."""
    bench = cli.bench()
    found = bench.market.registry.resolve(symbol)
    if found.note:
        message(f"note: {found.note}")
    result = bench.analytics.zones(found.instrument.symbol, price=price)
    cli.emit(result, _zones_human)


def _fraction(text: str | None, name: str) -> Decimal | None:
    """A fraction from "0.01" or "1%"."""
    if text is None:
        return None
    cleaned = text.strip()
    try:
        value = Decimal(cleaned[:-1]) / 100 if cleaned.endswith("%") else Decimal(cleaned)
    except ArithmeticError:
        raise click.BadParameter(f"'{text}' is not a number (e.g. 0.01 or 1%)", param_hint=name) from None
    if not value.is_finite():
        raise click.BadParameter(f"'{text}' is not a finite number", param_hint=name)
    return value


def _size_human(data: dict[str, Any]) -> str:
    fees = ", ".join(f"{k} {v}" for k, v in data["fees"]["items"].items())
    lines = [
        f"{data['side']} {data['qty']} {data['symbol']} at {data['price']} (stop {data['stop']}) on {data['day']}",
        f"fees {data['fees']['total']} ({fees}); break-even {data['break_even']}",
        f"cash after {data['cash_after']}; weight after {data['weight_after']}; loss at stop {data['loss_at_stop']} "
        f"(budget {data['risk_budget']}); bound by {', '.join(data['bound_by'])}",
    ]
    return "\n".join(lines + [f"note: {n}" for n in data["notes"]])


@click.command()
@click.argument("account")
@click.argument("symbol")
@click.option("--side", type=click.Choice(["buy", "sell"]), required=True, help="Buy or sell.")
@click.option("--entry", type=DECIMAL, required=True, help="Entry price (rounded to the tick, cautiously).")
@click.option("--stop", type=DECIMAL, required=True, help="Stop price of the position (below the entry).")
@click.option("--risk-pct", help="Share of equity lost at the stop: 0.01 or 1% (default: rule table sizing).")
@click.option("--max-weight", help="Largest position weight after the trade: 0.2 or 20% (default: rule table).")
@pass_cli
def size(
    cli: CliContext,
    account: str,
    symbol: str,
    side: str,
    entry: Decimal,
    stop: Decimal,
    risk_pct: str | None,
    max_weight: str | None,
) -> None:
    """Size an order of SYMBOL for ACCOUNT from a risk budget; a plan that breaks a rule is refused (exit 1)."""
    from stockbench.errors import RuleViolation

    bench = cli.bench()
    result = bench.analytics.size(
        account,
        symbol,
        side,
        entry,
        stop,
        risk_pct=_fraction(risk_pct, "--risk-pct"),
        max_weight=_fraction(max_weight, "--max-weight"),
    )
    if result.sizing is None:
        raise RuleViolation(f"the plan was refused: {result.problems[0].message}", result.problems)
    cli.emit(result.sizing, _size_human)


def _scan_human(data: dict[str, Any]) -> str:
    head = f"scanned {data['scanned']:,} symbols on {data['as_of']}, {data['ranked']:,} ranked"
    rows = [{"symbol": p["symbol"], "score": p["score"], "why": "; ".join(p["reasons"])} for p in data["shortlist"]]
    return head + "\n" + table(rows, ["symbol", "score", "why"])


@click.command()
@click.option("--universe", type=click.Choice(["all", "watchlist"]), default="all", help="What to scan.")
@click.option("--symbol", "symbols", multiple=True, help="Scan these symbols instead (repeatable).")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True, help="Shortlist length.")
@pass_cli
def scan(cli: CliContext, universe: str, symbols: tuple[str, ...], top: int) -> None:
    """Screen every instrument (or the watchlist, or --symbol ...) and shortlist what is worth researching.

    The scan gives no prices to trade at and no quantities.
    """
    bench = cli.bench()
    chosen: Any = list(symbols) if symbols else universe
    result = bench.analytics.scan(chosen, top=top)
    cli.emit(result, _scan_human)
