"""Workspace settings: plain JSON values by key. Secrets never go here (they live in the OS keyring)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from stockbench.errors import InternalError
from stockbench.store.database import Database

_SECRET_NAME = re.compile(r"(api_?key|secret|password|token)", re.IGNORECASE)


class Settings:
    """Read and write workspace settings."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, key: str, default: Any = None) -> Any:
        raw = self._db.scalar("SELECT value FROM settings WHERE key = ?", [key])
        return default if raw is None else json.loads(raw)

    def set(self, key: str, value: Any) -> None:
        if _SECRET_NAME.search(key):
            raise InternalError(f"refusing to store '{key}' in the workspace: secrets belong in the keyring")
        with self._db.transaction() as cur:
            cur.execute(
                "INSERT OR REPLACE INTO settings VALUES (?, ?, ?)",
                [key, json.dumps(value, ensure_ascii=False), datetime.now(UTC)],
            )

    def delete(self, key: str) -> None:
        with self._db.transaction() as cur:
            cur.execute("DELETE FROM settings WHERE key = ?", [key])

    def all(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._db.fetchall("SELECT key, value FROM settings ORDER BY key")}
