"""The DuckDB connection of a workspace: a cursor per thread, and one writer at a time.

DuckDB connections are not thread-safe. The workspace holds one connection; each thread reads through
its own cursor (`db.cursor()`), and every write goes through `db.transaction()`, which serialises
writers with a lock and commits or rolls back as a unit. Nested `transaction()` calls on the same
thread join the outer transaction. A `CommitHook` joins the current transaction (`at_commit`): it prepares just
before COMMIT (raising rolls everything back), then hears whether the transaction committed or aborted; this is
how a file (the ledger's journal) is written in step with the tables.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import duckdb

Params = Sequence[object] | dict[str, object] | None


class CommitHook(Protocol):
    """Work outside the database that must commit with a transaction, or not at all."""

    def prepare(self) -> None:
        """Called inside the transaction just before COMMIT; raising aborts the transaction."""

    def committed(self) -> None:
        """Called after COMMIT succeeded."""

    def aborted(self) -> None:
        """Called after the transaction rolled back (whether or not `prepare` ran)."""


class Database:
    """One DuckDB file (or `:memory:`), shared safely by the threads of one process."""

    def __init__(
        self,
        path: Path | str,
        *,
        read_only: bool = False,
        unsaved: Callable[[duckdb.Error], Exception] | None = None,
    ) -> None:
        """`unsaved` turns a COMMIT that could not be written into the error to raise (default: DuckDB's own)."""
        self.path = str(path)
        self._on_unsaved = unsaved
        self._con = duckdb.connect(self.path, read_only=read_only)
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._cursors: list[tuple[threading.Thread, duckdb.DuckDBPyConnection]] = []
        self._cursors_lock = threading.Lock()
        self._closed = False

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """This thread's cursor (created on first use)."""
        if self._closed:
            raise RuntimeError("the workspace database is closed")
        cur: duckdb.DuckDBPyConnection | None = getattr(self._local, "cursor", None)
        if cur is None:
            cur = self._con.cursor()
            self._local.cursor = cur
            with self._cursors_lock:
                self._prune()
                self._cursors.append((threading.current_thread(), cur))
        return cur

    def _prune(self) -> None:
        """Close the cursors of threads that have ended (worker pools come and go)."""
        alive = []
        for thread, cur in self._cursors:
            if thread.is_alive():
                alive.append((thread, cur))
            else:
                cur.close()
        self._cursors = alive

    def execute(self, sql: str, params: Params = None) -> duckdb.DuckDBPyConnection:
        """Run a read query on this thread's cursor."""
        return self.cursor().execute(sql, params)

    def fetchall(self, sql: str, params: Params = None) -> list[tuple[Any, ...]]:
        return self.execute(sql, params).fetchall()

    def fetchone(self, sql: str, params: Params = None) -> tuple[Any, ...] | None:
        # Fetch the whole result: DuckDB refuses new queries on a cursor with an unfinished result.
        rows = self.execute(sql, params).fetchall()
        return rows[0] if rows else None

    def scalar(self, sql: str, params: Params = None) -> Any:
        row = self.fetchone(sql, params)
        return row[0] if row else None

    @contextmanager
    def transaction(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """Serialise a write: begin, yield this thread's cursor, commit; roll back on any exception."""
        with self._write_lock:
            depth: int = getattr(self._local, "depth", 0)
            cur = self.cursor()
            if depth:
                self._local.depth = depth + 1
                try:
                    yield cur
                finally:
                    self._local.depth = depth
                return
            self._local.depth = 1
            hooks: list[CommitHook] = []
            self._local.hooks = hooks
            cur.begin()
            try:
                yield cur
                index = 0
                while index < len(hooks):  # a hook may add another while preparing
                    hooks[index].prepare()
                    index += 1
                try:
                    cur.commit()
                except duckdb.Error as error:
                    raise self._unsaved(error) from error
            except BaseException:
                self._abort(cur, hooks)
                raise
            else:
                for hook in hooks:
                    hook.committed()
            finally:
                self._local.depth = 0
                self._local.hooks = []

    @staticmethod
    def _abort(cur: duckdb.DuckDBPyConnection, hooks: list[CommitHook]) -> None:
        with contextlib.suppress(duckdb.Error):  # a failed COMMIT has already ended the transaction
            cur.rollback()
        for hook in hooks:
            hook.aborted()

    def at_commit(self, hook: CommitHook) -> None:
        """Have `hook` take part in this thread's current transaction (a RuntimeError outside one)."""
        if not getattr(self._local, "depth", 0):
            raise RuntimeError("at_commit needs an open transaction")
        self._local.hooks.append(hook)

    def _unsaved(self, error: duckdb.Error) -> Exception:
        """A commit that could not be written, as the owner said to say it (`unsaved`; the workspace names a full
        disk or a read-only file as damage with its newest backup); the transaction is rolled back either way."""
        return error if self._on_unsaved is None else self._on_unsaved(error)

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the single writer (no transaction of this process runs meanwhile): for a backup's copy of the file."""
        with self._write_lock:
            yield

    def checkpoint(self) -> None:
        with self._write_lock:
            self.cursor().execute("CHECKPOINT")

    def close(self) -> None:
        """Close every cursor and the connection. Idempotent."""
        if self._closed:
            return
        with self._write_lock:
            self._closed = True
            with self._cursors_lock:
                cursors, self._cursors = self._cursors, []
            for _, cur in cursors:
                cur.close()
            self._con.close()
