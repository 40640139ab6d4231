"""Session phases for CN and HK, on the dates each timetable was in force, and the `rules session` command."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.cli.main import run
from stockbench.clock import MARKET_TZ, Market, parse_instant
from stockbench.errors import CalendarUnknown, InvalidInput
from stockbench.market.calendars import Calendars
from stockbench.market.sessions import PHASES, SessionState, last_trading_minute, phase_at, venue
from stockbench.market.tables import load_tables

TABLES = load_tables()
CALENDARS = Calendars(None, TABLES)
CALENDARS.calendar("CN")  # build the shipped calendars (a one-off second per process) at collection
CALENDARS.calendar("HK")


def at(market: Market, day: str, clock: str, *, exchange: str | None = None, board: str | None = None) -> SessionState:
    instant = datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tzinfo=MARKET_TZ[market])
    return phase_at(market, instant, CALENDARS.calendar(market), TABLES, exchange=exchange, board=board)


CN_DAY = [  # a Monday after 2026-07-06, Shanghai main board
    ("09:14:59", "closed"),
    ("09:15", "preopen_cancellable"),
    ("09:19:59", "preopen_cancellable"),
    ("09:20", "preopen_noncancellable"),
    ("09:25", "preopen_wait"),
    ("09:30", "continuous"),
    ("11:29:59", "continuous"),
    ("11:30", "lunch_break"),
    ("12:59:59", "lunch_break"),
    ("13:00", "continuous"),
    ("14:56:59", "continuous"),
    ("14:57", "closing_auction"),
    ("14:59:59", "closing_auction"),
    ("15:00", "closed"),
    ("15:04:59", "closed"),
    ("15:05", "after_hours_fixed_price"),
    ("15:29:59", "after_hours_fixed_price"),
    ("15:30", "closed"),
]


@pytest.mark.parametrize(("clock", "phase"), CN_DAY)
def test_cn_phase_boundaries(clock: str, phase: str) -> None:
    state = at("CN", "2026-11-30", clock)
    assert (state.phase, state.trading_day, state.half_day) == (phase, True, False)
    assert (state.exchange, state.board) == ("SH", "main")


HK_DAY = [
    ("08:59:59", "closed"),
    ("09:00", "preopen_cancellable"),
    ("09:15", "preopen_noncancellable"),
    ("09:30", "continuous"),
    ("11:59:59", "continuous"),
    ("12:00", "lunch_break"),
    ("13:00", "continuous"),
    ("15:59:59", "continuous"),
    ("16:00", "closing_auction"),
    ("16:09:59", "closing_auction"),
    ("16:10", "closed"),
]


@pytest.mark.parametrize(("clock", "phase"), HK_DAY)
def test_hk_phase_boundaries(clock: str, phase: str) -> None:
    state = at("HK", "2025-12-23", clock)
    assert (state.phase, state.trading_day, state.half_day) == (phase, True, False)


@pytest.mark.parametrize(
    ("clock", "phase"),
    [("09:00", "preopen_cancellable"), ("11:59", "continuous"), ("12:05", "closing_auction"), ("12:10", "closed")],
)
def test_hk_christmas_eve_2025_is_morning_only(clock: str, phase: str) -> None:
    state = at("HK", "2025-12-24", clock)
    assert (state.phase, state.trading_day, state.half_day) == (phase, True, True)


def test_hk_half_day_afternoon_is_closed_not_lunch() -> None:
    for clock in ("12:30", "13:30", "16:05"):
        assert at("HK", "2025-12-24", clock).phase == "closed"
    assert at("HK", "2026-02-16", "14:00").phase == "closed"  # Lunar New Year's Eve 2026


@pytest.mark.parametrize(
    ("exchange", "board", "before", "after"),
    [
        ("SH", "main", "closed", "after_hours_fixed_price"),
        ("SZ", "main", "closed", "after_hours_fixed_price"),
        ("BJ", "bse", "closed", "after_hours_fixed_price"),
        ("SH", "fund", "closed", "after_hours_fixed_price"),
        ("SH", "star", "after_hours_fixed_price", "after_hours_fixed_price"),
        ("SZ", "chinext", "after_hours_fixed_price", "after_hours_fixed_price"),
    ],
)
def test_after_hours_fixed_price_opens_to_all_a_shares_on_2026_07_06(
    exchange: str, board: str, before: str, after: str
) -> None:
    assert at("CN", "2026-07-03", "15:10", exchange=exchange, board=board).phase == before
    assert at("CN", "2026-07-06", "15:10", exchange=exchange, board=board).phase == after


def test_star_after_hours_before_2026_ends_at_15_30() -> None:
    assert at("CN", "2026-07-03", "15:04", board="star").phase == "closed"
    assert at("CN", "2026-07-03", "15:30", board="star").phase == "closed"


def test_shanghai_closing_auction_starts_on_2018_08_20() -> None:
    assert at("CN", "2018-08-17", "14:58").phase == "continuous"
    assert at("CN", "2018-08-17", "14:58", exchange="SZ").phase == "closing_auction"
    assert at("CN", "2018-08-20", "14:58").phase == "closing_auction"
    assert at("CN", "2018-08-20", "14:56").phase == "continuous"


def test_a_holiday_is_closed_all_day() -> None:
    for clock in ("09:15", "10:00", "14:58"):
        state = at("CN", "2026-10-01", clock)
        assert (state.phase, state.trading_day, state.half_day) == ("closed", False, False)
    assert at("HK", "2025-12-25", "10:00").trading_day is False


def test_the_instant_is_read_in_the_exchange_zone() -> None:
    state = phase_at("CN", datetime(2026, 11, 30, 1, 30, tzinfo=UTC), CALENDARS.calendar("CN"), TABLES)
    assert state.phase == "continuous"
    assert state.local == datetime(2026, 11, 30, 9, 30, tzinfo=MARKET_TZ["CN"])
    assert state.local.utcoffset() == MARKET_TZ["CN"].utcoffset(state.local)
    # 23:30 UTC on a Sunday is 07:30 on Monday in Hong Kong: a trading day, before the pre-opening.
    hk = phase_at("HK", datetime(2025, 12, 21, 23, 30, tzinfo=UTC), CALENDARS.calendar("HK"), TABLES)
    assert (hk.local.date(), hk.trading_day, hk.phase) == (date(2025, 12, 22), True, "closed")


def test_a_naive_instant_is_an_error() -> None:
    with pytest.raises(InvalidInput, match="no time zone"):
        phase_at("CN", datetime(2026, 11, 30, 10, 0), CALENDARS.calendar("CN"), TABLES)  # noqa: DTZ001


def test_2027_is_calendar_unknown() -> None:
    with pytest.raises(CalendarUnknown, match="known only through 2026-12-31"):
        at("CN", "2027-01-04", "10:00")


def test_the_calendar_must_match_the_market() -> None:
    with pytest.raises(InvalidInput):
        phase_at("CN", parse_instant("2026-11-30T10:00"), CALENDARS.calendar("HK"), TABLES)


def test_venue_defaults_and_mismatches() -> None:
    assert venue("CN") == ("SH", "main")
    assert venue("HK") == ("HK", "hk_main")
    assert venue("CN", board="chinext") == ("SZ", "chinext")
    assert venue("CN", board="star") == ("SH", "star")
    assert venue("CN", board="bse") == ("BJ", "bse")
    assert venue("CN", exchange="SZ") == ("SZ", "main")
    assert venue("CN", exchange="BJ") == ("BJ", "bse")
    for exchange, board in [("SZ", "star"), ("SH", "chinext"), ("HK", None), (None, "hk_main")]:
        with pytest.raises(InvalidInput):
            venue("CN", exchange, board)
    with pytest.raises(InvalidInput):
        venue("US")


# hypothesis takes naive bounds and attaches the zone itself.
NAIVE_FIRST, NAIVE_LAST = datetime(2019, 1, 1), datetime(2026, 12, 31, 15, 59)  # noqa: DTZ001


@settings(max_examples=80, deadline=None)
@given(
    moment=st.datetimes(NAIVE_FIRST, NAIVE_LAST, timezones=st.just(UTC)),
    market=st.sampled_from(["CN", "HK"]),
)
def test_every_instant_has_a_known_phase_and_consistent_flags(moment: datetime, market: Market) -> None:
    calendar = CALENDARS.calendar(market)
    state = phase_at(market, moment, calendar, TABLES)
    assert state.phase in PHASES
    assert state.local == moment
    day = state.local.date()
    assert state.trading_day == calendar.is_session(day)
    assert state.half_day == (state.trading_day and calendar.is_half_day(day))
    if not state.trading_day or state.local.time() < time(9) or state.local.time() >= time(16, 10):
        assert state.phase == "closed"


# --- CLI ------------------------------------------------------------------------------------------


def test_cli_session_json(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "rules", "session", "CN", "--at", "2026-07-06T15:10:00+08:00"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "market": "CN",
        "exchange": "SH",
        "board": "main",
        "local_time": "2026-07-06T15:10:00+08:00",
        "phase": "after_hours_fixed_price",
        "trading_day": True,
        "half_day": False,
    }


def test_cli_session_converts_the_instant_and_takes_a_board(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "rules", "session", "hk", "--at", "2025-12-24T04:05:00Z"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["local_time"], data["phase"], data["half_day"]) == (
        "2025-12-24T12:05:00+08:00",
        "closing_auction",
        True,
    )
    assert run(["--json", "rules", "session", "CN", "--at", "2026-07-03T15:10", "--board", "chinext"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["exchange"], data["phase"]) == ("SZ", "after_hours_fixed_price")


def test_cli_session_on_a_holiday_and_past_the_calendar(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--json", "rules", "session", "CN", "--at", "2026-10-01T10:00"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["phase"], data["trading_day"]) == ("closed", False)
    assert run(["rules", "session", "CN", "--at", "2027-01-04T10:00"]) == 1
    assert "known only through 2026-12-31" in capsys.readouterr().err
    assert run(["rules", "session", "CN", "--at", "2026-11-30T10:00", "--exchange", "SZ", "--board", "star"]) == 1
    assert "lists no board 'star'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("day", "clock", "phase"),
    [
        ("2014-06-03", "16:05", "closed"),  # no closing auction between 2009 and 2016-07-25
        ("2016-07-25", "16:05", "closing_auction"),
        ("2014-06-03", "12:30", "lunch_break"),
    ],
)
def test_hk_timetable_history(day: str, clock: str, phase: str) -> None:
    assert at("HK", day, clock).phase == phase


def test_hk_before_the_2012_timetable_is_unknown() -> None:
    with pytest.raises(CalendarUnknown):
        at("HK", "2011-06-01", "12:45")


@pytest.mark.parametrize(
    ("market", "day", "clock", "expected"),
    [
        ("CN", "2026-11-30", "10:31:25", "2026-11-30 10:31"),  # a Monday during trading: that minute
        ("CN", "2026-11-30", "14:58:10", "2026-11-30 14:58"),  # the closing auction
        ("CN", "2026-11-30", "18:00", "2026-11-30 14:59"),  # the evening: the close's last minute
        ("CN", "2026-11-30", "12:10", "2026-11-30 11:29"),  # the lunch break
        ("CN", "2026-12-01", "09:20", "2026-11-30 14:59"),  # the call auction: nothing traded yet today
        ("CN", "2026-11-28", "11:00", "2026-11-27 14:59"),  # a Saturday: Friday's close
        ("CN", "2026-10-08", "10:00", "2026-10-08 10:00"),  # the first session after the National Day week
        ("CN", "2026-10-05", "10:00", "2026-09-30 14:59"),  # inside the National Day week
        ("HK", "2026-11-30", "20:00", "2026-11-30 16:09"),  # HK: the closing auction's last minute
    ],
)
def test_the_last_trading_minute_is_now_during_trading_else_the_last_minute_before(
    market: Market, day: str, clock: str, expected: str
) -> None:
    """The fill dialog's default time (issue 19.5): never an instant outside trading, which every new fill used to
    start from (18:00, "outside trading")."""
    instant = datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tzinfo=MARKET_TZ[market])
    found = last_trading_minute(market, instant, CALENDARS.calendar(market), TABLES)
    assert found.strftime("%Y-%m-%d %H:%M") == expected and found.utcoffset() == instant.utcoffset()
    assert phase_at(market, found, CALENDARS.calendar(market), TABLES).phase in ("continuous", "closing_auction")
