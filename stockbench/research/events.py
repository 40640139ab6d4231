"""Engine events for front ends: stage and sub-task titles (never drafts), pauses, cost, publication."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from stockbench.events import Event


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEvent(Event):
    run_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RunStarted(RunEvent):
    symbol: str
    model: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StageStarted(RunEvent):
    stage: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StageFinished(RunEvent):
    stage: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SubtaskTitle(RunEvent):
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RunPaused(RunEvent):
    stage: str
    reason: str
    resume_at: datetime | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CostUpdated(RunEvent):
    spent: Decimal
    calls: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportPublished(RunEvent):
    report_id: str
    symbol: str
    action: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEnded(RunEvent):
    status: str
