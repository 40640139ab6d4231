"""One process owns a workspace: an OS file lock, with the holder's identity written beside it.

The lock is advisory and released by the OS when the holder dies, so a crash never leaves a workspace
locked. A second process reads who holds it and refuses with that name, before touching the database.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from stockbench.errors import WorkspaceLocked

# On Windows the lock covers one byte far past the holder record, so the record stays readable.
_WINDOWS_LOCK_OFFSET = 1 << 20


def _try_lock(handle: IO[str]) -> bool:
    if sys.platform == "win32":
        import msvcrt

        handle.seek(_WINDOWS_LOCK_OFFSET)
        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(handle: IO[str]) -> None:
    if sys.platform == "win32":
        import msvcrt

        handle.seek(_WINDOWS_LOCK_OFFSET)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def describe_holder(path: Path) -> str:
    """A human description of the process recorded in the lock file, or a generic one."""
    try:
        holder = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        holder = {}
    if not holder.get("pid"):
        return "another Stock Workbench process"
    return (
        f"Stock Workbench process {holder['pid']} on {holder.get('host', '?')} "
        f"({holder.get('command', '?')}, since {_local(holder.get('since'))})"
    )


def _local(stamp: object) -> str:
    """The lock's start in the user's own time zone, named (the file keeps UTC): no exchange applies here."""
    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp or "?")
    if when.tzinfo is None:
        return str(stamp)
    local = when.astimezone()
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or local.strftime('%z')}"


class WorkspaceLock:
    """An exclusive, non-blocking lock on a workspace folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self, command: str = "") -> None:
        """Take the lock or raise `WorkspaceLocked` naming the holder. Changes nothing on failure."""
        handle = self.path.open("a+", encoding="utf-8")
        if not _try_lock(handle):
            handle.close()
            raise WorkspaceLocked(
                f"The workspace {self.path.parent} is in use by {describe_holder(self.path)}.",
                "Close that window or command first, or choose another workspace with --home DIR.",
            )
        record = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "command": command or " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv)),
            "since": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(record))
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is None:
            return
        handle, self._handle = self._handle, None
        try:
            handle.seek(0)
            handle.truncate()
            _unlock(handle)
        finally:
            handle.close()
