"""One catalogue entry: the same message in Simplified Chinese and in English, `str.format` fields alike (the
language a report is written in when the user names none is the user's, stockbench.messages.language_of_locale)."""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Literal, cast

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")


def is_language(value: object) -> bool:
    return value in LANGUAGES


def language_of(value: str) -> Language:
    """`value` as a report language (ValueError when it is neither zh nor en)."""
    if not is_language(value):
        raise ValueError(f"'{value}' is not a report language: use {' or '.join(LANGUAGES)}")
    return cast(Language, value)


def _fields(template: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True, slots=True)
class Entry:
    zh: str
    en: str

    def __post_init__(self) -> None:
        if _fields(self.zh) != _fields(self.en):
            raise ValueError(f"the two editions name different fields: {self.zh!r} / {self.en!r}")

    def text(self, language: Language) -> str:
        return self.zh if language == "zh" else self.en
