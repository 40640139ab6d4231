"""The program's own records (computation evidence, JSON) as people read them in the evidence pane: each field by its
words and each code by its words, in the interface's language (stockbench.messages VALUES "evidence_field.<name>" and
"evidence_value.<code>"), numbers, dates and names as stored, so the value looked up is marked where it stands.

The evidence look-up gives the record as indented JSON text, cut after a length (`stockbench.evidence.lookup`), so the
text is read line by line: one line, one field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from stockbench.messages import CHECKS, VALUES, Language, anchor_words, value_word, zone_flag_words
from stockbench.research.wording import has, say, state_word

_FIELD = re.compile(r'^(?P<indent>\s*)"(?P<key>[^"]+)": (?P<rest>.*?),?$')
_ITEM = re.compile(r"^(?P<indent>\s*)(?P<rest>[^\s{}\[\]].*?),?$")
_COLON: dict[Language, str] = {"zh": "：", "en": ": "}
_BY_ACTION = frozenset({"actions", "refused", "rules", "by_action"})  # records keyed by action
_PERIOD = re.compile(r"(?P<name>ema|rsi)(?P<n>\d+)")
_CITED = re.compile(r"(?P<name>[a-z_]+) v(?P<version>\d[\d.]*)")
_OR: dict[Language, str] = {"zh": "或", "en": " or "}
_STATES = frozenset({"trend", "volatility", "capital", "relative_strength"})
# The catalogue's kinds a code of a record may be, asked in this order (evidence_value first).
_CODE_KINDS = ("evidence_value", "position_state", "action", "quote_label", "trading_status", "backtest_evidence",
               "board", "plan_reason", "corroboration", "check_status", "security_type")  # fmt: skip


def readable_record(passage: str, language: Language) -> str:
    """`passage` (a record's indented JSON text, perhaps cut short with "…") as "field: value" lines; a line the cut
    ran through (a field's name or value half written) is left out."""
    lines = passage.splitlines()
    if len(lines) >= 2 and lines[-1] == "…" and not lines[-2].rstrip().endswith((",", "{", "[", "}", "]")):
        passage = "\n".join([*lines[:-2], "…"])
    return "\n".join(_lines(passage, language))


def readable_value(highlight: str) -> str:
    """The looked-up value as the readable record shows it (a string value without its JSON quotes)."""
    return highlight[1:-1] if len(highlight) >= 2 and highlight[0] == highlight[-1] == '"' else highlight


def _lines(passage: str, language: Language) -> Iterator[str]:
    anchor = ""  # the anchor whose fields are being read: its "what" is said by the anchor's name
    item = False  # a record in a list starts: its first field is marked
    opened: list[tuple[int, str]] = []  # the fields whose record or list is being read: (indent, key)
    check = ""  # the baseline check whose reason is being read: its value and limit are that check's states
    for line in passage.splitlines():
        if line.strip() == "{":
            item = line[:1].isspace()  # a record inside a list, not the record itself
            check = ""
            continue
        field = _FIELD.match(line)
        if field is not None:
            key, rest, depth = field["key"], field["rest"], len(field["indent"])
            while opened and opened[-1][0] >= depth:
                opened.pop()
            parent = opened[-1][1] if opened else ""
            if rest in ("{", "["):
                opened.append((depth, key))
            if key == "id":
                anchor = str(_scalar(rest)).rsplit(":", maxsplit=1)[-1]
                continue
            if key == "check":
                check = str(_scalar(rest))
            said = _value(rest, language, anchor if key == "what" else "", key=key, parent=parent, check=check)
            mark, item = ("· " if item else "  "), False
            yield f"{field['indent'][:-1]}{mark}{_field(key, language, parent)}{_COLON[language]}{said}"
            continue
        listed = _ITEM.match(line)
        if listed is not None:
            yield f"{listed['indent']}· {_value(listed['rest'], language)}" if listed["rest"] != "…" else "…"


def _field(key: str, language: Language, parent: str = "") -> str:
    """A field's name in words: under a record keyed by action (the allowed and refused actions, the track record's
    rules and its figures by action) the action's word; a horizon's sessions ("20") as sessions; an indicator with its
    period (ema12, rsi6) by its name."""
    if parent in _BY_ACTION and value_word("action", key, language) != key:
        return value_word("action", key, language)
    if key.isdigit():
        return value_word("evidence_field", "sessions_n", language).format(n=key)
    period = _PERIOD.fullmatch(key)
    if period is not None:
        return value_word("evidence_field", f"{period['name']}_n", language).format(n=period["n"])
    said = value_word("evidence_field", key, language)
    return said if said != key else anchor_words(key, language)


def _value(rest: str, language: Language, anchor: str = "", *, key: str = "", parent: str = "", check: str = "") -> str:
    """A field's value in words: "" for a record or a list that follows on the next lines."""
    if rest in ("{", "["):
        return ""
    if rest in ("{}", "[]"):
        return value_word("evidence_value", "null", language)
    if anchor:
        said = anchor_words(anchor, language)
        return said if said != anchor else value_word("evidence_value", anchor, language)
    if rest.startswith('"') and (len(rest) == 1 or not rest.endswith('"')):  # a text the passage cuts short
        return rest[1:] + "…"
    value = _scalar(rest)
    if value is None or isinstance(value, bool):
        return value_word("evidence_value", json.dumps(value), language)
    if not isinstance(value, str):
        return rest
    if key in ("value", "limit") and check in _STATES:  # "high or extreme": each state in words
        return _OR[language].join(_code_words(v, language, "state", check) for v in value.split(" or "))
    return zone_flag_words(value, language) or _code_words(value, language, key, parent)


def _code_words(value: str, language: Language, key: str, parent: str) -> str:
    """A code's words: by what its field holds (a data source, a gate's name, a gate's outcome, an announcement's
    category, a market state, a rule table's citation), else by the first of the catalogue's kinds that knows it;
    anything else as it is."""
    cited = _CITED.fullmatch(value)
    if cited is not None and f"rule_table.{cited['name']}" in VALUES:
        return f"{value_word('rule_table', cited['name'], language)} v{cited['version']}"
    if key == "table" and f"rule_table.{value}" in VALUES:
        return value_word("rule_table", value, language)
    if key == "check" and f"baseline.check.{value}" in CHECKS:
        return CHECKS[f"baseline.check.{value}"].text(language)
    state = parent if key == "state" else key
    if state in _STATES:
        return state_word(state, value, language)
    by_field = {"level": f"quick.level.{value}", "source": f"source.{value}",
                "name": f"gate.{value}" if parent == "gates" else "", "status": f"report.status.{value}",
                "category": f"announcement.category.{value}"}  # fmt: skip
    wording = by_field.get(key, "")
    if wording and has(wording):
        return say(wording, language)
    for kind in _CODE_KINDS:
        if f"{kind}.{value}" in VALUES:
            return value_word(kind, value, language)
    return value


def _scalar(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text
