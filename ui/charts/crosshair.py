"""A crosshair over a price plot and its volume plot: it follows the mouse (rate-limited), snaps to the bar under
it and reports that bar's index, so the chart can show the bar's values."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPen

MOUSE_RATE = 60  # crosshair updates per second at most


class Crosshair(QObject):
    """Vertical and horizontal lines on `price`, a vertical line on `volume`; `moved(index)` on every change."""

    moved = Signal(int)

    def __init__(self, price: pg.PlotItem, volume: pg.PlotItem, color: QColor) -> None:
        super().__init__()
        pen = QPen(color)
        pen.setCosmetic(True)
        pen.setStyle(Qt.PenStyle.DotLine)
        self._price, self._count = price, 0
        self.vertical = pg.InfiniteLine(angle=90, movable=False, pen=pen)
        self.horizontal = pg.InfiniteLine(angle=0, movable=False, pen=pen)
        self._volume_line = pg.InfiniteLine(angle=90, movable=False, pen=pen)
        price.addItem(self.vertical, ignoreBounds=True)
        price.addItem(self.horizontal, ignoreBounds=True)
        volume.addItem(self._volume_line, ignoreBounds=True)
        self.index: int | None = None
        self.set_visible(False)
        self._proxy = pg.SignalProxy(price.scene().sigMouseMoved, rateLimit=MOUSE_RATE, slot=self._mouse_moved)

    def set_color(self, color: QColor) -> None:
        """Draw the lines in `color` (the theme's text colour)."""
        for line in (self.vertical, self.horizontal, self._volume_line):
            pen = QPen(line.pen)
            pen.setColor(color)
            line.setPen(pen)

    def set_count(self, count: int) -> None:
        """How many bars the chart holds (the crosshair snaps inside them)."""
        self._count = count
        self.index = None
        self.set_visible(False)

    def set_visible(self, visible: bool) -> None:
        for line in (self.vertical, self.horizontal, self._volume_line):
            line.setVisible(visible)

    def move_to(self, x: float, y: float | None = None) -> None:
        """Put the crosshair on the bar nearest `x` (and the horizontal line at price `y`)."""
        if not self._count:
            return
        index = min(max(round(x), 0), self._count - 1)
        self.vertical.setPos(index)
        self._volume_line.setPos(index)
        if y is not None:
            self.horizontal.setPos(y)
        self.set_visible(True)
        if index != self.index:
            self.index = index
            self.moved.emit(index)

    def _mouse_moved(self, event: Any) -> None:
        position: QPointF = event[0]
        if not self._price.sceneBoundingRect().contains(position):
            return
        point = self._price.vb.mapSceneToView(position)
        self.move_to(point.x(), point.y())
