"""Phrases the report builds from engine records through the catalogue: an instant in exchange time, a data gate's
line, a gap's disclosure, and the one-line reason of a title.

A gate's line words its reason code with its own figures (`gate.<name>.<code>`, else `gate.<code>`; a case with
words of its own first, e.g. `gate.quote_stale.delayed`); a gap's
disclosure is `gap.<gate>` from the one gap table (`gap.<gate>.<code>` where a reason has words of its own), so the
same gap reads the same in every report. Neither ever shows the English reason text the gate wrote for the model and
the logs (an exception's text included).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from stockbench.clock import MARKET_TZ, Market, market_words
from stockbench.market.instruments import parse_symbol
from stockbench.messages import anchor_words
from stockbench.research.blocks import GateFact
from stockbench.research.wording import has, say
from stockbench.research.wording.entry import Language

_SEPARATORS = ("——", " — ", "—", " - ")
_COLONS = ("：", ": ")


def exchange_instant(symbol: str, at: datetime) -> datetime:
    """`at` in the time zone of `symbol`'s exchange (Beijing time for the A-share market)."""
    market = parse_symbol(symbol).market
    return at.astimezone(MARKET_TZ.get(market, MARKET_TZ["CN"]))


def exchange_time(symbol: str, at: datetime, language: Language) -> str:
    """An instant as people read it: in the exchange's time zone, with the zone named (never bare UTC)."""
    return market_time(parse_symbol(symbol).market, at, language)


def market_time(market: Market, at: datetime, language: Language) -> str:
    """An instant as people read it in `market`'s time zone (where no symbol names the exchange: a deposit in an
    account's currency), with the zone named (stockbench.clock.market_words)."""
    return market_words(market, at, language)


def source_name(source: str, language: Language) -> str:
    """A data source by its name in `language` (community -> 社区数据文件); sources joined by a comma each so, and a
    source the catalogue does not know keeps its name."""
    names = [n.strip() for n in str(source).split(",") if n.strip()]
    words = [say(f"source.{n}", language) if has(f"source.{n}") else n for n in names]
    return say("report.list_separator", language).join(words) if words else str(source)


def _failures(failed: Sequence[Sequence[str]], language: Language) -> str:
    words = []
    for source, kind in failed:
        failure = say(f"failure.{kind}", language) if has(f"failure.{kind}") else say("failure.unknown", language)
        words.append(say("gate.failure", language, source=source_name(source, language), failure=failure))
    return say("report.list_separator", language).join(words)


def _figures(gate: GateFact, symbol: str, language: Language) -> dict[str, Any]:
    values: dict[str, Any] = dict(gate.values)
    for key in ("source", "source_a", "source_b"):
        if isinstance(values.get(key), str):
            values[key] = source_name(values[key], language)
    if "rows" in values and has(f"gate.count.{gate.name}"):
        values["count"] = say(f"gate.count.{gate.name}", language, rows=values["rows"])
    if values.get("failed"):
        values["failures"] = _failures(values["failed"], language)
    if "status" in values:  # a halted quote's trading status, in the report's words
        status = f"trading_status.{values['status']}"
        values["state"] = say(status, language) if has(status) else str(values["status"])
    if "field" in values and has(f"quote_field.{values['field']}"):  # a conflicting quote field, in words
        values["field_words"] = say(f"quote_field.{values['field']}", language)
    if isinstance(values.get("at"), str) and "T" in values["at"]:
        values["at"] = exchange_time(symbol, datetime.fromisoformat(values["at"]), language)
    return values


def gate_reason(gate: GateFact, symbol: str, language: Language) -> str:
    """Why the gate passed or has a gap, from its reason code and figures (a gate of an older block, written
    before codes, is said to be unclassified rather than shown in English)."""
    figures = _figures(gate, symbol, language)
    variant = _variant(gate.code, figures)
    keys = (f"gate.{gate.name}.{gate.code}{variant}", f"gate.{gate.code}{variant}",
            f"gate.{gate.name}.{gate.code}", f"gate.{gate.code}")  # fmt: skip
    for key in dict.fromkeys(keys):
        if gate.code and has(key):
            try:
                return say(key, language, **figures)
            except KeyError:  # a figure the wording needs is missing: say less rather than guess
                break
    return say("gate.unworded", language)


def _variant(code: str, figures: dict[str, Any]) -> str:
    """A reason's words for a case of its own, where the catalogue has them: a listing too young for more data
    (`.young`), a quote of a source that publishes late, judged net of its delay (`.delayed`)."""
    if code == "too_few" and "listed" in figures:
        return ".young"
    return ".delayed" if "delay" in figures else ""


def gate_name(name: str, language: Language) -> str:
    return say(f"gate.{name}", language) if has(f"gate.{name}") else name


def gate_line(gate: GateFact, symbol: str, language: Language) -> str:
    """One data gate as the report lists it: its name, pass or gap, and why."""
    status = say(f"report.status.{gate.status}", language) if has(f"report.status.{gate.status}") else gate.status
    return say("report.data.gate", language, gate=gate_name(gate.name, language), status=status,
               reason=gate_reason(gate, symbol, language))  # fmt: skip


def gap_words(name: str, language: Language, gate: GateFact | None = None) -> str:
    """What a gap on gate `name` means for the report: the one table's words (the same in every report), or, where
    the table words the gap's reason code on its own (`gap.<name>.<code>`, with the gate's figures: a quote before
    the listing date names the listing date), those."""
    if gate is not None and gate.code and has(f"gap.{name}.{gate.code}"):
        try:
            return say(f"gap.{name}.{gate.code}", language, **gate.values)
        except KeyError:  # a figure the wording needs is missing (an older block): the table's general words
            pass
    return say(f"gap.{name}", language) if has(f"gap.{name}") else say("gap.other", language)


def gap_line(gate: GateFact, symbol: str, language: Language) -> str:
    """A gap's disclosure: the table's words, then why (and that it was recorded as an exception, if it was)."""
    reason = gate_reason(gate, symbol, language)
    if gate.exception_allowed:
        reason = say("report.list_separator", language).join([reason, say("report.data.exception", language)])
    return say("report.data.gap", language, words=gap_words(gate.name, language, gate), reason=reason)


def anchor_name(name: str, language: Language) -> str:
    """The words of a zone anchor's name (stockbench.messages.anchor_words: the one catalogue's)."""
    return anchor_words(name, language)


def level_price(price: Decimal, *grid: Decimal) -> str:
    """A level (an anchor's price, held to four places) in the decimals of the tick grid that `grid`'s prices lie on
    (a zone's bounds): 2196.5185 beside 2156.16 reads 2196.52; never fewer than two places."""
    places = max([2, *(-int(g.as_tuple().exponent) for g in grid)])
    return format(price.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP), "f")


def one_line_reason(title: str, names: Sequence[str]) -> str:
    """The model's title as the one-line reason of the report's title: a title that already names the subject
    (and its action) is cut to what follows its dash, or its colon (the program writes the name, code and action)."""
    text = " ".join(title.split())
    if not any(n and n in text for n in names):
        return text
    for marks in (_SEPARATORS, _COLONS):
        found = [(text.find(m), -len(m)) for m in marks if m in text]
        if found:
            at, longest = min(found)  # the first mark, and of marks found there the longest ("——" before "—")
            return text[at - longest :].strip()
    return ""
