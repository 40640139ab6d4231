"""Grounding by citation: a number in a statement must be a value of the evidence that statement cites.

A value somewhere in the run that merely displays like the number is not enough (a peer's P/E stated as the
subject's own would pass). Two readings of the sentence narrow the candidates further, where the evidence
has fields to compare them with:
- the metric a number is attached to ("市盈率 27.51 倍", "P/E of 27.51"): a value in a field of another metric
  (a P/B, or the P/E's percentile rather than the P/E) does not count;
- whose number it is: a value in a row of a comparison table (a list of rows that name their symbol) counts
  only for the company the sentence speaks of at that point: the nearest company named before the number,
  else the subject of the report.
Text evidence (a document) has no fields: any value written in it counts, at the written precision.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from stockbench.errors import Problem, UserError
from stockbench.evidence.documents import CANDIDATE_KINDS, GateContext, Statement
from stockbench.evidence.numbers import (
    _EXPLICIT_FIELDS,
    _STANDS_FOR,
    PERIOD_CONSTANTS,
    TextNumber,
    Unit,
    _approx,
    _within,
    exact_number,
    explicit_unit,
    extract_numbers,
    listed,
    unit_for_key,
    unreadable_problems,
    values_from_text,
)
from stockbench.evidence.store import Evidence
from stockbench.market.instruments import parse_symbol
from stockbench.messages import problem

Path = tuple[str | int, ...]
_IDENTITY_KEYS = ("symbol", "code", "ts_code")
_SENTENCE_BREAK = re.compile(r"[。；;！？!?\n]")
_CLAUSE_BREAK = re.compile(r"[。；;！？!?\n，,、：:]")
_CONCEPT_WINDOW = 16
# The metrics a sentence may attach a number to, with the words that name them and the field names that hold them.
_CONCEPTS: dict[str, tuple[str, str]] = {
    "pe": (r"市盈率|P/?E(?![A-Za-z])|price[- ]to[- ]earnings|earnings multiple", r"(^|_)pe($|_)|price_earnings"),
    "pb": (r"市净率|P/?B(?![A-Za-z])|price[- ]to[- ]book", r"(^|_)pb($|_)|price_book"),
    "ps": (r"市销率|P/?S(?![A-Za-z])|price[- ]to[- ]sales", r"(^|_)ps($|_)|price_sales"),
    "pcf": (r"市现率|P/?CF(?![A-Za-z])", r"(^|_)pcf($|_)"),
    "dividend_yield": (r"股息率|dividend yield", r"dividend_yield|(^|_)dy($|_)"),
    "turnover": (r"换手率|turnover rate", r"turnover"),
    "roe": (r"ROE|净资产收益率|return on equity", r"(^|_)roe($|_)"),
}
_CONCEPT_WORDS = {name: re.compile(words, re.IGNORECASE) for name, (words, _) in _CONCEPTS.items()}
_CONCEPT_KEYS = {name: re.compile(keys) for name, (_, keys) in _CONCEPTS.items()}
_PERCENTILE_WORDS = re.compile(r"分位|百分位|percentile", re.IGNORECASE)
_PERCENTILE_KEYS = frozenset({"percentile", "pct_rank", "rank_pct", "quantile"})
_SUBJECT_WORDS = (
    "本公司", "该公司", "公司", "该股", "本股", "个股", "标的", "该标的", "the company", "the stock", "the subject",
)  # fmt: skip
_GROUP_WORDS = (
    "同业公司",
    "可比公司",
    "同业",
    "同行",
    "行业",
    "板块",
    "peers",
    "peer group",
    "the sector",
    "the industry",
)
GROUP = "<peers>"


@dataclass(frozen=True, slots=True)
class Located:
    """One value of an evidence body: where it is, its unit, and the table row (a symbol) that holds it."""

    value: Decimal
    unit: Unit
    evidence_id: str
    path: Path
    entity: str | None = None

    @property
    def where(self) -> str:
        if self.path and isinstance(self.path[0], str) and self.path[0].startswith("text@"):
            return self.path[0]
        return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)

    @property
    def concept(self) -> str | None:
        for part in reversed(self.path):
            if isinstance(part, str):
                for name, keys in _CONCEPT_KEYS.items():
                    if keys.search(part.lower()):
                        return name
        return None

    @property
    def percentile(self) -> bool:
        last = next((p for p in reversed(self.path) if isinstance(p, str)), "")
        return last.lower() in _PERCENTILE_KEYS


# One occurrence as indexed: (float key, parent chain, key, raw scalar, row entity), resolved to a `Located`
# (an exact Decimal and a path) only when it is a candidate; parent chains are (grandparent chain, key) pairs.
_Ref = tuple[float, Any, str | int, Any, str | None]


class EvidenceValues:
    """Every number of one evidence body, by unit, sorted for range look-ups (each occurrence kept).

    Built like the run's number index (floats first, exact values only for candidates): a claim may cite
    megabytes of bars."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence_id = evidence.evidence_id
        self.names: dict[str, str] = {}  # symbol -> name ("" when unnamed): every company a row or block names
        self.by_unit: dict[Unit, tuple[list[float], list[_Ref]]] = {}
        building: dict[Unit, list[_Ref]] = {}
        if evidence.media_type == "application/json":
            self._walk(json.loads(evidence.body), building)
        else:
            for v in values_from_text(self.evidence_id, evidence.body):
                building.setdefault(v.unit, []).append((float(v.value), None, v.where, v.value, None))
        for unit, refs in building.items():
            refs.sort(key=lambda ref: ref[0])
            self.by_unit[unit] = ([ref[0] for ref in refs], refs)

    def _walk(self, data: Any, building: dict[Unit, list[_Ref]]) -> None:
        if not isinstance(data, dict | list):
            if (approx := _approx(data)) is not None:
                building.setdefault("plain", []).append((approx, None, "", data, None))
            return
        stack: list[tuple[Any, Any, str, str | None]] = [(data, None, "", None)]
        while stack:
            value, node, key, entity = stack.pop()
            if isinstance(value, dict):
                self._note_name(value)
                explicit = explicit_unit(value)
                items: Iterator[tuple[Any, Any]] = iter(value.items())
            else:
                explicit, items = None, enumerate(value)
            for k, v in items:
                name = k if isinstance(k, str) else key
                if isinstance(v, dict | list):
                    row = (_identity(v) or entity) if isinstance(k, int) and isinstance(v, dict) else entity
                    stack.append((v, (node, k), name, row))
                    continue
                approx = v if type(v) is float and v - v == 0.0 else _approx(v)
                if approx is None:
                    continue
                unit = explicit if explicit is not None and k in _EXPLICIT_FIELDS else unit_for_key(name)
                building.setdefault(unit, []).append((approx, node, k, v, entity))

    def _note_name(self, data: Mapping[str, Any]) -> None:
        symbol, name = _identity(data), data.get("name")
        if symbol:
            named = name.strip() if isinstance(name, str) else ""
            if named or symbol not in self.names:
                self.names[symbol] = named or self.names.get(symbol, "")

    def _located(self, unit: Unit, ref: _Ref) -> Located | None:
        _, node, key, raw, entity = ref
        if node is None and isinstance(key, str) and key.startswith("text@"):
            return Located(raw, unit, self.evidence_id, (key,))
        number = exact_number(raw)
        if number is None:
            return None
        parts: list[str | int] = [key] if not (node is None and key == "") else []
        while node is not None:
            node, part = node
            parts.append(part)
        return Located(number, unit, self.evidence_id, tuple(reversed(parts)), entity)

    def candidates(self, number: TextNumber) -> list[Located]:
        """Values this number can stand for, given its unit and display precision (every occurrence)."""
        target, half = float(abs(number.value)), float(number.half_width)
        found: list[Located] = []
        seen: set[int] = set()
        for unit, factor in _STANDS_FOR[number.unit]:
            keys, refs = self.by_unit.get(unit, ([], []))
            for side in (1.0, -1.0):
                low, high = sorted((side * (target - half) / factor, side * (target + half) / factor))
                pad = (abs(low) + abs(high)) * 1e-12 + 1e-300
                for ref in refs[bisect.bisect_left(keys, low - pad) : bisect.bisect_right(keys, high + pad)]:
                    if id(ref) in seen:
                        continue
                    seen.add(id(ref))
                    value = self._located(unit, ref)
                    if value is not None and _within(number, value.value * factor):
                        found.append(value)
        return found

    def nearest(self, number: TextNumber, count: int = 3) -> list[Located]:
        """The values closest to the number, of any unit, by relative distance."""
        target = abs(float(number.value)) or 1e-12
        pool: list[tuple[float, Located]] = []
        for unit, (keys, refs) in self.by_unit.items():
            for probe in (target, -target):
                i = bisect.bisect_left(keys, probe)
                for ref in refs[max(i - count, 0) : i + count]:
                    if (value := self._located(unit, ref)) is not None:
                        pool.append((abs(abs(ref[0]) - target) / target, value))
        pool.sort(key=lambda item: item[0])
        unique: list[Located] = []
        for _, value in pool:
            if all((value.value, value.where) != (u.value, u.where) for u in unique):
                unique.append(value)
        return unique[:count]


def _identity(data: Mapping[str, Any]) -> str | None:
    """The symbol a row or block names (in its canonical form where it is one: sh600519 -> 600519.SH). A `code`
    that is no symbol (a baseline reason's "check_failed", a gap's reason code) names nobody: its numbers stay the
    block's subject's."""
    for key in _IDENTITY_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            if key == "code" and not _is_symbol(value.strip()):
                continue
            return _canonical(value.strip())
    return None


@lru_cache(maxsize=8192)
def _is_symbol(text: str) -> bool:
    try:
        parse_symbol(text)
    except UserError:
        return False
    return True


@lru_cache(maxsize=8192)
def _canonical(symbol: str) -> str:
    try:
        return parse_symbol(symbol).symbol
    except UserError:
        return symbol


# ---- reading the sentence ------------------------------------------------------------------------------------
def concept_of(text: str, number: TextNumber) -> tuple[str | None, bool]:
    """The metric the sentence attaches to `number` (or None), and whether it speaks of that metric's percentile."""
    start = max(number.start - _CONCEPT_WINDOW, 0)
    before = text[start : number.start]
    breaks = list(_CLAUSE_BREAK.finditer(before))
    if breaks:
        before = before[breaks[-1].end() :]
    after = text[number.end : number.end + 8]
    stop = _CLAUSE_BREAK.search(after)
    after = after[: stop.start()] if stop else after
    concept = None
    for name, words in _CONCEPT_WORDS.items():
        hits = [m.end() for m in words.finditer(before)]
        if hits and (concept is None or hits[-1] > concept[1]):
            concept = (name, hits[-1])
    if concept is None:
        for name, words in _CONCEPT_WORDS.items():
            if words.match(after.lstrip("倍xX ")):
                concept = (name, 0)
    percentile = bool(_PERCENTILE_WORDS.search(before) or _PERCENTILE_WORDS.match(after.lstrip("%％ ")))
    return (concept[0] if concept else None), percentile


@dataclass(frozen=True)
class Mentions:
    """The names a sentence may use for the companies of a statement's evidence, each with the symbol it means."""

    pattern: re.Pattern[str]
    targets: tuple[str, ...]
    generic: frozenset[int]  # indices of words that stand for the subject or the peer group

    @classmethod
    def of(cls, names: Mapping[str, str], subject: str) -> Mentions:
        words: dict[str, str] = {}
        for symbol, name in names.items():
            if name:
                words[name] = symbol
        for symbol in {*names, subject}:
            words[symbol] = symbol
            code = symbol.split(".")[0]
            if len(code) >= 5:
                words[code] = symbol
        generic = {*_SUBJECT_WORDS, *_GROUP_WORDS}
        for word in _SUBJECT_WORDS:
            words.setdefault(word, subject)
        for word in _GROUP_WORDS:
            words.setdefault(word, GROUP)
        ordered = sorted((w for w in words if w), key=len, reverse=True)
        pattern = "|".join(f"(?P<w{i}>{re.escape(w)})" for i, w in enumerate(ordered))
        return cls(
            re.compile(pattern, re.IGNORECASE),
            tuple(words[w] for w in ordered),
            frozenset(i for i, w in enumerate(ordered) if w in generic),
        )


def entity_of(text: str, number: TextNumber, mentions: Mentions, subject: str) -> str:
    """Whom the sentence speaks of at `number`: the nearest company (or peer group) named before it in the same
    sentence, else the subject. A generic word right after a name ("宁德时代公司") keeps the name."""
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(text, 0, number.start)]
    begin = breaks[-1] if breaks else 0
    found, last_end = subject, -1
    for match in mentions.pattern.finditer(text, begin, number.start):
        index = int((match.lastgroup or "w0")[1:])
        if not (index in mentions.generic and match.start() == last_end):
            found = mentions.targets[index]
        last_end = match.end()
    return found


# ---- grounding -----------------------------------------------------------------------------------------------
def values_of(ctx: GateContext, evidence_id: str) -> EvidenceValues | None:
    """The values of one cited evidence (None when it is not this run's, or only a candidate: a search result)."""
    found = ctx.evidence.get(evidence_id)
    if found is None or found.kind in CANDIDATE_KINDS:
        return None
    cached = ctx._values.get(evidence_id)
    if cached is None:
        cached = ctx._values[evidence_id] = EvidenceValues(found)
    return cached


def _fits(value: Located, concept: str | None, percentile: bool, entity: str, subject: str) -> str:
    """Why `value` does not say what the sentence says ("" when it does)."""
    if concept is not None and value.concept is not None:
        if value.concept != concept:
            return f"it is a {value.concept} value ({value.where}), the sentence speaks of {concept}"
        if value.percentile != percentile:
            what = "a percentile" if value.percentile else "the value itself"
            return f"it is {what} of {concept} ({value.where}), not what the sentence says"
    if value.entity is not None:
        if entity == GROUP:
            if value.entity == subject:
                return f"it belongs to the subject {subject} ({value.where}), the sentence speaks of its peers"
        elif value.entity != entity:
            return f"it belongs to {value.entity} ({value.where}), the sentence speaks of {entity}"
    return ""


def _show(value: Located) -> str:
    suffix = {"pct": "%", "pp": " pp", "fraction": " (fraction)", "multiple": "x", "plain": ""}[value.unit]
    owner = f" of {value.entity}" if value.entity else ""
    return f"{value.value.normalize():f}{suffix}{owner} ({value.evidence_id} {value.where})"


def ground_statement(statement: Statement, ctx: GateContext, subject: str) -> list[Problem]:
    """A problem for every number of `statement` that no value of the evidence it cites stands for."""
    scope = [v for eid in dict.fromkeys(statement.evidence) if (v := values_of(ctx, eid)) is not None]
    if statement.kind == "claim" and not any(eid in ctx.evidence for eid in statement.evidence):
        return []  # a claim that cites nothing of this run is refused by the evidence gate, with that reason
    names: dict[str, str] = {}
    for values in scope:
        names.update(values.names)
    mentions = Mentions.of(names, subject)
    problems = unreadable_problems(statement.text, statement.location)
    for number in extract_numbers(statement.text):
        if number.period and abs(number.value) in PERIOD_CONSTANTS:
            continue
        problem = _ground_one(statement, number, scope, ctx, mentions, subject)
        if problem is not None:
            problems.append(problem)
    return problems


def _ground_one(  # noqa: PLR0917 - one number of one statement, and what it is read against
    statement: Statement,
    number: TextNumber,
    scope: Sequence[EvidenceValues],
    ctx: GateContext,
    mentions: Mentions,
    subject: str,
) -> Problem | None:
    concept, percentile = concept_of(statement.text, number)
    entity = entity_of(statement.text, number, mentions, subject)
    misfits: list[str] = []
    for values in scope:
        for value in values.candidates(number):
            why = _fits(value, concept, percentile, entity, subject)
            if not why:
                return None
            misfits.append(why)
    where = f"{statement.location}[{number.start}:{number.end}]"
    if misfits:
        return problem("number_misattributed", number=number.text, where=where, why=misfits[0], location=where)
    nearest = ", ".join(_show(v) for values in scope for v in values.nearest(number, 2)) or "none"
    elsewhere = ctx.numbers.matches(number)
    if elsewhere:
        holders = ", ".join(sorted({f"{v.evidence_id} {v.where}" for v in elsewhere[:3]}))
        cited = ", ".join(statement.evidence)
        return problem("number_uncited", number=number.text, where=where, holders=holders, location=where,
                       **listed("cited", cited or "none"), **listed("nearest", nearest))  # fmt: skip
    return problem(
        "number_ungrounded.cited", number=number.text, where=where, location=where, **listed("nearest", nearest)
    )
