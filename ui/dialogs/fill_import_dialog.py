"""Import fills from a broker's CSV: choose the account and the file, see every problem with its row and the fills
that would be written, then import all of them or none.

The check is the engine's own import run as a dry run (`stockbench.ledger.imports`) in the background; Import
is enabled only for a check without problems of exactly the account and file on screen, and the import refuses
a file whose bytes changed since that check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from stockbench.clock import MARKET_TZ
from stockbench.errors import Problem, UserError
from stockbench.ledger.entries import Fill
from stockbench.market.instruments import parse_symbol
from stockbench.messages import ERRORS, error_words, said, value_word
from stockbench.messages import problem as make_problem
from stockbench.workbench import Workbench
from ui.context import AppContext
from ui.dialogs.fill_dialog import shown_price
from ui.i18n.language import engine_language
from ui.i18n.ledger_words import word

T = TypeVar("T")
MIN_WIDTH, MIN_HEIGHT = 760, 520


@dataclass(frozen=True)
class ImportCheck:
    """The outcome of checking (or importing) one file into one account."""

    account: str
    path: Path
    rows: int
    fills: tuple[Fill, ...]
    problems: tuple[tuple[int | None, Problem], ...]  # (row number, problem); None: the whole file
    digest: str = ""
    written: bool = False

    @property
    def importable(self) -> bool:
        return not self.problems and bool(self.fills) and not self.written


def check_file(
    bench: Workbench, account: str, path: Path, *, write: bool = False, digest: str | None = None
) -> ImportCheck:
    """Check `path` for `account` (a dry run), or import it when `write` (only if it still has `digest`).

    A file that cannot be read at all comes back as one file-level problem, like a bad row, not as an error.
    """
    try:
        result = bench.ledger.import_fills(path, account, dry_run=not write, expected_digest=digest)
    except UserError as error:
        return ImportCheck(account, path, 0, (), ((None, Problem("bad_file", *error_words(error, engine_language()))),))
    except OSError as error:
        why = "missing" if isinstance(error, FileNotFoundError) else "denied" if isinstance(error, PermissionError) \
            else "other"  # fmt: skip
        problem = make_problem("import_unreadable", file=path.name, why=value_word("file_error", why, "en"),
                               why_zh=value_word("file_error", why, "zh"))  # fmt: skip
        return ImportCheck(account, path, 0, (), ((None, problem),))
    problems = tuple(sorted(result.problems, key=lambda p: p[0]))  # in file order (the engine lists parse errors first)
    return ImportCheck(account, path, result.rows, tuple(result.fills), problems, result.digest, result.written)


def list_accounts(bench: Workbench) -> list[str]:
    return [a.name for a in bench.ledger.accounts()]


# ---- tables, declared as data -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Column(Generic[T]):
    title: str  # marked with QT_TRANSLATE_NOOP("FillImportDialog", ...)
    value: Callable[[T], str]
    right: bool = False


def _money(value: Decimal) -> str:
    return f"{value:,.2f}"


def _when(fill: Fill) -> str:
    return fill.executed_at.astimezone(MARKET_TZ[parse_symbol(fill.symbol).market]).strftime("%Y-%m-%d %H:%M:%S")


def _problem(row: tuple[int | None, Problem]) -> str:
    """The message in the interface's language, without the "row N: " the engine puts before it (the row has its
    own column)."""
    language = engine_language()
    prefix = ERRORS["import_row_problem"][0].text(language).format(number=row[0], problem="", problem_zh="")
    return said(row[1], language)[0].removeprefix(prefix)


PROBLEM_COLUMNS: tuple[Column[tuple[int | None, Problem]], ...] = (
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Row")), lambda p: "" if p[0] is None else str(p[0]), True),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Problem")), _problem),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "How to fix")), lambda p: said(p[1], engine_language())[1]),
)
FILL_COLUMNS: tuple[Column[Fill], ...] = (
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Time")), _when),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Symbol")), lambda f: f.symbol),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Side")), lambda f: word(f.side)),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Quantity")), lambda f: f"{f.qty:,}", True),
    Column(
        str(QT_TRANSLATE_NOOP("FillImportDialog", "Price")),
        lambda f: shown_price(f.symbol, f.price, f.trade_date),
        True,
    ),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Amount")), lambda f: _money(f.amount), True),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Fees")), lambda f: _money(f.fees), True),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Fees from")), lambda f: word(f.fees_source)),
    Column(str(QT_TRANSLATE_NOOP("FillImportDialog", "Currency")), lambda f: f.currency),
)


class FillImportDialog(QDialog):
    """Check a broker CSV against the ledger and import every fill in it, or none."""

    imported = Signal(str, int)  # account, number of fills written
    checked = Signal(object)  # each ImportCheck shown (tests listen)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, account: str | None = None,
                 path: Path | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("FillImportDialog")
        self.setWindowTitle(self.tr("Import fills from CSV"))
        self.setMinimumSize(MIN_WIDTH, MIN_HEIGHT)
        self.path: Path | None = path
        self.current: ImportCheck | None = None
        self._wanted = account
        self._seq = 0
        self._build()
        self._set_import(False)
        ctx.op(list_accounts, self._on_accounts, parent=self)

    # ---- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        help_label = QLabel(self.tr("The file needs a header row with the columns executed_at, symbol, side, qty and "
                                    "price, and optionally fee, order_id and note (UTF-8 or GBK). Times without an "
                                    "offset are exchange time; an empty fee is computed from the rules and the "
                                    "account's terms. Every row is checked first; nothing is written unless every "
                                    "row is valid."), self)  # fmt: skip
        help_label.setWordWrap(True)
        layout.addWidget(help_label)
        layout.addLayout(self._build_form())
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("importSummary")
        self.summary_label.setWordWrap(True)
        layout.addWidget(self.summary_label)
        self.problems_table = self._table(PROBLEM_COLUMNS, "importProblems")
        self.fills_table = self._table(FILL_COLUMNS, "importFills")
        self.problems_title = QLabel(self.tr("Problems"), self)
        self.fills_title = QLabel(self.tr("Fills that would be written"), self)
        for widget in (self.problems_title, self.problems_table, self.fills_title, self.fills_table):
            layout.addWidget(widget, 1 if isinstance(widget, QTableWidget) else 0)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.import_file)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._show_tables(problems=False, fills=False)

    def _build_form(self) -> QFormLayout:
        self.account_combo = QComboBox(self)
        self.account_combo.currentIndexChanged.connect(lambda _i: self.check())
        self.file_edit = QLineEdit(self)
        self.file_edit.setReadOnly(True)
        self.file_edit.setPlaceholderText(self.tr("No file chosen"))
        if self.path is not None:
            self.file_edit.setText(str(self.path))
        choose = QPushButton(self.tr("Choose file…"), self)
        choose.clicked.connect(self._choose_file)
        self.recheck_button = QPushButton(self.tr("Check again"), self)
        self.recheck_button.clicked.connect(self.check)
        row = QHBoxLayout()
        row.addWidget(self.file_edit, 1)
        row.addWidget(choose)
        row.addWidget(self.recheck_button)
        form = QFormLayout()
        form.addRow(self.tr("Account"), self.account_combo)
        form.addRow(self.tr("File"), row)
        return form

    def _table(self, columns: Sequence[Column[Any]], name: str) -> QTableWidget:
        table = QTableWidget(0, len(columns), self)
        table.setObjectName(name)
        table.setHorizontalHeaderLabels([self.tr(c.title) for c in columns])
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.verticalHeader().hide()
        table.horizontalHeader().setStretchLastSection(True)
        return table

    # ---- choosing -------------------------------------------------------------------------------------
    def _on_accounts(self, names: list[str]) -> None:
        self.account_combo.blockSignals(True)
        for name in names:
            self.account_combo.addItem(name, name)
        self.account_combo.setCurrentIndex(max(self.account_combo.findData(self._wanted), 0))
        self.account_combo.blockSignals(False)
        if not names:
            text = self.tr("This workspace has no account yet: open one with Ledger > New Account…")
            self.summary_label.setText(text)
            return
        self.check()

    def account(self) -> str | None:
        data = self.account_combo.currentData()
        return str(data) if data else None

    def _choose_file(self) -> None:
        chosen, _filter = QFileDialog.getOpenFileName(self, self.tr("Choose the broker's CSV file"), "",
                                                      self.tr("CSV files (*.csv);;All files (*)"))  # fmt: skip
        if chosen:
            self.set_file(Path(chosen))

    def set_file(self, path: Path) -> None:
        """Use `path` and check it at once."""
        self.path = path
        self.file_edit.setText(str(path))
        self.check()

    # ---- checking -------------------------------------------------------------------------------------
    def check(self) -> None:
        """Check the file on screen against the chosen account (writes nothing)."""
        self._seq += 1
        self.current = None
        self._set_import(False)
        account, path, seq = self.account(), self.path, self._seq
        if account is None or path is None:
            return
        self.summary_label.setText(self.tr("Checking %1…").replace("%1", path.name))
        self.ctx.op(lambda bench: check_file(bench, account, path), lambda found: self._on_check(seq, found),
                    parent=self)  # fmt: skip

    def _on_check(self, seq: int, found: ImportCheck) -> None:
        if seq != self._seq:
            return  # the account or the file changed while this check ran
        self.current = found
        self._fill(self.problems_table, PROBLEM_COLUMNS, found.problems)
        self._fill(self.fills_table, FILL_COLUMNS, found.fills)
        self._show_tables(problems=bool(found.problems), fills=bool(found.fills))
        self.summary_label.setText(self._summary(found))
        self._set_import(found.importable)
        self.checked.emit(found)

    def _summary(self, found: ImportCheck) -> str:
        if found.problems:
            return self.tr("%n problem(s) in %1: nothing can be imported until every row is valid.", "",
                           len(found.problems)).replace("%1", found.path.name)  # fmt: skip
        if not found.fills:
            return self.tr("%1 holds no fills.").replace("%1", found.path.name)
        return self.tr("%n fill(s) ready to import into %1.", "", len(found.fills)).replace("%1", found.account)

    def _fill(self, table: QTableWidget, columns: Sequence[Column[T]], items: Sequence[T]) -> None:
        table.setRowCount(len(items))
        for r, item in enumerate(items):
            for c, column in enumerate(columns):
                cell = QTableWidgetItem(column.value(item))
                if column.right:
                    cell.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                table.setItem(r, c, cell)
        table.resizeColumnsToContents()

    def _show_tables(self, *, problems: bool, fills: bool) -> None:
        self.problems_title.setVisible(problems)
        self.problems_table.setVisible(problems)
        self.fills_title.setVisible(fills)
        self.fills_table.setVisible(fills)
        self.fills_title.setText(self.tr("Fills that would be written") if not problems else
                                 self.tr("Valid rows (not written while any row has a problem)"))  # fmt: skip

    def _set_import(self, enabled: bool) -> None:
        self.import_button.setEnabled(enabled)

    # ---- importing ------------------------------------------------------------------------------------
    def import_file(self) -> None:
        """Write every fill of the checked file, or none (the ledger checks each again as it writes)."""
        checked = self.current
        if checked is None or not checked.importable:
            return
        self._set_import(False)
        self._seq += 1
        seq = self._seq
        self.summary_label.setText(self.tr("Importing…"))
        self.ctx.op(lambda bench: check_file(bench, checked.account, checked.path, write=True, digest=checked.digest),
                    lambda found: self._on_imported(seq, found), parent=self)  # fmt: skip

    def _on_imported(self, seq: int, found: ImportCheck) -> None:
        if not found.written:  # the ledger or the file changed since the check: show why; nothing was written
            self._on_check(seq, found)
            return
        self.imported.emit(found.account, len(found.fills))
        self.accept()
