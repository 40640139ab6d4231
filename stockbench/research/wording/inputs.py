"""Catalogue entries of the report's inputs wording (keys are stable engine codes; see wording/__init__.py)."""

from __future__ import annotations

from stockbench.research.wording.entry import Entry

WORDS: dict[str, Entry] = {
    "inputs.not_listed": Entry(
        zh="{label} 截至 {as_of} 尚未上市：它于 {listed} 上市；请研究 {listed} 及之后的日期",
        en="{label} was not listed as of {as_of}: it listed on {listed}; research it as of {listed} or later",
    ),
    "inputs.not_listed_in_period": Entry(
        zh="{label} 于 {listed} 上市，晚于整个区间 {start}..{end}：区间内没有可研究的交易日",
        en="{label} listed on {listed}, after the whole period {start}..{end}: no session of it can be researched",
    ),
    "inputs.skipped_before_listing": Entry(
        zh="{label} 于 {listed} 上市：{day} 尚未上市",
        en="{label} listed on {listed}: not yet listed on {day}",
    ),
}
