"""EngineOp factories of the report browser: list and read reports (with their latest review's verdict), look up
evidence, verify, export, and record a review."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.clock import MARKET_TZ
from stockbench.errors import InvalidInput, Problem
from stockbench.evidence.records import EvidenceDetail, EvidenceRequest, ReportCitations
from stockbench.market.instruments import parse_symbol
from stockbench.research.outcomes import ReportRecord
from stockbench.research.review_records import Review
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext
from ui.screens.reports.report_export import write_pdf
from ui.screens.reports.reports_model import ReportRow
from ui.screens.reports.review_dialog import ReviewDraft

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]


def _row(found: ReportRecord, verdict: str | None, tampered: str, citations: ReportCitations) -> ReportRow:
    market = parse_symbol(found.symbol).market
    published = found.published_at
    return ReportRow(
        found.report_id, found.run_id, found.symbol, published.astimezone(MARKET_TZ[market]).date(), published,
        found.title, found.action, found.model, found.offline, found.markdown, found.draft, verdict, tampered,
        citations,
    )  # fmt: skip


def _reports(bench: Workbench) -> list[ReportRow]:
    research = bench.research
    latest = {r.report_id: r.verdict for r in bench.reviews.find()}  # in recording order: the last one counts
    rows = []
    for listed in research.reports():
        report_id = listed.report_id
        problems = research.seal_problems(report_id)
        found = research.report(report_id)
        citations = bench.evidence.citations(found.draft, found.markdown)
        rows.append(_row(found, latest.get(report_id), problems[0].message if problems else "", citations))
    return rows


def load_reports(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Every stored report with its markdown and draft (for offline search and evidence links)."""
    return ctx.op(_reports, success, parent=parent)


def lookup_evidence(ctx: AppContext, parent: QWidget, request: EvidenceRequest, success: Success) -> EngineOp:
    """The cited evidence of a clicked link, with the passage around its number or quote."""

    def find(bench: Workbench) -> tuple[EvidenceRequest, tuple[EvidenceDetail, ...]]:
        return request, bench.evidence.lookup(request)

    return ctx.op(find, success, parent=parent)


def verify_report(ctx: AppContext, parent: QWidget, report_id: str, success: Success) -> EngineOp:
    """Re-check a report from its frozen record and stored evidence (a list of problems; empty when it holds)."""

    def verify(bench: Workbench) -> tuple[str, list[Problem]]:
        return report_id, bench.research.verify(report_id)

    return ctx.op(verify, success, parent=parent)


def export_markdown(ctx: AppContext, parent: QWidget, report_id: str, target: Path, success: Success) -> EngineOp:
    """Write the report's markdown to `target`."""
    return ctx.op(lambda bench: bench.research.export(report_id, target), success, parent=parent)


def export_pdf(ctx: AppContext, parent: QWidget, report_id: str, target: Path, success: Success) -> EngineOp:
    """Lay the report out as a PDF at `target`."""

    def export(bench: Workbench) -> Path:
        found = bench.research.report(report_id)
        tampered = bench.research.seal_problems(report_id)
        if tampered:  # the same refusal as the Markdown export: a report not as published is not handed on
            raise InvalidInput(f"report {report_id} is not as it was published: {tampered[0].message}")
        text = bench.research.exported_markdown(report_id)  # with the quoted passages, as the Markdown export
        return write_pdf(text, target, title=found.title, creator="Stock Workbench")

    return ctx.op(export, success, parent=parent)


def save_review(ctx: AppContext, parent: QWidget, draft: ReviewDraft, success: Success, failure: Failure) -> EngineOp:
    """Record the review (append-only); `failure` gets the engine's refusal, and then nothing was written."""

    def save(bench: Workbench) -> Review:
        return bench.reviews.add(
            draft.run_id, draft.verdict, reasons=draft.reasons, scores=draft.scores, comment=draft.comment,
            revised_by=draft.revised_by,
        )  # fmt: skip

    return ctx.op(save, success, failure=failure, parent=parent)
