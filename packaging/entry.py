"""The bundle's entry point: the command line, which opens the desktop window when given no command.

Two checks for the build's smoke test (packaging/build.py), chosen by $STOCKBENCH_BUNDLE_CHECK:
`litellm` imports litellm the way the app does (offline switches first, then its offline warm-up completions),
counts tokens with its bundled tokenizers and prints a JSON summary (run with no network); `empty-window` shows a
bare PySide6 window offscreen and prints `first-paint SECONDS` like STOCKBENCH_SMOKE_QUIT, the baseline the app's
own first paint is compared with.

With $STOCKBENCH_BUNDLE_AUDIT_NETWORK set, an audit hook refuses every network call Python makes (name lookups,
connections and datagrams other than Unix sockets) and reports each one on stderr at exit, marked
`NETWORK_ATTEMPT`, so the smoke test sees an attempt even where the code swallows the error.
"""

from __future__ import annotations

import atexit
import json
import os
import socket
import sys
from collections.abc import Sequence

CHECK_ENV = "STOCKBENCH_BUNDLE_CHECK"
AUDIT_ENV = "STOCKBENCH_BUNDLE_AUDIT_NETWORK"
ATTEMPT_MARK = "NETWORK_ATTEMPT"
NETWORK_EVENTS = frozenset({"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.connect",
                            "socket.sendto", "socket.sendmsg"})  # fmt: skip


def _is_network(event: str, args: Sequence[object]) -> bool:
    if event not in NETWORK_EVENTS:
        return False
    if event.startswith(("socket.connect", "socket.send")) and args:
        return getattr(args[0], "family", None) != getattr(socket, "AF_UNIX", None)
    return True


def audit_network() -> None:
    """Refuse and record every network call made through Python's socket module from now on."""
    attempts: list[str] = []

    def report() -> None:
        for attempt in attempts:
            print(f"{ATTEMPT_MARK} {attempt}", file=sys.stderr, flush=True)

    def hook(event: str, args: tuple[object, ...]) -> None:
        if _is_network(event, args):
            attempts.append(f"{event} {args[1:] if event.startswith(('socket.connect', 'socket.send')) else args}")
            raise PermissionError(f"the smoke test allows no network ({event})")

    atexit.register(report)
    sys.addaudithook(hook)


def check_litellm() -> int:
    """Import litellm offline and use its bundled data (price map, tokenizers); print a JSON summary."""
    from importlib.metadata import version as _version

    from stockbench.llm.client import import_litellm

    litellm = import_litellm()
    tokens = {model: litellm.token_counter(model=model, text="Stock Workbench 股票研究工作台")
              for model in ("gpt-4o", "deepseek/deepseek-chat", "claude-3-5-sonnet-20240620")}  # fmt: skip
    summary = {"litellm": _version("litellm"), "price_map_models": len(litellm.model_cost), "tokens": tokens,
               "local_cost_map": os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP")}  # fmt: skip
    print(json.dumps(summary, ensure_ascii=False), flush=True)
    return 0


def empty_window() -> int:
    """Show an empty window, print `first-paint SECONDS ORIGIN` at its first paint, and quit."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QPaintEvent
    from PySide6.QtWidgets import QApplication, QMainWindow

    from ui.app import process_age

    class Window(QMainWindow):
        def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
            super().paintEvent(event)
            if not self.property("painted"):
                self.setProperty("painted", True)
                age, origin = process_age()
                print(f"first-paint {age:.3f} {origin}", flush=True)
                QTimer.singleShot(0, self.close)

    app = QApplication(sys.argv[:1])
    window = Window()
    window.resize(1280, 800)
    window.show()
    return int(app.exec())


CHECKS = {"litellm": check_litellm, "empty-window": empty_window}


def main() -> None:
    """Run the requested check, else the command line."""
    if os.environ.get(AUDIT_ENV):
        audit_network()
    check = CHECKS.get(os.environ.get(CHECK_ENV, ""))
    if check is not None:
        sys.exit(check())
    from stockbench.cli.main import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
