"""The review dialog: accept, revise or reject a report with the engine's reason codes and scores, a private
comment and, for a revision, how it is taken up (by the next analysis, one started now, or a named later run).

The dialog only gathers the review; the report browser records it in the background (`Reviews.add`) and hands
back either the saved review (the dialog closes) or the engine's reason for refusing it (shown in the status).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
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

from stockbench.errors import UserError
from stockbench.messages import error_words
from stockbench.research.review_records import MAX_COMMENT, REASONS, SCORES, VERDICTS, Verdict
from ui.i18n.language import engine_language

CONTEXT = "ReviewDialog"
VERDICT_LABELS: dict[str, str] = {
    "accept": str(QT_TRANSLATE_NOOP("ReviewDialog", "Accept")),
    "revise": str(QT_TRANSLATE_NOOP("ReviewDialog", "Revise")),
    "reject": str(QT_TRANSLATE_NOOP("ReviewDialog", "Reject")),
}
# Keyed by the engine's codes (stockbench.research.reviews.REASONS / SCORES); a code without a label here shows
# the engine's own English meaning, so a new engine code is never lost, only untranslated.
REASON_LABELS: dict[str, str] = {
    "good_call": str(QT_TRANSLATE_NOOP("ReviewDialog", "The call and the plan were right")),
    "wrong_action": str(QT_TRANSLATE_NOOP("ReviewDialog", "The action was wrong for the facts shown")),
    "wrong_zone": str(QT_TRANSLATE_NOOP("ReviewDialog", "Buy, sell or stop levels were badly placed")),
    "missed_risk": str(QT_TRANSLATE_NOOP("ReviewDialog", "A material risk was left out")),
    "missed_news": str(QT_TRANSLATE_NOOP("ReviewDialog", "A material announcement or event was left out")),
    "weak_evidence": str(QT_TRANSLATE_NOOP("ReviewDialog", "Claims were thinly supported by the cited evidence")),
    "stale_data": str(QT_TRANSLATE_NOOP("ReviewDialog", "The data behind the report was out of date")),
    "wrong_scene": str(QT_TRANSLATE_NOOP("ReviewDialog", "Wrong sector index, peers or anchors")),
    "bad_sizing": str(QT_TRANSLATE_NOOP("ReviewDialog", "Order sizes did not fit the account")),
    "unclear": str(QT_TRANSLATE_NOOP("ReviewDialog", "The report was hard to follow")),
}
SCORE_LABELS: dict[str, str] = {
    "usefulness": str(QT_TRANSLATE_NOOP("ReviewDialog", "Usefulness")),
    "evidence": str(QT_TRANSLATE_NOOP("ReviewDialog", "Evidence")),
    "clarity": str(QT_TRANSLATE_NOOP("ReviewDialog", "Clarity")),
    "risk": str(QT_TRANSLATE_NOOP("ReviewDialog", "Risk coverage")),
}
NEXT_RUN, START_NOW = "", "start"  # revision choices besides naming a run


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


def reason_label(code: str) -> str:
    """The reason code's label in the current language."""
    return _tr(REASON_LABELS[code]) if code in REASON_LABELS else REASONS.get(code, code)


@dataclass(frozen=True)
class Revision:
    """A run that may be named as the revision of the reviewed report (a later report on the same symbol)."""

    run_id: str
    label: str


@dataclass(frozen=True)
class ReviewDraft:
    """A review as entered: what `Reviews.add` records (plus whether to start the revising analysis now)."""

    run_id: str
    report_id: str
    verdict: Verdict
    reasons: tuple[str, ...]
    scores: dict[str, int] = field(default_factory=dict)
    comment: str = ""
    revised_by: str | None = None
    start_revision: bool = False

    def problems(self) -> list[str]:
        """What keeps this review from being saved (empty when it may be); the engine checks again on save."""
        found = []
        if self.verdict != "accept" and not self.reasons:
            found.append(QCoreApplication.translate("ReviewDialog", "Give at least one reason for a revise or reject "
                                                    "verdict."))  # fmt: skip
        if len(self.comment) > MAX_COMMENT:
            text = QCoreApplication.translate("ReviewDialog", "Keep the comment to %1 characters.")
            found.append(text.replace("%1", str(MAX_COMMENT)))
        return found


class ReviewDialog(QDialog):
    """Record a review of one report: Save asks the owner to record it (`save_requested`), which answers with
    `saved()` or `refused(error)`."""

    save_requested = Signal(object)  # a ReviewDraft

    def __init__(self, run_id: str, report_id: str, title: str, parent: QWidget | None = None, *,
                 revisions: Sequence[Revision] = ()) -> None:  # fmt: skip
        super().__init__(parent)
        self.run_id, self.report_id = run_id, report_id
        self.saving = False
        self.setObjectName("ReviewDialog")
        self.setWindowTitle(self.tr("Review report"))
        layout = QVBoxLayout(self)
        heading = QLabel(title, self)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        layout.addLayout(self._verdict_row())
        layout.addLayout(self._revision_row(revisions))
        layout.addWidget(QLabel(self.tr("Reasons"), self))
        layout.addWidget(self._reason_list(), 1)
        layout.addLayout(self._score_form())
        self.comment = QPlainTextEdit(self)
        self.comment.setPlaceholderText(self.tr("Comment (private: never sent to a model)"))
        self.comment.setMaximumHeight(90)
        layout.addWidget(self.comment)
        self.status = QLabel(self)
        self.status.setObjectName("reviewStatus")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.reasons.itemChanged.connect(lambda _: self._validate())
        self.comment.textChanged.connect(self._validate)
        self._validate()

    # ---- layout ------------------------------------------------------------------------------------------
    def _verdict_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Verdict"), self))
        self.verdict_group = QButtonGroup(self)
        for code in VERDICTS:
            button = QRadioButton(_tr(VERDICT_LABELS.get(code, code)), self)
            button.setObjectName(f"verdict_{code}")
            button.setProperty("code", code)
            self.verdict_group.addButton(button)
            row.addWidget(button)
            button.setChecked(code == "accept")
        self.verdict_group.buttonToggled.connect(lambda *_: self._validate())
        row.addStretch(1)
        return row

    def _revision_row(self, revisions: Sequence[Revision]) -> QHBoxLayout:
        row = QHBoxLayout()
        self.revision_label = QLabel(self.tr("Revision"), self)
        self.revision_combo = QComboBox(self)
        self.revision_combo.setObjectName("revisionCombo")
        self.revision_combo.addItem(self.tr("Taken up by the next analysis of this symbol"), NEXT_RUN)
        self.revision_combo.addItem(self.tr("Start a revised analysis now"), START_NOW)
        for revision in revisions:
            self.revision_combo.addItem(self.tr("Revised by %1").replace("%1", revision.label), revision.run_id)
        self.revision_combo.setToolTip(
            self.tr("The next analysis of this symbol reads the reasons of a pending revise verdict and links its "
                    "report to this one; or name a later analysis that already revises it.")
        )  # fmt: skip
        row.addWidget(self.revision_label)
        row.addWidget(self.revision_combo, 1)
        return row

    def _reason_list(self) -> QListWidget:
        self.reasons = QListWidget(self)
        for code in REASONS:
            item = QListWidgetItem(reason_label(code), self.reasons)
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setToolTip(code)  # the code `stockbench feedback --reason` takes
            item.setCheckState(Qt.CheckState.Unchecked)
        return self.reasons

    def _score_form(self) -> QFormLayout:
        """A spin box per engine score; one below the range means "not scored" (no score is recorded)."""
        form = QFormLayout()
        self.scores: dict[str, QSpinBox] = {}
        for name, scale in SCORES.items():
            spin = QSpinBox(self)
            spin.setObjectName(f"score_{name}")
            spin.setRange(scale.low - 1, scale.high)
            spin.setSpecialValueText(self.tr("not scored"))
            spin.setValue(scale.low - 1)
            self.scores[name] = spin
            label = _tr(SCORE_LABELS[name]) if name in SCORE_LABELS else name
            form.addRow(f"{label} ({scale.low}–{scale.high})", spin)
        return form

    # ---- the review ----------------------------------------------------------------------------------------
    def verdict(self) -> Verdict:
        checked = self.verdict_group.checkedButton()
        code = str(checked.property("code")) if checked is not None else ""
        return next((v for v in VERDICTS if v == code), "accept")

    def set_verdict(self, code: str) -> None:
        button = self.findChild(QRadioButton, f"verdict_{code}")
        if isinstance(button, QRadioButton):
            button.setChecked(True)

    def check_reason(self, code: str, checked: bool = True) -> None:
        """Tick (or clear) the reason `code`."""
        for i in range(self.reasons.count()):
            item = self.reasons.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == code:
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def review(self) -> ReviewDraft:
        verdict = self.verdict()
        reasons = tuple(
            str(self.reasons.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.reasons.count())
            if self.reasons.item(i).checkState() == Qt.CheckState.Checked
        )
        scores = {name: spin.value() for name, spin in self.scores.items() if spin.value() >= SCORES[name].low}
        choice = str(self.revision_combo.currentData() or NEXT_RUN) if verdict == "revise" else NEXT_RUN
        revised_by = None if choice in {NEXT_RUN, START_NOW} else choice
        return ReviewDraft(self.run_id, self.report_id, verdict, reasons, scores, self.comment.toPlainText().strip(),
                           revised_by, choice == START_NOW)  # fmt: skip

    def _validate(self) -> None:
        revise = self.verdict() == "revise"
        self.revision_label.setVisible(revise)
        self.revision_combo.setVisible(revise)
        problems = self.review().problems()
        self.save_button.setEnabled(not problems and not self.saving)
        self.status.setText("\n".join(problems))

    # ---- saving ----------------------------------------------------------------------------------------------
    def save(self) -> None:
        """Ask for the review to be recorded (the owner answers with `saved()` or `refused()`)."""
        draft = self.review()
        if draft.problems() or self.saving:
            return
        self.saving = True
        self.save_button.setEnabled(False)
        self.status.setText(self.tr("Saving…"))
        self.save_requested.emit(draft)

    def saved(self) -> None:
        """The review was recorded: close."""
        self.saving = False
        self.accept()

    def refused(self, error: UserError) -> None:
        """The engine refused the review: nothing was recorded; say why and let the user fix it."""
        self.saving = False
        message, hint = error_words(error, engine_language())
        text = self.tr("Not saved: %1").replace("%1", message)
        self.status.setText(f"{text}\n{hint}" if hint else text)
        self.save_button.setEnabled(not self.review().problems())
