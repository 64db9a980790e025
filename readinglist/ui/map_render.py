"""The map's drawing, in numpy: every paper's dot painted into a pixel buffer, a grid of cells for hit
tests, and the same picture written as SVG. Qt-free, so that it runs on a worker thread.

94k dots drawn one QPainter call at a time (or as 94k QGraphicsItems) cost a Python call each; here a dot
is a handful of pixel offsets and each offset is one array assignment over all the dots, so a frame costs
a few array operations whatever the number of papers. Edge pixels are blended half-way with what is under
them, which is enough anti-aliasing at these sizes. Hover and click look in the grid cells near the
pointer instead of over every paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from xml.sax.saxutils import escape

import numpy as np

GRID = 256  # cells per side of the hit-test grid
OPAQUE = np.uint32(0xFF000000)


@dataclass(frozen=True)
class View:
    """What part of the map is shown and how large: the map point at the centre, device pixels per map
    unit, and the size in device pixels. Map y points up, screen y down."""

    cx: float
    cy: float
    scale: float
    width: int
    height: int

    def to_screen(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (x - self.cx) * self.scale + self.width / 2, (self.cy - y) * self.scale + self.height / 2

    def point_to_screen(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.cx) * self.scale + self.width / 2, (self.cy - y) * self.scale + self.height / 2

    def to_map(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.width / 2) / self.scale + self.cx, self.cy - (py - self.height / 2) / self.scale

    def grown(self, margin: float) -> View:
        """The same centre and scale over a larger area (`margin` of the size on every side)."""
        return replace(self, width=round(self.width * (1 + 2 * margin)), height=round(self.height * (1 + 2 * margin)))


Bounds = tuple[float, float, float, float]  # the map's extent: least x and y, greatest x and y


def bounds(xy: np.ndarray) -> Bounds:
    if len(xy) == 0:
        return (-1.0, -1.0, 1.0, 1.0)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def fit(extent: Bounds, width: int, height: int, padding: float = 0.04) -> View:
    """The view that shows the whole extent, centred."""
    x0, y0, x1, y1 = extent
    span_x, span_y = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
    scale = min(width / span_x, height / span_y) * (1 - 2 * padding)
    return View((x0 + x1) / 2, (y0 + y1) / 2, max(scale, 1e-6), width, height)


def dot_radius(n: int, view: View, zoom: float, dpr: float = 1.0) -> float:
    """Dots small enough that a dense map stays readable, larger as the reader zooms in (device pixels)."""
    area = max(view.width * view.height, 1)
    base = 0.4 * math.sqrt(area / max(n, 1))
    return float(min(max(base, 1.2 * dpr), 3.2 * dpr) * min(zoom, 16.0) ** 0.35)


def disc(radius: float) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The pixel offsets of a dot: those it covers (most of the pixel) and its edge (about half)."""
    reach = math.ceil(radius + 0.5)
    full, edge = [], []
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            cover = radius + 0.5 - math.hypot(dx, dy)
            if cover >= 0.75:
                full.append((dx, dy))
            elif cover >= 0.3:
                edge.append((dx, dy))
    return full or [(0, 0)], edge


@dataclass
class Layer:
    """Dots drawn together, over what was drawn before: their places (device pixels) and ARGB colours."""

    px: np.ndarray  # float
    py: np.ndarray
    colour: np.ndarray  # uint32, one per dot
    radius: float


def rasterise(view: View, background: int, layers: list[Layer]) -> np.ndarray:
    """The dots of every layer, in order, on a background: a (height, width) uint32 buffer (0xAARRGGBB,
    as QImage's Format_RGB32 reads it)."""
    reach = max((math.ceil(layer.radius + 0.5) for layer in layers), default=1) + 1
    w, h = view.width, view.height
    # a dot whose centre is up to reach - 1 pixels outside the view still draws its inner side; its outer
    # side reaches as far again: the buffer is padded by both, so no offset wraps into another row or past
    # the buffer's end (a dot just below the view raised IndexError)
    pad = 2 * reach
    stride = w + 2 * pad
    buf = np.full((h + 2 * pad) * stride, np.uint32(background) | OPAQUE, dtype=np.uint32)
    for layer in layers:
        ix = np.rint(layer.px).astype(np.int64)
        iy = np.rint(layer.py).astype(np.int64)
        keep = (ix >= -reach + 1) & (ix < w + reach - 1) & (iy >= -reach + 1) & (iy < h + reach - 1)
        if not keep.all():
            ix, iy, colour = ix[keep], iy[keep], layer.colour[keep]
        else:
            colour = layer.colour
        if not len(ix):
            continue
        base = (iy + pad) * stride + (ix + pad)
        colour = colour | OPAQUE
        half_colour = (colour >> np.uint32(1)) & np.uint32(0x7F7F7F)
        full, edge = disc(layer.radius)
        for dx, dy in edge:  # edges first: the dots' cores are drawn over their neighbours' edges
            at = base + (dy * stride + dx)
            buf[at] = ((buf[at] >> np.uint32(1)) & np.uint32(0x7F7F7F)) + half_colour | OPAQUE
        for dx, dy in full:
            buf[base + (dy * stride + dx)] = colour
    return np.ascontiguousarray(buf.reshape(h + 2 * pad, stride)[pad : pad + h, pad : pad + w])


def mix(colours: np.ndarray, background: int, keep: float) -> np.ndarray:
    """Colours faded towards the background (keep 1: unchanged, 0: the background)."""
    c = colours.astype(np.uint32)
    out = np.zeros_like(c) | OPAQUE
    for shift in (16, 8, 0):
        mine = (c >> np.uint32(shift)) & np.uint32(0xFF)
        bg = (background >> shift) & 0xFF
        value = np.rint(mine * keep + bg * (1 - keep)).astype(np.uint32)
        out |= value << np.uint32(shift)
    return out


class Grid:
    """The papers' places bucketed into GRID × GRID cells, for finding the dots near a point quickly."""

    def __init__(self, xy: np.ndarray):
        self.xy = xy
        if len(xy):
            lo, hi = xy.min(axis=0).astype(np.float64), xy.max(axis=0).astype(np.float64)
        else:
            lo, hi = np.zeros(2), np.ones(2)
        self.lo = lo
        self.size = np.maximum(hi - lo, 1e-9) / GRID
        cells = self._cells(xy[:, 0], xy[:, 1]) if len(xy) else np.zeros(0, np.int64)
        self.order = np.argsort(cells, kind="stable").astype(np.int64)
        counts = np.bincount(cells, minlength=GRID * GRID)
        self.start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    def _cells(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        i = np.clip(((x - self.lo[0]) / self.size[0]).astype(np.int64), 0, GRID - 1)
        j = np.clip(((y - self.lo[1]) / self.size[1]).astype(np.int64), 0, GRID - 1)
        return j * GRID + i

    def near(self, x: float, y: float, radius: float) -> np.ndarray:
        """The rows of the papers in the cells within `radius` (map units) of (x, y)."""
        i0, i1 = (int(np.clip((v - self.lo[0]) / self.size[0], 0, GRID - 1)) for v in (x - radius, x + radius))
        j0, j1 = (int(np.clip((v - self.lo[1]) / self.size[1], 0, GRID - 1)) for v in (y - radius, y + radius))
        parts = [self.order[self.start[j * GRID + i0] : self.start[j * GRID + i1 + 1]] for j in range(j0, j1 + 1)]
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    def nearest(self, x: float, y: float, radius: float, prefer: np.ndarray | None = None) -> int:
        """The row of the paper nearest (x, y) within `radius`, or -1; among those within it, one of the
        `prefer`red (the lit dots, drawn on top) wins."""
        rows = self.near(x, y, radius)
        if not len(rows):
            return -1
        d2 = (self.xy[rows, 0] - x) ** 2 + (self.xy[rows, 1] - y) ** 2
        inside = d2 <= radius * radius
        if not inside.any():
            return -1
        if prefer is not None and (inside & prefer[rows]).any():
            inside &= prefer[rows]
        d2 = np.where(inside, d2, np.inf)
        return int(rows[int(np.argmin(d2))])


def within(xy: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The rows of the papers inside a rectangle of the map."""
    lo_x, hi_x = sorted((x0, x1))
    lo_y, hi_y = sorted((y0, y1))
    x, y = xy[:, 0], xy[:, 1]
    return np.flatnonzero((x >= lo_x) & (x <= hi_x) & (y >= lo_y) & (y <= hi_y))


def css(colour: int) -> str:
    return f"#{colour & 0xFFFFFF:06x}"


@dataclass
class SvgLabel:
    text: str
    x: float  # the centre of its box, device pixels
    y: float
    size: float  # font size, pixels


def _svg_text(label: SvgLabel) -> str:
    """A name centred on its place; a name of two lines as two spans, a line apart, around it."""
    lines = label.text.split("\n")
    head = f'<text x="{label.x:.1f}" y="{label.y:.1f}" font-size="{label.size:.1f}">'
    if len(lines) == 1:
        return f"{head}{escape(label.text)}</text>\n"
    first = -(len(lines) - 1) * 0.6  # em: the lines 1.2 em apart, their middle on the place
    spans = "".join(
        f'<tspan x="{label.x:.1f}" dy="{first if i == 0 else 1.2:.1f}em">{escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return f"{head}{spans}</text>\n"


@dataclass
class SvgKey:
    """A legend's entry: its swatch (a dot) and its name, left-aligned after it."""

    text: str
    colour: int
    x: float  # the swatch's centre
    y: float
    radius: float
    text_x: float
    size: float  # font size, pixels


def svg(
    view: View,
    background: int,
    layers: list[Layer],
    labels: list[SvgLabel],
    text: int,
    halo: int,
    legend: tuple[float, list[SvgKey]] = (0.0, []),
) -> str:
    """The map as an SVG drawing of the same size: one circle per dot in view, grouped by colour, layer by
    layer as `rasterise` draws them, then the topic names with a halo; and `legend` (its width and entries)
    in a panel on the right."""
    w, h = view.width, view.height
    side, keys = legend
    whole = w + math.ceil(side)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{whole}" height="{h}" viewBox="0 0 {whole} {h}">\n',
        f'<rect width="100%" height="100%" fill="{css(background)}"/>\n',
    ]
    for layer in layers:
        r = layer.radius
        keep = (layer.px >= -r) & (layer.px <= w + r) & (layer.py >= -r) & (layer.py <= h + r)
        px, py, colour = layer.px[keep], layer.py[keep], layer.colour[keep] & np.uint32(0xFFFFFF)
        for value in np.unique(colour):
            chosen = colour == value
            out.append(f'<g fill="{css(int(value))}">')
            out.extend(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.2f}"/>'
                for x, y in zip(px[chosen].tolist(), py[chosen].tolist(), strict=True)
            )
            out.append("</g>\n")
    if labels:  # a halo under each name, then the names (paint-order is not read by every renderer)
        for paint in (
            f'fill="none" stroke="{css(halo)}" stroke-width="3" stroke-linejoin="round"',
            f'fill="{css(text)}"',
        ):
            out.append(f'<g font-family="sans-serif" text-anchor="middle" dominant-baseline="central" {paint}>\n')
            out.extend(_svg_text(label) for label in labels)
            out.append("</g>\n")
    if keys:
        out.append(f'<g id="legend" font-family="sans-serif" dominant-baseline="central" fill="{css(text)}">\n')
        out.extend(
            f'<circle cx="{k.x:.1f}" cy="{k.y:.1f}" r="{k.radius:.2f}" fill="{css(k.colour)}"/>'
            f'<text x="{k.text_x:.1f}" y="{k.y:.1f}" font-size="{k.size:.1f}">{escape(k.text)}</text>\n'
            for k in keys
        )
        out.append("</g>\n")
    out.append("</svg>\n")
    return "".join(out)
