"""One catalogue entry: the same message in Simplified Chinese and in English, `str.format` fields alike; and
the language a report is written in when the user names none (the system locale's)."""

from __future__ import annotations

import os
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, cast

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX order: the first one set decides


def is_language(value: object) -> bool:
    return value in LANGUAGES


def language_of(value: str) -> Language:
    """`value` as a report language (ValueError when it is neither zh nor en)."""
    if not is_language(value):
        raise ValueError(f"'{value}' is not a report language: use {' or '.join(LANGUAGES)}")
    return cast(Language, value)


def locale_language(environ: Mapping[str, str] | None = None) -> Language:
    """The system locale's report language: English for an explicit non-Chinese locale (en_US.UTF-8, fr_FR...),
    Chinese for a Chinese one and for an unset or C/POSIX locale (the workbench's home market reads Chinese)."""
    env = os.environ if environ is None else environ
    value = next((env[name] for name in _LOCALE_VARIABLES if env.get(name)), "")
    tag = value.split(".")[0].split("@")[0].lower()
    return "zh" if tag in {"", "c", "posix"} or tag.startswith("zh") else "en"


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
