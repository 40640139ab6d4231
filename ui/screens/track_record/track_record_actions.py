"""EngineOp factories of the track record screen: score the workspace's published calls (or one symbol's) at
the clock, summarised in the background so the GUI thread only lays the figures out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.research.track_scoring import ACTIONS
from stockbench.research.track_summary import TrackSummary
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext
from ui.screens.track_record.track_record_model import ActionRow, CallRow

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]


@dataclass(frozen=True)
class RecordView:
    """What the screen shows: the filter, the engine's summary, its matured calls and hit rates by action."""

    symbol: str  # the symbol filter ("" for the whole workspace)
    as_of: datetime
    summary: TrackSummary
    calls: tuple[CallRow, ...]
    actions: tuple[ActionRow, ...]


def _view(bench: Workbench, symbol: str) -> RecordView:
    record = bench.track_records.compute(symbol=symbol or None)
    summary = record.summary()
    calls = tuple(CallRow.of(s) for s in record.matured())
    actions = tuple(ActionRow.of(a, summary.by_action[a]) for a in ACTIONS if summary.by_action[a].calls)
    return RecordView(symbol, record.as_of, summary, calls, actions)


def load_record(ctx: AppContext, parent: QWidget, symbol: str, success: Success, failure: Failure) -> EngineOp:
    """The track record of `symbol` (every symbol when empty) at the workspace's clock."""
    return ctx.op(lambda bench: _view(bench, symbol.strip()), success, failure=failure, parent=parent)
