"""Catalogue entries of the report's inputs wording (keys are stable engine codes; see wording/__init__.py); the
refusal of a symbol not yet listed is an error of the one catalogue (stockbench.messages ERRORS not_listed)."""

from __future__ import annotations

from stockbench.research.wording.entry import Entry

WORDS: dict[str, Entry] = {
    "inputs.skipped_before_listing": Entry(
        zh="{label} 于 {listed} 上市：{day} 尚未上市",
        en="{label} listed on {listed}: not yet listed on {day}",
    ),
    "inputs.skipped_no_bars": Entry(zh="{symbol} 在 {day} 及之前没有日线", en="no bars of {symbol} on or before {day}"),
    "inputs.skipped_bars_end": Entry(zh="{symbol} 的日线止于 {last}", en="the bars of {symbol} end on {last}"),
}
