"""The front door of the engine: one object that the command line and the desktop shell both call.

A `Workbench` owns an open workspace, the clock research runs on, and the event bus. Front ends never
reach into `store/` or the domain packages directly; they call the workbench, which composes them.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from stockbench.clock import Clock, SystemClock
from stockbench.config import WorkspacePaths
from stockbench.events import EventBus, WorkspaceClosed, WorkspaceOpened
from stockbench.store.settings import PINNED_AS_OF
from stockbench.store.workspace import Workspace, WorkspaceInfo, WorkspaceKind

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from stockbench.analytics.service import Analytics
    from stockbench.data.demo import DemoSummary
    from stockbench.data.service import DataService
    from stockbench.errors import WorkspaceDamaged
    from stockbench.evidence.lookup import EvidenceLookup
    from stockbench.ledger.book import Ledger
    from stockbench.ledger.restore import RebuildResult
    from stockbench.llm.service import Models
    from stockbench.market.service import MarketRules
    from stockbench.market.sessions import DayTrading
    from stockbench.research.handbook import Handbook, HandbookVersion
    from stockbench.research.models import ModelPort
    from stockbench.research.plan_check import PlanCheck
    from stockbench.research.published import PublishedReports
    from stockbench.research.quick_review import QuickReview
    from stockbench.research.replay import Replayer
    from stockbench.research.reviews import Reviews
    from stockbench.research.search_provider import SearchSettings
    from stockbench.research.service import Research
    from stockbench.research.track_record import TrackRecords
    from stockbench.store.backups import BackupInfo, BackupReason, Restored
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
        from stockbench.clock import ReplayClock

        workspace = Workspace.open(home, kind=kind, command=command)
        try:
            from stockbench.ledger.journal import Journal

            Journal(workspace.db, workspace.paths.ledger_journal).reconcile()  # a crashed write, or no journal yet
            pinned = workspace.settings.get(PINNED_AS_OF) if clock is None else None
            if pinned is not None:
                clock = ReplayClock.as_of(pinned)
        except BaseException:
            workspace.close()
            raise
        bench = cls(workspace, clock or SystemClock(), events or EventBus())
        bench.events.publish(
            WorkspaceOpened(at=bench.clock.now(), home=str(workspace.home), schema_version=workspace.schema_version)
        )
        return bench

    @classmethod
    def prepare(
        cls, home: str | Path | None = None, *, kind: WorkspaceKind = "user", command: str = "", demo_only: bool = False
    ) -> DemoSummary | None:
        """Make the workspace at `home` ready to open: create it (as `kind`) if needed and log to its log file; when
        it holds the demo market, build it (or rebuild a stale one) and, on a fresh build, seed the starter
        watchlist. The demo's summary, or None for a user workspace (InvalidInput instead with `demo_only`).

        Takes seconds when it builds the demo market; `open` follows, on the demo's pinned clock.
        """
        from stockbench.config import configure_file_logging

        with Workspace.open(home, kind=kind, command=command) as workspace:
            configure_file_logging(workspace.paths.logs)
            if workspace.kind != "demo" and not demo_only:
                return None
            from stockbench.data.demo import ensure_demo

            summary = ensure_demo(workspace)
        if summary.built:
            from stockbench.data.demo import STARTER_WATCHLIST

            with cls.open(home, command=command) as bench:  # on the demo's own pinned clock
                bench.watchlist.seed(STARTER_WATCHLIST)  # a first run has something to right-click
        return summary

    @staticmethod
    def restore(home: str | Path, backup: str) -> Restored:
        """Put the backup `backup` (a file name in the backup folder, or a path) in place of the workspace's database
        at `home`, the current file kept aside (see stockbench.store.backups.restore_backup); the workspace must not
        be open."""
        from stockbench.config import resolve_home
        from stockbench.store.backups import restore_backup

        return restore_backup(WorkspacePaths(resolve_home(home)), backup)

    @staticmethod
    def demo_home(explicit: str | Path | None = None) -> Path:
        """The demo market's folder: `explicit`, else $STOCKBENCH_HOME, else "Stock Workbench Demo" beside the
        default workspace folder."""
        from stockbench.data.demo import demo_home

        return demo_home(explicit)

    @property
    def home(self) -> Path:
        return self.workspace.home

    @property
    def kind(self) -> WorkspaceKind:
        """The workspace's kind: "demo" for the demo market's, else "user"."""
        return self.workspace.kind

    @property
    def paths(self) -> WorkspacePaths:
        """The workspace's files: database, exports, logs."""
        return self.workspace.paths

    @functools.cached_property
    def market(self) -> MarketRules:
        """Exchange rules with this workspace's instrument data and calendar extensions."""
        from stockbench.market.service import MarketRules

        return MarketRules(self.workspace.db)

    @functools.cached_property
    def data(self) -> DataService:
        """Market data: providers, the point-in-time cache, imports and data gates."""
        from stockbench.data.service import DataService

        return DataService(self.workspace.db, self.clock, self.market, before_import=lambda: self.backup("import"))

    @functools.cached_property
    def ledger(self) -> Ledger:
        """The user's books: accounts, cash, fills, positions, orders and corporate actions."""
        from stockbench.ledger.book import Ledger

        def traded(symbol: str, day: date) -> DayTrading | None:  # the data service is made only once a fill is checked
            return self.data.trading_on(symbol, day)

        return Ledger(self.workspace.db, self.clock, self.market, self.events, self.paths.ledger_journal,
                      before_import=lambda: self.backup("import"), traded=traded)  # fmt: skip

    # ---- backups ------------------------------------------------------------------------------------------------
    def backup(self, reason: BackupReason = "manual", *, to: Path | None = None) -> BackupInfo:
        """A consistent copy of the workspace now, in its backup folder (then pruned by the retention rule), or in
        the folder `to` (never pruned). BackupFailed says why none could be written."""
        from stockbench.store.backups import backup_and_prune, take_backup

        if to is not None:
            return take_backup(self.workspace.db, self.paths, reason, folder=to)
        return backup_and_prune(self.workspace.db, self.paths, reason)

    def backup_on_close(self) -> BackupInfo | None:
        """The backup the app takes when it closes a user's workspace (None for the demo market, which is rebuilt
        from its seed). A backup that cannot be written is logged, never a reason the app cannot close."""
        if self.kind != "user":
            return None
        from stockbench.errors import BackupFailed

        try:
            return self.backup("close")
        except BackupFailed as error:
            log.warning("no backup on close: %s", error.message)
            return None

    def backup_if_due(self, now: datetime | None = None) -> BackupInfo | None:
        """The daily backup while the app runs: taken when the newest backup is 24 hours old or there is none (a
        user's workspace only, like the backup on close)."""
        from stockbench.store.backups import DAILY, newest_backup

        if self.kind != "user":
            return None
        at = now or datetime.now(UTC)
        newest = newest_backup(self.paths)
        if newest is not None and at - newest.taken_at < DAILY:
            return None
        return self.backup("daily")

    def backups(self) -> list[BackupInfo]:
        """Every complete backup in the workspace's backup folder, newest first."""
        from stockbench.store.backups import backup_folder, list_backups

        return list_backups(backup_folder(self.paths))

    def backup_folder(self) -> Path:
        """Where this workspace's backups go (its own backups/ folder unless the user chose another)."""
        from stockbench.store.backups import backup_folder

        return backup_folder(self.paths)

    def choose_backup_folder(self, folder: Path | None) -> Path:
        """Send later backups to `folder` (None: back to the workspace's own backups/ folder); the folder now used.
        Backups already taken stay where they are."""
        from stockbench.store.backups import backup_folder, choose_folder

        choose_folder(self.paths, folder)
        return backup_folder(self.paths)

    def as_damage(self, error: BaseException) -> WorkspaceDamaged | None:
        """`error` (what a read or write of this workspace raised) as the workspace's damage, naming its newest backup
        and how to restore it; None when it is not a damage (a corrupt block, a full disk, a read-only folder)."""
        from stockbench.store.damage import as_damage

        return as_damage(self.paths, error)

    def journal_ahead(self) -> bool:
        """Whether the ledger journal holds entries the database lacks (after a restore of an older backup: then
        `stockbench ledger rebuild --from-journal` brings the books up to the journal)."""
        from stockbench.ledger.journal import head, tail

        return tail(self.paths.ledger_journal).seq > head(self.workspace.db).seq

    def rebuild_ledger_from_journal(self, journal: Path | None = None, *, yes: bool = False) -> RebuildResult:
        """Replace the ledger's tables with the records of its journal (or the journal file `journal`), verified
        line by line first, and replay them; works on a fresh workspace whose database was deleted."""
        from stockbench.events import LedgerChanged
        from stockbench.ledger.restore import rebuild_from_journal

        result = rebuild_from_journal(self.workspace.db, self.paths.ledger_journal, journal, yes=yes)
        self.events.publish(LedgerChanged(at=self.clock.now(), account="", what="rebuild"))
        return result

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
    def models(self) -> Models:
        """Configured models, their keys (environment, OS keyring or encrypted file), presets, research's default
        model, a connection test."""
        from stockbench.llm.service import Models

        return Models(self.workspace.settings, home=self.workspace.home)

    @functools.cached_property
    def search(self) -> SearchSettings:
        """The web search research may use (a SearXNG instance, or the Brave Search API with its key in the key
        store), and a test of it."""
        from stockbench.research.search_provider import SearchSettings

        return SearchSettings(self.workspace.settings, self.models.keys)

    @functools.cached_property
    def evidence(self) -> EvidenceLookup:
        """Where a report's numbers and quotes come from: cited evidence, re-read with the gates' rules."""
        from stockbench.evidence.lookup import EvidenceLookup
        from stockbench.evidence.store import EvidenceStore
        from stockbench.research.record_words import record_words

        return EvidenceLookup(EvidenceStore(self.workspace.db), record_words)

    @functools.cached_property
    def reports(self) -> PublishedReports:
        """The published reports, listed, read and their seals checked, without the research engine (building
        `research` imports all of it: a window that lists reports as it opens does not wait for that)."""
        from stockbench.research.published import PublishedReports

        return PublishedReports(self.workspace.db)

    @functools.cached_property
    def research(self) -> Research:
        """Research runs and their reports (the offline rules model works with no key)."""
        from stockbench.research.facts import ProgramFacts
        from stockbench.research.service import Research

        facts = ProgramFacts(self.workspace.db, self.clock, self.market, self.data, self.analytics, self.ledger,
                             self.search)  # fmt: skip
        return Research(self.workspace.db, self.clock, self.events, facts, self._llm_factory())

    @functools.cached_property
    def quick_reviews(self) -> QuickReview:
        """Quick reviews: the day's full report re-checked against fresh data, change by change."""
        return self.research.quick_reviews()

    @functools.cached_property
    def plan_checks(self) -> PlanCheck:
        """The latest plan's rules against current data, with no model at all (the model layer is never loaded)."""
        from stockbench.research.plan_check import PlanCheck

        return PlanCheck(self.workspace.db, self.clock, self.market, self.data, self.ledger)

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

    @property
    def replays(self) -> Replayer:
        """Analyses as of past sessions, in batches (a fresh service on each use: it holds a batch's state)."""
        from stockbench.research.replay import Replayer

        return Replayer(self.workspace.db, self.market, self._llm_factory())

    def handbook(self, version: str | None = None) -> Handbook:
        """The method handbook: the one on disk (`version` None or its own), else a version a run stored here."""
        from stockbench.research.handbook import Handbook

        current = Handbook.load()
        if version is None or version == current.version:
            return current
        return Handbook.stored(self.workspace.db, version)

    def handbook_versions(self) -> tuple[HandbookVersion, ...]:
        """The handbook versions stored in the workspace, newest first, with how many runs used each."""
        from stockbench.research.handbook import Handbook

        return Handbook.versions(self.workspace.db)

    def _llm_factory(self) -> Callable[[str], ModelPort]:
        """A factory of model ports for the workspace's configured LLMs (litellm loads on the first call)."""
        from stockbench.research.llm_port import port_factory

        return port_factory(self.workspace.settings, self.models.keys)

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
