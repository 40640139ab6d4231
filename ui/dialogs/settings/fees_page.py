"""The fees page: commission terms per account and market; new terms apply from now, earlier fills keep theirs."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QPushButton, QWidget

from stockbench.errors import UserError
from ui.context import AppContext
from ui.dialogs.settings import settings_actions as actions
from ui.dialogs.settings.amounts import parse_amount, refusal_text, watch_notes
from ui.dialogs.settings.settings_actions import FeeView
from ui.errors import error_text


class FeesPage(QWidget):
    """Commission terms per account and market; new terms apply from now, earlier fills keep theirs."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.views: list[FeeView] = []
        self.choice = QComboBox(self)
        self.rate, self.minimum = QLineEdit(self), QLineEdit(self)
        self.bundled = QCheckBox(self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.apply_button = apply = QPushButton(self)
        apply.clicked.connect(self.apply)
        self.choice.currentIndexChanged.connect(self._fill)
        form = QFormLayout(self)
        self.labels = [QLabel(self) for _field in range(3)]
        for label, field in zip(self.labels, (self.choice, self.rate, self.minimum), strict=True):
            form.addRow(label, field)
        form.addRow(self.bundled)
        form.addRow(apply)
        self.notes = QLabel(self)
        self.notes.setWordWrap(True)
        form.addRow(self.notes)
        form.addRow(self.status)
        watch_notes(self.notes, ((self.rate, "commission_rate", False), (self.minimum, "commission_min", True)))
        self.retranslate()
        actions.load_fees(ctx, self, self._show)

    def retranslate(self) -> None:
        self.bundled.setText(self.tr("Exchange fees are included in the commission"))
        self.apply_button.setText(self.tr("Apply from now"))
        texts = (self.tr("Account and market"), self.tr("Commission rate (e.g. 0.00025)"),
                 self.tr("Minimum commission per order"))  # fmt: skip
        for label, text in zip(self.labels, texts, strict=True):
            label.setText(text)

    def _show(self, views: list[FeeView]) -> None:
        self.views = views
        self.choice.clear()
        for view in views:
            self.choice.addItem(f"{view.account} · {view.market}")
        if not views:
            self.status.setText(self.tr("No accounts yet: open one with Ledger > New Account…"))

    def _fill(self, index: int) -> None:
        if 0 <= index < len(self.views):
            view = self.views[index]
            self.rate.setText(str(view.rate))
            self.minimum.setText(str(view.minimum))
            self.bundled.setChecked(view.bundled)

    def apply(self) -> None:
        index = self.choice.currentIndex()
        if not 0 <= index < len(self.views):
            return
        try:
            rate = parse_amount(self.rate.text(), "commission_rate") or Decimal(0)
            minimum = parse_amount(self.minimum.text(), "commission_min", money=True) or Decimal(0)
        except UserError as error:
            self.status.setText(refusal_text(error))
            return
        old = self.views[index]
        view = FeeView(old.account, old.market, rate, minimum, self.bundled.isChecked())
        actions.save_fees(self.ctx, self, view, lambda _r: self.status.setText(self.tr("Saved.")),
                          lambda error: self.status.setText(error_text(error)))  # fmt: skip
