"""The main window's status bar: workspace, clock, CN and HK session phases, data freshness, the data sources'
health light, running research.

Phases come from the rule tables and trading calendars (`bench.market`) at the workbench clock's instant, so
a replay clock shows the market as it stood then. Everything is read in the background and re-read on a timer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QLabel, QStatusBar, QWidget

from stockbench.clock import AS_OF_LOCAL_TIME, MARKET_TZ, Market, market_words
from stockbench.errors import CalendarUnknown
from ui.i18n.language import engine_language

if TYPE_CHECKING:
    from stockbench.workbench import Workbench
    from ui.context import AppContext

PHASE_MARKETS: tuple[Market, ...] = ("CN", "HK")
PHASE_REFRESH_MS = 30_000
FRESHNESS_REFRESH_MS = 300_000
PHASE_TEXT: dict[str, str] = {
    "closed": str(QT_TRANSLATE_NOOP("StatusBar", "Closed")),
    "preopen_cancellable": str(QT_TRANSLATE_NOOP("StatusBar", "Opening auction")),
    "preopen_noncancellable": str(QT_TRANSLATE_NOOP("StatusBar", "Opening auction (no cancel)")),
    "preopen_wait": str(QT_TRANSLATE_NOOP("StatusBar", "About to open")),
    "continuous": str(QT_TRANSLATE_NOOP("StatusBar", "Trading")),
    "lunch_break": str(QT_TRANSLATE_NOOP("StatusBar", "Lunch break")),
    "closing_auction": str(QT_TRANSLATE_NOOP("StatusBar", "Closing auction")),
    "after_hours_fixed_price": str(QT_TRANSLATE_NOOP("StatusBar", "After-hours fixed price")),
}
LIGHT_COLOUR = {"ok": "#2e9d48", "degraded": "#d89614", "failing": "#d03b30"}
SOURCE_STATE_TEXT: dict[str, str] = {
    "ok": str(QT_TRANSLATE_NOOP("StatusBar", "ok")),
    "resting": str(QT_TRANSLATE_NOOP("StatusBar", "resting")),
    "failing": str(QT_TRANSLATE_NOOP("StatusBar", "failing")),
    "disabled": str(QT_TRANSLATE_NOOP("StatusBar", "disabled")),
}
MARKET_TEXT: dict[str, str] = {
    "CN": str(QT_TRANSLATE_NOOP("StatusBar", "A-shares")),
    "HK": str(QT_TRANSLATE_NOOP("StatusBar", "HK")),
}


@dataclass(frozen=True)
class MarketPhase:
    """One market's phase at the clock's instant; `phase` None when the calendar does not cover the day."""

    market: Market
    phase: str | None
    trading_day: bool
    half_day: bool
    local: datetime


@dataclass(frozen=True)
class Freshness:
    """The newest cached daily bar and how many CN sessions have closed since (None: unknown)."""

    last_bar: date | None
    behind: int | None


@dataclass(frozen=True)
class SourceLight:
    """The data sources' health: ok (green), degraded (amber: some resting or failing while the chains still
    answer, or a watched symbol's quote is stale), failing (red: a service has no endpoint left); `states` is
    (endpoint, state) of each enabled one, `stale` the watched symbols whose latest quote is stale."""

    level: str
    states: tuple[tuple[str, str], ...]
    stale: tuple[str, ...] = ()


def read_source_light(bench: Workbench) -> SourceLight:
    """The health light of the data sources and the watched symbols' quotes (runs in the background; reads only
    what is stored)."""
    book = bench.data.sources
    states = tuple((s.name, s.state) for s in book.sources() if s.enabled)
    stale = tuple(sym for sym in bench.watchlist.symbols() if bench.data.quote(sym, fetch=False).label == "stale")
    level = book.health()
    return SourceLight("degraded" if level == "ok" and stale else level, states, stale)


def read_phases(bench: Workbench) -> tuple[MarketPhase, ...]:
    """The CN and HK phases at the workbench clock's instant (runs in the background)."""
    now = bench.clock.now()
    found = []
    for market in PHASE_MARKETS:
        local = now.astimezone(MARKET_TZ[market])
        try:
            state = bench.market.phase(market, now)
        except CalendarUnknown:
            found.append(MarketPhase(market, None, False, False, local))
            continue
        found.append(MarketPhase(market, state.phase, state.trading_day, state.half_day, local))
    return tuple(found)


def read_freshness(bench: Workbench) -> Freshness:
    """The newest visible daily bar in the workspace against the last CN session whose data is final."""
    cache = bench.data.cache
    days = [c.last for symbol in bench.analytics.universe("all") for c in cache.coverage("bars", symbol)]
    last = max((d for d in days if d is not None), default=None)
    if last is None:
        return Freshness(None, None)
    local = bench.clock.now().astimezone(MARKET_TZ["CN"])
    try:
        calendar = bench.market.calendars.calendar("CN")
        final = local.date() if local.time() >= AS_OF_LOCAL_TIME else local.date() - timedelta(days=1)
        behind = calendar.count_sessions(last + timedelta(days=1), final) if final > last else 0
    except CalendarUnknown:
        return Freshness(last, None)
    return Freshness(last, behind)


class ResearchTracker(QObject):
    """Which research runs are executing now, from the engine's run events."""

    changed = Signal(int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.running: set[str] = set()

    @Slot(object)
    def observe(self, event: object) -> None:
        from stockbench.research.events import RunEnded, RunStarted

        before = len(self.running)
        if isinstance(event, RunStarted):
            self.running.add(event.run_id)
        elif isinstance(event, RunEnded):
            self.running.discard(event.run_id)
        if len(self.running) != before:
            self.changed.emit(len(self.running))


# Fields a message may cover for its few seconds (Qt hides a status bar's normal widgets while it shows a message),
# and the ones always in view. All seven permanent left a message about 200 px at 1366x768: "The last session on
# this workspac" of a sentence saying the workspace had been taken over. The clock, the markets and the data's date
# come back when the message ends; the sources' light and the running research never leave.
COVERABLE_FIELDS: tuple[str, ...] = ("workspace", "clock", "CN", "HK", "data")
KEPT_FIELDS: tuple[str, ...] = ("sources", "research")


class StatusBar(QStatusBar):
    """The workspace, clock, market and data fields on the left, which a transient message covers while it is
    shown; the sources' light and the running research on the right, always in view."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("StatusBar")
        self.ctx: AppContext | None = None
        self.tracker = ResearchTracker(self)
        self.tracker.changed.connect(lambda _n: self._render())
        self.phases: tuple[MarketPhase, ...] = ()
        self.freshness: Freshness | None = None
        self.light: SourceLight | None = None
        self.fields: dict[str, QLabel] = {}
        for name in (*COVERABLE_FIELDS, *KEPT_FIELDS):
            label = QLabel(self)
            label.setObjectName(f"status_{name}")
            label.setContentsMargins(6, 0, 6, 0)
            self.fields[name] = label
            if name in KEPT_FIELDS:
                self.addPermanentWidget(label)
            else:
                self.addWidget(label)
        self._phase_timer = self._timer(PHASE_REFRESH_MS, self.refresh_phases)
        self._data_timer = self._timer(FRESHNESS_REFRESH_MS, self.refresh_freshness)
        self._render()

    def _timer(self, interval: int, slot: Any) -> QTimer:
        timer = QTimer(self)
        timer.setInterval(interval)
        timer.timeout.connect(slot)
        return timer

    def attach(self, ctx: AppContext | None) -> None:
        """Follow the workspace of `ctx` (None: no workspace is open)."""
        if self.ctx is not None:
            self.ctx.bridge.engine_event.disconnect(self.tracker.observe)
        self.ctx, self.phases, self.freshness, self.light = ctx, (), None, None
        self.tracker.running.clear()
        if ctx is None:
            self._phase_timer.stop()
            self._data_timer.stop()
        else:
            ctx.bridge.engine_event.connect(self.tracker.observe)
            self.refresh_phases()
            self.refresh_freshness()
            self._phase_timer.start()
            self._data_timer.start()
        self._render()

    def refresh_phases(self) -> None:
        if self.ctx is not None:
            self.ctx.op(read_phases, self._phases_read, parent=self)
            self.ctx.op(read_source_light, self._light_read, parent=self)

    def _light_read(self, light: SourceLight) -> None:
        self.light = light
        self._render()

    def refresh_freshness(self) -> None:
        if self.ctx is not None:
            self.ctx.op(read_freshness, self._freshness_read, parent=self)

    def _phases_read(self, phases: tuple[MarketPhase, ...]) -> None:
        self.phases = phases
        self._render()

    def _freshness_read(self, freshness: Freshness) -> None:
        self.freshness = freshness
        self._render()

    def retranslate(self) -> None:
        self._render()

    def phase_text(self, market: Market) -> str:
        """What the status bar shows for `market` (tests read it)."""
        return self.fields[market].text()

    def _render(self) -> None:
        ctx = self.ctx
        self.fields["workspace"].setText(self._workspace_text(ctx))
        self.fields["clock"].setText(self._clock_text(ctx))
        for market in PHASE_MARKETS:
            found = next((p for p in self.phases if p.market == market), None)
            self.fields[market].setText(self._phase_line(market, found))
            self._show_field(market, ctx is not None)
        self.fields["data"].setText(self._freshness_text())
        self._show_field("data", ctx is not None)
        self._render_light()
        self._show_field("sources", ctx is not None)
        count = len(self.tracker.running)
        self.fields["research"].setText(
            self.tr("Research: %n running", "", count) if count else self.tr("Research: idle")
        )
        self._show_field("research", ctx is not None)

    def _show_field(self, name: str, visible: bool) -> None:
        """Show or hide a field; a field a message covers stays covered until the message ends, when Qt shows it
        again (a refresh during the message drew the markets and the data's date over the message's words)."""
        label = self.fields[name]
        if visible and name in COVERABLE_FIELDS and self.currentMessage():
            label.hide()
            label.setAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide, False)  # as QStatusBar hides them
        else:
            label.setVisible(visible)

    def _render_light(self) -> None:
        field, light = self.fields["sources"], self.light
        colour = LIGHT_COLOUR.get(light.level, "#888888") if light else "#888888"
        field.setText(f"<span style='color:{colour}'>●</span> " + self.tr("Sources"))
        if light is None:
            field.setToolTip(self.tr("Data sources: …"))
            return
        level = {"ok": self.tr("all answering"), "degraded": self.tr("some resting or failing"),
                 "failing": self.tr("a service has no source left")}.get(light.level, light.level)  # fmt: skip
        words = {state: self.tr(text) for state, text in SOURCE_STATE_TEXT.items()}
        lines = [name + ": " + words.get(state, state) for name, state in light.states]
        if light.stale:
            lines.append(self.tr("Stale quotes: %1").replace("%1", ", ".join(light.stale)))
        field.setToolTip("\n".join([self.tr("Data sources: %1").replace("%1", level), *lines]))

    def _workspace_text(self, ctx: AppContext | None) -> str:
        if ctx is None:
            return self.tr("No workspace")
        kind = ctx.bench.kind
        name = ctx.bench.home.name
        return (
            self.tr("Demo market: %1").replace("%1", name)
            if kind == "demo"
            else self.tr("Workspace: %1").replace("%1", name)
        )

    def _clock_text(self, ctx: AppContext | None) -> str:
        if ctx is None or not ctx.bench.clock.is_replay:
            return ""
        at = market_words("CN", ctx.bench.clock.now(), engine_language())  # Beijing time, the zone named
        return self.tr("Replay clock: %1").replace("%1", at)

    def _phase_line(self, market: Market, found: MarketPhase | None) -> str:
        name = self.tr(MARKET_TEXT[market])
        if found is None:
            return f"{name}: …"
        if found.phase is None:
            return f"{name}: " + self.tr("calendar unknown")
        text = self.tr(PHASE_TEXT[found.phase])
        if not found.trading_day:
            text = self.tr("Closed today")
        elif found.half_day:
            text += " " + self.tr("(half day)")
        return f"{name}: {text}"

    def _freshness_text(self) -> str:
        found = self.freshness
        if found is None:
            return self.tr("Data: …")
        if found.last_bar is None:
            return self.tr("Data: none yet")
        day = found.last_bar.isoformat()
        if found.behind is None:
            return self.tr("Data to %1").replace("%1", day)
        if found.behind == 0:
            return self.tr("Data to %1 (up to date)").replace("%1", day)
        return self.tr("Data to %1 (%n session(s) behind)", "", found.behind).replace("%1", day)
