"""Research replayed on history: a batch of as-of analyses over past sessions, and the track record it earns.

Each analysis runs on its own replay clock (the close of its session), so it sees only the bars, reports and
reviews that existed then. One symbol's sessions run in date order (each run reads its own earlier reports);
symbols run in parallel threads that share the workspace, whose single writer serialises the writes. A
session already analysed with the same model is reused, so an interrupted batch resumes where it stopped.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stockbench.clock import Clock, Market, ReplayClock
from stockbench.data.indices import Weighting
from stockbench.errors import InvalidInput, UserError
from stockbench.events import EventBus
from stockbench.market.instruments import parse_symbol
from stockbench.messages import user_error
from stockbench.research.listing import before_listing, check_listed_in
from stockbench.research.track_record import TrackRecords
from stockbench.research.track_summary import TrackRecord
from stockbench.research.wording import Language, say
from stockbench.store.database import Database

if TYPE_CHECKING:
    from stockbench.market.service import MarketRules
    from stockbench.research.service import Research

Progress = Callable[[int, int, "ReplayRun"], None]


@dataclass(frozen=True)
class ReplayRun:
    """One as-of analysis of the batch."""

    symbol: str
    day: date
    status: str  # published, paused, failed, stopped, skipped
    run_id: str | None = None
    report_id: str | None = None
    action: str | None = None
    reused: bool = False
    seconds: float = 0.0
    reason: str = ""
    skip: tuple[str, tuple[tuple[str, str], ...]] | None = None  # a skipped day's words: its key and figures

    @classmethod
    def skipped(cls, symbol: str, day: date, key: str, figures: dict[str, object]) -> ReplayRun:
        """A day the batch cannot analyse, with its reason in English (`reason`) and its words' key (`skip`)."""
        values = tuple((k, str(v)) for k, v in figures.items())
        return cls(symbol, day, "skipped", reason=say(key, "en", **dict(values)), skip=(key, values))

    def reason_in(self, language: Language) -> str:
        """The reason in `language` (a skipped day's words; a run's own reason as it was given)."""
        return say(self.skip[0], language, **dict(self.skip[1])) if self.skip else self.reason

    def as_dict(self) -> dict[str, Any]:
        return {
            "symbol": self.symbol,
            "day": self.day,
            "status": self.status,
            "run_id": self.run_id,
            "report_id": self.report_id,
            "action": self.action,
            "reused": self.reused,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ReplayResult:
    """A finished batch: its runs, how long it took, and the track record of what it published."""

    symbols: tuple[str, ...]
    start: date
    end: date
    every: int
    model: str
    workers: int
    runs: tuple[ReplayRun, ...]
    seconds: float
    record: TrackRecord
    extra: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        statuses = [r.status for r in self.runs]
        return {s: statuses.count(s) for s in sorted(set(statuses))} | {"reused": sum(r.reused for r in self.runs)}

    def as_dict(self, *, calls: bool = False, runs: bool = False) -> dict[str, Any]:
        analysed = [r.seconds for r in self.runs if r.status != "skipped" and not r.reused]
        data: dict[str, Any] = {
            "replay": {
                "symbols": list(self.symbols),
                "from": self.start,
                "to": self.end,
                "every": self.every,
                "model": self.model,
                "workers": self.workers,
                "analyses": len(self.runs),
                "counts": self.counts(),
                "seconds": round(self.seconds, 1),
                "seconds_per_analysis": round(sum(analysed) / len(analysed), 2) if analysed else None,
                "analyses_per_minute": round(len(analysed) / self.seconds * 60, 1)
                if analysed and self.seconds
                else None,
                **self.extra,
            },
            "track_record": self.record.as_dict(calls=calls),
        }
        if runs:
            data["runs"] = [r.as_dict() for r in self.runs]
        return data


def replay_days(sessions: Sequence[date], every: int) -> list[date]:
    """Every `every`-th session, starting with the first."""
    if every < 1:
        raise user_error(InvalidInput, "replay_every", option="--every", every=every)
    return list(sessions[::every])


def read_universe(path: Path) -> list[str]:
    """Symbols from a file: one per line or comma-separated; blank lines and # comments are skipped."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise user_error(InvalidInput, "replay_universe_unreadable", path=path, error=error.strerror) from None
    found = [s.strip() for line in text.splitlines() for s in line.split("#")[0].split(",")]
    return [s for s in found if s]


class Replayer:
    """Runs batches of as-of analyses in one workspace."""

    def __init__(self, db: Database, market: MarketRules, models: Any = None) -> None:
        self.db, self.market, self._models = db, market, models
        self._lock = threading.Lock()

    def research_at(self, day: date, market: Market = "CN") -> Research:
        """A research service whose clock stands at the close of `day`."""
        from stockbench.analytics.service import Analytics
        from stockbench.data.service import DataService
        from stockbench.ledger.book import Ledger
        from stockbench.research.facts import ProgramFacts
        from stockbench.research.service import Research

        clock = ReplayClock.as_of(day, market)
        events = EventBus()
        data = DataService(self.db, clock, self.market)
        ledger = Ledger(self.db, clock, self.market, events)
        analytics = Analytics(self.db, clock, self.market, data, ledger)
        facts = ProgramFacts(self.db, clock, self.market, data, analytics, ledger)
        return Research(self.db, clock, events, facts, self._models)

    def _span(self, symbol: str) -> tuple[date | None, date | None]:
        row = self.db.fetchone("SELECT min(day), max(day) FROM bars WHERE symbol = ?", [symbol])
        return (row[0], row[1]) if row else (None, None)

    def _existing(self, symbol: str, day: date, market: Market, model: str) -> ReplayRun | None:
        at = ReplayClock.as_of(day, market).now()
        row = self.db.fetchone(
            "SELECT p.run_id, p.report_id, p.action FROM reports p JOIN runs r USING (run_id) "
            "WHERE p.symbol = ? AND p.model = ? AND r.as_of = ? ORDER BY p.published_at LIMIT 1",
            [symbol, model, at],
        )
        return None if row is None else ReplayRun(symbol, day, "published", row[0], row[1], row[2], reused=True)

    def _one(self, symbol: str, day: date, model: str, fresh: bool, *, language: str | None = None) -> ReplayRun:
        market = parse_symbol(symbol).market
        if not fresh and (found := self._existing(symbol, day, market, model)) is not None:
            return found
        started = time.perf_counter()
        try:
            outcome = self.research_at(day, market).analyze(symbol, model=model, language=language)
        except UserError as error:
            return ReplayRun(symbol, day, "failed", seconds=time.perf_counter() - started, reason=error.message)
        return ReplayRun(symbol, day, outcome.status, outcome.run_id, outcome.report_id, outcome.action,
                         seconds=time.perf_counter() - started, reason=outcome.reason)  # fmt: skip

    def _symbol(
        self, symbol: str, days: Sequence[date], model: str, fresh: bool, report: Callable[[ReplayRun], None], *,
        language: str | None = None,
    ) -> list[ReplayRun]:  # fmt: skip
        first, last = self._span(symbol)
        runs = []
        for day in days:
            if (unlisted := before_listing(self.market.registry, symbol, day)) is not None:
                run = ReplayRun.skipped(symbol, day, "inputs.skipped_before_listing", dict(unlisted))
            elif first is None or last is None or day < first:
                run = ReplayRun.skipped(symbol, day, "inputs.skipped_no_bars", {"symbol": symbol, "day": day})
            elif day > last:
                run = ReplayRun.skipped(symbol, day, "inputs.skipped_bars_end", {"symbol": symbol, "last": last})
            else:
                run = self._one(symbol, day, model, fresh, language=language)
            runs.append(run)
            report(run)
        return runs

    def sessions(self, symbol: str, start: date, end: date) -> list[date]:
        """The exchange sessions of `symbol`'s market from `start` to `end`."""
        market = parse_symbol(symbol).market
        return self.market.calendars.calendar(market).sessions(start, end)

    def run(
        self,
        symbols: Iterable[str],
        start: date,
        end: date,
        *,
        clock: Clock,
        every: int = 20,
        model: str = "offline",
        workers: int = 1,
        fresh: bool = False,
        benchmark: str | None = None,
        progress: Progress | None = None,
        language: str | None = None,
    ) -> ReplayResult:
        """Analyse each symbol as of every `every`-th session from `start` to `end`; score the batch at `clock`.
        `language` (zh or en) is the reports' (default: the workspace's report language)."""
        chosen = tuple(dict.fromkeys(parse_symbol(s).symbol for s in symbols))
        if not chosen:
            raise user_error(
                InvalidInput, "replay_no_symbols", symbols="--symbols A,B", universe="--universe-file FILE"
            )
        if start > end:
            raise user_error(InvalidInput, "period_reversed", start=start, end=end)
        for symbol in chosen:
            check_listed_in(self.market.registry, symbol, start, end)
        plan = {s: replay_days(self.sessions(s, start, end), every) for s in chosen}
        total, done = sum(len(d) for d in plan.values()), [0]

        def report(run: ReplayRun) -> None:
            with self._lock:
                done[0] += 1
                if progress is not None:
                    progress(done[0], total, run)

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="replay") as pool:
            batches = list(
                pool.map(lambda s: self._symbol(s, plan[s], model, fresh, report, language=language), chosen)
            )
        runs = tuple(r for batch in batches for r in batch)
        seconds = time.perf_counter() - started
        record = self.score(runs, clock, benchmark)
        return ReplayResult(chosen, start, end, every, model, max(1, workers), runs, seconds, record)

    def score(self, runs: Sequence[ReplayRun], clock: Clock, benchmark: str | None = None) -> TrackRecord:
        """The track record of the runs' published reports, at `clock`."""
        from stockbench.data.service import DataService

        records = TrackRecords(self.db, clock, self.market, DataService(self.db, clock, self.market))
        return records.compute(run_ids=[r.run_id for r in runs if r.report_id and r.run_id], benchmark=benchmark)


def equal_weighted_index(parquet: Path, symbol: str, name: str, target: Path) -> Path:
    """Write the community file's equal-weighted market index as a generic CSV of index bars (for `data import`).

    The index is the scenario calibration's own benchmark (the mean over stocks of each session's return
    close / prev_close - 1, leaving out each stock's first sessions), based 1000 on the session before its
    first. It is a stand-in built by the program, not CSI 300: `name` must say so.
    """
    return file_index(parquet, symbol, name, target, "equal")


def file_index(parquet: Path, symbol: str, name: str, target: Path, weighting: Weighting = "float_cap") -> Path:
    """Write an index of every stock of a community parquet file as a generic CSV of index bars (for `data import`),
    by the method of the program's built indices (stockbench.data.indices): float-cap weighted at each session's
    open where every member has a float cap ("float_cap"), or equal weighted ("equal", the calibration's
    benchmark), leaving out each stock's first sessions, based 1000 on the session before its first. It is a
    stand-in built by the program, not an official index: `name` must say so."""
    import polars as pl

    from stockbench.analytics.rule_tables import load_rule_tables
    from stockbench.data.indices import index_levels, member_sums

    code = parse_symbol(symbol)
    if code.security_type.value != "index":
        raise user_error(InvalidInput, "replay_not_index", symbol=symbol)
    numbers = ("open", "high", "low", "close", "prev_close", "volume", "amount", "float_mcap", "total_mcap")
    rows = pl.scan_parquet(parquet).select(
        pl.col("code").alias("symbol"), pl.lit("all").alias("board"), pl.col("date").alias("day"),
        *(pl.col(c).cast(pl.Float64) for c in numbers),
    )  # fmt: skip
    if weighting == "equal":
        rows = rows.with_columns(pl.lit(None, pl.Float64).alias("float_mcap"))
    skip = load_rule_tables().scenarios.integer("benchmark_skip_first")
    levels = index_levels(member_sums(rows, skip), ["all"], 1000.0)
    out = levels.select(
        pl.lit(code.symbol).alias("symbol"),
        pl.col("day").cast(pl.String).alias("date"),
        *(pl.col(c).round(4) for c in ("open", "high", "low", "close", "prev_close")),
        pl.col("volume").round(0).cast(pl.Int64),
        pl.col("amount").round(2),
        *(pl.when(pl.col(c) > 0).then(pl.col(c).round(2)).alias(c) for c in ("float_mcap", "total_mcap")),
        pl.lit(name).alias("name"),
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    out.write_csv(target)
    return target
