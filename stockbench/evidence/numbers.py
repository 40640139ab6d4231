"""Number grounding: every number in a text must match a value in this run's evidence.

A number is read with its unit and display precision (see `numerals`): "1,234.5" matches 1234.46 but not
1234.6, "12.3万" matches 123,456 but not 12.3亿. Percentages and percentage points never match each
other; a percentage may stand for a fraction (35% for 0.35); an unsigned number may stand for a negative
value ("下跌3.5%" for -3.5), a signed one only for a value of its sign. Evidence values come from JSON
fields (their unit from the field name or an explicit "unit" beside "value" and its "limit") and from
numbers written in fetched documents. The index keeps one approximate (float) key per distinct value and checks every
candidate exactly in Decimal, so it is fast on megabytes of evidence and exact at the rounding edges.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from stockbench.errors import Problem
from stockbench.evidence.numerals import (
    MULTIPLIERS,
    PERIOD_CONSTANTS,
    TextNumber,
    Unit,
    chinese_numeral,
    extract_numbers,
    number_at,
    plain_text,
    scan,
    unreadable_numerals,
)
from stockbench.messages import problem, value_word

__all__ = [
    "MULTIPLIERS",
    "PERIOD_CONSTANTS",
    "EvidenceValue",
    "NumberIndex",
    "TextNumber",
    "Unit",
    "chinese_numeral",
    "exact_number",
    "extract_numbers",
    "ground_numbers",
    "index_evidence",
    "unit_for_key",
    "values_from_json",
    "values_from_text",
]

_PCT_KEYS = re.compile(r"(pct|percent|percentage|_chg|turnover)$")
_PP_KEYS = re.compile(r"(_pp|points)$")
# The state tables' flow and relative-strength inputs are fractions (net flow over turnover, excess return): a
# report says them in percent.
_FRACTION_KEYS = re.compile(
    r"(rate|probability|prob|weight|share|fraction|ratio_of|percentile)$|^(flow|rs)_(short|long)$"
)
_MULTIPLE_KEYS = re.compile(r"^(pe|pb|ps|pcf)(_|$)|multiple$|(^|_)(pe|pb|ps)_")
# What an explicit "unit" beside "value" may say, besides our own unit names.
EXPLICIT_UNITS: dict[str, Unit] = {
    "plain": "plain", "pct": "pct", "fraction": "fraction", "pp": "pp", "multiple": "multiple", "%": "pct",
    "percent": "pct", "个百分点": "pp", "percentage points": "pp", "倍": "multiple", "x": "multiple",
    "ratio": "plain", "CNY": "plain", "HKD": "plain", "USD": "plain", "元": "plain", "shares": "plain",
}  # fmt: skip
# The fields an explicit "unit" speaks for: the value and the limit it is held to (a baseline check's reason).
_EXPLICIT_FIELDS = frozenset({"value", "limit"})
# Which evidence units (and by what factor) a number written in a unit may stand for.
_STANDS_FOR: dict[Unit, tuple[tuple[Unit, int], ...]] = {
    "pct": (("pct", 1), ("fraction", 100)),
    "pp": (("pp", 1),),
    "multiple": (("multiple", 1), ("plain", 1)),
    "plain": (("plain", 1), ("multiple", 1), ("fraction", 1)),
    "fraction": (("fraction", 1),),
}
_NUMERIC_START = frozenset("+-.0123456789 ")
_CONTAINERS = (dict, list)
# The scales of the usual slips, for suggestions: 万/亿/万亿 confused with each other, % with a fraction.
_SLIPS = (1.0, 1e4, 1e-4, 1e8, 1e-8, 1e12, 1e-12, 1e2, 1e-2)


@lru_cache(maxsize=4096)
def unit_for_key(key: str) -> Unit:
    """The unit a JSON field name implies (change_pct -> pct, win_rate -> fraction, pe_ttm -> multiple)."""
    key = key.lower()
    if _PP_KEYS.search(key):
        return "pp"
    if _PCT_KEYS.search(key):
        return "pct"
    if _FRACTION_KEYS.search(key):
        return "fraction"
    if _MULTIPLE_KEYS.search(key):
        return "multiple"
    return "plain"


@dataclass(frozen=True, slots=True)
class EvidenceValue:
    value: Decimal
    unit: Unit
    evidence_id: str
    where: str  # a JSON path or "text@offset"


def exact_number(value: Any) -> Decimal | None:
    """The exact Decimal of a JSON scalar that is a finite number (or a short numeric string), else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return Decimal(str(value)) if math.isfinite(value) else None
    if isinstance(value, str) and len(value) < 40:
        try:
            parsed = Decimal(value.strip().replace(",", ""))
        except InvalidOperation:
            return None
        return parsed if parsed.is_finite() else None
    return None


def _approx(value: Any) -> float | None:
    """A float key for a JSON scalar that `exact_number` accepts (None for everything else)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            return None
    if isinstance(value, str) and 0 < len(value) < 40 and value[0] in _NUMERIC_START:
        try:
            approx = float(value.replace(",", ""))
        except ValueError:
            return None
        return approx if math.isfinite(approx) else None
    return None


def explicit_unit(data: dict[str, Any]) -> Unit | None:
    """The unit a JSON object declares for its "value" (and "limit") field, when it declares a known one."""
    declared = data.get("unit")
    return EXPLICIT_UNITS.get(declared) if isinstance(declared, str) and "value" in data else None


def _walk(data: Any, path: str, key: str) -> Iterator[tuple[str, Decimal, Unit]]:
    if isinstance(data, dict):
        explicit = explicit_unit(data)
        for k, v in data.items():
            number = exact_number(v) if explicit and k in _EXPLICIT_FIELDS else None
            if number is not None and explicit is not None:
                yield f"{path}.{k}", number, explicit
            else:
                yield from _walk(v, f"{path}.{k}", k)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _walk(v, f"{path}[{i}]", key)
    elif (number := exact_number(data)) is not None:
        yield path, number, unit_for_key(key)


def values_from_json(evidence_id: str, data: Any) -> Iterator[EvidenceValue]:
    """Every number in JSON evidence, with its unit and JSON path."""
    for path, number, unit in _walk(data, "$", ""):
        yield EvidenceValue(number, unit, evidence_id, path)


def values_from_text(evidence_id: str, text: str) -> Iterator[EvidenceValue]:
    """Every number written in a document, with its unit and offset."""
    for number in extract_numbers(text):
        yield EvidenceValue(number.value, number.unit, evidence_id, f"text@{number.start}")


# A reference to one indexed value, resolved to an exact EvidenceValue only when it is a candidate:
# ("json", evidence id, parent node, key, raw scalar), ("text", evidence id, plain text, start) or
# ("value", EvidenceValue). Parent nodes are (grandparent node, key) chains, rendered as a JSON path.
Ref = tuple[Any, ...]


def _path(node: Any, key: str | int) -> str:
    if node is None and key == "":
        return "$"
    parts = [key]
    while node is not None:
        node, key = node
        parts.append(key)
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in reversed(parts))


def _resolve(unit: Unit, ref: Ref) -> EvidenceValue | None:
    if ref[0] == "value":
        found: EvidenceValue = ref[1]
        return found
    if ref[0] == "json":
        number = exact_number(ref[4])
        return None if number is None else EvidenceValue(number, unit, ref[1], _path(ref[2], ref[3]))
    read = number_at(ref[2], ref[3])
    return None if read is None else EvidenceValue(read.value, unit, ref[1], f"text@{ref[3]}")


def _within(number: TextNumber, value: Decimal) -> bool:
    """Whether `value` displays as `number` (half-up rounding; unsigned text may stand for either sign)."""
    target, half = abs(number.value), number.half_width
    if not target - half <= abs(value) < target + half:
        return False
    if not number.signed or number.value == 0:  # a signed zero says nothing about the sign
        return True
    return (value < 0) == (number.value < 0)


@dataclass
class NumberIndex:
    """Evidence values by unit, each unit a sorted list of float keys with references for exact checks."""

    by_unit: dict[Unit, tuple[list[float], list[Ref]]] = field(default_factory=dict)
    _building: dict[Unit, dict[float, Ref]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, values: Iterable[EvidenceValue]) -> NumberIndex:
        """An index of already exact values (tests and small callers; `index_evidence` is the fast path)."""
        index = cls()
        for value in values:
            index.add(value.unit, float(value.value), ("value", value))
        return index.finish()

    def add(self, unit: Unit, approx: float, ref: Ref) -> None:
        column = self._building.setdefault(unit, {})
        if approx not in column:  # equal values need one reference; the first seen is kept
            column[approx] = ref

    def add_json(self, evidence_id: str, data: Any) -> None:
        """Index every number of a JSON body (field units from `unit_for_key` or an explicit unit)."""
        if not isinstance(data, _CONTAINERS):
            if (approx := _approx(data)) is not None:
                self.add("plain", approx, ("json", evidence_id, None, "", data))
            return
        columns = self._building
        stack: list[tuple[Any, Any, str]] = [(data, None, "")]
        while stack:  # the hot loop of large tool responses: `_approx` and `add` inlined for floats
            value, node, key = stack.pop()
            explicit = explicit_unit(value) if isinstance(value, dict) else None
            items: Iterable[tuple[Any, Any]] = value.items() if isinstance(value, dict) else enumerate(value)
            for k, v in items:
                name = k if isinstance(k, str) else key  # list items take their list's field name
                if isinstance(v, _CONTAINERS):
                    stack.append((v, (node, k), name))
                    continue
                approx = v if type(v) is float and v - v == 0.0 else _approx(v)
                if approx is None:
                    continue
                unit = explicit if explicit is not None and k in _EXPLICIT_FIELDS else unit_for_key(name)
                column = columns.get(unit)
                if column is None:
                    column = columns[unit] = {}
                if approx not in column:
                    column[approx] = ("json", evidence_id, node, k, v)

    def add_text(self, evidence_id: str, text: str) -> None:
        """Index every number written in a document."""
        plain = plain_text(text)
        columns = self._building
        for unit, approx, start in scan(plain):  # the hot loop of a large document: `add`, inlined
            column = columns.get(unit)
            if column is None:
                column = columns[unit] = {}
            if approx not in column:
                column[approx] = ("text", evidence_id, plain, start)

    def finish(self) -> NumberIndex:
        """Sort what was added since the last call; the index is then ready for look-ups."""
        for unit, added in self._building.items():
            keys, refs = self.by_unit.get(unit, ([], []))
            column = dict(zip(keys, refs, strict=True)) if keys else added
            for key, ref in added.items() if keys else ():
                column.setdefault(key, ref)
            ordered = sorted(column)
            self.by_unit[unit] = (ordered, [column[k] for k in ordered])
        self._building = {}
        return self

    def _candidates(self, unit: Unit, low: float, high: float) -> Iterator[Ref]:
        keys, refs = self.by_unit.get(unit, ([], []))
        pad = (abs(low) + abs(high)) * 1e-12 + 1e-300
        yield from refs[bisect.bisect_left(keys, low - pad) : bisect.bisect_right(keys, high + pad)]

    def _matching(self, number: TextNumber) -> Iterator[EvidenceValue]:
        target, half = float(abs(number.value)), float(number.half_width)
        sides = [1.0, -1.0] if not number.signed or number.value == 0 else [1.0 if number.value > 0 else -1.0]
        for unit, factor in _STANDS_FOR[number.unit]:
            for side in sides:
                low, high = sorted((side * (target - half) / factor, side * (target + half) / factor))
                for ref in self._candidates(unit, low, high):
                    found = _resolve(unit, ref)
                    if found is not None and _within(number, found.value * factor):
                        yield found

    def values(self) -> Iterator[EvidenceValue]:
        """Every distinct value the index holds, resolved exactly (one per value and unit)."""
        for unit, (_, refs) in self.by_unit.items():
            for ref in refs:
                if (value := _resolve(unit, ref)) is not None:
                    yield value

    def supports(self, number: TextNumber) -> bool:
        """Whether some evidence value displays as `number`."""
        return next(self._matching(number), None) is not None

    def matches(self, number: TextNumber) -> list[EvidenceValue]:
        """Evidence values that `number` can stand for, given its unit and display precision."""
        found: list[EvidenceValue] = []
        for value in self._matching(number):
            if value not in found:
                found.append(value)
        return found

    def nearest(self, number: TextNumber, count: int = 3) -> list[EvidenceValue]:
        """The closest values of any unit, also at the usual slips (万 for 亿, %), by relative distance."""
        target = abs(float(number.value)) or 1e-12
        pool: list[tuple[float, EvidenceValue]] = []
        for unit, (keys, refs) in self.by_unit.items():
            for slip in _SLIPS:
                for probe in (target * slip, -target * slip):
                    i = bisect.bisect_left(keys, probe)
                    for ref in refs[max(i - count, 0) : i + count]:
                        if (value := _resolve(unit, ref)) is not None:
                            distance = abs(abs(float(value.value)) - target * slip) / (target * slip)
                            pool.append((distance + (slip != 1) * 1e-9, value))
        pool.sort(key=lambda item: item[0])
        unique: list[EvidenceValue] = []
        for _, value in pool:
            if all((value.value, value.evidence_id) != (u.value, u.evidence_id) for u in unique):
                unique.append(value)
        return unique[:count]


def index_evidence(bodies: Iterable[tuple[str, str, str]]) -> NumberIndex:
    """Build the index from (evidence_id, media_type, body) triples."""
    index = NumberIndex()
    for evidence_id, media, body in bodies:
        if media == "application/json":
            index.add_json(evidence_id, json.loads(body))
        else:
            index.add_text(evidence_id, body)
    return index.finish()


def _show(value: EvidenceValue) -> str:
    suffix = {"pct": "%", "pp": " pp", "fraction": " (fraction)", "multiple": "x", "plain": ""}[value.unit]
    return f"{value.value.normalize():f}{suffix} ({value.evidence_id} {value.where})"


def listed(name: str, text: str) -> dict[str, str]:
    """A list shown in a problem as `name` and, where it is empty ("none"), in Chinese as `name`_zh."""
    return {name: text, f"{name}_zh": value_word("none", text, "zh")}


def unreadable_problems(text: str, location: str) -> list[Problem]:
    """A problem for every numeral-like token of `text` the reader cannot read: such text fails closed."""
    return [
        problem(
            "number_unreadable", token=token, where=f"{location}[{start}:{end}]", location=f"{location}[{start}:{end}]"
        )
        for start, end, token in unreadable_numerals(text)
    ]


def ground_numbers(text: str, index: NumberIndex, location: str) -> list[Problem]:
    """A problem for every number in `text` that no evidence value of this run supports."""
    problems = unreadable_problems(text, location)
    for number in extract_numbers(text):
        if number.period and abs(number.value) in PERIOD_CONSTANTS:
            continue
        if index.supports(number):
            continue
        nearest = ", ".join(_show(v) for v in index.nearest(number)) or "none"
        problems.append(
            problem(
                "number_ungrounded",
                number=number.text,
                where=f"{location}[{number.start}:{number.end}]",
                location=f"{location}[{number.start}:{number.end}]",
                **listed("nearest", nearest),
            )
        )
    return problems
