"""Chart colours: the candle scheme (red up and green down by default, as on mainland screens; switchable in the
settings under CANDLE_SETTING) and the zone, stop, order and fill colours. Free of pyqtgraph, so the settings
screen may import it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor

CandleScheme = Literal["red_up", "green_up"]
SCHEMES: tuple[CandleScheme, ...] = get_args(CandleScheme)
CANDLE_SETTING = "chart/candle_colors"  # QSettings key; value "red_up" (default) or "green_up"
DEFAULT_SCHEME: CandleScheme = "red_up"

RED = QColor(230, 57, 70)
GREEN = QColor(38, 166, 91)


@dataclass(frozen=True)
class ChartColors:
    """Every colour a chart draws with."""

    up: QColor
    down: QColor
    buy_zone: QColor
    sell_zone: QColor
    stop: QColor
    order: QColor
    report: QColor


def candle_scheme(settings: QSettings) -> CandleScheme:
    """The scheme stored in `settings` (the default when unset or unknown)."""
    value = str(settings.value(CANDLE_SETTING, DEFAULT_SCHEME))
    return next((s for s in SCHEMES if s == value), DEFAULT_SCHEME)


def chart_colors(scheme: CandleScheme = DEFAULT_SCHEME) -> ChartColors:
    """The colours of `scheme`. Zones use neither candle colour (blue to buy, amber to sell), so they never read
    as rising or falling."""
    up, down = (RED, GREEN) if scheme == "red_up" else (GREEN, RED)
    return ChartColors(
        up=QColor(up),
        down=QColor(down),
        buy_zone=QColor(52, 120, 246, 60),
        sell_zone=QColor(245, 166, 35, 60),
        stop=QColor(160, 60, 200),
        order=QColor(120, 120, 120),
        report=QColor(90, 140, 200),
    )
