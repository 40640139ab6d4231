"""The offline rules model's continuity: the old plan, what happened, what changed and what to do, with the old
call graded against the price path since (stockbench.research.continuity computes it; `PreviousReport.since`).

Every price it names is the previous report's level or this run's (the level gate lets continuity name both);
every other figure is a value of the previous report's block, which the continuity cites.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from stockbench.research.blocks import PreviousReport
from stockbench.research.continuity import Since
from stockbench.research.offline_prose import Reading, pct, what_to_do
from stockbench.research.wording import has, price


def continuity(reading: Reading, previous: PreviousReport | None, refused: Sequence[str], action: str) -> dict[
        str, Any]:  # fmt: skip
    """Old plan -> what happened -> what changed -> what to do, the old call graded against the price path."""
    if previous is None or previous.since is None:
        return _first_analysis(reading, previous, refused, action)
    since = previous.since
    return {
        "old_plan": _old_plan(reading, previous, since),
        "what_happened": _what_happened(reading, previous, since),
        "what_changed": _what_changed(reading, previous, since),
        "what_to_do": what_to_do(reading, action),
        "evidence": [e for e in (previous.evidence_id, *reading.cite("zones")) if e],
    }


def _first_analysis(reading: Reading, previous: PreviousReport | None, refused: Sequence[str], action: str) -> dict[
        str, Any]:  # fmt: skip
    if previous is not None:
        old = reading.say("continuity.old_plan_bare", report=previous.report_id,
                          action=reading.term("action", previous.action))  # fmt: skip
    elif refused:
        old = reading.say("continuity.refused", reports=", ".join(refused))
    else:
        old = reading.say("continuity.none")
    close = price(reading.close) if reading.close is not None else "-"
    return {
        "old_plan": old,
        "what_happened": reading.say("continuity.first" if previous is None else "continuity.no_path"),
        "what_changed": reading.say(
            "continuity.first_state", trend=reading.term("state.trend", reading.trend), close=close
        ),
        "what_to_do": what_to_do(reading, action),
        "evidence": [e for e in (previous.evidence_id if previous else None, *reading.cite("zones", "states")) if e],
    }


def _old_zones(reading: Reading, previous: PreviousReport) -> str:
    zones = previous.zones
    buy, sell, stop = zones.get("buy") or {}, zones.get("sell") or {}, zones.get("stop")
    if not buy:
        return ""
    parts = [reading.say("continuity.old_buy", low=price(Decimal(str(buy["low"]))),
                         high=price(Decimal(str(buy["high"]))))]  # fmt: skip
    if sell:
        parts.append(reading.say("continuity.old_sell", low=price(Decimal(str(sell["low"]))),
                                 high=price(Decimal(str(sell["high"])))))  # fmt: skip
    if stop is not None:
        parts.append(reading.say("continuity.old_stop", stop=price(Decimal(str(stop)))))
    return reading.say("list", items=reading.say("comma").join(parts))


def _old_plan(reading: Reading, previous: PreviousReport, since: Since) -> str:
    text = reading.say("continuity.old_plan", report=previous.report_id, day=since.from_day.isoformat(),
                       close=price(since.close_then), action=reading.term("action", previous.action))  # fmt: skip
    zones = _old_zones(reading, previous)
    return reading.say("then", first=text, second=zones) if zones else text


def _level(previous: PreviousReport, side: str, bound: str) -> str:
    value = (previous.zones.get(side) or {}).get(bound) if side != "stop" else previous.zones.get("stop")
    return price(Decimal(str(value))) if value is not None else "-"


def _what_happened(reading: Reading, previous: PreviousReport, since: Since) -> str:
    if since.sessions == 0 or since.high is None or since.low is None:
        return reading.say("continuity.same_session", day=since.from_day.isoformat(), close=price(since.close_now))
    move = reading.say("continuity.rose" if since.return_pct > 0 else "continuity.fell", pct=pct(since.return_pct))
    scaled = since.close_now_scaled
    rescaled = scaled is not None and scaled != since.close_now  # a dividend or split came in between
    path = reading.say("continuity.path_rescaled" if rescaled else "continuity.path", sessions=since.sessions,
                       day=since.to_day.isoformat(), close=price(since.close_now), move=move,
                       scaled=price(scaled) if scaled is not None else "-", high=price(since.high),
                       high_day=since.high_day.isoformat() if since.high_day else "-", low=price(since.low),
                       low_day=since.low_day.isoformat() if since.low_day else "-")  # fmt: skip
    touches = _touches(reading, previous, since)
    return reading.say("then", first=path, second=touches) if touches else path


def _touches(reading: Reading, previous: PreviousReport, since: Since) -> str:
    if not previous.zones.get("buy"):
        return ""
    parts = []
    for event, side in (("buy_zone", "buy"), ("sell_zone", "sell")):
        if not previous.zones.get(side):
            continue
        day = since.day_of(event)
        key = f"continuity.{side}_touched" if day else f"continuity.{side}_untouched"
        parts.append(reading.say(key, low=_level(previous, side, "low"), high=_level(previous, side, "high"),
                                 day=day.isoformat() if day else ""))  # fmt: skip
    if previous.zones.get("stop") is not None:
        closed, touched = since.day_of("stop_closed"), since.day_of("stop_touched")
        key = "stop_closed" if closed else "stop_touched" if touched else "stop_untouched"
        day = closed or touched
        parts.append(reading.say(f"continuity.{key}", stop=_level(previous, "stop", ""),
                                 day=day.isoformat() if day else ""))  # fmt: skip
    return reading.say("comma").join(parts)


def _what_changed(reading: Reading, previous: PreviousReport, since: Since) -> str:
    action = reading.term("action", previous.action)
    day = since.first_day or (since.from_day if since.grade == "too_early" else None)
    values = {"action": action, "day": day.isoformat() if day else "", "stop": _level(previous, "stop", ""),
              "sell_low": _level(previous, "sell", "low"), "sell_high": _level(previous, "sell", "high"),
              "buy_low": _level(previous, "buy", "low"), "buy_high": _level(previous, "buy", "high"),
              "high_pct": pct(since.high_pct or since.return_pct), "low_pct": pct(since.low_pct or since.return_pct),
              "move": reading.say("continuity.rose" if since.return_pct > 0 else "continuity.fell",
                                  pct=pct(since.return_pct))}  # fmt: skip
    key = f"grade.{since.grade}" if since.grade in {"open", "too_early"} else f"grade.{since.call}.{since.first}"
    graded = reading.say(key if has(f"offline.{key}") else f"grade.{since.grade}", **values)
    days = {"stopped_after_entry": since.day_of("stop_closed"), "target_before_entry": since.day_of("sell_zone"),
            "reversed_later": since.day_of("above_sell"),
            "target_after_entry": since.day_of("stop_closed")}  # fmt: skip
    for note in since.notes:
        if note == "stopped_after_entry" and since.first == "stop_closed":
            continue  # the grade already says so
        noted = days.get(note)
        said = reading.say(f"note.{note}", **{**values, "day": noted.isoformat() if noted else ""})
        graded = reading.say("then", first=graded, second=said)
    now = reading.zones
    if now is None or since.grade == "too_early":
        return graded
    moved = reading.say("continuity.rezoned", day=since.to_day.isoformat(), low=price(now.buy.low),
                        high=price(now.buy.high), trend=reading.term("state.trend", reading.trend))  # fmt: skip
    return reading.say("then", first=graded, second=moved)
