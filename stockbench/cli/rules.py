"""`stockbench rules ...`: the exchange rules for a symbol, a price, an order, an instant or a period."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.main import LazyGroup
from stockbench.cli.params import DATE, DECIMAL, QUANTITY

if TYPE_CHECKING:
    from stockbench.errors import Problem
    from stockbench.market.instruments import Instrument
    from stockbench.workbench import Workbench

RULES_COMMANDS = {
    "session": "stockbench.cli.rules_calendar:session",
    "calendar": "stockbench.cli.rules_calendar:calendar",
    "holiday": "stockbench.cli.rules_calendar:holiday",
    "fees": "stockbench.cli.rules_fees:fees",
}


@click.group(cls=LazyGroup, lazy=RULES_COMMANDS)
def rules() -> None:
    """Exchange rules: identity, lots, ticks, limits, sessions, calendars and fees."""


def _resolve(cli: CliContext, symbol: str) -> Instrument:
    found = cli.bench().market.registry.resolve(symbol)
    cli.identified_note(found)
    return found.instrument


def _day(bench: Workbench, instrument: Instrument, day: date | None) -> date:
    from stockbench.clock import today_in

    return day or today_in(bench.clock, instrument.market)


def _st(bench: Workbench, instrument: Instrument, day: date, flag: bool) -> bool:
    return flag or bool(bench.market.registry.st_on(instrument.symbol, day))


@rules.command()
@click.argument("symbol")
@click.option("--date", "day", type=DATE, help="The date whose rules apply (default: today).")
@pass_cli
def show(cli: CliContext, symbol: str, day: date | None) -> None:
    """Identity and trading rules of SYMBOL on a date."""
    from stockbench.market.calendars import settlement
    from stockbench.market.limits import limit_pct
    from stockbench.market.lots import board_lot
    from stockbench.market.ticks import fixed_tick, spread_table

    bench = cli.bench()
    instrument = _resolve(cli, symbol)
    day = _day(bench, instrument, day)
    tables = bench.market.tables
    st = bench.market.registry.st_on(instrument.symbol, day)
    tradable = instrument.security_type.value != "index"
    lot = board_lot(instrument, tables) if tradable else None
    pct = limit_pct(instrument, day, st=bool(st), tables=tables)
    data: dict[str, Any] = {
        "symbol": instrument.symbol,
        "name": instrument.name,
        "exchange": instrument.exchange.value,
        "market": instrument.market,
        "board": instrument.board.value,
        "security_type": instrument.security_type.value,
        "currency": instrument.currency,
        "date": day,
        "tick": fixed_tick(instrument, tables) if tradable else None,
        "tick_table": None,
        "lot": lot[0] if lot else None,
        "lot_step": lot[1] if lot else None,
        "limit_pct": pct[0] if pct else None,
        "st": st,
        "settlement": settlement(instrument, tables) if tradable else None,
        "rules_version": tables.version,
    }
    if tradable and instrument.market == "HK":
        table = spread_table(instrument, day, tables)
        data["tick_table"] = {"name": table.name, "bands": [[b.lower, b.upper, b.tick] for b in table.bands]}
    cli.emit(data, lambda d: _show_human(cli, d))


def _lot(cli: CliContext, data: dict[str, Any]) -> str:
    if data["lot"] is None:
        return cli.say("cli.rules.show.none")
    if data["lot_step"] in (None, data["lot"]):
        return cli.say("cli.rules.show.lot", lot=data["lot"])
    return cli.say("cli.rules.show.lot_steps", lot=data["lot"], step=data["lot_step"])


def _show_human(cli: CliContext, data: dict[str, Any]) -> str:
    """The rules of a symbol as people read them, in the invocation's language."""

    def text(value: object) -> str:
        return cli.say("cli.rules.show.none") if value is None else str(value)

    table = data["tick_table"]
    tick = text(data["tick"]) if table is None else cli.say("cli.rules.show.spread_table", name=table["name"])
    limit = (cli.say("cli.rules.show.no_limit") if data["limit_pct"] is None
             else f"{Decimal(data['limit_pct']) * 100:g}%")  # fmt: skip
    kind = {"exchange": data["exchange"], "board": data["board"], "kind": data["security_type"],
            "currency": data["currency"]}  # fmt: skip
    kinds = {"exchange": "exchange", "board": "board", "kind": "security_type", "currency": "currency"}
    words = {f"{k}_zh": cli.word(v, kind[k]) for k, v in kinds.items()}
    return "\n".join(
        [
            f"{data['symbol']}  {data['name'] or ''}".rstrip(),
            "  " + cli.say("cli.rules.show.kind", **kind, **words),
            "  " + cli.say("cli.rules.show.trading", tick=tick, lot=_lot(cli, data), limit=limit,
                           st=cli.say("cli.rules.show.st") if data["st"] else "", settlement=text(data["settlement"])),
            "  " + cli.say("cli.rules.show.tables", day=data["date"], version=data["rules_version"]),
        ]
    )  # fmt: skip


@rules.command()
@click.argument("symbol")
@click.option("--ref", required=True, type=DECIMAL, help="Reference price: previous close or ex-rights reference.")
@click.option("--date", "day", type=DATE, help="The trading date (default: today).")
@click.option("--st", is_flag=True, help="The stock is under special treatment (ST/*ST) that day.")
@click.option("--listing-session", type=click.IntRange(min=1), help="Session number since listing, for new listings.")
@pass_cli
def limits(cli: CliContext, symbol: str, ref: Decimal, day: date | None, st: bool, listing_session: int | None) -> None:
    """Limit-up and limit-down prices of SYMBOL from a reference price."""
    from stockbench.market.limits import price_limits

    bench = cli.bench()
    instrument = _resolve(cli, symbol)
    day = _day(bench, instrument, day)
    found = price_limits(
        instrument,
        ref,
        day,
        st=_st(bench, instrument, day, st),
        listing_session=listing_session,
        tables=bench.market.tables,
    )
    data = {
        "symbol": instrument.symbol,
        "date": day,
        "ref": ref,
        "up": found.up,
        "down": found.down,
        "pct": found.pct,
        "reason": found.reason,
        "unconfirmed": found.unconfirmed,
    }
    cli.emit(data, lambda d: cli.say("cli.rules.limits", symbol=d["symbol"], date=d["date"], up=d["up"], down=d["down"],
                                     reason=d["reason"]))  # fmt: skip


@rules.command("check-order")
@click.argument("symbol")
@click.option("--side", type=click.Choice(["buy", "sell"]), required=True, help="Buy or sell.")
@click.option("--qty", type=QUANTITY, required=True, help="Quantity in shares.")
@click.option("--price", type=DECIMAL, required=True, help="The limit price.")
@click.option("--holding", type=click.IntRange(min=0), help="Sellable holding (for sells: the odd-lot rule).")
@click.option("--date", "day", type=DATE, help="The trading date (default: today).")
@click.option("--ref", type=DECIMAL, help="The day's reference price, to check limits and the price cage.")
@click.option("--st", is_flag=True, help="The stock is under special treatment (ST/*ST) that day.")
@click.option("--lot", type=click.IntRange(min=1), help="Hong Kong board lot, when the workspace has no data for it.")
@click.option("--listing-session", type=click.IntRange(min=1), help="Session number since listing, for new listings.")
@pass_cli
def check_order_command(
    cli: CliContext,
    symbol: str,
    side: str,
    qty: int,
    price: Decimal,
    holding: int | None,
    day: date | None,
    ref: Decimal | None,
    st: bool,
    lot: int | None,
    listing_session: int | None,
) -> None:
    """Can this order be placed? Lots, ticks, limits and the price cage (exit 0 either way)."""
    from stockbench.market.order_rules import check_order

    bench = cli.bench()
    instrument = _resolve(cli, symbol)
    if lot is not None and instrument.market == "HK":
        instrument = instrument.with_data(board_lot=lot)
    day = _day(bench, instrument, day)
    result = check_order(
        instrument,
        "buy" if side == "buy" else "sell",
        qty,
        price,
        day,
        holding=holding,
        ref=ref,
        st=_st(bench, instrument, day, st),
        listing_session=listing_session,
        tables=bench.market.tables,
    )
    data = {
        "symbol": instrument.symbol,
        "valid": result.valid,
        "problems": list(result.problems),
        "notes": list(result.notes),
        "checked": list(result.checks),
        "limits": None if result.limits is None else {"up": result.limits.up, "down": result.limits.down},
    }
    cli.emit(data, lambda d: _check_human(cli, d, result.problems, result.notes))


def _check_human(cli: CliContext, data: dict[str, Any], problems: Sequence[Problem], notes: Sequence[Problem]) -> str:
    from stockbench.messages import said

    key = "cli.rules.valid" if data["valid"] else "cli.rules.not_valid"
    lines = [cli.say(key, symbol=data["symbol"], checked=", ".join(data["checked"]))]
    for found in problems:
        message, fix = said(found, cli.language)
        lines.append(cli.say("cli.rules.problem", code=found.code, message=message, fix=fix))
    lines += [cli.say("cli.rules.note", code=n.code, message=said(n, cli.language)[0]) for n in notes]
    return "\n".join(lines)
