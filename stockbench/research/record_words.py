"""A program record's sentences in the reader's language, for the evidence pane and look-ups.

The records research stores as evidence keep English sentences beside the codes and figures they were written from
(the model reads them in English): a refused action's message and fix, a data gate's reason, the baseline's reasons,
the backtest's sample note, a valuation gap, the ledger's and the sizing's no-order notes, the track record's rules.
`record_words` says those sentences again in another language from the codes and figures beside them; the stored
record is never changed (its seal is over the stored body). A sentence without its codes (a record written before
they were kept) is left as it was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from stockbench.errors import Problem, UserError
from stockbench.messages import ERRORS, NOTES, VALUES, Language, Note, Words, said, value_word
from stockbench.research.blocks import GateFact
from stockbench.research.track_scoring import RULES
from stockbench.research.wording import state_word
from stockbench.research.wording.actions import action_word, baseline_reason
from stockbench.research.wording.phrases import exchange_time, gate_reason
from stockbench.research.wording.plan import scenario_words

SAMPLE_PARTS = "sample_note_parts"  # the backtest's sample note as catalogue notes (key, params, suffix, points)

# The program's fixed sentences in records, by their English (research/facts.py, research/program.py), and the
# catalogue's words for them (stockbench.messages VALUES "record.*").
_FIXED = {VALUES[f"record.{k}"].en: VALUES[f"record.{k}"]
          for k in ("no_account_advice", "no_account_orders", "no_zones", "scale", "suggest_stop", "suggest_sell_zone",
                    "suggest_buy_zone", "suggest_sold_out")}  # fmt: skip
_INSTANT = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d\d:\d\d")
_METRICS = ("pe_ttm", "pb_mrq", "ps_ttm")
# What saying a record again may meet in a record of another shape: that part is then left as written.
_UNSAYABLE = (KeyError, IndexError, TypeError, ValueError, UserError)
# The program's sentences with figures in records, by their English, and the catalogue's words for them; an `action`
# is said by its word.
_SENTENCES: tuple[tuple[re.Pattern[str], Words], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"the action is (?P<action>\w+): no order", VALUES["record.no_order_action"]),
        (r"the report discloses data gaps \((?P<gaps>[^)]*)\): no executable orders", VALUES["record.gaps_no_order"]),
        (r"no daily bars of (?P<symbol>\S+) are stored on or before (?P<day>\S+)", ERRORS["bars_none_by"][0]),
        # the track record's benchmark notes (research/track_record.py)
        (r"the official benchmark (?P<official>\S+) has no bars in this workspace; measured against (?P<symbol>\S+) "
         r"\((?P<name>.*)\) instead", VALUES["record.benchmark.stand_in"]),
        (r"the official benchmark (?P<official>\S+) has no bars in this workspace: relative returns and hit rates "
         r"are not computed", VALUES["record.benchmark.none"]),
        (r"(?P<symbol>\S+) has no bars in this workspace", VALUES["record.benchmark.no_bars"]),
        (r"chosen by the user; the official benchmark is (?P<official>\S+)", VALUES["record.benchmark.chosen"]),
    )
)  # fmt: skip
_CELL_NOTE = re.compile(
    r"probabilities from (?P<cell>.+?) \((?P<n>\d+) samples\)(?:; finer cells skipped: (?P<skipped>.+))?"
)
_SKIPPED_UNKNOWN = re.compile(r"(?P<keys>[\w, ]+) unknown")
_SKIPPED_FEW = re.compile(r"(?P<cell>.+?) has (?P<n>\d+) samples \(< (?P<minimum>\d+)\)")
_STATE_RULE = re.compile(r"(?P<state>\w+): (?P<rule>.*)")
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:ma|ema|rsi)\d+\b")


STATE_KINDS = ("trend", "volatility", "capital", "relative_strength")


def field_word(key: str, language: Language) -> str:
    """A record field's words (stockbench.messages VALUES "evidence_field.*"), or the field as it is."""
    return value_word("evidence_field", key, language)


def record_words(record: Any, language: Language, symbol: str = "") -> Any:
    """`record` (a program record's JSON value) with its sentences said in `language`, times in `symbol`'s exchange
    zone (a gate's reason is left as written without a symbol). The catalogue notes kept for this (SAMPLE_PARTS)
    are dropped from what is shown in either language."""
    return _said(record, language, symbol, "")


def _said(data: Any, language: Language, symbol: str, key: str) -> Any:
    if isinstance(data, list):
        return [_said(item, language, symbol, key) for item in data]
    if isinstance(data, str):
        if symbol and _INSTANT.fullmatch(data):  # an instant: in the exchange's time, the zone named
            try:
                return exchange_time(symbol, datetime.fromisoformat(data), language)
            except _UNSAYABLE:  # not a symbol this program reads (an index of another service): as stored
                return data
        return _fixed(data, language)
    if not isinstance(data, dict):
        return data
    found = {k: _said(v, language, symbol, k) for k, v in data.items() if k != SAMPLE_PARTS}
    for reword in _REWORDS:
        try:
            found |= reword(data, language, symbol, key)
        except _UNSAYABLE:  # a record of another shape (an older version): that part is shown as it was written
            continue
    return found


def _fixed(text: str, language: Language) -> str:
    if text in _FIXED:
        return _FIXED[text].text(language)
    for pattern, words in _SENTENCES:
        found = pattern.fullmatch(text)
        if found is not None:
            values = found.groupdict()
            if "action" in values:
                values["action"] = action_word(values["action"], language)
            return words.text(language).format(**values)
    return text


def _problem(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """A problem kept with its catalogue key and parameters: its message and fix."""
    if not (isinstance(data.get("key"), str) and isinstance(data.get("params"), dict) and "message" in data):
        return {}
    params = tuple((str(k), str(v)) for k, v in data["params"].items())
    found = Problem(str(data.get("code", "")), str(data["message"]), str(data.get("fix", "")), key=data["key"],
                    params=params)  # fmt: skip
    message, fix = said(found, language)
    return {"message": message, "fix": fix} if "fix" in data else {"message": message}


def _gate(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """A data gate with its reason code and figures: its reason."""
    if not symbol or not {"name", "status", "code", "reason"} <= data.keys() or not data.get("code"):
        return {}
    values = data.get("values") or {}
    if not isinstance(values, dict):
        return {}
    gate = GateFact(str(data["name"]), str(data["status"]), str(data["reason"]), bool(data.get("exception_allowed")),
                    str(data["code"]), values)  # fmt: skip
    return {"reason": gate_reason(gate, symbol, language)}


def _baseline(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """The baseline's reasons in words, from the coded reasons beside them."""
    reasons, texts = data.get("reasons"), data.get("reason_text")
    if not (isinstance(reasons, list) and isinstance(texts, list) and len(reasons) == len(texts)):
        return {}
    if not all(isinstance(r, dict) and "code" in r for r in reasons):
        return {}
    return {"reason_text": [baseline_reason(r, language) for r in reasons]}


def _sample_note(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """The backtest's sample note from the catalogue notes kept beside it."""
    parts = data.get(SAMPLE_PARTS)
    if "sample_note" not in data or not isinstance(parts, list):
        return {}
    notes = []
    for part in parts:
        if not isinstance(part, dict) or part.get("key") not in NOTES:
            return {}
        params = tuple((str(k), str(v)) for k, v in (part.get("params") or {}).items())
        notes.append(Note(str(part["key"]), params, str(part.get("suffix", "")), str(part.get("points", ""))))
    joined = "；" if language == "zh" else "; "
    return {"sample_note": joined.join(n.text(language) for n in notes)}


def _valuation_gap(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """A valuation metric with no history: said by the metric's name."""
    if key not in _METRICS or data.get("status") != "gap":
        return {}
    metric, words = VALUES[f"record.metric.{key}"], VALUES["record.no_history"]
    if data.get("reason") != words.en.format(metric=metric.en):
        return {}
    return {"reason": words.text(language).format(metric=metric.text(language))}


def _state_rule(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """A market state's rule ("outflow: flow_short <= -0.03 and flow_long <= 0"): the state and its inputs in
    words, the comparisons as written."""
    rule, state = data.get("rule"), data.get("state")
    if not (isinstance(rule, str) and isinstance(state, str) and key in STATE_KINDS):
        return {}
    found = _STATE_RULE.fullmatch(rule)
    if found is None or found["state"] != state:
        return {}
    words = VALUES.get(f"record.state_rule.{found['rule']}")
    said = words.text(language) if words is not None else _formula(found["rule"], language)
    return {"rule": VALUES["record.state_rule"].text(language).format(state=state_word(key, state, language),
                                                                      rule=said)}  # fmt: skip


def _formula(text: str, language: Language) -> str:
    """A rule's formula with its inputs by their words ("flow_short <= -0.03 and flow_long <= 0")."""
    if language == "en":
        return text
    text = _IDENTIFIER.sub(lambda m: field_word(m.group(0), language), text)
    return text.replace(" and ", " 且 ").replace("missing ", "缺少 ")


def _scenarios(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """The scenarios' texts from their landing prices and the zone levels kept beside them (`bounds`), and the
    cell their probabilities come from."""
    found: dict[str, Any] = {}
    items, bounds = data.get("items"), data.get("bounds")
    if isinstance(items, list) and isinstance(bounds, dict) and all(isinstance(i, dict) for i in items):
        prices = {i.get("name"): i.get("price") for i in items}
        values = {"horizon": data.get("horizon"), "low": prices.get("down"), "high": prices.get("up"), **bounds}
        move = data.get("move_pct")
        found["items"] = [_scenario(i, values, move, language, symbol) for i in items]
    note = _CELL_NOTE.fullmatch(str(data.get("note", "")))
    if note is not None and isinstance(data.get("cell"), dict):
        said = _cell_words(note["cell"], language)
        skipped = [_skipped_words(part, language) for part in (note["skipped"] or "").split("; ") if part]
        if said is not None and None not in skipped:
            words = VALUES["record.cell_note"].text(language).format(cell=said, n=note["n"])
            if skipped:
                join = "；" if language == "zh" else "; "
                words += VALUES["record.cells_skipped"].text(language).format(skipped=join.join(map(str, skipped)))
            found["note"] = words
    return found


def _cell_words(cell: str, language: Language) -> str | None:
    """A calibration cell as the scenarios' note writes it ("trend=up, volatility=low"; "the base rate")."""
    if cell == "the base rate":
        return VALUES["record.base_rate"].text(language)
    pairs = [part.partition("=") for part in cell.split(", ")]
    if not all(sep for _, sep, _ in pairs):
        return None
    join = "、" if language == "zh" else ", "
    return join.join(f"{field_word(k, language)}={state_word(k, v, language)}" for k, _, v in pairs)


def _skipped_words(part: str, language: Language) -> str | None:
    unknown = _SKIPPED_UNKNOWN.fullmatch(part)
    if unknown is not None:
        keys = ("、" if language == "zh" else ", ").join(field_word(k, language) for k in unknown["keys"].split(", "))
        return VALUES["record.cell_unknown"].text(language).format(keys=keys)
    few = _SKIPPED_FEW.fullmatch(part)
    if few is not None and (cell := _cell_words(few["cell"], language)) is not None:
        return VALUES["record.cell_few"].text(language).format(cell=cell, n=few["n"], minimum=few["minimum"])
    return None


def _scenario(item: dict[str, Any], values: dict[str, Any], move: Any, language: Language, symbol: str) -> Any:
    said = _said(item, language, symbol, "items")
    if "description" not in item or item.get("name") not in ("up", "sideways", "down") or move is None:
        return said
    price, lands = item.get("price"), item.get("lands")
    return said | {"description": scenario_words(language, str(item["name"]), lands, **values, price=price, move=move)}


def _rules(data: Mapping[str, Any], language: Language, symbol: str, key: str) -> dict[str, Any]:
    """The track record's rules by action, where they are this program's."""
    if key != "rules":
        return {}
    return {a: VALUES[f"record.rule.{a}"].text(language) for a, text in data.items() if RULES.get(a) == text}


Reword = Callable[[Mapping[str, Any], Language, str, str], dict[str, Any]]
_REWORDS: tuple[Reword, ...] = (_problem, _gate, _baseline, _sample_note, _valuation_gap, _rules, _state_rule,
                                 _scenarios)  # fmt: skip
