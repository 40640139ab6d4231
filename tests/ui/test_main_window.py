from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from stockbench.errors import UserError
from ui.errors import ErrorPresenter
from ui.main_window import MainWindow


def test_main_window_opens_offscreen(qtbot: QtBot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "Stock Workbench"


def test_thread_exceptions_reach_the_one_presenter(qtbot: QtBot) -> None:
    presenter = ErrorPresenter(interactive=False)
    old_thread_hook = threading.excepthook
    presenter.install()
    try:
        with qtbot.waitSignal(presenter.error_presented, timeout=5000) as signal:
            worker = threading.Thread(target=lambda: (_ for _ in ()).throw(UserError("no such account", "add it")))
            worker.start()
            worker.join()
        assert signal.args == ["Cannot do that", "no such account"]
    finally:
        threading.excepthook = old_thread_hook
        import sys

        sys.excepthook = sys.__excepthook__


def test_internal_errors_are_shown_without_their_text(qtbot: QtBot) -> None:
    presenter = ErrorPresenter(interactive=False)
    with qtbot.waitSignal(presenter.error_presented, timeout=5000) as signal:
        presenter.present(RuntimeError("secret internals"))
    title, text = signal.args
    assert title == "Something went wrong"
    assert "secret internals" not in text
