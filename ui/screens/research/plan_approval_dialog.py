"""The plan-approval dialog: a run whose estimated cost exceeds its ceiling runs only when the user approves."""

from __future__ import annotations

import html
from decimal import Decimal

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

from stockbench.messages import said
from stockbench.research.plan import Plan
from ui.i18n.language import engine_language
from ui.screens.research.research_actions import PlanRefusal
from ui.screens.research.run_model import format_cost, stage_title


class PlanApprovalDialog(QDialog):
    """Shows the refused plan (stages and why, data, tools, estimated cost against the ceiling); OK approves."""

    def __init__(self, refusal: PlanRefusal, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.refusal = refusal
        self.setObjectName("PlanApprovalDialog")
        self.setWindowTitle(self.tr("Approve the research plan"))
        self.setMinimumSize(560, 420)
        layout = QVBoxLayout(self)
        self.summary = QLabel(self._summary(), self)
        self.summary.setObjectName("planCost")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.details = QTextBrowser(self)
        self.details.setObjectName("planDetails")
        self.details.setOpenLinks(False)
        self.details.setHtml(self._details_html(refusal.plan))
        layout.addWidget(self.details, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.approve_button = buttons.addButton(self.tr("Approve and run"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def estimated_cost(self) -> Decimal | None:
        return self.refusal.plan.estimated_cost if self.refusal.plan is not None else None

    def _summary(self) -> str:
        request = self.refusal.request
        ceiling = format_cost(request.max_cost)
        estimate = self.estimated_cost()
        if estimate is None:
            text = self.tr("The plan for {symbol} was refused: {reason}").format(
                symbol=request.symbol, reason=said(self.refusal.problems[0], engine_language())[0]
            )
        else:
            text = self.tr(
                "The plan for {symbol} is estimated to cost {estimate}, more than the ceiling of {ceiling}. "
                "Approve it to run anyway; the ceiling is still checked before every model call."
            ).format(symbol=request.symbol, estimate=format_cost(estimate), ceiling=ceiling)
        return text

    def _details_html(self, plan: Plan | None) -> str:
        if plan is None:
            return "<p>" + html.escape(self.tr("The plan could not be read back; approving re-plans the run.")) + "</p>"
        rows = "".join(
            f"<tr><td><b>{html.escape(stage_title(s))}</b></td><td>{html.escape(plan.why.get(s, ''))}</td></tr>"
            for s in plan.stages
        )
        facts = [
            (self.tr("Model"), plan.model),
            (self.tr("Kind"), plan.kind),
            (self.tr("Data"), ", ".join(plan.data)),
            (self.tr("Period"), f"{plan.data_from} – {plan.data_to}"),
            (self.tr("Tools"), ", ".join(plan.tools)),
            (self.tr("Estimated cost"), format_cost(plan.estimated_cost) or self.tr("unknown")),
        ]
        head = "".join(f"<tr><td><b>{html.escape(k)}</b></td><td>{html.escape(v)}</td></tr>" for k, v in facts)
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in plan.notes)
        stages = html.escape(self.tr("Stages"))  # outside the f-string, where lupdate finds it
        return f"<table cellpadding='3'>{head}</table><h4>{stages}</h4><table cellpadding='3'>{rows}</table>" + (
            f"<ul>{notes}</ul>" if notes else ""
        )
