"""What happened since the previous report: the program's account of the old call against the price path.

Continuity grades the old call, so its numbers are the program's: the return since the report's session, the
highest and lowest prices of the sessions after it, the first session that reached each of its zones and its
stop, and the grade that follows from the call and which of its levels came first. Prices are on the old
report's price scale (forward-adjusted to its session, so an ex-dividend day in between does not move them
against the old zones); the return is on the adjusted closes (dividends included). The grade is read from the
old plan's own levels, so it needs no threshold of its own:
- a long call (buy, add, hold) is right when the sell zone (or, from inside it, a rise above it) comes before a
  close at or below the stop, wrong when the stop comes first;
- a bearish call (reduce, sell, avoid) is wrong when the price rises above the sell zone before it falls into
  the buy zone (or, from there, to the stop), right when the fall comes first;
- a wait is right when the buy zone is offered before the price rises above the sell zone, wrong otherwise.
A buy made above its buy zone is a buy in that zone: it is graded from the session its zone was reached (the
plan's entry), against the zone's top. Neither level reached is `open`; no session since is `too_early`. Notes
follow the grade where they apply: `stopped_after_entry` (the buy zone was reached, and a close at or below the
stop came after it, with no sell zone in between: a buy made there was stopped out), `target_after_entry` (the
same, but the sell zone came between: a buy made there sold in steps before the stop; 601318's wait of 2021-02-18
was told "stopped out" though its sell zone came four sessions after the entry), `entry_missed` (a buy made above
its buy zone, which the price never came back to: the plan's buy would not have filled), `target_before_entry` (the
sell zone came before the buy zone was reached: the direction was right, the buy had not filled yet) and
`reversed_later` (a bearish call graded right whose price later rose above the old sell zone: right only until then;
000001's avoid of 2020-03-20 was right three days later and the stock then rose 97% in the year).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, Literal

from stockbench.market.ticks import round_to_tick
from stockbench.research.levels import ZoneLevels

if TYPE_CHECKING:
    from stockbench.analytics.service import History

Call = Literal["long", "bearish", "wait", "none"]
Grade = Literal["right", "wrong", "open", "too_early"]
Event = Literal["buy_zone", "sell_zone", "above_sell", "stop_touched", "stop_closed"]
Note = Literal["stopped_after_entry", "target_after_entry", "entry_missed", "target_before_entry", "reversed_later"]
EVENTS: tuple[Event, ...] = ("buy_zone", "sell_zone", "above_sell", "stop_touched", "stop_closed")
CALLS: dict[str, Call] = {"buy": "long", "add": "long", "hold": "long", "reduce": "bearish", "sell": "bearish",
                          "avoid": "bearish", "wait": "wait"}  # fmt: skip
_CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Session:
    """One session after the report, on the report's price scale."""

    day: date
    high: Decimal
    low: Decimal
    close: Decimal


@dataclass(frozen=True)
class Since:
    """The sessions after a report's session up to the as-of session, measured against the report's plan."""

    from_day: date
    to_day: date
    sessions: int
    close_then: Decimal
    close_now: Decimal
    return_pct: Decimal
    # the last close on the previous report's price scale (the close then grown by the adjusted return), beside the
    # high and low it is compared with: the raw close next to old-scale extremes read as if it stood below a high
    # it had in fact passed, when a dividend came in between (300750: close 397.00 against a high of 425.62)
    close_now_scaled: Decimal | None = None
    high: Decimal | None = None
    high_day: date | None = None
    high_pct: Decimal | None = None
    low: Decimal | None = None
    low_day: date | None = None
    low_pct: Decimal | None = None
    touched: dict[str, date | None] = field(default_factory=dict)  # event -> the first session it happened
    call: Call = "none"
    first: Event | None = None  # the event that decided the grade
    first_day: date | None = None  # the session it happened
    grade: Grade = "open"
    notes: tuple[Note, ...] = ()

    def day_of(self, event: str) -> date | None:
        return self.touched.get(event)

    def as_json(self) -> dict[str, Any]:
        def text(value: Decimal | date | None) -> str | None:
            return None if value is None else format(value, "f") if isinstance(value, Decimal) else value.isoformat()

        return {
            "from_day": text(self.from_day),
            "to_day": text(self.to_day),
            "sessions": self.sessions,
            "close_then": text(self.close_then),
            "close_now": text(self.close_now),
            "close_now_scaled": text(self.close_now_scaled),
            "return_pct": text(self.return_pct),
            "high": text(self.high),
            "high_day": text(self.high_day),
            "high_pct": text(self.high_pct),
            "low": text(self.low),
            "low_day": text(self.low_day),
            "low_pct": text(self.low_pct),
            "touched": {k: text(v) for k, v in self.touched.items()},
            "call": self.call,
            "first": self.first,
            "first_day": text(self.first_day),
            "grade": self.grade,
            "notes": list(self.notes),
            "scale": "the previous report's price scale (forward-adjusted to its session)",
        }


def _pct(value: Decimal, base: Decimal) -> Decimal:
    return ((value / base - 1) * 100).quantize(_CENT, ROUND_HALF_UP)


def path_since(history: History, day: date, price: Decimal | None) -> tuple[Decimal, Decimal, list[Session]] | None:
    """(the close of `day`, the adjusted return factor to the last session, the sessions after `day`).

    `day` is the report's session (its last bar on or before it); `price` its close as the report showed it."""
    raw, adjusted = history.raw, history.adjusted
    before = adjusted.filter(adjusted["day"] <= day)
    if before.is_empty():
        return None
    base = before.row(-1, named=True)
    then = price if price is not None else Decimal(str(raw.filter(raw["day"] == base["day"])["close"][0]))
    scale = then / Decimal(repr(base["close"]))
    sessions = []
    instrument = history.instrument
    for bar in adjusted.filter(adjusted["day"] > base["day"]).iter_rows(named=True):
        high, low, close = (round_to_tick(instrument, Decimal(repr(bar[k])) * scale, bar["day"]) for k in
                            ("high", "low", "close"))  # fmt: skip
        sessions.append(Session(bar["day"], high, low, close))
    growth = Decimal(repr(adjusted["close"][-1])) / Decimal(repr(base["close"]))
    return then, growth, sessions


def _first(sessions: Sequence[Session], zones: ZoneLevels | None) -> dict[str, date | None]:
    found: dict[str, date | None] = dict.fromkeys(EVENTS)
    if zones is None:
        return found
    for s in sessions:
        hits = {
            "buy_zone": s.low <= zones.buy_high and s.high >= zones.buy_low,
            "sell_zone": zones.sell_low is not None and zones.sell_high is not None and s.high >= zones.sell_low
            and s.low <= zones.sell_high,
            "above_sell": zones.sell_high is not None and s.high > zones.sell_high,
            "stop_touched": zones.stop is not None and s.low <= zones.stop,
            "stop_closed": zones.stop is not None and s.close <= zones.stop,
        }  # fmt: skip
        for event, hit in hits.items():
            if hit and found[event] is None:
                found[event] = s.day
    return found


def _decisive(call: Call, then: Decimal, zones: ZoneLevels) -> tuple[tuple[Event, Grade], ...]:
    """The events that decide a call, in the order a tie goes (the conservative reading first)."""
    above_target = zones.sell_low is not None and then >= zones.sell_low
    if call == "long":
        return (("stop_closed", "wrong"), ("above_sell" if above_target else "sell_zone", "right"))
    if call == "bearish":
        fall: Event = "stop_closed" if then <= zones.buy_high else "buy_zone"
        return (("above_sell", "wrong"), (fall, "right"))
    if call == "wait":
        return (("above_sell", "wrong"), ("buy_zone", "right"))
    return ()


def grade(call: Call, then: Decimal, zones: ZoneLevels | None, touched: dict[str, date | None]) -> tuple[
        Event | None, Grade]:  # fmt: skip
    """Which of the call's decisive events came first, and the grade it gives."""
    if zones is None:
        return None, "open"
    reached = [(day, i, event, verdict) for i, (event, verdict) in enumerate(_decisive(call, then, zones))
               if (day := touched.get(event)) is not None]  # fmt: skip
    if not reached:
        return None, "open"
    _, _, event, verdict = min(reached)
    return event, verdict


@dataclass(frozen=True, slots=True)
class Graded:
    event: Event | None
    day: date | None
    grade: Grade
    notes: tuple[Note, ...]


def graded(action: str, then: Decimal, zones: ZoneLevels | None, sessions: Sequence[Session]) -> Graded:
    """The grade of a call of `action` made at `then` against `zones`, over `sessions` (a pending buy from its
    entry on), with its notes."""
    call = CALLS.get(action, "none")
    touched = _first(sessions, zones)
    entry = touched.get("buy_zone")
    pending = action == "buy" and zones is not None and then > zones.buy_high
    from_entry = _first([s for s in sessions if s.day >= entry], zones) if entry is not None else None
    if pending and zones is not None and from_entry is not None:
        event, verdict = grade(call, zones.buy_high, zones, from_entry)
        day = from_entry.get(event) if event else None
    else:
        event, verdict = grade(call, then, zones, touched)
        day = touched.get(event) if event else None
    found = notes(then, zones, touched, pending=pending, after_entry=from_entry)
    risen = touched.get("above_sell")
    if call == "bearish" and verdict == "right" and day is not None and risen is not None and risen > day:
        found = (*found, "reversed_later")
    return Graded(event, day, verdict, found)


def since_report(
    history: History, day: date, price: Decimal | None, zones: ZoneLevels | None, action: str
) -> Since | None:
    """The path since a report of `action` on session `day` (close `price`) with `zones`, to the last session of
    `history`; None when `history` has no bar on or before `day`."""
    found = path_since(history, day, price)
    if found is None:
        return None
    then, growth, sessions = found
    now = Decimal(str(history.raw["close"][-1]))
    call = CALLS.get(action, "none")
    to_day = sessions[-1].day if sessions else day
    change = ((growth - 1) * 100).quantize(_CENT, ROUND_HALF_UP)
    scaled = round_to_tick(history.instrument, then * growth, to_day)
    result = Since(day, to_day, len(sessions), then, now, change, close_now_scaled=scaled, call=call)
    if not sessions:
        return replace(result, grade="too_early")
    high = max(sessions, key=lambda s: (s.high, -s.day.toordinal()))
    low = min(sessions, key=lambda s: (s.low, s.day))
    touched = _first(sessions, zones)
    found_grade = graded(action, then, zones, sessions)
    return replace(
        result,
        high=high.high,
        high_day=high.day,
        high_pct=_pct(high.high, then),
        low=low.low,
        low_day=low.day,
        low_pct=_pct(low.low, then),
        touched=touched,
        first=found_grade.event,
        first_day=found_grade.day,
        grade=found_grade.grade,
        notes=found_grade.notes,
    )


def notes(
    then: Decimal, zones: ZoneLevels | None, touched: dict[str, date | None], *, pending: bool = False,
    after_entry: dict[str, date | None] | None = None,
) -> tuple[Note, ...]:  # fmt: skip
    """What a buy on the plan would have met: stopped out after the entry, or its target before the stop (the sell
    zone from the entry on, `after_entry`, before a close under the stop: a buy there sold in steps first), an entry
    that never came, or (for a pending buy) the target reached before the entry."""
    if zones is None:
        return ()
    entry, stop, target = touched.get("buy_zone"), touched.get("stop_closed"), touched.get("sell_zone")
    found: list[Note] = []
    if entry is not None and stop is not None and stop >= entry:
        sold = (after_entry or {}).get("sell_zone")
        # a tie (the sell zone and a close under the stop on one session) goes to the stop, the conservative reading
        found.append("target_after_entry" if sold is not None and sold < stop else "stopped_after_entry")
    if pending and entry is None:
        found.append("entry_missed")
    if pending and target is not None and entry is not None and target < entry:
        found.append("target_before_entry")
    return tuple(found)
