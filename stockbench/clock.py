"""What time it is, in each exchange's time zone: the real clock, or a replay clock for research of the past.

Every engine component asks the workbench's clock, never `datetime.now()`, so that `--as-of DATE` research
sees the market exactly as it stood on that date. Instants are timezone-aware; UTC inside, the
exchange's zone at the edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Literal, Protocol
from zoneinfo import ZoneInfo

from stockbench.errors import InvalidInput
from stockbench.messages import Language, user_error

Market = Literal["CN", "HK", "US"]
MARKETS: tuple[Market, ...] = ("CN", "HK", "US")

MARKET_TZ: dict[Market, ZoneInfo] = {
    "CN": ZoneInfo("Asia/Shanghai"),
    "HK": ZoneInfo("Asia/Hong_Kong"),
    "US": ZoneInfo("America/New_York"),
}

# A replay "as of DATE" stands at this local time on that date: after every CN and HK session
# (including HK's random close and CN after-hours trading) has ended.
AS_OF_LOCAL_TIME = time(18, 0)


class Clock(Protocol):
    """The source of "now" for the engine."""

    @property
    def is_replay(self) -> bool: ...

    def now(self) -> datetime:
        """The current instant, timezone-aware (UTC)."""
        ...


def now_in(clock: Clock, market: Market) -> datetime:
    """The clock's current instant in `market`'s time zone."""
    return clock.now().astimezone(MARKET_TZ[market])


def today_in(clock: Clock, market: Market) -> date:
    """The calendar date in `market`'s time zone."""
    return now_in(clock, market).date()


class SystemClock:
    """The real clock."""

    is_replay = False

    def now(self) -> datetime:
        return datetime.now(UTC)

    def __repr__(self) -> str:
        return "SystemClock()"


@dataclass(frozen=True)
class ReplayClock:
    """A clock frozen at a past instant, for research "as of" a date: nothing later is visible."""

    at: datetime

    def __post_init__(self) -> None:
        if self.at.tzinfo is None:
            raise user_error(InvalidInput, "instant_naive.replay", instant=self.at.isoformat())

    @property
    def is_replay(self) -> bool:
        return True

    def now(self) -> datetime:
        return self.at.astimezone(UTC)

    @classmethod
    def as_of(cls, day: date, market: Market = "CN") -> ReplayClock:
        """Stand after the close of `day` in `market` (18:00 local)."""
        return cls(datetime.combine(day, AS_OF_LOCAL_TIME, tzinfo=MARKET_TZ[market]))


class RecordedClock:
    """The clock of a replayed recording: a live clock (not a replay one) standing at the instant the recording was
    made and running on with the wall clock, so the fetches ask what they asked then (a quote inside a session)."""

    is_replay = False

    def __init__(self, started: datetime) -> None:
        if started.tzinfo is None:
            raise user_error(InvalidInput, "instant_naive.recorded", instant=started.isoformat())
        self.started, self._wall = started.astimezone(UTC), datetime.now(UTC)

    def now(self) -> datetime:
        return self.started + (datetime.now(UTC) - self._wall)

    def __repr__(self) -> str:
        return f"RecordedClock({self.started.isoformat()})"


def market_words(market: str, at: datetime, language: Language) -> str:
    """An instant as people read it in `market`'s time zone, with the zone named ("2024-01-02 09:00:00 北京时间
    （UTC+08:00）"); an unknown market is read in Beijing time."""
    from stockbench.messages import TIMES

    local = at.astimezone(MARKET_TZ.get(market, MARKET_TZ["CN"]))  # type: ignore[call-overload]
    offset = local.strftime("%z")
    zone = zone_words(market, language) if f"report.zone.{market}" in TIMES else str(local.tzinfo)
    return TIMES["report.time"].text(language).format(at=f"{local:%Y-%m-%d %H:%M:%S}", zone=zone,
                                                      offset=f"{offset[:3]}:{offset[3:]}")  # fmt: skip


def zone_words(market: str, language: Language) -> str:
    """The name of `market`'s time zone (北京时间, Hong Kong time), for a time box a person fills in; Beijing time
    for an unknown market."""
    from stockbench.messages import TIMES

    return TIMES.get(f"report.zone.{market}", TIMES["report.zone.CN"]).text(language)


def instant_of(value: object) -> datetime | None:
    """An instant as a result carries it (a datetime, or its ISO text once made plain for output); None when it is
    neither."""
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def local_words(at: datetime) -> str:
    """An instant in the user's own time zone, named ("2026-12-03 18:46:01 CST"), for what no exchange applies to
    (a workspace's creation, a lock's start); a naive `at` is taken as UTC."""
    local = (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).astimezone()
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or local.strftime('%z')}"


def parse_instant(text: str, market: Market = "CN") -> datetime:
    """Parse an ISO instant; a naive one is read in `market`'s time zone, a bare date as that day's 18:00."""
    text = text.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), AS_OF_LOCAL_TIME, tzinfo=MARKET_TZ[market])
        value = datetime.fromisoformat(text)
    except ValueError:
        raise user_error(InvalidInput, "not_an_instant", text=text) from None
    return value if value.tzinfo else value.replace(tzinfo=MARKET_TZ[market])


def parse_date(text: str) -> date:
    """Parse a calendar date YYYY-MM-DD with a clear error."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise user_error(InvalidInput, "not_a_date", text=text) from None


def clock_for(as_of: str | None) -> Clock:
    """The clock a front end should use: a replay clock for `--as-of`, else the real one."""
    return ReplayClock(parse_instant(as_of)) if as_of else SystemClock()
