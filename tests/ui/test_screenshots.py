"""`python -m ui.screenshots`: every screen is rendered as it is seen, in the main window at 1366x768 with that
screen in front, and every dialog at its own size within that screen, the Settings > Search page and the key file's
passphrase dialog among them (the screens were rendered alone at 1280x780, 1100x720 and other sizes)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from ui import screenshots
from ui.context import AppContext


def test_screens_are_rendered_in_the_window_at_1366x768_and_dialogs_within_it(
    qtbot: QtBot, reports_ctx: AppContext, tmp_path: Path
) -> None:
    written = screenshots.render_window(reports_ctx, tmp_path, "en", ("watchlist", "report"))
    assert [p.name for p in written] == ["watchlist-en.png", "report-en.png", "main-en.png"]
    assert {(QImage(str(p)).width(), QImage(str(p)).height()) for p in written} == {screenshots.WINDOW_SIZE}
    assert {"search", "passphrase"} <= {shot.name for shot in screenshots.SHOTS}
    for shot in screenshots.SHOTS:
        if shot.name in ("search", "passphrase"):
            image = QImage(str(screenshots.render(shot.build(reports_ctx), reports_ctx, tmp_path / f"{shot.name}.png",
                                                  shot.size)))  # fmt: skip
            assert 0 < image.width() <= 1366 and 0 < image.height() <= 768, (shot.name, image.size())
