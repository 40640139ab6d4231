"""Trading calendars: shipped sessions, the known range, workspace holidays and extensions, T+1/T+0."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stockbench.cli.main import run
from stockbench.errors import CalendarUnknown, InvalidInput
from stockbench.market.calendars import (
    Calendars,
    HolidayKind,
    TradingCalendar,
    sellable_from,
    settlement,
    shipped_calendar,
)
from stockbench.market.instruments import FundKind, SecurityType, parse_symbol
from stockbench.market.tables import load_tables
from stockbench.store.database import Database
from stockbench.store.migrations import migrate

TABLES = load_tables()
SHIPPED = Calendars(None, TABLES)
CN = SHIPPED.calendar("CN")
HK = SHIPPED.calendar("HK")


@pytest.fixture
def db() -> Iterator[Database]:
    database = Database(":memory:")
    migrate(database)
    yield database
    database.close()


@pytest.fixture
def calendars(db: Database) -> Calendars:
    return Calendars(db, TABLES)


def days(start: str, end: str) -> list[date]:
    first, last = date.fromisoformat(start), date.fromisoformat(end)
    return [first + timedelta(n) for n in range((last - first).days + 1)]


# --- the shipped calendars ------------------------------------------------------------------------


def test_cn_uses_xshg_and_hk_uses_xhkg_known_through_the_table() -> None:
    assert (CN.name, CN.known_through) == ("XSHG", date(2026, 12, 31))
    assert (HK.name, HK.known_through) == ("XHKG", date(2026, 12, 31))


def test_national_day_week_2026_is_closed() -> None:
    assert not any(CN.is_session(d) for d in days("2026-10-01", "2026-10-07"))
    assert CN.sessions(date(2026, 9, 28), date(2026, 10, 9)) == [
        date(2026, 9, 28),
        date(2026, 9, 29),
        date(2026, 9, 30),
        date(2026, 10, 8),
        date(2026, 10, 9),
    ]


def test_session_counts_match_the_exchange_years() -> None:
    assert CN.count_sessions(date(2024, 1, 1), date(2024, 12, 31)) == 242
    assert CN.count_sessions(date(2025, 1, 1), date(2025, 12, 31)) == 243


def test_weekends_are_never_cn_sessions_even_on_make_up_workdays() -> None:
    # 2025-01-26 (Sunday) and 2025-02-08 (Saturday) were Spring Festival make-up workdays for offices.
    assert not CN.is_session(date(2025, 1, 26))
    assert not CN.is_session(date(2025, 2, 8))
    assert CN.sessions(date(2025, 1, 24), date(2025, 2, 10)) == [
        date(2025, 1, 24),
        date(2025, 1, 27),
        date(2025, 2, 5),
        date(2025, 2, 6),
        date(2025, 2, 7),
        date(2025, 2, 10),
    ]


@pytest.mark.parametrize(
    "day",
    [date(2027, 1, 4), date(2027, 6, 1), date(2030, 3, 1)],
)
def test_cn_past_2026_is_unknown_not_a_weekday_guess(day: date) -> None:
    with pytest.raises(CalendarUnknown) as caught:
        CN.is_session(day)
    assert "known only through 2026-12-31" in caught.value.message
    assert "stockbench rules holiday add CN" in caught.value.hint
    assert "stockbench rules holiday extend CN" in caught.value.hint


def test_every_answer_past_the_known_range_is_unknown() -> None:
    end = date(2026, 12, 31)
    for ask in (
        lambda: CN.next_session(end),  # the next session would be in 2027
        lambda: CN.sessions(date(2026, 12, 1), date(2027, 1, 10)),
        lambda: CN.half_days(date(2026, 12, 1), date(2027, 1, 10)),
        lambda: CN.count_sessions(date(2026, 12, 1), date(2027, 1, 10)),
        lambda: CN.session_offset(date(2026, 12, 30), 2),
        lambda: CN.is_half_day(date(2027, 1, 4)),
        lambda: CN.previous_session(date(2027, 1, 4)),
    ):
        with pytest.raises(CalendarUnknown):
            ask()


def test_hk_2027_is_unknown_although_exchange_calendars_projects_it() -> None:
    with pytest.raises(CalendarUnknown):
        HK.is_session(date(2027, 3, 1))


def test_before_the_first_session_is_unknown_too() -> None:
    first = CN.known_from
    assert first.year == 1991
    with pytest.raises(CalendarUnknown, match=f"starts on {first}"):
        CN.is_session(first - timedelta(1))
    with pytest.raises(CalendarUnknown):
        CN.previous_session(first)
    assert CN.is_session(first)


def test_hk_half_days_are_christmas_new_year_and_lunar_new_year_eves_on_weekdays() -> None:
    assert HK.half_days(date(2025, 12, 1), date(2026, 12, 31)) == [
        date(2025, 12, 24),
        date(2025, 12, 31),
        date(2026, 2, 16),  # Lunar New Year's Eve, a Monday
        date(2026, 12, 24),
        date(2026, 12, 31),
    ]
    assert HK.is_session(date(2025, 12, 24))
    assert not HK.is_half_day(date(2025, 12, 23))
    assert not HK.is_session(date(2023, 12, 24))  # a Sunday: no half day
    assert CN.half_days(date(2025, 1, 1), date(2025, 12, 31)) == []


def test_next_previous_offset_and_count() -> None:
    assert CN.next_session(date(2026, 9, 30)) == date(2026, 10, 8)
    assert CN.previous_session(date(2026, 10, 8)) == date(2026, 9, 30)
    assert CN.next_session(date(2026, 10, 3)) == date(2026, 10, 8)
    assert CN.session_offset(date(2026, 9, 29), 2) == date(2026, 10, 8)
    assert CN.session_offset(date(2026, 10, 8), -2) == date(2026, 9, 29)
    assert CN.session_offset(date(2026, 10, 8), 0) == date(2026, 10, 8)
    with pytest.raises(InvalidInput):
        CN.session_offset(date(2026, 10, 1), 0)
    with pytest.raises(InvalidInput, match="ends before it starts"):
        CN.sessions(date(2026, 10, 9), date(2026, 10, 8))


def test_the_exchange_calendar_is_built_once_per_process() -> None:
    first = shipped_calendar("XSHG", date(2026, 12, 31))
    assert SHIPPED.calendar("CN").shipped is first
    assert shipped_calendar("XSHG", date(2026, 12, 31)) is first


def test_importing_the_calendar_modules_does_not_load_pandas() -> None:
    code = (
        "import sys, stockbench, stockbench.market.calendars, stockbench.market.sessions, "
        "stockbench.cli.rules_calendar\n"
        "heavy = {'pandas', 'exchange_calendars'} & set(sys.modules)\n"
        "assert not heavy, heavy"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


# --- workspace holidays and extensions ------------------------------------------------------------


def test_workspace_holidays_override_the_shipped_calendar(calendars: Calendars) -> None:
    calendars.add_holiday("CN", date(2026, 11, 30), "closed", "typhoon (example)")
    calendars.add_holiday("CN", date(2026, 10, 8), "closed")
    calendars.add_holiday("CN", date(2026, 10, 5), "open", "example")
    calendars.add_holiday("HK", date(2026, 12, 23), "half_day")
    cn, hk = calendars.calendar("CN"), calendars.calendar("HK")
    assert not cn.is_session(date(2026, 11, 30))
    assert cn.is_session(date(2026, 10, 5))
    assert cn.next_session(date(2026, 9, 30)) == date(2026, 10, 5)
    assert cn.next_session(date(2026, 10, 5)) == date(2026, 10, 9)
    assert hk.is_half_day(date(2026, 12, 23))
    assert [h.day for h in calendars.holidays("CN")] == [date(2026, 10, 5), date(2026, 10, 8), date(2026, 11, 30)]
    assert [h.market for h in calendars.holidays()] == ["CN", "CN", "CN", "HK"]


def test_a_later_entry_for_the_same_day_replaces_the_earlier(calendars: Calendars) -> None:
    calendars.add_holiday("CN", date(2026, 11, 30), "closed")
    calendars.add_holiday("CN", date(2026, 11, 30), "open", "was a mistake")
    assert calendars.calendar("CN").is_session(date(2026, 11, 30))
    assert [(h.kind, h.note) for h in calendars.holidays("CN")] == [("open", "was a mistake")]


def test_the_mainland_has_no_half_days_and_us_has_no_calendar(calendars: Calendars) -> None:
    with pytest.raises(InvalidInput, match="no half-day"):
        calendars.add_holiday("CN", date(2026, 12, 24), "half_day")
    with pytest.raises(InvalidInput, match="no trading calendar"):
        calendars.calendar("US")
    with pytest.raises(InvalidInput, match="unknown holiday kind"):
        calendars.add_holiday("CN", date(2026, 12, 24), "holiday")  # type: ignore[arg-type]


def test_an_extension_makes_2027_known_with_the_recorded_holidays(calendars: Calendars) -> None:
    for day in days("2027-02-05", "2027-02-12"):
        calendars.add_holiday("CN", day, "closed", "Spring Festival 2027")
    calendars.add_holiday("CN", date(2027, 1, 1), "closed", "New Year")
    done = calendars.extend("CN", date(2027, 12, 31), "SSE notice (example)")
    assert done.holidays_in_range == 9
    cn = calendars.calendar("CN")
    assert cn.known_through == date(2027, 12, 31)
    assert cn.is_session(date(2027, 1, 4))
    assert not cn.is_session(date(2027, 1, 1))
    assert not cn.is_session(date(2027, 1, 2))  # a Saturday
    assert cn.next_session(date(2026, 12, 31)) == date(2027, 1, 4)
    assert cn.next_session(date(2027, 2, 4)) == date(2027, 2, 15)
    with pytest.raises(CalendarUnknown, match="through 2027-12-31"):
        cn.is_session(date(2028, 1, 3))
    assert calendars.calendar("HK").known_through == date(2026, 12, 31)


def test_a_holiday_past_the_known_range_alone_does_not_make_it_known(calendars: Calendars) -> None:
    calendars.add_holiday("CN", date(2027, 1, 1), "closed")
    with pytest.raises(CalendarUnknown):
        calendars.calendar("CN").is_session(date(2027, 1, 4))


def test_an_extension_cannot_shrink_the_shipped_range(calendars: Calendars) -> None:
    with pytest.raises(InvalidInput, match="already known through 2026-12-31"):
        calendars.extend("CN", date(2026, 6, 30))


# --- settlement -----------------------------------------------------------------------------------


def test_a_share_stocks_and_ordinary_funds_are_t_plus_1() -> None:
    assert settlement(parse_symbol("600519"), TABLES) == "T+1"
    assert settlement(parse_symbol("300750"), TABLES) == "T+1"
    assert settlement(parse_symbol("510300"), TABLES) == "T+1"  # fund of unknown kind
    equity = parse_symbol("510300").with_data(fund_kind=FundKind.EQUITY)
    assert settlement(equity, TABLES) == "T+1"


@pytest.mark.parametrize("kind", [k for k in FundKind if k.value in TABLES.settlement["cn_fund_t0_kinds"]])
def test_listed_etf_kinds_are_t_plus_0(kind: FundKind) -> None:
    fund = parse_symbol("513100.SH").with_data(fund_kind=kind, security_type=SecurityType.FUND)
    assert settlement(fund, TABLES) == "T+0"


def test_the_t0_kinds_cover_the_market_facts() -> None:
    assert {"cross_border", "bond", "gold", "money_market"} <= set(TABLES.settlement["cn_fund_t0_kinds"])


def test_hk_is_same_day_and_an_index_has_no_settlement() -> None:
    assert settlement(parse_symbol("00700.HK"), TABLES) == "T+0"
    with pytest.raises(InvalidInput, match="index"):
        settlement(parse_symbol("000001.SH"), TABLES)


def test_t_plus_1_across_a_weekend() -> None:
    assert sellable_from(parse_symbol("600519"), date(2026, 11, 27), CN, TABLES) == date(2026, 11, 30)


def test_t_plus_1_across_the_spring_festival() -> None:
    assert sellable_from(parse_symbol("000001.SZ"), date(2026, 2, 13), CN, TABLES) == date(2026, 2, 24)


def test_t_plus_0_etf_and_hk_are_sellable_the_same_day() -> None:
    gold = parse_symbol("518880").with_data(fund_kind=FundKind.GOLD)
    assert sellable_from(gold, date(2026, 2, 13), CN, TABLES) == date(2026, 2, 13)
    assert sellable_from(parse_symbol("00700"), date(2025, 12, 24), HK, TABLES) == date(2025, 12, 24)


def test_sellable_needs_a_session_and_the_right_calendar() -> None:
    with pytest.raises(InvalidInput, match="not a CN session"):
        sellable_from(parse_symbol("600519"), date(2026, 10, 1), CN, TABLES)
    with pytest.raises(InvalidInput):
        sellable_from(parse_symbol("00700"), date(2025, 12, 24), CN, TABLES)
    with pytest.raises(CalendarUnknown):
        sellable_from(parse_symbol("600519"), date(2026, 12, 31), CN, TABLES)


# --- properties -----------------------------------------------------------------------------------

KNOWN_DAYS = st.dates(date(2005, 1, 1), date(2026, 12, 20))
OVERRIDES = st.dictionaries(
    st.dates(date(2026, 1, 1), date(2026, 12, 31)), st.sampled_from(["closed", "open", "half_day"]), max_size=8
)


def _with(calendar: TradingCalendar, overrides: dict[date, HolidayKind]) -> TradingCalendar:
    return TradingCalendar(calendar.market, calendar.shipped, calendar.known_through, overrides)


@settings(max_examples=60, deadline=None)
@given(day=KNOWN_DAYS, market=st.sampled_from(["CN", "HK"]))
def test_next_of_previous_is_the_day_itself_or_the_next_session(day: date, market: str) -> None:
    calendar = CN if market == "CN" else HK
    back = calendar.previous_session(day)
    assert back < day and calendar.is_session(back)
    between = days((back + timedelta(1)).isoformat(), (day - timedelta(1)).isoformat())
    assert not any(calendar.is_session(d) for d in between)
    expected = day if calendar.is_session(day) else calendar.next_session(day)
    assert calendar.next_session(back) == expected


@settings(max_examples=40, deadline=None)
@given(start=st.dates(date(2025, 11, 1), date(2026, 12, 31)), span=st.integers(0, 60), overrides=OVERRIDES)
def test_sessions_agree_with_is_session(start: date, span: int, overrides: dict[date, HolidayKind]) -> None:
    calendar = _with(HK, overrides)
    end = min(start + timedelta(span), calendar.known_through)
    listed = calendar.sessions(start, end)
    assert listed == [d for d in days(start.isoformat(), end.isoformat()) if calendar.is_session(d)]
    assert calendar.count_sessions(start, end) == len(listed)
    assert set(calendar.half_days(start, end)) <= set(listed)
    for day, kind in overrides.items():
        assert calendar.is_session(day) == (kind != "closed")


@settings(max_examples=40, deadline=None)
@given(day=st.dates(date(2005, 1, 1), date(2026, 11, 20)), n=st.integers(1, 15))
def test_offsets_walk_back_to_where_they_started(day: date, n: int) -> None:
    # 15 sessions from 2026-11-20 stay inside the known range (it ends 2026-12-31).
    start = day if CN.is_session(day) else CN.next_session(day)
    ahead = CN.session_offset(start, n)
    assert CN.count_sessions(start, ahead) == n + 1
    assert CN.session_offset(ahead, -n) == start


# --- CLI ------------------------------------------------------------------------------------------


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert run(["--json", "rules", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_cli_calendar_lists_sessions_and_half_days(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "calendar", "HK", "--from", "2025-12-20", "--to", "2026-01-02")
    assert data == {
        "market": "HK",
        "from": "2025-12-20",
        "to": "2026-01-02",
        "sessions": ["2025-12-22", "2025-12-23", "2025-12-24", "2025-12-29", "2025-12-30", "2025-12-31", "2026-01-02"],
        "half_days": ["2025-12-24", "2025-12-31"],
        "count": 7,
        "known_through": "2026-12-31",
    }


def test_cli_calendar_past_the_known_range_exits_1(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "calendar", "CN", "--from", "2026-12-28", "--to", "2027-01-08"]) == 1
    err = capsys.readouterr().err
    assert "error: the CN trading calendar is known only through 2026-12-31" in err
    assert "stockbench rules holiday extend CN" in err
    assert run(["--json", "rules", "calendar", "CN", "--from", "2027-01-04", "--to", "2027-01-08"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "calendar_unknown"


def test_cli_holiday_add_extend_list(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    added = _json(capsys, "holiday", "add", "CN", "2027-01-01", "--note", "New Year")
    assert added == {
        "market": "CN",
        "day": "2027-01-01",
        "kind": "closed",
        "note": "New Year",
        "known_through": "2026-12-31",
    }
    assert _json(capsys, "holiday", "add", "HK", "2026-12-23", "--half-day")["kind"] == "half_day"
    extended = _json(capsys, "holiday", "extend", "CN", "--through", "2027-01-31")
    assert extended == {"market": "CN", "known_through": "2027-01-31", "note": "", "holidays_in_range": 1}
    listed = _json(capsys, "holiday", "list")
    assert listed["known_through"] == {"CN": "2027-01-31", "HK": "2026-12-31"}
    assert [(h["market"], h["day"], h["kind"]) for h in listed["holidays"]] == [
        ("CN", "2027-01-01", "closed"),
        ("HK", "2026-12-23", "half_day"),
    ]
    assert _json(capsys, "holiday", "list", "HK")["known_through"] == {"HK": "2026-12-31"}
    data = _json(capsys, "calendar", "CN", "--from", "2026-12-31", "--to", "2027-01-05")
    assert data["sessions"] == ["2026-12-31", "2027-01-04", "2027-01-05"]


def test_cli_holiday_rejects_contradictory_flags(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["rules", "holiday", "add", "HK", "2026-12-23", "--half-day", "--open"]) == 2
    assert run(["rules", "holiday", "add", "CN", "2026-12-23", "--half-day"]) == 1
    assert "no half-day" in capsys.readouterr().err


def test_calendars_of_a_table_without_hk(db: Database) -> None:
    tables = replace(TABLES, calendars={"CN": TABLES.calendars["CN"]})
    with pytest.raises(InvalidInput, match="no trading calendar for market 'HK'") as caught:
        Calendars(db, tables).calendar("HK")
    assert caught.value.hint == "use one of CN"
