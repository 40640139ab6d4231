from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from stockbench.clock import ReplayClock, SystemClock, clock_for, now_in, parse_date, parse_instant, today_in
from stockbench.errors import InvalidInput


def test_replay_as_of_stands_after_the_close() -> None:
    clock = ReplayClock.as_of(date(2021, 12, 31))
    assert clock.is_replay
    assert clock.now() == datetime(2021, 12, 31, 10, 0, tzinfo=UTC)
    assert now_in(clock, "HK").hour == 18
    assert today_in(clock, "US") == date(2021, 12, 31)


def test_system_clock_is_aware() -> None:
    assert SystemClock().now().tzinfo is not None
    assert not SystemClock().is_replay


def test_naive_instants_are_read_in_the_exchange_zone() -> None:
    assert parse_instant("2024-03-01T09:30").utcoffset().total_seconds() == 8 * 3600  # type: ignore[union-attr]
    assert parse_instant("2024-03-01T09:30", "US").tzname() in {"EST", "EDT"}
    assert parse_instant("2024-03-01T09:30:00+00:00").tzinfo == UTC


def test_bad_dates_are_user_errors() -> None:
    with pytest.raises(InvalidInput, match="'2021-13-01' is not a date"):
        parse_date("2021-13-01")
    with pytest.raises(InvalidInput, match="no time zone"):
        ReplayClock(datetime(2021, 1, 1))  # noqa: DTZ001


def test_clock_for() -> None:
    assert isinstance(clock_for(None), SystemClock)
    assert clock_for("2020-01-02").now() == datetime(2020, 1, 2, 10, tzinfo=UTC)
