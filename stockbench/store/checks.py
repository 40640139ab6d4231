"""What `stockbench doctor` reports: one record per check, from whichever module owns what is checked.

Each owner (the store for the schema and backups, the ledger for its replay and journal, research for the
report seals) returns `Check` records; the doctor only gathers and prints them. `name` and `status` are
stable (scripts read `doctor --json`); `detail` is one English line; `key`/`params` word it for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CheckStatus = Literal["ok", "warning", "failed"]


@dataclass(frozen=True)
class Check:
    name: str
    status: CheckStatus
    detail: str
    key: str = ""  # its entry in stockbench.messages (empty: worded in English only)
    params: tuple[tuple[str, str], ...] = ()  # the values its words are filled from

    @property
    def ok(self) -> bool:
        return self.status != "failed"

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}
