"""The one exception tree of the engine.

    StockbenchError                 base of everything the engine raises on purpose
    +-- UserError                   bad input or a state the user can fix; message and hint are safe to show
    |   +-- NotFound                a named thing (account, run, report, symbol data) does not exist
    |   +-- InvalidInput            a value is malformed or out of range (a symbol, a date, a price)
    |   +-- RuleViolation           input is well-formed but breaks a rule; carries a list of Problems
    |   +-- WorkspaceLocked         another process owns the workspace
    |   +-- WorkspaceTooNew         the workspace was written by a newer release
    |   +-- WorkspaceDamaged        the workspace file cannot be used (its `reason` says why; `backup` names the newest)
    |   +-- CalendarUnknown         a date lies past the last holiday year the program knows
    |   +-- DataUnavailable         data could not be fetched or read (the reason says which and why)
    |   +-- Cancelled               the user stopped the operation; never shown as an error
    +-- InternalError               a bug or corrupted state; its text is for logs, not for the user

Bad user data is returned as `Problem` lists where a caller must see every problem at once (a rejected
fill, an order check, a gate); exceptions are for stopping an operation. Text that may carry a secret (a
provider's error, a traceback) goes through `redact` before it is shown, journalled or logged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

REDACTED = "***"
_SECRET_PATTERNS = (
    re.compile(r"(?i)(bearer\s+)[^\s'\"]+"),
    re.compile(r"(?i)((?:api[_-]?key|x-api-key|authorization|access[_-]?token)[\"']?\s*[:=]\s*[\"']?)[^\s'\",}]+"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),
)


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """`text` with every given secret and every key- or token-shaped string replaced by ***."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = _SECRET_PATTERNS[0].sub(rf"\g<1>{REDACTED}", text)
    text = _SECRET_PATTERNS[1].sub(rf"\g<1>{REDACTED}", text)
    return _SECRET_PATTERNS[2].sub(REDACTED, text)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a request or a document, with how to fix it.

    `code` is stable (tests and the model rely on it); `location` says where (a field, a text span).
    """

    code: str
    message: str
    fix: str = ""
    location: str = ""
    key: str = ""  # its entry in stockbench.messages (empty: worded in English only)
    params: tuple[tuple[str, str], ...] = ()  # the values its words are filled from

    def as_dict(self) -> dict[str, str]:
        data = {"code": self.code, "message": self.message, "fix": self.fix}
        if self.location:
            data["location"] = self.location
        return data


class StockbenchError(Exception):
    """Base of every error the engine raises on purpose."""


class UserError(StockbenchError):
    """An error whose message is safe to show to the user, with a hint on what to do."""

    code = "user_error"

    def __init__(
        self, message: str, hint: str = "", *, key: str = "", params: tuple[tuple[str, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.key = key  # its words in stockbench.messages (empty: worded in English only)
        self.params = params  # the values those words are filled from

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "hint": self.hint}


class NotFound(UserError):
    code = "not_found"


class InvalidInput(UserError):
    code = "invalid_input"


class RuleViolation(UserError):
    """Well-formed input that breaks one or more rules; `problems` lists every one."""

    code = "rule_violation"

    def __init__(
        self,
        message: str,
        problems: Sequence[Problem],
        hint: str = "",
        *,
        key: str = "",
        params: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(message, hint or (problems[0].fix if problems else ""), key=key, params=params)
        self.problems = tuple(problems)  # `key` names its refusal in stockbench.messages


class WorkspaceLocked(UserError):
    code = "workspace_locked"


class WorkspaceTooNew(UserError):
    code = "workspace_too_new"


DamageReason = Literal["not_a_database", "corrupt", "read_only", "disk_full", "wal_missing_or_bad"]


class WorkspaceDamaged(UserError):
    """The workspace file cannot be opened or written: `reason` is a stable code, `backup` the file name of the
    newest complete backup (None: there is none). The damaged file itself is never changed."""

    code = "workspace_damaged"

    def __init__(
        self,
        message: str,
        hint: str = "",
        *,
        reason: DamageReason,
        backup: str | None = None,
        key: str = "",
        params: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(message, hint, key=key, params=params)
        self.reason: DamageReason = reason
        self.backup = backup

    def as_dict(self) -> dict[str, str | None]:
        return super().as_dict() | {"reason": self.reason, "backup": self.backup}


class BackupFailed(UserError):
    """A backup could not be taken or restored (a full disk, a folder that cannot be written, a damaged copy); no
    partial backup is left to be listed."""

    code = "backup_failed"


class CalendarUnknown(UserError):
    code = "calendar_unknown"


class DataUnavailable(UserError):
    code = "data_unavailable"


class Cancelled(UserError):
    """The user stopped the operation. Front ends do not present it as an error."""

    code = "cancelled"


class InternalError(StockbenchError):
    """A bug or a corrupted state. The message is for logs and bug reports, not for the user."""
