"""The front door of the engine: one object that the command line and the desktop shell both call.

A `Workbench` owns an open workspace, the clock research runs on, and the event bus. Front ends never
reach into `store/` or the domain packages directly; they call the workbench, which composes them.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from stockbench.clock import Clock, SystemClock
from stockbench.events import EventBus, WorkspaceClosed, WorkspaceOpened
from stockbench.store.workspace import Workspace, WorkspaceInfo, WorkspaceKind

if TYPE_CHECKING:
    from stockbench.analytics.service import Analytics
    from stockbench.data.service import DataService
    from stockbench.ledger.book import Ledger
    from stockbench.market.service import MarketRules
    from stockbench.research.reviews import Reviews
    from stockbench.research.service import Research
    from stockbench.research.track_record import TrackRecords
    from stockbench.watchlist import Watchlist


class Workbench:
    """An open workspace with its clock and event bus."""

    def __init__(self, workspace: Workspace, clock: Clock, events: EventBus) -> None:
        self.workspace = workspace
        self.clock = clock
        self.events = events

    @classmethod
    def open(
        cls,
        home: str | Path | None = None,
        *,
        clock: Clock | None = None,
        events: EventBus | None = None,
        kind: WorkspaceKind = "user",
        command: str = "",
    ) -> Workbench:
        """Open the workspace at `home` (see `stockbench.config.resolve_home`).

        Without an explicit `clock`, a workspace that pins one (setting `clock.pinned_as_of`, as the demo
        market does) runs on a replay clock at that date; any other runs on the system clock.
        """
        from stockbench.clock import ReplayClock, parse_date

        workspace = Workspace.open(home, kind=kind, command=command)
        try:
            pinned = workspace.settings.get("clock.pinned_as_of") if clock is None else None
            if pinned:
                clock = ReplayClock.as_of(parse_date(str(pinned)))
        except BaseException:
            workspace.close()
            raise
        bench = cls(workspace, clock or SystemClock(), events or EventBus())
        bench.events.publish(
            WorkspaceOpened(at=bench.clock.now(), home=str(workspace.home), schema_version=workspace.schema_version)
        )
        return bench

    @property
    def home(self) -> Path:
        return self.workspace.home

    @functools.cached_property
    def market(self) -> MarketRules:
        """Exchange rules with this workspace's instrument data and calendar extensions."""
        from stockbench.market.service import MarketRules

        return MarketRules(self.workspace.db)

    @functools.cached_property
    def data(self) -> DataService:
        """Market data: providers, the point-in-time cache, imports and data gates."""
        from stockbench.data.service import DataService

        return DataService(self.workspace.db, self.clock, self.market)

    @functools.cached_property
    def ledger(self) -> Ledger:
        """The user's books: accounts, cash, fills, positions, orders and corporate actions."""
        from stockbench.ledger.book import Ledger

        return Ledger(self.workspace.db, self.clock, self.market, self.events)

    @functools.cached_property
    def analytics(self) -> Analytics:
        """Indicators, valuation, peers, zones, order sizing, position states and the opportunity scan."""
        from stockbench.analytics.service import Analytics

        return Analytics(self.workspace.db, self.clock, self.market, self.data, self.ledger)

    @functools.cached_property
    def watchlist(self) -> Watchlist:
        """The user's watchlist: groups of symbols in the user's order, and the symbol search to add to it."""
        from stockbench.watchlist import Watchlist

        return Watchlist(self.workspace.db, self.clock, self.market, self.events)

    @functools.cached_property
    def research(self) -> Research:
        """Research runs and their reports (the offline rules model works with no key)."""
        from stockbench.research.facts import ProgramFacts
        from stockbench.research.service import Research

        facts = ProgramFacts(self.workspace.db, self.clock, self.market, self.data, self.analytics, self.ledger)
        return Research(self.workspace.db, self.clock, self.events, facts, self._llm_factory())

    @functools.cached_property
    def reviews(self) -> Reviews:
        """Human reviews of published reports: append-only verdicts with reason codes and scores, and lineage."""
        from stockbench.research.reviews import Reviews

        return Reviews(self.workspace.db, self.clock)

    @property
    def track_records(self) -> TrackRecords:
        """How published calls turned out at the clock: hit rates, calibration, cost per report.

        A fresh service on each use (unlike the cached services above): it keeps the closes it reads, which must
        not outlive one computation in a long-lived shell, nor be shared by two background computations.
        """
        from stockbench.research.track_record import TrackRecords

        return TrackRecords(self.workspace.db, self.clock, self.market, self.data)

    def _llm_factory(self) -> object:
        """A factory of model ports for configured LLMs (None when the provider layer is absent)."""
        try:
            from stockbench.research.llm_port import port_factory
        except ImportError:
            return None
        return port_factory(self.workspace.settings)

    def info(self) -> WorkspaceInfo:
        return self.workspace.info()

    def close(self) -> None:
        if "data" in self.__dict__:  # only if the data service was used: it owns the HTTP client
            self.data.close()
        home = str(self.workspace.home)
        self.workspace.close()
        self.events.publish(WorkspaceClosed(at=self.clock.now(), home=home))

    def __enter__(self) -> Workbench:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
