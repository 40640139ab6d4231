"""`stockbench zones`, `size` and `scan`: buy and sell zones with their anchors, order sizing against an account,
and the opportunity scan. Prices in the JSON output are exact strings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table
from stockbench.cli.params import DECIMAL, PERCENT


def _zone_line(name: str, zone: dict[str, Any], distance: str) -> str:
    anchors = ", ".join(f"{a['name']} {a['value']} ({a['day']})" for a in zone["anchors"] if a["role"] != "width")
    return f"{name:<5} {zone['low']} - {zone['high']}   ({distance}% from the price)   on {anchors}"


def _basis(zone: dict[str, Any], price: Decimal) -> str:
    """The zone's basis and where it lies against the price ("ma20 2080.54, 1.49% above the price")."""
    basis = next((a for a in zone["anchors"] if a["role"] == "basis"), None)
    if basis is None:
        return "no basis"
    value = Decimal(basis["value"])
    pct = abs((value / price - 1) * 100).quantize(Decimal("0.01"))
    if not pct:
        return f"{basis['name']} {basis['value']}, at the price"
    return f"{basis['name']} {basis['value']}, {pct}% {'above' if value > price else 'below'} the price"


_PLACES = {
    "stop_hit": "at or below the stop {stop}",
    "below_buy": "under the buy zone {buy} (built on {buy_basis}), above the stop {stop}",
    "in_buy": "in the buy zone {buy} (built on {buy_basis})",
    "between": "between the zones: the buy zone {buy} is built on {buy_basis}; the sell zone {sell} on {sell_basis}",
    "in_sell": "in the sell zone {sell} (built on {sell_basis})",
    "above_sell": "above the sell zone {sell} (built on {sell_basis})",
}


def _placed(data: dict[str, Any]) -> str:
    """Where the price sits, named against the levels the zones are built on."""
    price = Decimal(data["price"])
    return _PLACES[data["position"]].format(
        stop=data["stop"],
        buy=f"{data['buy']['low']}-{data['buy']['high']}",
        sell=f"{data['sell']['low']}-{data['sell']['high']}",
        buy_basis=_basis(data["buy"], price),
        sell_basis=_basis(data["sell"], price),
    )


def _plan_line(data: dict[str, Any]) -> str:
    head = f"plan  reward-to-risk {data['reward_risk']} (minimum {data['min_reward_risk']}): "
    if data["tradeable"]:
        return head + "tradeable"
    return head + "not tradeable (" + ", ".join(data["reasons"]) + ")"


def _zones_human(data: dict[str, Any]) -> str:
    distance = {k: format(Decimal(v), "+f") for k, v in data["distance_pct"].items()}
    lines = [
        f"{data['symbol']} as of {data['as_of']}: price {data['price']} is {_placed(data)}",
        _zone_line("buy", data["buy"], f"top {distance['buy_high']}"),
        _zone_line("sell", data["sell"], f"bottom {distance['sell_low']}"),
        f"stop  {data['stop']}   ({distance['stop']}% from the price)",
        _plan_line(data),
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
    """Buy zone, sell zone and stop of SYMBOL on its last session (--as-of D to look back), with their anchors, the
    plan's reward-to-risk and whether it is tradeable (the reason codes when not)."""
    bench = cli.bench()
    found = bench.market.registry.resolve(symbol)
    if found.note:
        message(f"note: {found.note}")
    result = bench.analytics.zones(found.instrument.symbol, price=price)
    cli.emit(result, _zones_human)


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
@click.option(
    "--risk-pct",
    type=PERCENT,
    help="Percent of equity lost at the stop: 1 or 1% (default: the sizing table's 1%; above its 2% ceiling "
    "only with --confirm-risk).",
)
@click.option(
    "--max-weight", type=PERCENT, help="Largest position weight after the trade, percent: 20 or 20% (default: 20%)."
)
@click.option("--confirm-risk", is_flag=True, help="Accept a --risk-pct above the sizing table's ceiling.")
@pass_cli
def size(
    cli: CliContext,
    account: str,
    symbol: str,
    side: str,
    entry: Decimal,
    stop: Decimal,
    risk_pct: Decimal | None,
    max_weight: Decimal | None,
    confirm_risk: bool,
) -> None:
    """Size an order of SYMBOL for ACCOUNT from a risk budget; a plan that breaks a rule is refused (exit 1).

    Percentages are percent: --risk-pct 1 risks 1% of equity at the stop (1% is the same).
    """
    from stockbench.errors import RuleViolation

    bench = cli.bench()
    result = bench.analytics.size(
        account,
        symbol,
        side,
        entry,
        stop,
        risk_pct=risk_pct,
        max_weight=max_weight,
        confirm_risk=confirm_risk,
    )
    if result.sizing is None:
        raise RuleViolation(f"the plan was refused: {result.problems[0].message}", result.problems)
    cli.emit(result.sizing, _size_human)


def _scan_human(data: dict[str, Any]) -> str:
    head = f"scanned {data['scanned']:,} symbols on {data['as_of']}, {data['ranked']:,} ranked"
    rows = [
        {"symbol": p["symbol"], "name": p["name"] or "", "score": p["score"], "why": "; ".join(p["reasons"])}
        for p in data["shortlist"]
    ]
    lines = [head, table(rows, ["symbol", "name", "score", "why"])]
    if data["st_left_out"]:
        left = ", ".join(data["st_left_out"])
        lines.append(f"left out as ST/*ST though they scored enough: {left} (--include-st to rank them)")
    return "\n".join(lines)


@click.command()
@click.option("--universe", type=click.Choice(["all", "watchlist"]), default="all", help="What to scan.")
@click.option("--symbol", "symbols", multiple=True, help="Scan these symbols instead (repeatable).")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True, help="Shortlist length.")
@click.option("--include-st", is_flag=True, help="Rank ST and *ST names too (always flagged as such).")
@pass_cli
def scan(cli: CliContext, universe: str, symbols: tuple[str, ...], top: int, include_st: bool) -> None:
    """Screen every instrument (or the watchlist, or --symbol ...) and shortlist what is worth researching.

    The scan gives no prices to trade at and no quantities. Names are those of the as-of session; ST and *ST names
    are flagged and left off the shortlist unless --include-st. Equal scores are ordered by their components.
    """
    bench = cli.bench()
    chosen: Any = list(symbols) if symbols else universe
    result = bench.analytics.scan(chosen, top=top, include_st=include_st)
    cli.emit(result, _scan_human)
