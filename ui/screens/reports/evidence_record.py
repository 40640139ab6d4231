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

from stockbench.messages import Language, anchor_words, value_word, zone_flag_words

_FIELD = re.compile(r'^(?P<indent>\s*)"(?P<key>[^"]+)": (?P<rest>.*?),?$')
_ITEM = re.compile(r"^(?P<indent>\s*)(?P<rest>[^\s{}\[\]].*?),?$")
_COLON: dict[Language, str] = {"zh": "：", "en": ": "}


def readable_record(passage: str, language: Language) -> str:
    """`passage` (a record's indented JSON text, perhaps cut short with "…") as "field: value" lines."""
    return "\n".join(_lines(passage, language))


def readable_value(highlight: str) -> str:
    """The looked-up value as the readable record shows it (a string value without its JSON quotes)."""
    return highlight[1:-1] if len(highlight) >= 2 and highlight[0] == highlight[-1] == '"' else highlight


def _lines(passage: str, language: Language) -> Iterator[str]:
    anchor = ""  # the anchor whose fields are being read: its "what" is said by the anchor's name
    item = False  # a record in a list starts: its first field is marked
    for line in passage.splitlines():
        if line.strip() == "{":
            item = line[:1].isspace()  # a record inside a list, not the record itself
            continue
        field = _FIELD.match(line)
        if field is not None:
            key, rest = field["key"], field["rest"]
            if key == "id":
                anchor = str(_scalar(rest)).rsplit(":", maxsplit=1)[-1]
                continue
            said = _value(rest, language, anchor if key == "what" else "")
            mark, item = ("· " if item else "  "), False
            yield f"{field['indent'][:-1]}{mark}{_field(key, language)}{_COLON[language]}{said}"
            continue
        listed = _ITEM.match(line)
        if listed is not None:
            yield f"{listed['indent']}· {_value(listed['rest'], language)}" if listed["rest"] != "…" else "…"


def _field(key: str, language: Language) -> str:
    said = value_word("evidence_field", key, language)
    return said if said != key else anchor_words(key, language)


def _value(rest: str, language: Language, anchor: str = "") -> str:
    """A field's value in words: "" for a record or a list that follows on the next lines."""
    if rest in ("{", "["):
        return ""
    if rest in ("{}", "[]"):
        return value_word("evidence_value", "null", language)
    if anchor:
        said = anchor_words(anchor, language)
        return said if said != anchor else value_word("evidence_value", anchor, language)
    value = _scalar(rest)
    if value is None or isinstance(value, bool):
        return value_word("evidence_value", json.dumps(value), language)
    if not isinstance(value, str):
        return rest
    return zone_flag_words(value, language) or value_word("evidence_value", value, language)


def _scalar(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text
