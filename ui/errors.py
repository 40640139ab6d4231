"""One error presenter for the whole shell: every uncaught exception, on any thread, ends up here.

`sys.excepthook` and `threading.excepthook` both route to `ErrorPresenter.present`, which logs the
error and, on the GUI thread, shows it: a `UserError` as its safe message and hint, anything else as
"something went wrong" with the details folded away. Cancellations are never shown as errors.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable, Iterable
from types import TracebackType

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from stockbench.errors import Cancelled, Problem, UserError, WorkspaceDamaged, redact
from stockbench.messages import error_words, said
from ui.i18n.language import engine_language

log = logging.getLogger(__name__)


def error_text(error: BaseException, secrets: Iterable[str | None] = ()) -> str:
    """One line about `error` that is safe to show: a user error's message, else its type and text; `secrets`
    (a key being typed, say) and anything shaped like a key are redacted."""
    text = (
        error_words(error, engine_language())[0] if isinstance(error, UserError) else f"{type(error).__name__}: {error}"
    )
    return redact(text, secrets)


class ErrorPresenter(QObject):
    """Shows errors to the user; safe to call from any thread (delivery is queued to the GUI thread)."""

    error_presented = Signal(str, str)  # title, text: emitted after an error is shown (tests listen)
    _deliver = Signal(object)

    def __init__(self, parent_widget: QWidget | None = None, *, interactive: bool = True) -> None:
        super().__init__()
        self.parent_widget = parent_widget
        self.interactive = interactive
        self.presented: list[tuple[str, str]] = []  # (title, text) of everything shown, newest last
        self._previous_hooks: tuple[object, object] | None = None
        self.on_damage: Callable[[WorkspaceDamaged], None] | None = None  # the window's damage dialog
        self._deliver.connect(self._show)

    def present(self, error: BaseException) -> None:
        """Log `error` and show it on the GUI thread."""
        if isinstance(error, Cancelled):
            return
        if not isinstance(error, UserError):
            log.error(
                "uncaught error: %s",
                "".join(traceback.format_exception(type(error), error, error.__traceback__)),
            )
        self._deliver.emit(error)

    @Slot(object)
    def _show(self, error: BaseException) -> None:
        if isinstance(error, WorkspaceDamaged) and self.on_damage is not None:
            self.on_damage(error)
            return
        title, text, details = self.describe(error)
        self.presented.append((title, text))
        if self.interactive and QApplication.instance() is not None:
            box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self.parent_widget)
            if details:
                box.setDetailedText(details)
            box.open()
        self.error_presented.emit(title, text)

    def describe(self, error: BaseException) -> tuple[str, str, str]:
        """(title, text, details) for `error`: a user error's own words and hint (and its problems, if any);
        anything else as a generic line with the traceback folded into the details. Secrets are redacted."""
        if isinstance(error, UserError):
            language = engine_language()
            message, hint = error_words(error, language)
            problems = getattr(error, "problems", None) or ()
            lines = [hint, *(f"• {said(p, language)[0] if isinstance(p, Problem) else p}" for p in problems)]
            return self.tr("Cannot do that"), redact(message), redact("\n".join(line for line in lines if line))
        details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        return (self.tr("Something went wrong"), self.tr("An unexpected error occurred. The details are in the log."),
                redact(details))  # fmt: skip

    def install(self) -> None:
        """Route `sys.excepthook` and `threading.excepthook` to this presenter (`uninstall` puts them back)."""
        if self._previous_hooks is None:
            self._previous_hooks = (sys.excepthook, threading.excepthook)
        sys.excepthook = self._sys_hook
        threading.excepthook = self._thread_hook

    def uninstall(self) -> None:
        """Restore the hooks that were in place before `install`."""
        if self._previous_hooks is not None:
            sys.excepthook, threading.excepthook = self._previous_hooks  # type: ignore[assignment]
            self._previous_hooks = None

    def _sys_hook(self, kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        self.present(error.with_traceback(tb))

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            self.present(args.exc_value)
