"""The review dialog: accept, revise or reject a report with reason codes, scores and a private comment.

Reviews are append-only and keyed by run. Saving needs the engine's review API (`stockbench feedback`, a later
issue); until the workbench offers it, the dialog is complete but its Save button is disabled and says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

Verdict = Literal["accept", "revise", "reject"]
VERDICTS: dict[str, str] = {
    "accept": str(QT_TRANSLATE_NOOP("ReviewDialog", "Accept")),
    "revise": str(QT_TRANSLATE_NOOP("ReviewDialog", "Revise")),
    "reject": str(QT_TRANSLATE_NOOP("ReviewDialog", "Reject")),
}
REASON_CODES: dict[str, str] = {
    "number_wrong": str(QT_TRANSLATE_NOOP("ReviewDialog", "A number is wrong or misread")),
    "evidence_weak": str(QT_TRANSLATE_NOOP("ReviewDialog", "The evidence does not support the claim")),
    "missed_news": str(QT_TRANSLATE_NOOP("ReviewDialog", "An important announcement or event was missed")),
    "zones_off": str(QT_TRANSLATE_NOOP("ReviewDialog", "Zones or stop are not where I would put them")),
    "action_unjustified": str(QT_TRANSLATE_NOOP("ReviewDialog", "The action does not follow from the analysis")),
    "stale_data": str(QT_TRANSLATE_NOOP("ReviewDialog", "The data was stale or incomplete")),
    "unclear": str(QT_TRANSLATE_NOOP("ReviewDialog", "Unclear or too long")),
    "other": str(QT_TRANSLATE_NOOP("ReviewDialog", "Other")),
}
SCORES: dict[str, str] = {
    "evidence": str(QT_TRANSLATE_NOOP("ReviewDialog", "Evidence")),
    "reasoning": str(QT_TRANSLATE_NOOP("ReviewDialog", "Reasoning")),
    "usefulness": str(QT_TRANSLATE_NOOP("ReviewDialog", "Usefulness")),
}
SCORE_RANGE = (1, 5)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReviewDialog", text)


@dataclass(frozen=True)
class ReviewDraft:
    """A review as entered: what `stockbench feedback RUN --verdict ... --reason ... --score ...` records."""

    run_id: str
    report_id: str
    verdict: Verdict
    reasons: tuple[str, ...]
    scores: dict[str, int]
    comment: str

    def problems(self) -> list[str]:
        """What keeps this review from being saved (empty when it may be)."""
        if self.verdict != "accept" and not self.reasons:
            return [_tr("Give at least one reason for a revise or reject verdict.")]
        return []


class ReviewDialog(QDialog):
    """Record a review of one report."""

    def __init__(self, run_id: str, report_id: str, title: str, parent: QWidget | None = None, *,
                 can_save: bool = False) -> None:  # fmt: skip
        super().__init__(parent)
        self.run_id, self.report_id, self.can_save = run_id, report_id, can_save
        self.setObjectName("ReviewDialog")
        self.setWindowTitle(self.tr("Review report"))
        layout = QVBoxLayout(self)
        heading = QLabel(title, self)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        layout.addLayout(self._verdict_row())
        layout.addWidget(QLabel(self.tr("Reasons"), self))
        layout.addWidget(self._reason_list(), 1)
        layout.addLayout(self._score_form())
        self.comment = QPlainTextEdit(self)
        self.comment.setPlaceholderText(self.tr("Comment (private: never sent to a model)"))
        self.comment.setMaximumHeight(90)
        layout.addWidget(self.comment)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.reasons.itemChanged.connect(lambda _: self._validate())
        self._validate()

    def _reason_list(self) -> QListWidget:
        self.reasons = QListWidget(self)
        for code, text in REASON_CODES.items():
            item = QListWidgetItem(_tr(text), self.reasons)
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setCheckState(Qt.CheckState.Unchecked)
        return self.reasons

    def _verdict_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Verdict"), self))
        self.verdict_group = QButtonGroup(self)
        for code, text in VERDICTS.items():
            button = QRadioButton(_tr(text), self)
            button.setObjectName(f"verdict_{code}")
            button.setProperty("code", code)
            self.verdict_group.addButton(button)
            row.addWidget(button)
            button.setChecked(code == "accept")
        self.verdict_group.buttonToggled.connect(lambda *_: self._validate())
        row.addStretch(1)
        return row

    def _score_form(self) -> QFormLayout:
        form = QFormLayout()
        self.scores: dict[str, QSpinBox] = {}
        for code, text in SCORES.items():
            spin = QSpinBox(self)
            spin.setRange(*SCORE_RANGE)
            spin.setValue(3)
            self.scores[code] = spin
            form.addRow(_tr(text), spin)
        return form

    def review(self) -> ReviewDraft:
        checked = self.verdict_group.checkedButton()
        verdict = str(checked.property("code")) if checked is not None else "accept"
        reasons = tuple(
            str(self.reasons.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.reasons.count())
            if self.reasons.item(i).checkState() == Qt.CheckState.Checked
        )
        scores = {code: spin.value() for code, spin in self.scores.items()}
        return ReviewDraft(self.run_id, self.report_id, verdict, reasons, scores, self.comment.toPlainText().strip())  # type: ignore[arg-type]

    def _validate(self) -> None:
        problems = self.review().problems()
        if not self.can_save:
            self.save_button.setEnabled(False)
            self.save_button.setToolTip(
                self.tr("Saving reviews arrives with `stockbench feedback` in a later release; nothing is saved yet.")
            )
            self.status.setText(self.tr("Reviews cannot be saved yet in this version."))
            return
        self.save_button.setEnabled(not problems)
        self.save_button.setToolTip("")
        self.status.setText("\n".join(problems))
