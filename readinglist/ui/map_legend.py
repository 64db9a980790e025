"""The map's legend: what its colours mean, as a list of swatches and names. On screen the reading states' legend
is drawn in the map's top-left corner (it sat in the bar beside the hint, and one cut the other: a trial); an
exported image has the legend of its colours (the topics', or the states') in a panel beside the map, in as
many columns as its height needs, so that a picture passed on says what its colours are."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

if TYPE_CHECKING:
    from readinglist.ui.map_render import SvgKey

PAD = 6.0  # inside the legend's box, around its entries (logical pixels)
GAP = 14.0  # between two columns
NAME_PX = 320.0  # a longer name is cut with "…" (its whole is the topic's, in the topics pane)


@dataclass(frozen=True)
class Entry:
    label: str
    colour: int  # 0xRRGGBB


@dataclass(frozen=True)
class Legend:
    """Entries laid out in columns top to bottom, in pixels `factor` times logical ones."""

    entries: list[Entry]
    font: QFont  # already scaled
    factor: float
    rows: int  # entries a column holds
    column: float  # a column's width
    line: float  # an entry's height

    @property
    def size(self) -> QSizeF:
        columns = math.ceil(len(self.entries) / max(self.rows, 1)) if self.entries else 0
        pad, gap = PAD * self.factor, GAP * self.factor
        width = columns * self.column + max(columns - 1, 0) * gap + 2 * pad
        return QSizeF(width, min(len(self.entries), self.rows) * self.line + 2 * pad)


def arrange(entries: list[Entry], font: QFont, factor: float = 1.0, height: float | None = None) -> Legend:
    """The entries in one column, or in as many as fit them within `height` pixels."""
    scaled = QFont(font)
    scaled.setPointSizeF(font.pointSizeF() * factor)
    metrics = QFontMetricsF(scaled)
    line = metrics.height() * 1.25
    swatch = metrics.height()
    widest = max((metrics.horizontalAdvance(e.label) for e in entries), default=0.0)
    column = swatch + min(widest, NAME_PX * factor)
    rows = len(entries)
    if height is not None:
        rows = max(1, min(rows, int((height - 2 * PAD * factor) // line)))
    return Legend(entries, scaled, factor, max(rows, 1), column, line)


def draw(painter: QPainter, legend: Legend, at: QPointF, text: QColor, box: QColor | None = None) -> QRectF:
    """Draw the legend with its top-left corner at `at` (on a rounded box of `box`, if given); its rectangle."""
    f = legend.factor
    rect = QRectF(at, legend.size)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if box is not None:
        painter.setPen(QPen(QColor(text.red(), text.green(), text.blue(), 60), f))
        painter.setBrush(box)
        painter.drawRoundedRect(rect, 4 * f, 4 * f)
    painter.setFont(legend.font)
    metrics = QFontMetricsF(legend.font)
    swatch = metrics.height()
    radius = swatch * 0.3
    for i, entry in enumerate(legend.entries):
        column, row = divmod(i, legend.rows)
        x = rect.left() + PAD * f + column * (legend.column + GAP * f)
        y = rect.top() + PAD * f + row * legend.line
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor.fromRgb(entry.colour))
        painter.drawEllipse(QPointF(x + swatch / 2, y + legend.line / 2), radius, radius)
        painter.setPen(text)
        name = metrics.elidedText(entry.label, Qt.TextElideMode.ElideRight, legend.column - swatch)
        painter.drawText(
            QRectF(x + swatch, y, legend.column - swatch, legend.line),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            name,
        )
    painter.restore()
    return rect


def svg_entries(legend: Legend, left: float) -> tuple[float, list[SvgKey]]:
    """The legend as an SVG drawing's entries, in a panel starting at `left`: its width and the entries, placed
    as `draw` places them."""
    from readinglist.ui.map_render import SvgKey

    f = legend.factor
    metrics = QFontMetricsF(legend.font)
    swatch = metrics.height()
    size = metrics.height() * 0.8
    keys = []
    for i, entry in enumerate(legend.entries):
        column, row = divmod(i, legend.rows)
        x = left + PAD * f + column * (legend.column + GAP * f)
        y = PAD * f + row * legend.line + legend.line / 2
        name = metrics.elidedText(entry.label, Qt.TextElideMode.ElideRight, legend.column - swatch)
        keys.append(SvgKey(name, entry.colour, x + swatch / 2, y, swatch * 0.3, x + swatch, size))
    return legend.size.width(), keys
