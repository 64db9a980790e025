"""A latency-against-library-size chart drawn with QPainter (Qt is already a dependency; no plotting library)."""

from __future__ import annotations

import itertools
import math
import os
from pathlib import Path

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]


def draw(series: dict[str, list[tuple[int, float]]], goals: list[tuple[int, float]], path: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QGuiApplication, QImage, QPainter, QPen

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - fonts need an application
    w, h = 900, 520
    left, right, top, bottom = 80, 230, 40, 60
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    xs = [x for pts in series.values() for x, _ in pts] + [x for x, _ in goals]
    ys = [y for pts in series.values() for _, y in pts if y == y and y > 0] + [y for _, y in goals]
    xmin, xmax = math.log10(max(1, min(xs))) - 0.2, math.log10(max(xs)) + 0.2
    ymin, ymax = math.log10(max(0.5, min(ys) / 1.5)), math.log10(max(ys) * 1.5)

    def pos(x: float, y: float) -> QPointF:
        px = left + (math.log10(max(1, x)) - xmin) / (xmax - xmin) * (w - left - right)
        py = h - bottom - (math.log10(max(0.5, y)) - ymin) / (ymax - ymin) * (h - top - bottom)
        return QPointF(px, py)

    p.setPen(QPen(QColor("#444"), 1))
    p.drawRect(QRectF(left, top, w - left - right, h - top - bottom))
    p.setFont(QFont("DejaVu Sans", 9))
    for exp in range(math.floor(ymin), math.ceil(ymax) + 1):
        for m in (1, 2, 5):
            y = m * 10**exp
            if ymin <= math.log10(y) <= ymax:
                pt = pos(10**xmin, y)
                p.setPen(QPen(QColor("#ddd"), 1))
                p.drawLine(QPointF(left, pt.y()), QPointF(w - right, pt.y()))
                p.setPen(QColor("#444"))
                p.drawText(QRectF(0, pt.y() - 8, left - 6, 16), Qt.AlignmentFlag.AlignRight, f"{y:g} ms")
    for x in sorted({x for pts in series.values() for x, _ in pts}):
        pt = pos(x, 10**ymin)
        p.drawText(QRectF(pt.x() - 40, h - bottom + 6, 80, 16), Qt.AlignmentFlag.AlignCenter, f"{x:,}")
    p.drawText(QRectF(left, h - 28, w - left - right, 16), Qt.AlignmentFlag.AlignCenter, "papers in the library")
    p.setFont(QFont("DejaVu Sans", 11, QFont.Weight.Bold))
    p.drawText(
        QRectF(left, 8, w - left - right, 24), Qt.AlignmentFlag.AlignCenter, "Search latency (p95) against library size"
    )
    p.setFont(QFont("DejaVu Sans", 9))
    for i, (name, pts) in enumerate(series.items()):
        colour = QColor(COLOURS[i % len(COLOURS)])
        p.setPen(QPen(colour, 2))
        pts = [(x, y) for x, y in sorted(pts) if y == y]
        for (x1, y1), (x2, y2) in itertools.pairwise(pts):
            p.drawLine(pos(x1, y1), pos(x2, y2))
        p.setBrush(colour)
        for x, y in pts:
            p.drawEllipse(pos(x, y), 3.5, 3.5)
        ly = top + 10 + i * 20
        p.drawLine(QPointF(w - right + 12, ly), QPointF(w - right + 32, ly))
        p.setPen(QColor("#222"))
        p.drawText(QPointF(w - right + 38, ly + 4), name)
    p.setPen(QPen(QColor("#000"), 2, Qt.PenStyle.DashLine))
    p.setBrush(Qt.BrushStyle.NoBrush)
    for x, y in goals:
        c = pos(x, y)
        p.drawLine(QPointF(c.x() - 14, c.y()), QPointF(c.x() + 14, c.y()))
    ly = top + 10 + len(series) * 20
    p.drawLine(QPointF(w - right + 12, ly), QPointF(w - right + 32, ly))
    p.drawText(QPointF(w - right + 38, ly + 4), "goal (keystroke p95)")
    p.end()
    img.save(str(path))
