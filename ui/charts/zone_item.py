"""The zones on a chart: the buy and sell zones as shaded horizontal bands and the stop as a dashed line, each at the
exact prices of the one zone algorithm (kept as Decimals on the item, so they can be checked against
`stockbench zones`), plus open-order lines."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen

ZoneKind = Literal["buy", "sell"]
PRICE_LINE_Z = 5


def _line_pen(color: QColor, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(color)
    pen.setCosmetic(True)
    pen.setStyle(style)
    return pen


class ZoneBandItem(pg.LinearRegionItem):  # type: ignore[misc]
    """A shaded band from `low` to `high` across the whole chart; not movable."""

    def __init__(self, kind: ZoneKind, low: Decimal, high: Decimal, color: QColor) -> None:
        edge = QColor(color)
        edge.setAlpha(200)
        super().__init__(
            values=(float(low), float(high)),
            orientation="horizontal",
            brush=color,
            pen=_line_pen(edge),
            movable=False,
        )
        self.kind, self.low, self.high = kind, low, high
        self.setZValue(-10)  # beneath the candles; its label is drawn over them (ui.charts.zone_labels)


class PriceLineItem(pg.InfiniteLine):  # type: ignore[misc]
    """A horizontal line at an exact price: the stop, or an open order."""

    def __init__(
        self, price: Decimal, color: QColor, label: str | None = None, *, dashed: bool = True,
        backing: QColor | None = None,
    ) -> None:  # fmt: skip
        """`label` None: the line alone (the stop's label is one of the zone labels, ui.charts.zone_labels).
        `backing`: the label's fill, so its words are read over the candles and the zone band it crosses (an open
        order's price sits in or near a zone, where the words drew straight over the candles)."""
        style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
        options: dict[str, object] = {"position": 0.98, "color": color, "anchors": [(1, 1), (1, 1)]}
        if backing is not None:
            options["fill"] = pg.mkBrush(backing)
        super().__init__(
            pos=float(price),
            angle=0,
            pen=_line_pen(color, style),
            movable=False,
            label=label,
            labelOpts=options,
        )
        self.price = price
        # above the candles (z 0), so its label is read over them; the zone bands stay beneath (z -10)
        self.setZValue(PRICE_LINE_Z)

    def set_backing(self, backing: QColor) -> None:
        """Follow a theme switch: the label's fill takes the chart's new background."""
        if self.label is not None:
            self.label.fill = pg.mkBrush(backing)
            self.label.update()
