"""Candlesticks and volume bars that draw only the visible bars, merging bars that share a pixel: ten years of daily
bars pan and zoom as smoothly as one. Up and down colours come from the candle scheme (ui.charts.palette)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from ui.charts.chart_data import Bars, Buckets, FloatArray, bucket

FULL_CANDLE_PX = 3.0  # below this many pixels per bar, candles are drawn as merged high-low strokes
BODY_WIDTH = 0.7  # of a bar's slot
Bounds = tuple[float | None, float | None]


@dataclass(frozen=True)
class PaintStats:
    """What the last paint drew (tests and benchmarks read it)."""

    first: int
    last: int
    drawn: int
    bucket: int


def _pen(color: QColor) -> QPen:
    pen = QPen(color)
    pen.setCosmetic(True)
    pen.setWidthF(1.0)
    return pen


class _BarSeriesItem(pg.GraphicsObject):  # type: ignore[misc]
    """Shared machinery: data bounds, the visible slice and the bucket size for the current zoom."""

    def __init__(self, up: QColor, down: QColor) -> None:
        super().__init__()
        self._bars: Bars | None = None
        self._bounds = QRectF()
        self.up_color, self.down_color = QColor(up), QColor(down)
        self.last_paint = PaintStats(0, 0, 0, 1)

    def set_bars(self, bars: Bars | None) -> None:
        self.prepareGeometryChange()
        self._bars = bars
        self._bounds = self._data_rect()
        self.update()

    def set_colors(self, up: QColor, down: QColor) -> None:
        self.up_color, self.down_color = QColor(up), QColor(down)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def _data_rect(self) -> QRectF:
        """The rectangle the series covers in data coordinates: defined by each series (candles, volume)."""
        raise NotImplementedError(f"{type(self).__name__} must define its data rectangle")  # an abstract method

    def _visible(self, painter: QPainter) -> tuple[int, int, int]:
        """(first bar, bar after the last, bucket size) for what the view shows now."""
        assert self._bars is not None
        n = len(self._bars)
        view = self.getViewBox()
        if view is None:
            x0, x1 = 0.0, float(n)
        else:
            (x0, x1), _ = view.viewRange()
        first, last = max(0, math.floor(x0) - 1), min(n, math.ceil(x1) + 2)
        px_per_bar = abs(painter.transform().m11()) or 1.0
        size = 1 if px_per_bar >= FULL_CANDLE_PX else max(1, math.ceil(1.0 / px_per_bar))
        return first, last, size


class CandlestickItem(_BarSeriesItem):
    """Open-high-low-close candles; x is the bar index."""

    def _data_rect(self) -> QRectF:
        if self._bars is None or not len(self._bars):
            return QRectF()
        low, high = float(np.nanmin(self._bars.low)), float(np.nanmax(self._bars.high))
        return QRectF(-0.5, low, len(self._bars), max(high - low, 1e-9))

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange: Any = None) -> Bounds:  # noqa: N802, N803
        """X: every bar; y: the lows and highs of the bars inside `orthoRange` (so the view fits what is shown)."""
        bars = self._bars
        if bars is None or not len(bars):
            return None, None
        if ax == 0:
            return -0.5, len(bars) - 0.5
        first, last = 0, len(bars)
        if orthoRange is not None:
            first, last = max(0, math.floor(orthoRange[0])), min(len(bars), math.ceil(orthoRange[1]) + 1)
        if last <= first:
            return None, None
        return float(np.nanmin(bars.low[first:last])), float(np.nanmax(bars.high[first:last]))

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._bars is None or not len(self._bars):
            return
        first, last, size = self._visible(painter)
        found = bucket(self._bars, first, last, size)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        rising = found.close >= found.open
        for mask, color in ((rising, self.up_color), (~rising, self.down_color)):
            self._draw(painter, found, mask, color, full=size == 1)
        self.last_paint = PaintStats(first, last, len(found.x), size)

    def _draw(self, painter: QPainter, found: Buckets, mask: np.ndarray, color: QColor, *, full: bool) -> None:
        if not mask.any():
            return
        x, high, low = found.x[mask], found.high[mask], found.low[mask]
        painter.setPen(_pen(color))
        painter.drawPath(_strokes(x, low, high))
        if not full:
            return
        top, bottom = np.maximum(found.open[mask], found.close[mask]), np.minimum(found.open[mask], found.close[mask])
        painter.setBrush(QBrush(color))
        half = BODY_WIDTH / 2
        # QRectF from four numbers, not from two QPointF: that constructor gives up the GIL, and while research runs
        # on an engine thread each of the hundred-odd calls per paint waits to win it back (bench/ui_stall.py).
        painter.drawRects([QRectF(a - half, b, 2 * half, t - b) for a, b, t in zip(x, bottom, top, strict=True)])


class VolumeItem(_BarSeriesItem):
    """Volume bars from zero, coloured like their candles."""

    def _data_rect(self) -> QRectF:
        if self._bars is None or not len(self._bars):
            return QRectF()
        return QRectF(-0.5, 0.0, len(self._bars), max(float(np.nanmax(self._bars.volume)), 1.0))

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange: Any = None) -> Bounds:  # noqa: N802, N803
        bars = self._bars
        if bars is None or not len(bars):
            return None, None
        if ax == 0:
            return -0.5, len(bars) - 0.5
        first, last = 0, len(bars)
        if orthoRange is not None:
            first, last = max(0, math.floor(orthoRange[0])), min(len(bars), math.ceil(orthoRange[1]) + 1)
        return (0.0, float(np.nanmax(bars.volume[first:last]))) if last > first else (None, None)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._bars is None or not len(self._bars):
            return
        first, last, size = self._visible(painter)
        found = bucket(self._bars, first, last, size)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        rising = found.close >= found.open
        for mask, color in ((rising, self.up_color), (~rising, self.down_color)):
            if not mask.any():
                continue
            x, volume = found.x[mask], found.volume[mask]
            painter.setPen(_pen(color))
            if size == 1:
                painter.setBrush(QBrush(color))
                half = BODY_WIDTH / 2
                painter.drawRects([QRectF(a - half, 0.0, 2 * half, v) for a, v in zip(x, volume, strict=True)])
            else:
                painter.drawPath(_strokes(x, np.zeros_like(volume), volume))
        self.last_paint = PaintStats(first, last, len(found.x), size)


def _strokes(x: FloatArray, start: FloatArray, end: FloatArray) -> Any:
    """One path of vertical segments (x, start) -> (x, end), built from the arrays in one call."""
    xs = np.repeat(x, 2)
    ys = np.column_stack((start, end)).ravel()
    return pg.arrayToQPath(xs, ys, connect="pairs")
