"""`stockbench rules session | calendar | holiday`: session phases, trading days and the workspace holidays."""

from __future__ import annotations

from typing import Any, cast

import click

from stockbench.cli.context import CliContext, pass_cli
from stockbench.cli.output import message, table
from stockbench.clock import Market, now_in, parse_date, parse_instant
from stockbench.market.calendars import Calendars, HolidayKind

MARKET = click.Choice(["CN", "HK"], case_sensitive=False)
EXCHANGES = click.Choice(["SH", "SZ", "BJ", "HK"], case_sensitive=False)
BOARDS = click.Choice(["main", "chinext", "star", "bse", "fund", "hk_main", "hk_gem"], case_sensitive=False)


def _market(text: str) -> Market:
    return cast(Market, text.upper())


def _calendars(cli: CliContext) -> Calendars:
    return cli.bench().market.calendars


def _session_human(cli: CliContext, data: dict[str, Any]) -> str:
    day = "half_day" if data["half_day"] else "trading_day" if data["trading_day"] else "no_session"
    return cli.say(
        "cli.session.line",
        market=data["market"],
        exchange=data["exchange"],
        board=data["board"],
        time=data["local_time"],
        phase=cli.word("phase", data["phase"]),
        day=cli.say(f"cli.session.{day}"),
    )


@click.command()
@click.argument("market", type=MARKET)
@click.option("--at", "at", metavar="ISO_INSTANT", help="The instant (default: now); naive = exchange time.")
@click.option("--exchange", type=EXCHANGES, help="SH, SZ, BJ or HK (default: SH for CN).")
@click.option("--board", type=BOARDS, help="main, chinext, star, bse, fund, hk_main, hk_gem (default: main).")
@pass_cli
def session(cli: CliContext, market: str, at: str | None, exchange: str | None, board: str | None) -> None:
    """Which session phase MARKET (CN or HK) is in at an instant."""
    from stockbench.market.sessions import phase_at

    code = _market(market)
    bench = cli.bench()
    instant = parse_instant(at, code) if at else now_in(bench.clock, code)
    rules = bench.market
    state = phase_at(
        code,
        instant,
        rules.calendars.calendar(code),
        rules.tables,
        exchange=exchange.upper() if exchange else None,
        board=board.lower() if board else None,
    )
    data = {
        "market": code,
        "exchange": state.exchange,
        "board": state.board,
        "local_time": state.local.isoformat(timespec="seconds"),
        "phase": state.phase,
        "trading_day": state.trading_day,
        "half_day": state.half_day,
    }
    cli.emit(data, lambda d: _session_human(cli, d))


def _calendar_human(cli: CliContext, data: dict[str, Any]) -> str:
    half = set(data["half_days"])
    days = [cli.say("cli.calendar.half_day", day=d) if d in half else str(d) for d in data["sessions"]]
    head = cli.say("cli.calendar.head", market=data["market"], first=data["from"], last=data["to"], count=data["count"])
    return "\n".join([head, *days, cli.say("cli.calendar.known", day=data["known_through"])])


@click.command()
@click.argument("market", type=MARKET)
@click.option("--from", "start", required=True, metavar="D", help="First day, YYYY-MM-DD.")
@click.option("--to", "end", required=True, metavar="D", help="Last day, YYYY-MM-DD (included).")
@pass_cli
def calendar(cli: CliContext, market: str, start: str, end: str) -> None:
    """The sessions and half days of MARKET (CN or HK) between two dates."""
    code = _market(market)
    first, last = parse_date(start), parse_date(end)
    found = _calendars(cli).calendar(code)
    sessions = found.sessions(first, last)
    data = {
        "market": code,
        "from": first,
        "to": last,
        "sessions": sessions,
        "half_days": found.half_days(first, last),
        "count": len(sessions),
        "known_through": found.known_through,
    }
    cli.emit(data, lambda d: _calendar_human(cli, d))


@click.group()
def holiday() -> None:
    """The workspace's own holidays: corrections and years the shipped calendars do not know yet."""


@holiday.command("add")
@click.argument("market", type=MARKET)
@click.argument("day", metavar="DATE")
@click.option("--half-day", is_flag=True, help="A morning-only session (Hong Kong).")
@click.option("--open", "is_open", is_flag=True, help="A session the shipped calendar lacks.")
@click.option("--note", default="", help="Why (e.g. the exchange notice).")
@pass_cli
def add(cli: CliContext, market: str, day: str, half_day: bool, is_open: bool, note: str) -> None:
    """Record that MARKET is closed on DATE (or trades a half day, or is open)."""
    if half_day and is_open:
        raise click.UsageError(cli.say("cli.half_day_or_open"))
    kind: HolidayKind = "half_day" if half_day else "open" if is_open else "closed"
    calendars = _calendars(cli)
    code = _market(market)
    added = calendars.add_holiday(code, parse_date(day), kind, note)
    known = calendars.calendar(code).known_through
    data = {"market": code, "day": added.day, "kind": kind, "note": note, "known_through": known}
    if added.day > known:
        message(
            f"note: {code} is known only through {known}; once that period's holidays are all recorded, "
            f"run `stockbench rules holiday extend {code} --through DATE`"
        )
    cli.emit(data, f"{code} {added.day}: {kind}" + (f" ({note})" if note else ""))


@holiday.command("list")
@click.argument("market", type=MARKET, required=False)
@pass_cli
def list_(cli: CliContext, market: str | None) -> None:
    """The workspace's holidays, and how far each market's calendar is known."""
    calendars = _calendars(cli)
    code = _market(market) if market else None
    markets: list[Market] = [code] if code else ["CN", "HK"]
    data = {
        "holidays": [
            {"market": h.market, "day": h.day, "kind": h.kind, "note": h.note} for h in calendars.holidays(code)
        ],
        "known_through": {m: calendars.calendar(m).known_through for m in markets},
    }

    def human(found: dict[str, Any]) -> str:
        known = ", ".join(f"{m} through {d}" for m, d in found["known_through"].items())
        return f"{table(found['holidays'], ['market', 'day', 'kind', 'note'])}\n\ncalendars known: {known}"

    cli.emit(data, human)


@holiday.command("extend")
@click.argument("market", type=MARKET)
@click.option("--through", required=True, metavar="D", help="Last day the workspace holidays cover.")
@click.option("--note", default="", help="Where the holiday list comes from.")
@pass_cli
def extend(cli: CliContext, market: str, through: str, note: str) -> None:
    """Vouch that MARKET's workspace holidays are complete through a date."""
    code = _market(market)
    done = _calendars(cli).extend(code, parse_date(through), note)
    if not done.holidays_in_range:
        message(f"warning: no {code} holidays are recorded in the extended range; every weekday in it is a session")
    data = {
        "market": code,
        "known_through": done.known_through,
        "note": note,
        "holidays_in_range": done.holidays_in_range,
    }
    cli.emit(data, f"{code} calendar known through {done.known_through}")
