"""An HTTP server on 127.0.0.1 in a thread of its own, for the test servers (LLM, data services, search)."""

from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a killed process, a cut stream) is expected here: no traceback for it."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class LoopbackServer:
    """Serves `handler` on a free loopback port until `stop()`; `stopping` is set first, so a handler that waits
    (a delayed reply, a stalled stream) can give up at once."""

    def __init__(self, handler: type[BaseHTTPRequestHandler], name: str) -> None:
        self.stopping = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), handler)
        # A short poll interval: shutdown() waits for the next poll, and tests start and stop many servers.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, name=name, daemon=True
        )

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
