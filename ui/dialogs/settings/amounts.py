"""Amounts typed into the settings, the account dialogs and the research panel (a commission rate, a minimum, an
amount of cash, a cost ceiling): read by the engine's one reader of typed numbers (`stockbench.market.numbers`), and
a line under the form that says how a number was read when its form was changed (full-width digits, separators)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtWidgets import QLabel, QLineEdit

from stockbench.errors import InvalidInput, UserError
from stockbench.market.numbers import read_decimal, read_money
from stockbench.messages import error_words
from ui.i18n.language import engine_language


def parse_amount(text: str, what: str, *, money: bool = False) -> Decimal | None:
    """`text` as a non-negative Decimal (None when empty); InvalidInput saying how to write it otherwise.

    `what` names the value (a key of the catalogue's "number.*" words, e.g. "commission_rate"); `money` allows at
    most two decimals."""
    if not text.strip():
        return None
    return (read_money if money else read_decimal)(text, what).value


def refusal_text(error: UserError) -> str:
    """A refused amount in the interface language: what is wrong, and on the next line how to write it."""
    message, hint = error_words(error, engine_language())
    return f"{message}\n{hint}" if hint else message


def typed_notes(fields: Sequence[tuple[str, str, bool]]) -> str:
    """The notes on how each (text, what, money) was read, one per line, in the interface language."""
    lines = []
    for text, what, money in fields:
        if not text.strip():
            continue
        try:
            found = (read_money if money else read_decimal)(text, what)
        except InvalidInput:  # refused when submitted, with its own words
            continue
        lines += [note.text(engine_language()) for note in found.notes]
    return "\n".join(lines)


def watch_notes(label: QLabel, fields: Sequence[tuple[QLineEdit, str, bool]]) -> None:
    """Keep `label` saying how the numbers typed into `fields` (edit, what, money) are read, as they are typed."""

    def update() -> None:
        label.setText(typed_notes([(edit.text(), what, money) for edit, what, money in fields]))

    for edit, _what, _money in fields:
        edit.textChanged.connect(update)
    update()
