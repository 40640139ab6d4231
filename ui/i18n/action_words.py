"""The words of the engine's closed set of actions in the interface language: the one table behind every place the
shell shows an action (the chart's report markers, the watchlist, the reports list and its filter, the track
record). The words are the report's own (the catalogue's `action.*` entries in stockbench.research.wording): the
English source here is the English edition, the Chinese translation the Chinese one, and a test keeps them equal.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from stockbench.research.track_scoring import ACTIONS

CONTEXT = "Actions"
WORDS: dict[str, str] = {
    "buy": str(QT_TRANSLATE_NOOP("Actions", "Buy")),
    "add": str(QT_TRANSLATE_NOOP("Actions", "Add")),
    "hold": str(QT_TRANSLATE_NOOP("Actions", "Hold")),
    "reduce": str(QT_TRANSLATE_NOOP("Actions", "Reduce")),
    "sell": str(QT_TRANSLATE_NOOP("Actions", "Sell")),
    "wait": str(QT_TRANSLATE_NOOP("Actions", "Wait")),
    "avoid": str(QT_TRANSLATE_NOOP("Actions", "Avoid")),
}
ORDER: tuple[str, ...] = ACTIONS  # the engine's display order


def action_word(action: str) -> str:
    """`action` in the interface language (an action outside the set, say from an old report, as it is stored)."""
    return QCoreApplication.translate(CONTEXT, WORDS[action]) if action in WORDS else action


def in_order(actions: set[str] | list[str]) -> list[str]:
    """`actions` in the engine's order, any outside the set last (alphabetically)."""
    known = [a for a in ORDER if a in actions]
    return known + sorted(set(actions) - set(ORDER))
