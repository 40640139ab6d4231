"""A plain, thread-safe event bus: the engine publishes, front ends subscribe.

Handlers run synchronously in the publisher's thread. The desktop shell registers a handler that
re-emits the event as a Qt signal, which Qt then delivers on the GUI thread (the vnpy pattern).
A failing handler is logged and never breaks the publisher or the other handlers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every engine event. `at` is when it happened (UTC, from the engine's clock)."""

    at: datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkspaceOpened(Event):
    home: str
    schema_version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WorkspaceClosed(Event):
    home: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Progress(Event):
    """A long operation's progress: `title` is a short, user-facing line; `done`/`total` are optional."""

    operation: str
    title: str
    done: int | None = None
    total: int | None = None
    details: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerChanged(Event):
    """Something was written to an account's books (`what`: account, cash, fill, void, action, order)."""

    account: str
    what: str


E = TypeVar("E", bound=Event)
Handler = Callable[[Event], None]


class Subscription:
    """Returned by `EventBus.subscribe`; call `cancel()` (or use as a context manager) to stop."""

    def __init__(self, bus: EventBus, kind: type[Event], handler: Handler) -> None:
        self._bus, self._kind, self._handler = bus, kind, handler

    def cancel(self) -> None:
        self._bus._remove(self._kind, self._handler)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cancel()


class EventBus:
    """Publish events to the handlers subscribed to their class or to any base class."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: dict[type[Event], list[Handler]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> Subscription:
        """Call `handler(event)` for every published event that is an instance of `kind`."""
        plain: Handler = handler  # type: ignore[assignment]
        with self._lock:
            self._handlers.setdefault(kind, []).append(plain)
        return Subscription(self, kind, plain)

    def publish(self, event: Event) -> None:
        with self._lock:
            targets = [h for kind, hs in self._handlers.items() if isinstance(event, kind) for h in hs]
        for handler in targets:
            try:
                handler(event)
            except Exception:
                log.exception("event handler %r failed on %s", handler, type(event).__name__)

    def _remove(self, kind: type[Event], handler: Handler) -> None:
        with self._lock:
            handlers = self._handlers.get(kind, [])
            if handler in handlers:
                handlers.remove(handler)
