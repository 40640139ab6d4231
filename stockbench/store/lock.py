"""One process owns a workspace: an OS file lock, with the holder's identity written beside it.

The lock is advisory and released by the OS when the holder dies, so a crash never leaves a workspace
locked. A second process reads who holds it and refuses with that name, before touching the database. A clean
release empties the record, so a record found under a free lock is that of a holder that died holding it: the
next owner writes its own, and this process remembers the dead one until a front end takes it to say that the last
session did not close (`take_stale_holder`): preparing a workspace opens and closes it before the window's open.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from stockbench.errors import WorkspaceLocked

_STALE_HOLDERS: dict[Path, LockHolder] = {}  # lock file -> the holder found dead there, until taken

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


@dataclass(frozen=True, slots=True)
class LockHolder:
    """The process a lock file names: its id, host, command and start (local time, zone named)."""

    pid: int
    host: str
    command: str
    since: str

    def describe(self) -> str:
        return f"Stock Workbench process {self.pid} on {self.host} ({self.command}, since {self.since})"

    def params(self) -> tuple[tuple[str, str], ...]:
        return (("command", self.command), ("host", self.host), ("pid", str(self.pid)), ("since", self.since))


def read_holder(text: str) -> LockHolder | None:
    """The holder a lock file's text records, or None when it records none (empty, unreadable, no pid)."""
    try:
        record = json.loads(text or "{}")
    except ValueError:
        return None
    if not isinstance(record, dict) or not str(record.get("pid", "")).isdigit():
        return None
    return LockHolder(int(record["pid"]), str(record.get("host", "?")), str(record.get("command", "?")),
                      _local(record.get("since")))  # fmt: skip


def describe_holder(path: Path) -> str:
    """A human description of the process recorded in the lock file, or a generic one."""
    try:
        holder = read_holder(path.read_text(encoding="utf-8"))
    except OSError:
        holder = None
    return holder.describe() if holder is not None else "another Stock Workbench process"


def _local(stamp: object) -> str:
    """The lock's start in the user's own time zone, named (the file keeps UTC): no exchange applies here."""
    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp or "?")
    if when.tzinfo is None:
        return str(stamp)
    from stockbench.clock import local_words

    return local_words(when)


def _locked(path: Path) -> WorkspaceLocked:
    try:
        holder = read_holder(path.read_text(encoding="utf-8"))
    except OSError:
        holder = None
    who = holder.describe() if holder is not None else "another Stock Workbench process"
    return WorkspaceLocked(
        f"The workspace {path.parent} is in use by {who}.",
        "Close that window or command first, or choose another workspace (File ▸ Open Workspace, or --home DIR).",
        key="workspace_locked" if holder is not None else "workspace_locked.unknown",
        params=(("home", str(path.parent)), *(holder.params() if holder is not None else ())),
    )


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
            raise _locked(self.path)
        handle.seek(0)
        stale = read_holder(handle.read())
        if stale is not None:
            _STALE_HOLDERS[self.path.resolve()] = stale
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

    def take_stale_holder(self) -> LockHolder | None:
        """The process found dead holding this lock since the last call (None: every holder closed it)."""
        return _STALE_HOLDERS.pop(self.path.resolve(), None)

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
