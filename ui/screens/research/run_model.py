"""The research runs as a Qt table: live runs updated from engine events, earlier runs from the run history.

Only titles are kept (stage titles and the engine's sub-task titles), never drafts. Elapsed time is measured
on this machine's monotonic clock while a run executes here, because the engine's clock may be a replay clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import Any, Literal

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from stockbench.events import Event
from stockbench.research.events import (
    CostUpdated,
    ReportPublished,
    RunEnded,
    RunEvent,
    RunPaused,
    RunStarted,
    StageStarted,
    SubtaskTitle,
)
from stockbench.research.outcomes import RunAction, RunListing
from ui.i18n.action_words import action_word
from ui.models import reword
from ui.screens.reports.reports_model import model_title
from ui.widgets.column_fit import given_up_tip

Index = QModelIndex | QPersistentModelIndex
TimelineKind = Literal["stage", "subtask", "pause", "note"]

STAGE_TITLES: dict[str, str] = {
    "prepare": str(QT_TRANSLATE_NOOP("ResearchStages", "Preparing: clock, identity, ledger and data gates")),
    "scene": str(QT_TRANSLATE_NOOP("ResearchStages", "Scene: sector index, anchors and peers")),
    "collect": str(QT_TRANSLATE_NOOP("ResearchStages", "Collecting what the scene implies")),
    "preprocess": str(QT_TRANSLATE_NOOP("ResearchStages", "Computing indicators, states, zones and scenarios")),
    "analyze": str(QT_TRANSLATE_NOOP("ResearchStages", "Analysing: BULL and BEAR, then the diagnosis")),
    "decide": str(QT_TRANSLATE_NOOP("ResearchStages", "Deciding: judgments checked, orders sized")),
    "report": str(QT_TRANSLATE_NOOP("ResearchStages", "Writing the report")),
    "publish": str(QT_TRANSLATE_NOOP("ResearchStages", "Publishing: every gate in one pass")),
    "quick_review": str(QT_TRANSLATE_NOOP("ResearchStages", "Quick review: each change since the report, answered")),
}
# A stage's name alone, for the run table's narrow column (its title above is shown beside the selected run and as
# the cell's tooltip: in the table it ran past the dock's edge, "Publishing: every gate in one pa").
STAGE_NAMES: dict[str, str] = {
    "prepare": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Preparing")),
    "scene": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Scene")),
    "collect": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Collecting")),
    "preprocess": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Computing")),
    "analyze": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Analysing")),
    "decide": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Deciding")),
    "report": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Writing")),
    "publish": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Publishing")),
    "quick_review": str(QT_TRANSLATE_NOOP("ResearchStageNames", "Quick review")),
}
STATUS_TITLES: dict[str, str] = {
    "planned": str(QT_TRANSLATE_NOOP("ResearchStatus", "Planned")),
    "queued": str(QT_TRANSLATE_NOOP("ResearchStatus", "Queued")),
    "running": str(QT_TRANSLATE_NOOP("ResearchStatus", "Running")),
    "paused": str(QT_TRANSLATE_NOOP("ResearchStatus", "Paused")),
    "published": str(QT_TRANSLATE_NOOP("ResearchStatus", "Published")),
    "stopped": str(QT_TRANSLATE_NOOP("ResearchStatus", "Stopped")),
    "failed": str(QT_TRANSLATE_NOOP("ResearchStatus", "Failed")),
    "error": str(QT_TRANSLATE_NOOP("ResearchStatus", "Error")),
}
ENDED = frozenset({"published", "stopped", "failed"})
# The engine's sub-task titles are English text, not keys; the known ones are marked here so that they can be
# translated (an unknown title is shown as the engine wrote it).
KNOWN_SUBTASKS = (
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Clock, identity, ledger and data gates"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Fetching what the scene implies"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Indicators, states, zones, backtest and scenarios"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "BULL sub-study"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "BEAR sub-study"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Refreshing the quote"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Sizing orders against the ledger"),
    QT_TRANSLATE_NOOP("ResearchSubtasks", "Publication gates"),
)


def stage_title(stage: str) -> str:
    """The user-facing title of an engine stage key (the key itself when unknown)."""
    return QCoreApplication.translate("ResearchStages", STAGE_TITLES[stage]) if stage in STAGE_TITLES else stage


def stage_name(stage: str) -> str:
    """A stage's short name (its title when it has none, the key itself when unknown)."""
    if stage in STAGE_NAMES:
        return QCoreApplication.translate("ResearchStageNames", STAGE_NAMES[stage])
    return stage_title(stage)


def subtask_title(title: str) -> str:
    """An engine sub-task title in the user's language when it is a known one."""
    return QCoreApplication.translate("ResearchSubtasks", title)


def status_title(status: str) -> str:
    return QCoreApplication.translate("ResearchStatus", STATUS_TITLES[status]) if status in STATUS_TITLES else status


@dataclass(frozen=True)
class TimelineEntry:
    kind: TimelineKind
    text: str  # a stage key for "stage", otherwise a title or reason as the engine gave it


_STAGELESS = frozenset({"published", "planned", "queued"})


def journal_timeline(actions: Iterable[RunAction]) -> tuple[TimelineEntry, ...]:
    """The stages a run finished, in order, read from its journal: the timeline of a run that did not execute in this
    window (it lists the stages as they happen; a run from the history showed an empty box)."""
    done = (a for a in actions if a.kind == "stage" and a.phase == "result" and a.outcome == "ok")
    stages = [a.key.partition("/")[0] for a in done]
    return tuple(TimelineEntry("stage", stage) for stage in dict.fromkeys(stages))


@dataclass(frozen=True)
class RunRow:
    """One run as the panel shows it."""

    run_id: str
    symbol: str
    model: str = ""
    status: str = "planned"
    stage: str = ""
    subtask: str = ""
    reason: str = ""
    resume_at: datetime | None = None
    calls: int | None = None
    cost: Decimal | None = None
    report_id: str | None = None
    action: str | None = None
    question: str | None = None
    started: datetime | None = None
    elapsed: float = 0.0  # seconds executed here before `running_since`
    running_since: float | None = None  # time.monotonic() when it last started executing here
    timeline: tuple[TimelineEntry, ...] = field(default=())

    def elapsed_now(self, now: float | None = None) -> float:
        if self.running_since is None:
            return self.elapsed
        return self.elapsed + ((time.monotonic() if now is None else now) - self.running_since)

    def executing(self) -> bool:
        return self.running_since is not None

    def shown_stage(self) -> str:
        """The stage key this run is at (or paused, stopped or failed at), or "" when it has none to be at: a
        published run is done (its last stage read "Publishing" as if it still were), a planned or queued one has
        not begun. The status cell, its tip and the panel's title above the timeline all say this one."""
        return "" if self.status in _STAGELESS else self.stage

    def with_entry(self, kind: TimelineKind, text: str) -> RunRow:
        return replace(self, timeline=(*self.timeline, TimelineEntry(kind, text)))

    def started_executing(self) -> RunRow:
        if self.running_since is not None:
            return self
        return replace(self, running_since=time.monotonic(), status="running", reason="", resume_at=None)

    def stopped_executing(self) -> RunRow:
        if self.running_since is None:
            return self
        return replace(self, elapsed=self.elapsed_now(), running_since=None)


def format_elapsed(seconds: float) -> str:
    whole = int(seconds)
    return (
        f"{whole // 3600:d}:{whole // 60 % 60:02d}:{whole % 60:02d}"
        if whole >= 3600
        else f"{whole // 60:d}:{whole % 60:02d}"
    )


def format_cost(cost: Decimal | None) -> str:
    return "" if cost is None else f"{cost.quantize(Decimal('0.0001')).normalize():f}"


@dataclass(frozen=True)
class Column:
    key: str
    title: str  # marked with QT_TRANSLATE_NOOP("RunModel", ...)
    value: Callable[[RunRow], str]
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft


def _status_cell(row: RunRow) -> str:
    """Where a run stands: its status, with the stage it is at (or paused, stopped or failed at) while it has one to
    be at; a published run's status alone (a column of its own read "Publishing" there, as if it still were)."""
    status, stage = status_title(row.status), row.shown_stage()
    if not stage:
        return status
    return QCoreApplication.translate("RunModel", "%1 · %2").replace("%1", status).replace("%2", stage_name(stage))


# What a run is, where it stands (its status and stage in one cell: a running run has no action yet, a published
# one no stage), what it said and which model writes it come first, in view in a narrow dock at 1366x768 (after the
# sub-task, time, calls and cost the model was past the dock's edge, cut to "offline rul..." by the border; the
# action, last, was seen only by scrolling sideways).
COLUMNS: tuple[Column, ...] = (
    Column("symbol", str(QT_TRANSLATE_NOOP("RunModel", "Symbol")), lambda r: r.symbol),
    Column("status", str(QT_TRANSLATE_NOOP("RunModel", "Status")), _status_cell),
    Column("action", str(QT_TRANSLATE_NOOP("RunModel", "Action")), lambda r: action_word(r.action) if r.action else ""),
    Column("model", str(QT_TRANSLATE_NOOP("RunModel", "Model")), lambda r: model_title(r.model)),
    Column("subtask", str(QT_TRANSLATE_NOOP("RunModel", "Sub-task")), lambda r: subtask_title(r.subtask)),
    Column(
        "elapsed",
        str(QT_TRANSLATE_NOOP("RunModel", "Elapsed")),
        lambda r: format_elapsed(r.elapsed_now()) if r.elapsed or r.running_since else "",
        Qt.AlignmentFlag.AlignRight,
    ),
    Column(
        "calls",
        str(QT_TRANSLATE_NOOP("RunModel", "Model calls")),
        lambda r: "" if r.calls is None else str(r.calls),
        Qt.AlignmentFlag.AlignRight,
    ),
    Column(
        "cost", str(QT_TRANSLATE_NOOP("RunModel", "Cost")), lambda r: format_cost(r.cost), Qt.AlignmentFlag.AlignRight
    ),
    Column("run_id", str(QT_TRANSLATE_NOOP("RunModel", "Run")), lambda r: r.run_id),
)
COLUMN_INDEX = {c.key: i for i, c in enumerate(COLUMNS)}
# Given up in this order where the dock is too narrow for every column (ui.widgets.column_fit; the selected run's
# box below says them all, and a row's tip says those given up): the run's id, its cost, calls, time and sub-task.
OPTIONAL_COLUMNS = ("run_id", "cost", "calls", "elapsed", "subtask")


def _on_event(row: RunRow, event: RunEvent) -> RunRow:
    """`row` after one engine event (titles only)."""
    if isinstance(event, StageStarted):
        status = row.status if row.status == "error" else "running"
        return replace(row, stage=event.stage, subtask="", status=status).with_entry("stage", event.stage)
    if isinstance(event, SubtaskTitle):
        return replace(row, subtask=event.title).with_entry("subtask", event.title)
    if isinstance(event, RunPaused):
        paused = replace(row.stopped_executing(), status="paused", stage=event.stage, reason=event.reason,
                         resume_at=event.resume_at)  # fmt: skip
        return paused.with_entry("pause", event.reason)
    if isinstance(event, CostUpdated):
        return replace(row, cost=event.spent, calls=event.calls)
    if isinstance(event, ReportPublished):
        return replace(row, report_id=event.report_id, action=event.action)
    if isinstance(event, RunEnded):
        ended = row.stopped_executing()
        return replace(ended, status=event.status if event.status != "paused" else ended.status, subtask="")
    return row


class RunModel(QAbstractTableModel):
    """Runs by id: the live ones first (in the order they were started here), then the history."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[RunRow] = []
        self._at: dict[str, int] = {}  # run id -> its row (650 runs of history looked up one by one took 20 ms)
        self.given_up: Callable[[], Sequence[str]] = tuple  # the keys of the columns the view gives up for room

    # ---- Qt model --------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self._rows[index.row()], COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.value(row)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(column.align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            given_up = set(self.given_up())
            tips = [
                self._cell_tip(row, column.key),
                given_up_tip(
                    (QCoreApplication.translate("RunModel", c.title), c.value(row))
                    for c in COLUMNS
                    if c.key in given_up
                ),
            ]
            return "\n".join(t for t in tips if t) or None
        if role == Qt.ItemDataRole.UserRole:
            return row.run_id
        return None

    @staticmethod
    def _cell_tip(row: RunRow, key: str) -> str:
        if key == "status":
            stage = row.shown_stage()
            said = (stage_title(stage) if stage else "", row.reason)  # the stage's whole title, and why
            return "\n".join(t for t in said if t)
        if key == "model" and row.model:
            return model_title(row.model)  # a long model name is read whole here when its cell is cut
        if key == "subtask" and row.subtask:
            return subtask_title(row.subtask)
        return ""

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return QCoreApplication.translate("RunModel", COLUMNS[section].title)
        return None

    def retranslate(self) -> None:
        """Ask the views to read the titles and cells again (in the current language); rows and widths stay."""
        reword(self)

    # ---- rows --------------------------------------------------------------------------------------
    def rows(self) -> list[RunRow]:
        return list(self._rows)

    def row(self, run_id: str) -> RunRow | None:
        at = self._at.get(run_id)
        return None if at is None else self._rows[at]

    def row_index(self, run_id: str) -> int:
        return self._at.get(run_id, -1)

    def upsert(self, row: RunRow, *, first: bool = False) -> None:
        """Replace the row with `row.run_id`, or add it (at the top when `first`)."""
        at = self.row_index(row.run_id)
        if at >= 0:
            if self._rows[at] != row:  # the history read again says the same of most runs: no change to show
                self._rows[at] = row
                self.dataChanged.emit(self.index(at, 0), self.index(at, len(COLUMNS) - 1))
            return
        self._insert(0 if first else len(self._rows), [row])

    def update(self, run_id: str, change: Callable[[RunRow], RunRow]) -> RunRow | None:
        found = self.row(run_id)
        if found is None:
            return None
        changed = change(found)
        self.upsert(changed)
        return changed

    def apply(self, events: Iterable[Event]) -> set[str]:
        """Apply engine events to their runs; returns the run ids that changed."""
        touched: set[str] = set()
        for event in events:
            if not isinstance(event, RunEvent):
                continue
            if isinstance(event, RunStarted) and self.row(event.run_id) is None:
                self.upsert(RunRow(event.run_id, event.symbol, event.model, started=event.at), first=True)
            if self.update(event.run_id, lambda r, e=event: _on_event(r, e)) is not None:  # type: ignore[misc]
                touched.add(event.run_id)
        return touched

    def merge_history(self, history: Iterable[RunListing]) -> None:
        """Add or refresh runs from `Research.runs()`; runs executing here keep their live state."""
        newer: list[RunRow] = []  # new runs listed before any run shown (started elsewhere since): at the top
        added: list[RunRow] = []  # the others (a first read): below
        above = bool(self._rows)  # above every run listed (a first read lists them all below)
        for item in history:
            known = self.row(item.run_id)
            above = above and known is None
            if known is not None and (known.executing() or known.status == "error"):
                continue
            base = known or RunRow(item.run_id, item.symbol, item.model)
            row = replace(
                base,
                status=item.status,
                stage=item.stage,
                reason=item.reason,
                started=item.started,
                report_id=item.report_id or base.report_id,
                action=item.action or base.action,
            )
            if known is None:
                (newer if above else added).append(row)
            else:
                self.upsert(row)
        self._insert(0, newer)
        self._insert(len(self._rows), added)

    def _insert(self, at: int, rows: list[RunRow]) -> None:
        """`rows` at `at`, in one insertion: the view and the column fit take a whole history in at once."""
        if not rows:
            return
        self.beginInsertRows(QModelIndex(), at, at + len(rows) - 1)
        self._rows[at:at] = rows
        self._at = {r.run_id: i for i, r in enumerate(self._rows)}
        self.endInsertRows()

    def tick(self) -> None:
        """Refresh the elapsed column of executing runs (called once a second)."""
        column = COLUMN_INDEX["elapsed"]
        for i, row in enumerate(self._rows):
            if row.executing():
                self.dataChanged.emit(self.index(i, column), self.index(i, column))
