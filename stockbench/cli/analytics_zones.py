"""`stockbench zones`, `size` and `scan`: buy and sell zones with their anchors, order sizing against an account,
and the opportunity scan. Prices in the JSON output are exact strings."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.params import DECIMAL, PERCENT

if TYPE_CHECKING:
    from stockbench.analytics.scan import ScanResult
    from stockbench.analytics.zones import Zones


def _anchor_name(cli: CliContext, name: str) -> str:
    """A zone anchor's name: as the JSON has it in English, in the report's words in Chinese."""
    from stockbench.research.wording.phrases import anchor_name

    return anchor_name(name, cli.language) if cli.language == "zh" else name


def _level(value: str, zone: dict[str, Any]) -> str:
    """An anchor's level as people read it: in the decimals of the zone's tick grid, never fewer than two (the JSON
    keeps the facts' four places), as the report says it."""
    from stockbench.research.wording.phrases import level_price

    return level_price(Decimal(value), Decimal(zone["low"]), Decimal(zone["high"]))


def _zone_line(cli: CliContext, key: str, zone: dict[str, Any], distance: str) -> str:
    anchors = cli.say("cli.list_separator").join(
        cli.say("cli.zones.anchor", name=_anchor_name(cli, a["name"]), value=_level(a["value"], zone), day=a["day"])
        for a in zone["anchors"] if a["role"] != "width"
    )  # fmt: skip
    return cli.say(key, low=zone["low"], high=zone["high"], distance=distance, anchors=anchors)


def _basis(cli: CliContext, zone: dict[str, Any], price: Decimal) -> str:
    """The zone's basis and where it lies against the price ("ma20 2080.54, 1.49% above the price")."""
    basis = next((a for a in zone["anchors"] if a["role"] == "basis"), None)
    if basis is None:
        return cli.say("cli.zones.no_basis")
    value = Decimal(basis["value"])
    pct = abs((value / price - 1) * 100).quantize(Decimal("0.01"))
    key = "cli.zones.basis_at" if not pct else "cli.zones.basis_above" if value > price else "cli.zones.basis_below"
    return cli.say(key, name=_anchor_name(cli, basis["name"]), value=_level(basis["value"], zone), pct=pct)


def _placed(cli: CliContext, data: dict[str, Any]) -> str:
    """Where the price sits, named against the levels the zones are built on."""
    price = Decimal(data["price"])
    return cli.say(
        f"cli.zones.place.{data['position']}",
        stop=data["stop"],
        buy=f"{data['buy']['low']}-{data['buy']['high']}",
        sell=f"{data['sell']['low']}-{data['sell']['high']}",
        buy_basis=_basis(cli, data["buy"], price),
        sell_basis=_basis(cli, data["sell"], price),
    )


def _plan_line(cli: CliContext, data: dict[str, Any]) -> str:
    reasons = cli.say("cli.list_separator").join(cli.word("plan_reason", r) for r in data["reasons"])
    verdict = (
        cli.say("cli.zones.tradeable") if data["tradeable"] else cli.say("cli.zones.not_tradeable", reasons=reasons)
    )
    return cli.say("cli.zones.plan", ratio=data["reward_risk"], minimum=data["min_reward_risk"], verdict=verdict)


def _zones_human(cli: CliContext, data: dict[str, Any], found: Zones) -> str:
    distance = {k: format(Decimal(v), "+f") for k, v in data["distance_pct"].items()}
    day = data["trade_day"]
    lines = [
        cli.say("cli.zones.head", symbol=data["symbol"], as_of=data["as_of"], price=data["price"],
                placed=_placed(cli, data)),
        _zone_line(cli, "cli.zones.buy", data["buy"], distance["buy_high"]),
        _zone_line(cli, "cli.zones.sell", data["sell"], distance["sell_low"]),
        cli.say("cli.zones.stop", stop=data["stop"], distance=distance["stop"]),
        _plan_line(cli, data),
        cli.say("cli.zones.next", day=day["day"], down=day["limit_down"], up=day["limit_up"]),
    ]  # fmt: skip
    flags = [n.text(cli.language) for n in found.flag_notes] if found.flag_notes else data["flags"]
    lines += [("注意：" if cli.language == "zh" else "note: ") + flag for flag in flags]
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
    cli.identified_note(found)
    result = bench.analytics.zones(found.instrument.symbol, price=price)
    cli.emit(result, lambda d: _zones_human(cli, d, result))


def _size_human(cli: CliContext, data: dict[str, Any]) -> str:
    fees = cli.say("cli.list_separator").join(
        f"{cli.word('fee_item', k)} {v}" for k, v in data["fees"]["items"].items()
    )
    lines = [
        cli.say("cli.size.order", side=cli.word("side", data["side"]), qty=data["qty"], symbol=data["symbol"],
                price=data["price"], stop=data["stop"], day=data["day"]),
        cli.say("cli.size.fees", total=data["fees"]["total"], items=fees, break_even=data["break_even"]),
        cli.say("cli.size.after", cash=data["cash_after"], weight=data["weight_after"], loss=data["loss_at_stop"],
                budget=data["risk_budget"], bound=cli.say("cli.list_separator").join(cli.word("bound", b)
                                                                          for b in data["bound_by"])),
    ]  # fmt: skip
    return "\n".join(lines + [("注意：" if cli.language == "zh" else "note: ") + n for n in data["notes"]])


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
    from stockbench.messages import refusal

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
        raise refusal("plan_refused", result.problems)
    cli.emit(result.sizing, lambda d: _size_human(cli, d))


def _scan_human(cli: CliContext, data: dict[str, Any], found: ScanResult) -> str:
    head = cli.say("cli.scan.head", scanned=f"{data['scanned']:,}", as_of=data["as_of"], ranked=f"{data['ranked']:,}")
    rows = [
        {"symbol": p.symbol, "name": p.name or "", "score": shown["score"],
         "why": cli.say("cli.reason_separator").join(n.text(cli.language) for n in p.notes)}
        for p, shown in zip(found.shortlist, data["shortlist"], strict=True)
    ]  # fmt: skip
    lines = [head, cli.table(rows, ["symbol", "name", "score", "why"])]
    if data["st_left_out"]:
        left = cli.say("cli.list_separator").join(data["st_left_out"])
        lines.append(cli.say("cli.scan.st_left_out", left=left, option="--include-st"))
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
    cli.emit(result, lambda d: _scan_human(cli, d, result))
