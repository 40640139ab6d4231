"""The state a CLI invocation carries: global options, and the workbench it opens on demand."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from stockbench.cli.output import emit, message, plain, table
from stockbench.cli.params import typed_notes

if TYPE_CHECKING:
    from stockbench.clock import Clock
    from stockbench.market.instruments import Identified
    from stockbench.messages import Language
    from stockbench.workbench import Workbench


@dataclass
class CliContext:
    home: Path | None
    as_json: bool
    as_of: str | None
    language: Language = "en"
    language_named: bool = False  # `--lang` was given: the user's language is named, not the locale's
    clock: Clock | None = None  # a command's own clock (a replayed recording's), before the workspace opens
    _bench: Workbench | None = field(default=None, repr=False)

    def bench(self) -> Workbench:
        """Open the workspace (once per invocation); it is closed when the command ends."""
        if self._bench is None:
            from stockbench.clock import clock_for
            from stockbench.config import configure_file_logging
            from stockbench.workbench import Workbench

            clock = self.clock or (clock_for(self.as_of) if self.as_of else None)
            bench = Workbench.open(self.home, clock=clock, command=_command_line())
            configure_file_logging(bench.paths.logs)
            self._bench = bench
            click.get_current_context().call_on_close(self.close)
        return self._bench

    def emit(self, data: Any, human: str | Callable[[Any], str] | None = None) -> None:
        """Print the result; how a typed number was read is said too (stderr, and the JSON `notes`)."""
        said = [found.text(self.language) for found in typed_notes()]
        if said and self.as_json and isinstance(data := plain(data), dict):
            data = {**data, "notes": [*data.get("notes", ()), *_notes_like(data.get("notes"), said)]}
        elif said:
            for line in said:
                self.note_line(line)
        emit(self.as_json, data, human)

    def say(self, key: str, /, **params: object) -> str:
        """The catalogue's note `key` (stockbench/messages.py NOTES) filled from `params`, in this invocation's
        language."""
        from stockbench.messages import Note

        return Note(key, tuple(sorted((name, str(value)) for name, value in params.items()))).text(self.language)

    def report_language(self, named: str | None) -> str | None:
        """The language a report (or a review) is written in: `named` (its own --language), else the --lang language
        when it was given, else None: the workspace's report_language setting, else the system locale's."""
        return named or (self.language if self.language_named else None)

    def word(self, kind: str, value: object) -> str:
        """The word of a value shown to people (a side, a status, a kind: VALUES "<kind>.<value>") in this
        invocation's language; a value the catalogue does not know stays as it is."""
        from stockbench.messages import value_word

        return value_word(kind, str(value), self.language)

    def moment(self, at: datetime, *, symbol: str | None = None, currency: str | None = None) -> str:
        """An instant as people read it, in this invocation's language: in the time zone of `symbol`'s exchange, else
        of the market of `currency` (an account's cash), else Beijing time, with the zone named (as a report says
        it)."""
        from stockbench.ledger.book import CURRENCIES
        from stockbench.research.wording.phrases import exchange_time, market_time

        if symbol:
            return exchange_time(symbol, at, self.language)
        market = next((m for m, c in CURRENCIES.items() if c == currency), "CN")
        return market_time("HK" if market == "HK" else "CN", at, self.language)

    def table(self, rows: list[dict[str, Any]], columns: list[str], kinds: dict[str, str] | None = None) -> str:
        """`rows` as a text table in this invocation's language (see output.table)."""
        return table(rows, columns, self.language, kinds)

    def identified_note(self, found: Identified) -> None:
        """The note of a symbol read one way of two (000001: the stock, not the index), in this invocation's
        language, on stderr; nothing when the symbol was plain."""
        if found.note:
            self.note_line(found.said.text(self.language) if found.said else found.note)

    def note_line(self, text: str) -> None:
        """A note on stderr ("note: ..."), labelled in this invocation's language."""
        message(("注意：" if self.language == "zh" else "note: ") + text)

    def close(self) -> None:
        if self._bench is not None:
            bench, self._bench = self._bench, None
            bench.close()


def _notes_like(existing: Any, said: list[str]) -> list[Any]:
    """The notes `said` in the form a result's own notes take (texts, or records with a code where they are)."""
    if existing and isinstance(existing[0], dict):
        return [{"code": "number_normalised", "message": text, "fix": ""} for text in said]
    return list(said)


def _command_line() -> str:
    ctx: click.Context | None = click.get_current_context()
    parts = []
    while ctx is not None:
        parts.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed([p for p in parts if p]))


pass_cli = click.make_pass_decorator(CliContext)
