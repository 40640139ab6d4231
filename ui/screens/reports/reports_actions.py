"""EngineOp factories of the report browser: list and read reports (with their latest review's verdict), look up
evidence, verify, export, and record a review."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

from stockbench.clock import MARKET_TZ
from stockbench.errors import InvalidInput, Problem
from stockbench.evidence.records import EvidenceDetail, EvidenceRequest, ReportCitations
from stockbench.market.instruments import parse_symbol
from stockbench.messages import said, user_error
from stockbench.research.outcomes import ReportListing
from stockbench.research.review_records import Review
from stockbench.workbench import Workbench
from ui.background import EngineOp
from ui.context import AppContext
from ui.i18n.language import engine_language
from ui.screens.reports.report_export import write_pdf
from ui.screens.reports.reports_model import ReportRow
from ui.screens.reports.review_dialog import ReviewDraft

Success = Callable[[Any], None]
Failure = Callable[[BaseException], None]


def _listed(listed: ReportListing, verdict: str | None) -> ReportRow:
    market = parse_symbol(listed.symbol).market
    published = listed.published_at
    return ReportRow(
        listed.report_id, listed.run_id, listed.symbol, published.astimezone(MARKET_TZ[market]).date(), published,
        listed.title, listed.action, listed.model, listed.offline, "", verdict=verdict, seal_checked=False,
    )  # fmt: skip


def _reports(bench: Workbench) -> list[ReportRow]:
    latest = {r.report_id: r.verdict for r in bench.reviews.find()}  # in recording order: the last one counts
    return [_listed(listed, latest.get(listed.report_id)) for listed in bench.reports.listed()]


@dataclass(frozen=True)
class ReportDetail:
    """What the list's row of a report lacks until it is read: its text, draft, links and whether its seal holds."""

    report_id: str
    markdown: str
    draft: dict[str, Any]
    citations: ReportCitations
    tampered: str  # the first problem's words ("" when its seal holds)


def report_details(bench: Workbench, report_ids: list[str]) -> list[ReportDetail]:
    """Each report's text, draft and links, and its seal checked (re-hashing its fields and evidence: three
    quarters of the time, so the list shows before, from one query)."""
    reports, found = bench.reports, []
    for report_id in report_ids:
        record = reports.report(report_id)
        problems = reports.seal_problems(report_id)
        citations = bench.evidence.citations(record.draft, record.markdown)
        found.append(ReportDetail(report_id, record.markdown, record.draft, citations,
                                  problems[0].message if problems else ""))  # fmt: skip
    return found


def load_reports(ctx: AppContext, parent: QWidget, success: Success) -> EngineOp:
    """Every stored report as the list shows it, without its text and seal check (see `load_details`)."""
    return ctx.op(_reports, success, urgent=True, parent=parent)


def load_details(ctx: AppContext, parent: QWidget, report_ids: list[str], success: Success) -> EngineOp:
    """The text, draft, links and seal check of `report_ids` (a list of `ReportDetail`)."""
    return ctx.op(lambda bench: report_details(bench, report_ids), success, parent=parent)


def lookup_evidence(
    ctx: AppContext, parent: QWidget, request: EvidenceRequest, success: Success, symbol: str = ""
) -> EngineOp:
    """The cited evidence of a clicked link, with the passage around its number or quote; a program record's
    sentences in the interface language, times in `symbol`'s exchange zone."""
    language = engine_language()

    def find(bench: Workbench) -> tuple[EvidenceRequest, tuple[EvidenceDetail, ...]]:
        return request, bench.evidence.lookup(request, language, symbol)

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
            raise user_error(InvalidInput, "report_tampered", report=report_id, problem=tampered[0].message,
                             problem_zh=said(tampered[0], "zh")[0],
                             command=f"stockbench reports verify {report_id}")  # fmt: skip
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
