"""Workspace settings: one declaration per key, read and written through it. Secrets never go here (they live
in the OS keyring).

A `Setting` says a key's type, default and meaning once; `Settings.get(SETTING)` returns the stored value as
that type (the default when nothing is stored) and `Settings.set(SETTING, value)` checks it first. Values are
stored as JSON; a `Decimal` as its exact text and a `date` as ISO text. Every key the program uses is declared
below. `Settings.get("key")` with a plain string reads the stored JSON as it is: for tests and tools that look
at the raw table, not for program code.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar, overload

from stockbench.errors import InternalError
from stockbench.store.database import Database

T = TypeVar("T")
_SECRET_NAME = re.compile(r"(api_?key|secret|password|token)", re.IGNORECASE)
# The types a setting may have beyond JSON's own, and how each is written and read back.
_CODECS: dict[type, tuple[Any, Any]] = {Decimal: (str, Decimal), date: (date.isoformat, date.fromisoformat)}


@dataclass(frozen=True, eq=False)  # one object per key: identity is equality
class Setting(Generic[T]):
    """One workspace setting: its key, the type of its value, the value when nothing is stored, and what it is for.

    `kind` is the value's class (str, int, bool, list, dict, Decimal or date); a setting whose default is None
    may also be unset.
    """

    key: str
    kind: type[Any]
    default: T
    doc: str

    def decode(self, stored: Any) -> T:
        """The value of `stored` JSON (InternalError when it is not of the declared type)."""
        if stored is None:
            return copy.deepcopy(self.default)
        codec = _CODECS.get(self.kind)
        value = codec[1](stored) if codec is not None and isinstance(stored, str) else stored
        if not isinstance(value, self.kind):
            raise InternalError(f"setting '{self.key}' holds a {type(value).__name__}, not a {self.kind.__name__}")
        result: T = value
        return result

    def encode(self, value: T) -> Any:
        """`value` as the JSON to store (InternalError when it is not of the declared type)."""
        if value is None:
            if self.default is not None:
                raise InternalError(f"setting '{self.key}' cannot be None")
            return None
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise InternalError(f"setting '{self.key}' takes a {self.kind.__name__}, not a {type(value).__name__}")
        codec = _CODECS.get(self.kind)
        return codec[0](value) if codec is not None else value


DECLARED: dict[str, Setting[Any]] = {}


def declare(setting: Setting[T]) -> Setting[T]:
    """Add `setting` to the declared ones (a key is declared once, and never names a secret)."""
    if setting.key in DECLARED:
        raise InternalError(f"setting '{setting.key}' is declared twice")
    if _SECRET_NAME.search(setting.key):
        raise InternalError(f"setting '{setting.key}' names a secret: secrets belong in the keyring")
    DECLARED[setting.key] = setting
    return setting


# ---- the declared settings ---------------------------------------------------------------------------------------
MODELS: Setting[dict[str, Any]] = declare(
    Setting("models", dict, {}, "Configured models by name: provider, model id, API base and fallback (never keys).")
)
DEFAULT_MODEL: Setting[str] = declare(
    Setting("research.default_model", str, "offline", "The model research uses when none is named.")
)
REPORT_LANGUAGE: Setting[str | None] = declare(
    Setting(
        "research.report_language",
        str,
        None,
        "The language reports are written in: zh or en (unset: the system locale's, Chinese on a Chinese locale, "
        "else English; a command's --language or --lang comes first).",
    )
)
DEFAULT_MAX_COST: Setting[Decimal | None] = declare(
    Setting(
        "research.default_max_cost",
        Decimal,
        None,
        "The cost ceiling offered for an analysis, in the model's price currency (unset: none).",
    )
)
SECTOR_MAP: Setting[dict[str, Any]] = declare(
    Setting(
        "research.sector_map",
        dict,
        {},
        "Rule defaults of the research scene: each symbol's sector index and peers, and each market's composite "
        "index (`market_index`).",
    )
)
SEARCH_URL: Setting[str | None] = declare(
    Setting(
        "search.url",
        str,
        None,
        "The web search service research may query: a SearXNG address, or the Brave Search API's base URL "
        "(unset: none).",
    )
)
SEARCH_PROVIDER: Setting[str | None] = declare(
    Setting(
        "search.provider",
        str,
        None,
        "Which service search.url is: searxng or brave (unset with search.url set: searxng). Brave's key lives in "
        "the key store as search-brave, never here.",
    )
)
KEY_STORE: Setting[str] = declare(
    Setting(
        "keys.store",
        str,
        "os",
        "Where API keys are kept: os (the OS keyring) or file (an encrypted file in the workspace folder, behind a "
        "passphrase that is never stored). A STOCKBENCH_KEY_<NAME> environment variable is read before either.",
    )
)
PINNED_AS_OF: Setting[date | None] = declare(
    Setting(
        "clock.pinned_as_of",
        date,
        None,
        "The session a workspace pins its clock at (the demo market): it runs on a replay clock there.",
    )
)
DEMO_BUILD: Setting[dict[str, Any] | None] = declare(
    Setting("demo.build", dict, None, "What the demo market in this workspace was built from (generator, seed, rules).")
)
SOURCE_PREFERENCE: Setting[list[str] | None] = declare(
    Setting("data.source_preference", list, None, "Data sources in the order reads prefer them (unset: the rules').")
)
DATA_SOURCES: Setting[dict[str, Any]] = declare(
    Setting(
        "data.sources",
        dict,
        {},
        "The user's changes to the data-source endpoints: name -> {base_url, enabled, order} "
        "(see resources/data_sources.toml).",
    )
)
FALLBACK_BENCHMARK: Setting[dict[str, str]] = declare(
    Setting(
        "track_record.fallback_benchmark",
        dict,
        {},
        'A labelled stand-in benchmark per market ({"CN": "SYMBOL"}) where the official index has no data.',
    )
)

LEDGER_JOURNAL_HEAD: Setting[dict[str, Any] | None] = declare(
    Setting(
        "ledger.journal_head",
        dict,
        None,
        'The last ledger-journal line these tables committed with ({"seq": N, "hash": H}); written by the ledger in '
        "the same transaction as its rows, so lines past it are known not to be in the tables.",
    )
)


class Settings:
    """Read and write workspace settings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @overload
    def get(self, key: Setting[T]) -> T: ...

    @overload
    def get(self, key: str, default: Any = None) -> Any: ...

    def get(self, key: Setting[Any] | str, default: Any = None) -> Any:
        """The value of a declared setting (its default when unset); for a plain key, the stored JSON or `default`."""
        if isinstance(key, Setting):
            return key.decode(self._raw(key.key))
        raw = self._raw(key)
        return default if raw is None else raw

    def set(self, key: Setting[T] | str, value: T) -> None:
        """Store `value` for the declared setting (or the plain key, as JSON)."""
        name = key.key if isinstance(key, Setting) else key
        if _SECRET_NAME.search(name):
            raise InternalError(f"refusing to store '{name}' in the workspace: secrets belong in the keyring")
        stored = key.encode(value) if isinstance(key, Setting) else value
        with self._db.transaction() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO settings (key, value, updated_at) VALUES (?, ?, ?)",
                [name, json.dumps(stored, ensure_ascii=False), datetime.now(UTC)],
            )

    def delete(self, key: Setting[Any] | str) -> None:
        """Forget the stored value (a declared setting reads as its default again)."""
        with self._db.transaction() as cur:
            cur.execute("DELETE FROM settings WHERE key = ?", [key.key if isinstance(key, Setting) else key])

    def all(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._db.fetchall("SELECT key, value FROM settings ORDER BY key")}

    def _raw(self, key: str) -> Any:
        raw = self._db.scalar("SELECT value FROM settings WHERE key = ?", [key])
        return None if raw is None else json.loads(raw)
