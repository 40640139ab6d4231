"""The report's words in both languages: one catalogue, keyed by stable engine codes.

A report is written in one language, the user's: every heading, state, gate reason, scenario and gap comes from
here, while JSON keeps the engine codes. Each area keeps its entries in its own module (plan, actions, signals,
context, report, inputs, quick); they are merged into one catalogue, and a key defined twice is an error at import.
`phrases` builds the report's recurring phrases from records (exchange time, a gate's line, a gap's disclosure).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal

from stockbench.messages import value_word
from stockbench.research.wording import actions, anchors, context, inputs, plan, quick, report, signals
from stockbench.research.wording.entry import LANGUAGES, Entry, Language

__all__ = ["CATALOGUE", "LANGUAGES", "Entry", "Language", "has", "price", "say", "state_word"]


def _merged(*parts: Mapping[str, Entry]) -> dict[str, Entry]:
    merged: dict[str, Entry] = {}
    for part in parts:
        twice = sorted(set(merged) & set(part))
        if twice:
            raise ValueError(f"catalogue keys defined twice: {', '.join(twice)}")
        merged.update(part)
    return merged


CATALOGUE: dict[str, Entry] = _merged(plan.WORDS, actions.WORDS, signals.WORDS, context.WORDS, report.WORDS,
                                      inputs.WORDS, anchors.WORDS, quick.WORDS)  # fmt: skip


def price(value: Decimal) -> str:
    """A price as a report writes it: to the cent, or to the tenth of a cent below one (HK's finest ticks). A Hong
    Kong close stored as 9.980 read "9.980" in the context's price line and "9.98" everywhere else."""
    step = Decimal("0.001") if abs(value) < 1 else Decimal("0.01")
    return format(value.quantize(step, ROUND_HALF_UP), "f")


def has(key: str) -> bool:
    return key in CATALOGUE


def say(key: str, language: Language, /, **values: object) -> str:
    """The entry `key` in `language`, its fields filled from `values` (a missing key is a KeyError: a bug)."""
    return CATALOGUE[key].text(language).format(**values)


def state_word(kind: str, state: str, language: Language) -> str:
    """A market state's word ("state.trend.up": 上涨; the evidence pane and the records' sentences), else the
    catalogue's word for the code (unknown: 未知), else the state as it is."""
    if has(f"state.{kind}.{state}"):
        return say(f"state.{kind}.{state}", language)
    return value_word("evidence_value", state, language)
