"""Published reports read without the research engine: the list, one report, and whether its seal holds.

A window lists the reports the moment it opens; building `Research` first imports the whole engine (facts, stages,
the model layer's ports), half a second that the list does not need."""

from __future__ import annotations

from stockbench.errors import Problem
from stockbench.research.archive import ReportArchive
from stockbench.research.outcomes import ReportListing, ReportRecord
from stockbench.store.database import Database


class PublishedReports:
    """The published reports of one workspace, read only (the research engine alone writes them)."""

    def __init__(self, db: Database) -> None:
        self._archive = ReportArchive(db)

    def listed(self, symbol: str | None = None) -> tuple[ReportListing, ...]:
        """Published reports (on `symbol`, or all), newest first."""
        return self._archive.listed(symbol)

    def report(self, report_id: str) -> ReportRecord:
        """A stored report (see `seal_problems` for whether it is as published)."""
        return self._archive.get(report_id)

    def seal_problems(self, report_id: str) -> list[Problem]:
        """What differs from the report as it was published: its fields, its run's evidence, the chain, the log."""
        return self._archive.seal_problems(report_id)
