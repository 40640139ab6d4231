"""The track record's tables: matured calls and hit rates by action as row records, one table model over either,
with each table's columns declared as data (key, title, alignment, how a row renders, what colours it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
)

from stockbench.research.track_scoring import Scored
from stockbench.research.track_summary import ActionStats
from ui.i18n.action_words import action_word
from ui.models.record_table import CENTER, LEFT, RIGHT, Column, RecordTable

CONTEXT = "TrackRecordModel"


def translate(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def percent(value: Decimal | None) -> str:
    """A percentage the engine gives in percent (`5.00`), signed: `+5.00%`; a dash when unknown."""
    return "—" if value is None else f"{value:+.2f}%"


def rate(value: Decimal | None) -> str:
    """A fraction (`0.5`) as a percentage: `50.0%`; a dash when there is nothing to rate."""
    return "—" if value is None else f"{value * 100:.1f}%"


def hit_text(hit: bool | None) -> str:
    if hit is None:
        return "—"
    if hit:
        return QCoreApplication.translate("TrackRecordModel", "Hit")
    return QCoreApplication.translate("TrackRecordModel", "Miss")


@dataclass(frozen=True)
class CallRow:
    """A matured call: the report's action, its horizon and what the stock and the benchmark did over it."""

    report_id: str
    symbol: str
    day: date  # the call's as-of session
    action: str
    horizon: int
    return_pct: Decimal | None
    benchmark_pct: Decimal | None
    excess_pct: Decimal | None
    hit: bool | None
    suspended: bool = False

    @classmethod
    def of(cls, scored: Scored) -> CallRow:
        found = scored.as_dict()
        return cls(found["report_id"], found["symbol"], found["entry_day"], found["action"], found["horizon"],
                   found["return_pct"], found["benchmark_pct"], found["excess_pct"], found["hit"],
                   bool(found["suspended_at_exit"]))  # fmt: skip


@dataclass(frozen=True)
class ActionRow:
    """Hit rate of one action's matured calls (as `TrackRecord.summary().by_action` gives it)."""

    action: str
    calls: int
    judged: int
    hits: int
    hit_rate: Decimal | None
    mean_return_pct: Decimal | None
    mean_excess_pct: Decimal | None

    @classmethod
    def of(cls, action: str, found: ActionStats) -> ActionRow:
        return cls(action, found.calls, found.judged, found.hits, found.hit_rate, found.mean_return_pct,
                   found.mean_excess_pct)  # fmt: skip


CALL_COLUMNS: tuple[Column, ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Symbol")), LEFT, lambda r: r.symbol),
    Column("day", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Date")), CENTER, lambda r: r.day.isoformat()),
    Column("action", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Action")), CENTER, lambda r: action_word(r.action)),
    Column("horizon", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Horizon (sessions)")), RIGHT,
           lambda r: str(r.horizon)),
    Column("return", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Return")), RIGHT, lambda r: percent(r.return_pct),
           lambda r: r.return_pct),
    Column("benchmark", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Benchmark")), RIGHT,
           lambda r: percent(r.benchmark_pct), lambda r: r.benchmark_pct),
    Column("excess", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Excess")), RIGHT, lambda r: percent(r.excess_pct),
           lambda r: r.excess_pct),
    Column("hit", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Hit")), CENTER, lambda r: hit_text(r.hit)),
)  # fmt: skip
ACTION_COLUMNS: tuple[Column, ...] = (
    Column("action", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Action")), LEFT, lambda r: action_word(r.action)),
    Column("calls", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Matured")), RIGHT, lambda r: str(r.calls)),
    Column("judged", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Judged")), RIGHT, lambda r: str(r.judged)),
    Column("hits", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Hits")), RIGHT, lambda r: str(r.hits)),
    Column("hit_rate", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Hit rate")), RIGHT, lambda r: rate(r.hit_rate)),
    Column("mean_return", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Mean return")), RIGHT,
           lambda r: percent(r.mean_return_pct), lambda r: r.mean_return_pct),
    Column("mean_excess", str(QT_TRANSLATE_NOOP("TrackRecordModel", "Mean excess")), RIGHT,
           lambda r: percent(r.mean_excess_pct), lambda r: r.mean_excess_pct),
)  # fmt: skip


class RecordModel(RecordTable):
    """The track record's tables: column titles translated in this module's context."""

    context = CONTEXT
