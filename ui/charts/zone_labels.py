"""The labels of the buy zone, the sell zone and the stop: drawn over the candles on a backing of the chart's own
background (read wherever the candles are), each beside its level at the plot's left edge, kept inside the plot
when its level lies past the top or the bottom of the view (with an arrow saying which way), and stacked so that
no label lies on another.

`stack` is the placement itself (pure, in pixels); `ZoneLabels` applies it whenever the view moves or resizes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

LABEL_Z = 20  # over the candles (0), the averages and the price lines (5); the zone bands stay beneath (-10)
LABEL_GAP = 2  # pixels between two stacked labels
LABEL_INSET = 4  # pixels between a label and the plot's edges
BACKING_ALPHA = 240  # the label's backing: the chart's background, all but opaque (the candles beneath barely show)
ABOVE, BELOW = "▲ ", "▼ "  # before the words of a label whose level lies past the top or the bottom of the view


def stack(
    wanted: Sequence[float], heights: Sequence[float], top: float, bottom: float, gap: float = LABEL_GAP
) -> list[float]:
    """Centres (y in pixels, growing downwards) for labels that would sit centred at `wanted`, each `heights` tall:
    every label inside `top`..`bottom`, none overlapping another (at least `gap` apart), their order kept, each
    moved as little as that allows. When they cannot all fit, the first ones (from the top) are kept inside."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    centres = [0.0] * len(wanted)
    floor = top  # where the next label may start
    for i in order:
        half = heights[i] / 2
        centres[i] = max(wanted[i], floor + half)
        floor = centres[i] + half + gap
    ceiling = bottom  # where the label above must end
    for i in reversed(order):
        half = heights[i] / 2
        centres[i] = min(centres[i], ceiling - half)
        ceiling = centres[i] - half - gap
    floor = top
    for i in order:  # too many to fit: the lowest ones may leave the plot, never the top ones
        half = heights[i] / 2
        centres[i] = max(centres[i], floor + half)
        floor = centres[i] + half + gap
    return centres


@dataclass(frozen=True)
class ZoneLabel:
    """One label: its words, its colour and the prices it belongs beside (a band's low and high; the stop's price
    twice)."""

    kind: str
    text: str
    color: QColor
    low: float
    high: float


def label_backing(background: QColor) -> QColor:
    """A label's backing on the chart (the zone labels', an open order's): its background, all but opaque."""
    backing = QColor(background)
    backing.setAlpha(BACKING_ALPHA)
    return backing


class ZoneLabels:
    """The zone labels of one price plot, placed again whenever its view changes."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        self.labels: list[ZoneLabel] = []
        self.items: dict[str, pg.TextItem] = {}
        self.background = QColor("white")
        plot.vb.sigRangeChanged.connect(self.place)
        plot.vb.sigResized.connect(self.place)

    def __getitem__(self, kind: str) -> pg.TextItem:
        return self.items[kind]

    def set(self, labels: Sequence[ZoneLabel], background: QColor) -> None:
        """Show `labels` (replacing the ones shown) on a backing of `background`."""
        self.clear()
        self.labels, self.background = list(labels), QColor(background)
        for label in self.labels:
            item = pg.TextItem(label.text, color=label.color, anchor=(0, 0.5), border=pg.mkPen(label.color),
                               fill=self._backing())  # fmt: skip
            item.setZValue(LABEL_Z)
            self.plot.addItem(item, ignoreBounds=True)
            self.items[label.kind] = item
        self.place()

    def set_background(self, background: QColor) -> None:
        """Follow a theme switch: the backing takes the chart's new background."""
        self.background = QColor(background)
        for item in self.items.values():
            item.fill = pg.mkBrush(self._backing())
            item.update()

    def clear(self) -> None:
        for item in self.items.values():
            self.plot.removeItem(item)
        self.items.clear()
        self.labels = []

    def _backing(self) -> QColor:
        return label_backing(self.background)

    def place(self) -> None:
        """Each label at the plot's left edge beside its prices (the middle of the part of its band in view), inside
        the plot, none on another."""
        vb = self.plot.vb
        area = vb.sceneBoundingRect()
        if not self.items or area.height() <= 0:
            return
        (left, _right), _y = vb.viewRange()
        x = vb.mapViewToScene(QPointF(left, 0)).x() + LABEL_INSET
        items = [self.items[label.kind] for label in self.labels]
        top, bottom = area.top() + LABEL_INSET, area.bottom() - LABEL_INSET
        spans = [self._span(label, vb) for label in self.labels]
        wanted = [(max(upper, top) + min(lower, bottom)) / 2 for upper, lower in spans]
        heights = [item.textItem.boundingRect().height() for item in items]
        centres = stack(wanted, heights, top, bottom)
        for label, item, (upper, lower), centre in zip(self.labels, items, spans, centres, strict=True):
            mark = ABOVE if lower < area.top() else BELOW if upper > area.bottom() else ""
            if item.toPlainText() != mark + label.text:
                item.setText(mark + label.text)
            item.setPos(vb.mapSceneToView(QPointF(x, centre)))

    @staticmethod
    def _span(label: ZoneLabel, vb: pg.ViewBox) -> tuple[float, float]:
        """Where `label`'s prices lie in the scene: (upper, lower) pixel rows, the upper one the smaller."""
        return vb.mapViewToScene(QPointF(0, label.high)).y(), vb.mapViewToScene(QPointF(0, label.low)).y()
