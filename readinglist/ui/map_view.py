"""The map: the whole library at a glance — every paper a dot placed by the core's layout (similar papers
near each other), coloured by topic or by reading state, the topics' names at their centres, the current
search's results lit and the rest dimmed.

Hover names a paper, a click shows it (the table selects it), a drag selects the papers of an area (the
window makes them the table's papers, all selected, so the triage keys and tags act on them). The wheel zooms about
the pointer, a right or middle drag pans (a trackpad's two-finger scroll too), + − 0 and the arrow keys do
the same from the keyboard.

The dots are painted by numpy on a worker thread into an image a little larger than the view
(map_render.py); while the reader pans or zooms, the last image is moved and scaled until the next one
arrives, so the window's thread only ever draws one image, the names and the pointer's card.

Over 400 lines: the view's geometry (zoom, pan, hit tests), its rendering requests and its mouse and key
handling share one state (the scale, the centre, the area); the drawing is map_render.py, the data
library_map.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPointF, QRectF, QSettings, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from readinglist.heap import return_freed
from readinglist.library import Library
from readinglist.papers import STATE_LABELS, STATES, Topic
from readinglist.ui.fitting import ElidedLabel
from readinglist.ui.flow import FlowLayout
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    import numpy as np

    from readinglist.ui.map_legend import Entry
    from readinglist.ui.map_render import Grid, View

# a qualitative palette (Tableau 10 and two more); neighbouring topics get different ones (assign_colours)
TOPIC_COLOURS = [0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F,
                 0x86BCB6, 0xD37295, 0x499894]  # fmt: skip
NO_TOPIC = 0x9AA0A6
STATE_COLOURS = {"unread": 0xA7B1BC, "skimmed": 0x3D7BE0, "read": 0x2EB872, "skipped": 0xE15759, "queued": 0xF28E2B}
DIM_KEEP = 0.22  # how much of its colour a dot outside the results keeps
MARGIN = 0.25  # the image drawn reaches this share of the view beyond each side (a pan shows it at once)
MAX_ZOOM = 400.0
FOLLOW_MARGIN = 24.0  # a current paper this near the edge (logical pixels) is brought to the middle
PICK_PX = 6.0  # how near the pointer a dot is picked (logical pixels)
DRAG_PX = 4  # a press that moves farther than this is a drag, not a click
LABEL_REACH = 4.0  # a topic's name is shown if it is at most this many times as wide as its papers on screen
LABEL_GAP = 2.0  # pixels between a topic's papers and its name under them
LABEL_HALO = 170  # the opacity of the background behind a name
LEGEND_MARGIN = 6.0  # between the map's corner and its legend (logical pixels)
NO_TOPIC_LABEL = "No topic (too little text)"
# what the reader looks for stays visible however many papers shrink the dots (a 98k library's dots are a
# pixel across, and the results, the area's outline and the current paper's ring were a pixel too: a trial)
MIN_HIT_PX = 2.5  # the least radius of a result's dot while a search lights some (logical pixels)
MIN_RING_PX = 8.0  # the least radius of the ring around the current paper (logical pixels)


@dataclass
class MapData:
    """The map's papers as arrays (loaded on a worker): ids, places, each one's topic (a row of `topics`,
    -1 for none) and reading state (an index into STATES), and the grid for finding dots."""

    ids: np.ndarray  # int64
    xy: np.ndarray  # float32 (n, 2)
    topic_row: np.ndarray  # int32
    states: np.ndarray  # uint8
    topics: list[Topic]
    topic_colours: np.ndarray  # uint32, one per topic
    islands: np.ndarray  # float (topics, 3): where each topic's papers lie, centre x, y and radius
    bounds: tuple[float, float, float, float]  # the places' extent (map_render.Bounds)
    grid: Grid
    sorted_ids: np.ndarray
    sort_order: np.ndarray

    def rows_of(self, paper_ids: object) -> np.ndarray:
        """The rows of these papers (those on the map)."""
        import numpy as np

        want = np.asarray(paper_ids, dtype=np.int64)
        if not len(self.sorted_ids) or not len(want):
            return np.zeros(0, np.int64)
        at = np.clip(np.searchsorted(self.sorted_ids, want), 0, len(self.sorted_ids) - 1)
        return self.sort_order[at[self.sorted_ids[at] == want]]


def load(library: Library) -> MapData | None:
    """The stored map with the papers' topics and states (None until topics are computed). On a worker:
    it loads numpy and reads every paper's state."""
    import numpy as np

    from readinglist.ui.map_render import Grid, bounds

    stored = library.library_map()
    if stored is None or not len(stored):
        return None
    topics = library.topics()
    row_of_topic = {t.id: i for i, t in enumerate(topics)}
    topic_ids = np.unique(stored.topic_ids)
    lookup = np.array([row_of_topic.get(int(t), -1) for t in topic_ids], dtype=np.int32)
    topic_row = lookup[np.searchsorted(topic_ids, stored.topic_ids)] if len(topic_ids) else np.zeros(0, np.int32)
    order = np.argsort(stored.paper_ids, kind="stable")
    data = MapData(
        ids=stored.paper_ids,
        xy=stored.xy,
        topic_row=topic_row.astype(np.int32),
        states=np.zeros(len(stored), np.uint8),
        topics=topics,
        topic_colours=assign_colours(topics),
        islands=islands(stored.xy, topic_row, len(topics)),
        bounds=bounds(stored.xy),
        grid=Grid(stored.xy),
        sorted_ids=stored.paper_ids[order],
        sort_order=order,
    )
    data.states = read_states(library, data)
    return_freed()  # the stored blobs and the layout's temporaries (every paper's place, copied)
    return data


def _two_lines(phrase: str) -> str:
    """A phrase of several words on two lines, broken at the space nearest its middle ("" for one word)."""
    spaces = [i for i, ch in enumerate(phrase) if ch == " "]
    if not spaces:
        return ""
    at = min(spaces, key=lambda i: abs(len(phrase) - 2 * i))
    return f"{phrase[:at]}\n{phrase[at + 1 :]}"


def islands(xy: np.ndarray, topic_row: np.ndarray, count: int) -> np.ndarray:
    """Each topic's papers as a disc: their median place and the distance within which 90% of them lie
    (its name goes under it)."""
    import numpy as np

    out = np.zeros((count, 3))
    for row in range(count):
        members = xy[topic_row == row]
        if len(members):
            centre = np.median(members, axis=0)
            out[row] = (*centre, float(np.quantile(np.linalg.norm(members - centre, axis=1), 0.9)))
    return out


def read_states(library: Library, data: MapData) -> np.ndarray:
    """Every paper's reading state, as an index into STATES: the papers of each state but the first
    (few, through the state index), the rest unread."""
    import numpy as np

    states = np.zeros(len(data.ids), np.uint8)
    for code, state in enumerate(STATES[1:], start=1):
        states[data.rows_of(library.ordered_ids("added", state=state))] = code
    return states


def assign_colours(topics: list[Topic]) -> np.ndarray:
    """A palette colour for each topic, unlike those of the topics nearest it on the map; decided in the
    order of the topics' ids, so that a recompute that keeps ids and places keeps the colours too."""
    import numpy as np

    colours = np.zeros(len(topics), np.uint32)
    if not topics:
        return colours
    centres = np.array([(t.x, t.y) for t in topics], dtype=np.float64)
    chosen: dict[int, int] = {}
    for i in sorted(range(len(topics)), key=lambda k: topics[k].id):
        near = np.argsort(((centres - centres[i]) ** 2).sum(axis=1))
        taken = [chosen[int(j)] for j in near[1:] if int(j) in chosen][:6]
        free = [c for c in range(len(TOPIC_COLOURS)) if c not in taken]
        chosen[i] = free[topics[i].id % len(free)] if free else topics[i].id % len(TOPIC_COLOURS)
        colours[i] = TOPIC_COLOURS[chosen[i]]
    return colours


def state_colour(state: str) -> int:
    extra = [c for c in TOPIC_COLOURS if c not in STATE_COLOURS.values()]
    return STATE_COLOURS.get(state, extra[STATES.index(state) % len(extra)] if state in STATES else NO_TOPIC)


def dot_colours(data: MapData, colour_by: str) -> np.ndarray:
    """Each paper's colour when lit: its topic's, or its reading state's."""
    import numpy as np

    if colour_by == "state":
        palette = np.array([state_colour(s) for s in STATES], dtype=np.uint32)
        return palette[data.states]
    palette = np.append(data.topic_colours, np.uint32(NO_TOPIC))
    return palette[data.topic_row]  # -1 (no topic) is the last


@dataclass
class Scene:
    """What a render draws, taken on the window's thread (references to arrays that are replaced, never
    changed in place) and turned into layers on the worker."""

    data: MapData
    view: View
    colour_by: str
    lit: np.ndarray | None
    area: np.ndarray | None
    background: int
    outline: int
    radius: float
    ring: float  # how far the outline of a selected dot reaches beyond it
    least: float = 0.0  # the least radius of a dot lit by a search or in the area (pixels): seen on any map

    def layers(self) -> list:  # list[map_render.Layer]
        """The dots to draw, bottom to top: the dimmed, the lit (at least `least` across), then the area
        selected, outlined."""
        import numpy as np

        from readinglist.ui.map_render import Layer, mix

        data, radius = self.data, self.radius
        shown = max(radius, self.least)
        px, py = self.view.to_screen(data.xy[:, 0], data.xy[:, 1])
        colours = dot_colours(data, self.colour_by)
        lit = self.lit
        if lit is None:
            out = [Layer(px, py, colours, radius)]
        else:
            dim = ~lit
            out = [
                Layer(px[dim], py[dim], mix(colours[dim], self.background, DIM_KEEP), radius * 0.85),
                Layer(px[lit], py[lit], colours[lit], shown),
            ]
        area = self.area
        if area is not None and len(area):
            ring = np.full(len(area), self.outline, np.uint32)
            out += [
                Layer(px[area], py[area], ring, shown + self.ring),
                Layer(px[area], py[area], colours[area], shown),
            ]
        return out


def _rgb(colour: QColor) -> int:
    return colour.rgb() & 0xFFFFFF


@dataclass
class Label:
    """A topic's name as placed on the map: where (map units), the text, and its box around that place."""

    x: float
    y: float
    text: str
    width: float
    height: float


class MapView(QWidget):
    """The map's canvas. The window gives it the results (`set_results`) and the current paper; it says
    what the reader hovers, clicks and selects."""

    paperClicked = Signal(int)  # a dot was clicked: show this paper
    areaSelected = Signal(object)  # list[int]: the papers (among the results) of the area dragged over
    areaCleared = Signal()
    hoverChanged = Signal(object)  # int | None: the paper under the pointer
    rendered = Signal()  # a new image of the dots is shown
    loaded = Signal()  # the map's data arrived (or there is none)

    def __init__(self, library: Library, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mapView")
        self._library = library
        self._runner = Runner(self, threads=1)  # its own thread: renders never wait behind a search
        self.data: MapData | None = None
        self._loading = False
        self._load_again = False
        self._lit: np.ndarray | None = None  # bool per row; None: every paper is lit
        self._results: list[int] | None = None  # as last given (applied once the data is there)
        self._results_gen = 0
        self._results_pending = False
        self._area: np.ndarray | None = None  # rows of the papers selected by a drag
        self._current = -1  # row of the table's current paper
        # the table's current paper, kept apart from its row: one given before the map's data came (the map
        # first shown), or one the data read then did not have (a paper a CLI import brought, the map read again
        # after), was forgotten, and no ring showed until a dot was clicked or j pressed (a trial)
        self._current_id: int | None = None
        self._hover = -1
        self._descriptions: dict[int, str] = {}
        self.colour_by = "topic"  # or "state"
        self._cx = 0.0
        self._cy = 0.0
        self._zoom = 1.0
        self._image: tuple[View, QImage, object] | None = None  # the view it shows, the image, its buffer
        self._rendering = False
        self._render_again = False
        self._labels: list[Label] | None = None
        self._labels_scale = 0.0
        self._press: QPointF | None = None
        self._press_button = Qt.MouseButton.NoButton
        self._band: QRectF | None = None
        self._last_pan: QPointF | None = None
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(200, 150)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    # ---- data ----

    def load(self) -> None:
        """Read the map (again) on the map's worker: after topics are computed, or when first shown."""
        if self._loading:
            self._load_again = True
            return
        self._loading = True
        library = self._library
        self._runner.run(lambda: load(library), self._loaded, self._load_failed)

    @property
    def loading(self) -> bool:
        return self._loading

    def _loaded(self, data: MapData | None) -> None:
        self._loading = False
        if self._load_again:
            self._load_again = False
            self.load()
            return
        first = self.data is None
        area, current = self.area_ids, self._current_id
        self.data = data
        self._current = -1
        self._hover = -1
        self._descriptions.clear()
        self._labels = None
        self._lit = None
        if first:
            self._zoom, self._cx, self._cy = 1.0, *self._fit_centre()
        # computed again: the view, the area selected and the paper ringed stay (topics keep their places)
        self._area = data.rows_of(area) if data is not None and area else None
        if area and (self._area is None or not len(self._area)):
            self._area = None
            self.areaCleared.emit()
        self.set_current(current)
        self._apply_results()
        if not self._results_pending:
            self._request_render()  # else once the results' mask is made: no flash of every dot lit
        self.loaded.emit()

    def _load_failed(self, exc: Exception) -> None:
        self._loading = False
        self.data = None
        self.loaded.emit()
        self.update()

    def set_results(self, ids: list[int] | None) -> None:
        """The papers of the current search, lit (None: no search or filter, every paper is lit)."""
        self._results = ids
        self._apply_results()

    def _apply_results(self) -> None:
        data, ids = self.data, self._results
        self._results_gen += 1
        gen = self._results_gen
        if data is None:
            return
        if ids is None:
            self._set_lit(gen, None)
            return

        def mask() -> np.ndarray | None:
            import numpy as np

            lit = np.zeros(len(data.ids), bool)
            lit[data.rows_of(ids)] = True
            return None if lit.all() else lit

        self._results_pending = True
        self._runner.run(mask, lambda lit: self._set_lit(gen, lit))

    def _set_lit(self, gen: int, lit: np.ndarray | None) -> None:
        if gen != self._results_gen:
            return
        self._results_pending = False
        self._lit = lit
        self._request_render()

    def papers_changed(self, ids: list[int]) -> None:
        """These papers were edited: their dots take their new reading states."""
        data = self.data
        if data is None or not ids:
            return
        library = self._library

        def states() -> np.ndarray:
            import numpy as np

            if len(ids) > 2000:
                return read_states(library, data)
            rows = library.rows(ids)
            fresh = data.states.copy()
            for pid, row in rows.items():
                at = data.rows_of([pid])
                if len(at):
                    fresh[at] = STATES.index(row[3]) if row[3] in STATES else 0
            return np.asarray(fresh)

        def apply(fresh: np.ndarray) -> None:
            if self.data is data:
                data.states = fresh
                for pid in ids:
                    self._descriptions.pop(pid, None)
                if self.colour_by == "state":
                    self._request_render()

        self._runner.run(states, apply)

    def set_colour_by(self, mode: str) -> None:
        """Colour the dots by "topic" or by reading "state"."""
        if mode != self.colour_by:
            self.colour_by = mode
            self._request_render()

    def set_current(self, paper_id: int | None) -> None:
        """The table's current paper, ringed on the map, which follows it: a paper off the part shown is brought
        to the middle (the ring was often off screen after moving through the table: a trial). The paper is
        kept while the map has no dot for it (no data yet, or data read before it came): ringed once it has."""
        self._current_id = paper_id
        row = -1
        if self.data is not None and paper_id is not None:
            rows = self.data.rows_of([paper_id])
            row = int(rows[0]) if len(rows) else -1
        if row != self._current:
            self._current = row
            at = self.screen_pos(paper_id) if row >= 0 and paper_id is not None else None
            shown = QRectF(self.rect()).adjusted(FOLLOW_MARGIN, FOLLOW_MARGIN, -FOLLOW_MARGIN, -FOLLOW_MARGIN)
            if at is not None and shown.isValid() and not shown.contains(at):
                middle = QRectF(self.rect()).center()
                self.pan_by(middle.x() - at.x(), middle.y() - at.y())
            self.update()

    @property
    def ringed(self) -> int | None:
        """The paper the ring is drawn around: the table's current paper, where the map has a dot for it."""
        return int(self.data.ids[self._current]) if self.data is not None and self._current >= 0 else None

    # ---- the area selected ----

    @property
    def area_ids(self) -> list[int]:
        """The papers of the area dragged over (among the results), empty when none is selected."""
        if self.data is None or self._area is None:
            return []
        return self.data.ids[self._area].tolist()

    def select_area(self, x0: float, y0: float, x1: float, y1: float) -> list[int]:
        """Select the papers among the results inside a rectangle of the map (map units)."""
        from readinglist.ui.map_render import within

        if self.data is None:
            return []
        rows = within(self.data.xy, x0, y0, x1, y1)
        if self._lit is not None:
            rows = rows[self._lit[rows]]
        self._area = rows
        self._request_render()
        ids = self.area_ids
        self.areaSelected.emit(ids)
        return ids

    def clear_area(self) -> bool:
        """Forget the area selected; False if there was none."""
        if self._area is None:
            return False
        self._area = None
        self._request_render()
        self.areaCleared.emit()
        return True

    # ---- where things are ----

    def _dpr(self) -> float:
        return float(self.devicePixelRatioF())

    def _fit_centre(self) -> tuple[float, float]:
        if self.data is None:
            return 0.0, 0.0
        x0, y0, x1, y1 = self.data.bounds
        return (x0 + x1) / 2, (y0 + y1) / 2

    def view(self) -> View:
        """The view shown now (device pixels)."""
        from readinglist.ui.map_render import View, fit

        dpr = self._dpr()
        width, height = max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr))
        if self.data is None:
            return View(0.0, 0.0, min(width, height) / 2, width, height)
        fitted = fit(self.data.bounds, width, height)
        return View(self._cx, self._cy, fitted.scale * self._zoom, width, height)

    @property
    def zoom(self) -> float:
        return self._zoom

    def screen_pos(self, paper_id: int) -> QPointF | None:
        """Where the paper's dot is in the widget (None: not on the map)."""
        if self.data is None:
            return None
        rows = self.data.rows_of([paper_id])
        if not len(rows):
            return None
        x, y = self.data.xy[int(rows[0])]
        px, py = self.view().point_to_screen(float(x), float(y))
        dpr = self._dpr()
        return QPointF(px / dpr, py / dpr)

    def map_pos(self, pos: QPointF) -> tuple[float, float]:
        dpr = self._dpr()
        return self.view().to_map(pos.x() * dpr, pos.y() * dpr)

    def paper_at(self, pos: QPointF) -> int | None:
        """The paper whose dot is under this point of the widget (the lit ones first)."""
        if self.data is None:
            return None
        x, y = self.map_pos(pos)
        view = self.view()
        radius = max(PICK_PX * self._dpr(), self._radius(view)) / view.scale
        row = self.data.grid.nearest(x, y, radius, self._lit)
        return int(self.data.ids[row]) if row >= 0 else None

    def _radius(self, view: View) -> float:
        from readinglist.ui.map_render import dot_radius

        n = len(self.data.ids) if self.data is not None else 1
        return dot_radius(n, view, self._zoom, self._dpr())

    # ---- colours ----

    def _colours(self) -> tuple[int, int, int]:
        """Background, text and the outline of selected dots, from the palette."""
        palette = self.palette()
        return (
            _rgb(palette.color(QPalette.ColorRole.Base)),
            _rgb(palette.color(QPalette.ColorRole.Text)),
            _rgb(palette.color(QPalette.ColorRole.Text)),
        )

    def dot_colour(self, paper_id: int) -> QColor | None:
        """The colour the paper's dot is drawn in now (dimmed if it is not among the results)."""
        from readinglist.ui.map_render import mix

        if self.data is None:
            return None
        rows = self.data.rows_of([paper_id])
        if not len(rows):
            return None
        row = int(rows[0])
        colour = dot_colours(self.data, self.colour_by)[row : row + 1]
        if self._lit is not None and not self._lit[row]:
            colour = mix(colour, self._colours()[0], DIM_KEEP)
        return QColor.fromRgb(int(colour[0]) & 0xFFFFFF)

    def legend(self, colour_by: str | None = None) -> list[Entry]:
        """What the colours mean (in the mode shown, or the one given): each reading state's label and colour,
        or each topic's name and colour, largest first (and the colour of the papers with no topic)."""
        from readinglist.ui.map_legend import Entry

        if (colour_by or self.colour_by) == "state":
            return [Entry(STATE_LABELS.get(s, s.title()), state_colour(s)) for s in STATES]
        data = self.data
        if data is None:
            return []
        out = [Entry(t.label, int(c)) for t, c in zip(data.topics, data.topic_colours.tolist(), strict=True)]
        if (data.topic_row < 0).any():
            out.append(Entry(NO_TOPIC_LABEL, NO_TOPIC))
        return out

    def legend_rect(self) -> QRectF | None:
        """Where the legend is drawn on the map (widget pixels): in its top-left corner while the dots are
        coloured by reading state (the topics' names are on the map itself); None otherwise."""
        from readinglist.ui.map_legend import arrange

        if self.data is None or self.colour_by != "state":
            return None
        return QRectF(QPointF(LEGEND_MARGIN, LEGEND_MARGIN), arrange(self.legend(), self.font()).size)

    # ---- rendering ----

    def scene(self, view: View, factor: float = 1.0) -> Scene:
        """What a render of `view` draws, as things are now; `factor`: its pixels per device pixel."""
        assert self.data is not None
        background, _, outline = self._colours()
        radius = self._radius(self.view()) * factor
        ring = 1.5 * self._dpr() * factor
        least = MIN_HIT_PX * self._dpr() * factor
        return Scene(self.data, view, self.colour_by, self._lit, self._area, background, outline, radius, ring, least)

    def _request_render(self) -> None:
        """Paint the dots for the view as it is now, on the worker; one render at a time, the latest view
        next."""
        self.update()
        if self.data is None:
            return
        if self._rendering:
            self._render_again = True
            return
        self._rendering = True
        data = self.data
        view = self.view().grown(MARGIN)
        scene = self.scene(view)
        dpr = self._dpr()

        def paint() -> tuple[View, QImage, object]:
            from readinglist.ui.map_render import rasterise

            buf = rasterise(view, scene.background, scene.layers())
            image = QImage(buf.data, view.width, view.height, view.width * 4, QImage.Format.Format_RGB32)
            image.setDevicePixelRatio(dpr)
            return view, image, buf

        self._runner.run(paint, lambda done: self._rendered(data, done), self._render_failed)

    def _rendered(self, data: MapData, done: tuple[View, QImage, object]) -> None:
        self._rendering = False
        if data is self.data:
            self._image = done
            self.update()
            self.rendered.emit()
        if self._render_again:
            self._render_again = False
            self._request_render()

    def _render_failed(self, exc: Exception) -> None:
        self._rendering = False
        self._render_again = False

    @property
    def up_to_date(self) -> bool:
        """The image shown was painted for the view as it is now, and no render is on its way."""
        if self._image is None or self._rendering or self._results_pending or self._loading:
            return False
        shown = self._image[0]
        now = self.view().grown(MARGIN)
        return (shown.cx, shown.cy, shown.scale, shown.width, shown.height) == (
            now.cx, now.cy, now.scale, now.width, now.height)  # fmt: skip

    # ---- labels ----

    def _label_font(self) -> QFont:
        return QFont(self.font())

    def labels(self) -> list[Label]:
        """The topics' names that fit at this zoom, each under its topic's papers, the largest topics
        first: two phrases where they fit, else the first, on two lines if need be, else none (zooming in
        shows more). A name may be at most LABEL_REACH times as wide as its topic's papers are on screen: a
        large topic with a long name ("reinforcement learning") had none at the default zoom, while a small
        neighbour's short one sat beside its papers."""
        data = self.data
        if data is None:
            return []
        view = self.view()
        if self._labels is not None and self._labels_scale == view.scale:
            return self._labels
        metrics = QFontMetricsF(self._label_font())
        dpr = self._dpr()
        placed: list[QRectF] = []
        out: list[Label] = []
        for row in sorted(range(len(data.topics)), key=lambda r: -data.topics[r].size):
            topic = data.topics[row]
            x, y, radius = (float(v) for v in data.islands[row])
            px, py = view.point_to_screen(x, y - radius)
            reach = max(LABEL_REACH * 2 * radius * view.scale / dpr, 40.0)
            first = topic.phrases[0] if topic.phrases else ""
            for text in dict.fromkeys((" · ".join(topic.phrases[:2]), first, _two_lines(first))):
                lines = text.split("\n")
                width = max(metrics.horizontalAdvance(line) for line in lines) + 10
                height = metrics.height() * len(lines) + 2
                if not text or width > reach:
                    continue
                box = QRectF(px / dpr - width / 2, py / dpr + LABEL_GAP, width, height)
                if not any(box.intersects(other) for other in placed):
                    placed.append(box)
                    out.append(Label(x, y - radius, text, width, height))
                    break
        self._labels, self._labels_scale = out, view.scale
        return out

    @staticmethod
    def label_box(label: Label, px: float, py: float, factor: float = 1.0) -> QRectF:
        """Where a name is drawn: centred under its anchor at (px, py), in pixels `factor` times logical."""
        width, height = label.width * factor, label.height * factor
        return QRectF(px - width / 2, py + LABEL_GAP * factor, width, height)

    def _draw_labels(self, painter: QPainter, view: View) -> None:
        palette = self.palette()
        halo = QColor(palette.color(QPalette.ColorRole.Base))
        halo.setAlpha(LABEL_HALO)
        painter.setFont(self._label_font())
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        dpr = self._dpr()
        bounds = QRectF(self.rect())
        for label in self.labels():
            px, py = view.point_to_screen(label.x, label.y)
            box = self.label_box(label, px / dpr, py / dpr)
            if not bounds.intersects(box):
                continue
            box.moveLeft(min(max(box.left(), 2.0), max(bounds.right() - box.width() - 2, 2.0)))  # not cut at an edge
            painter.setBrush(halo)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(palette.color(QPalette.ColorRole.Text))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label.text)

    # ---- painting ----

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.color(QPalette.ColorRole.Base))
        if self.data is None:
            painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
            text = "Loading the map…" if self._loading else "The map shows the library once its topics are computed."
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)
            painter.end()
            return
        view = self.view()
        dpr = self._dpr()
        if self._image is not None:
            shown, image, _buf = self._image
            factor = view.scale / shown.scale
            left, top = view.point_to_screen(*shown.to_map(0, 0))
            target = QRectF(left / dpr, top / dpr, shown.width * factor / dpr, shown.height * factor / dpr)
            painter.drawImage(target, image, QRectF(0, 0, shown.width, shown.height))
        self._draw_labels(painter, view)
        self._draw_legend(painter)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        radius = self._radius(view) / dpr
        if self._current >= 0:  # over a halo of the background: seen on a crowd of dots of its own colour too
            ring = max(radius + 3, MIN_RING_PX)
            self._ring(painter, view, self._current, ring, palette.color(QPalette.ColorRole.Base), 5.0)
            self._ring(painter, view, self._current, ring, palette.color(QPalette.ColorRole.Highlight), 2.5)
        if self._hover >= 0:
            self._ring(
                painter,
                view,
                self._hover,
                max(radius + 2, MIN_RING_PX - 2),
                palette.color(QPalette.ColorRole.Text),
                1.5,
            )
        if self._band is not None:
            highlight = QColor(palette.color(QPalette.ColorRole.Highlight))
            painter.setPen(QPen(highlight, 1))
            highlight.setAlpha(40)
            painter.setBrush(highlight)
            painter.drawRect(self._band)
        if self._hover >= 0:
            self._draw_card(painter)
        painter.end()

    def _draw_legend(self, painter: QPainter) -> None:
        from readinglist.ui.map_legend import arrange, draw

        at = self.legend_rect()
        if at is None:
            return
        palette = self.palette()
        box = QColor(palette.color(QPalette.ColorRole.Base))
        box.setAlpha(225)
        draw(painter, arrange(self.legend(), self.font()), at.topLeft(), palette.color(QPalette.ColorRole.Text), box)

    def _ring(self, painter: QPainter, view: View, row: int, radius: float, colour: QColor, width: float) -> None:
        assert self.data is not None
        x, y = self.data.xy[row]
        px, py = view.point_to_screen(float(x), float(y))
        dpr = self._dpr()
        painter.setPen(QPen(colour, width))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(px / dpr, py / dpr), radius, radius)

    def _card_rect(self) -> QRectF | None:
        pos = self.screen_pos(int(self.data.ids[self._hover])) if self.data is not None and self._hover >= 0 else None
        if pos is None:
            return None
        metrics = QFontMetricsF(self.font())
        bold = QFont(self.font())
        bold.setBold(True)
        lines = self.hover_text.split("\n")
        widths = [QFontMetricsF(bold).horizontalAdvance(lines[0])] + [metrics.horizontalAdvance(x) for x in lines[1:]]
        width = min(max(widths) + 18, 460.0)  # the title is drawn bold
        height = metrics.height() * len(lines) + 10
        x = pos.x() + 12 if pos.x() + 12 + width < self.width() else pos.x() - 12 - width
        y = pos.y() + 12 if pos.y() + 12 + height < self.height() else pos.y() - 12 - height
        return QRectF(max(x, 2), max(y, 2), width, height)

    def _draw_card(self, painter: QPainter) -> None:
        box = self._card_rect()
        if box is None:
            return
        palette = self.palette()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1))
        painter.setBrush(palette.color(QPalette.ColorRole.ToolTipBase))
        painter.drawRoundedRect(box, 5, 5)
        metrics = QFontMetricsF(self.font())
        lines = self.hover_text.split("\n")
        y = box.top() + 5
        for i, line in enumerate(lines):
            font = QFont(self.font())
            font.setBold(i == 0)
            painter.setFont(font)
            role = QPalette.ColorRole.ToolTipText if i == 0 else QPalette.ColorRole.PlaceholderText
            painter.setPen(palette.color(role))
            text = QFontMetricsF(font).elidedText(line, Qt.TextElideMode.ElideRight, box.width() - 16)
            painter.drawText(
                QRectF(box.left() + 8, y, box.width() - 16, metrics.height()), Qt.AlignmentFlag.AlignLeft, text
            )
            y += metrics.height()

    # ---- hover ----

    @property
    def hovered(self) -> int | None:
        """The paper under the pointer."""
        return int(self.data.ids[self._hover]) if self.data is not None and self._hover >= 0 else None

    @property
    def hover_text(self) -> str:
        """What the card by the pointer says: the title, then venue, year, state and priority, then the topic."""
        pid = self.hovered
        if pid is None or self.data is None:
            return ""
        if pid not in self._descriptions:
            row = self._library.rows([pid]).get(pid)
            if row is None:
                return ""
            title, venue, year, state, priority = row.title, row.venue, row.year, row.state, row.priority
            shown = (venue, str(year or ""), STATE_LABELS.get(state, state), f"priority {priority}" if priority else "")
            meta = " · ".join(x for x in shown if x)
            topic_row = int(self.data.topic_row[self._hover])
            topic = self.data.topics[topic_row].label if topic_row >= 0 else NO_TOPIC_LABEL
            if len(self._descriptions) > 500:
                self._descriptions.clear()
            self._descriptions[pid] = "\n".join(x for x in (title, meta, topic) if x)
        return self._descriptions[pid]

    def _set_hover(self, row: int) -> None:
        if row == self._hover:
            return
        before = self._card_rect()
        self._hover = row
        after = self._card_rect()
        for box in (before, after):  # only where the card was and is (and the rings around the dots)
            if box is not None:
                self.update(box.adjusted(-30, -30, 30, 30).toAlignedRect())
        self.hoverChanged.emit(self.hovered)

    # ---- the mouse and the keys ----

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        self._press_button = event.button()
        self._last_pan = event.position()
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        buttons = event.buttons()
        if buttons & (Qt.MouseButton.RightButton | Qt.MouseButton.MiddleButton) and self._last_pan is not None:
            delta = pos - self._last_pan
            self._last_pan = pos
            self.pan_by(delta.x(), delta.y())
            return
        if buttons & Qt.MouseButton.LeftButton and self._press is not None:
            if self._band is not None or (pos - self._press).manhattanLength() > DRAG_PX:
                self._band = QRectF(self._press, pos).normalized()
                self._set_hover(-1)
                self.update()
            return
        row = -1
        if self.data is not None:
            pid = self.paper_at(pos)
            row = int(self.data.rows_of([pid])[0]) if pid is not None else -1
        self._set_hover(row)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        press, band = self._press, self._band
        self._press, self._band, self._last_pan = None, None, None
        if event.button() != Qt.MouseButton.LeftButton or press is None:
            return
        if band is not None:
            x0, y0 = self.map_pos(band.topLeft())
            x1, y1 = self.map_pos(band.bottomRight())
            self.select_area(x0, y0, x1, y1)
            self.update()
            return
        pid = self.paper_at(event.position())
        if pid is not None:
            self.paperClicked.emit(pid)

    def leaveEvent(self, event: object) -> None:
        self._set_hover(-1)

    def wheelEvent(self, event: QWheelEvent) -> None:
        pixels = event.pixelDelta()
        if not pixels.isNull() and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.pan_by(pixels.x(), pixels.y())  # a trackpad's scroll pans; its pinch (Ctrl+scroll) zooms
        else:
            steps = event.angleDelta().y() / 120 or event.angleDelta().x() / 120
            self.zoom_by(1.25**steps, event.position())
        event.accept()

    def event(self, event: QEvent) -> bool:
        """0 fits the map here, though the window's 0 clears the priority (which the table's 0 still does):
        a key that moves the view must not edit every paper of a selected area."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_0
            and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        step = 60.0
        centre = QPointF(self.width() / 2, self.height() / 2)
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1.5, centre)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(1 / 1.5, centre)
        elif key == Qt.Key.Key_0:
            self.fit()
        elif key == Qt.Key.Key_Left:
            self.pan_by(step, 0)
        elif key == Qt.Key.Key_Right:
            self.pan_by(-step, 0)
        elif key == Qt.Key.Key_Up:
            self.pan_by(0, step)
        elif key == Qt.Key.Key_Down:
            self.pan_by(0, -step)
        else:
            super().keyPressEvent(event)

    # ---- panning and zooming ----

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the map by (dx, dy) logical pixels, as a drag would."""
        scale = self.view().scale / self._dpr()
        self._cx -= dx / scale
        self._cy += dy / scale
        self._set_hover(-1)
        self._request_render()

    def zoom_by(self, factor: float, anchor: QPointF) -> None:
        """Zoom by `factor`, keeping the map point under `anchor` (logical pixels) where it is."""
        zoom = min(max(self._zoom * factor, 1.0), MAX_ZOOM)
        if zoom == self._zoom:
            return
        x, y = self.map_pos(anchor)
        self._zoom = zoom
        ax, ay = self.map_pos(anchor)  # where that point went; move it back under the anchor
        self._cx += x - ax
        self._cy += y - ay
        self._set_hover(-1)
        self._request_render()

    def fit(self) -> None:
        """Show the whole map."""
        self._zoom = 1.0
        self._cx, self._cy = self._fit_centre()
        self._request_render()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._labels = None
        self._request_render()

    def changeEvent(self, event: QEvent) -> None:
        """Light/dark: the background and the dimmed colours are painted into the image."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._request_render()

    # ---- export ----

    def export_image(self, factor: float = 2.0) -> tuple[Scene, list[tuple[Label, float, float]]]:
        """What an export draws: the view shown with `factor` pixels per logical pixel, and the names with
        their places in those pixels."""
        assert self.data is not None
        now = self.view()
        dpr = self._dpr()
        scale = factor / dpr
        view = type(now)(now.cx, now.cy, now.scale * scale, round(now.width * scale), round(now.height * scale))
        scene = self.scene(view, scale)
        placed = []
        for label in self.labels():
            px, py = view.point_to_screen(label.x, label.y)
            half = label.width * factor / 2 + 2 * factor  # not cut at an edge, as on screen
            placed.append((label, min(max(px, half), max(view.width - half, half)), py))
        return scene, placed


class MapPane(QWidget):
    """The map with its bar: colour by topic or by reading state (the states' legend is on the map), the hint, show
    all, export."""

    exportFinished = Signal(object)  # Path | Exception
    computeRequested = Signal()
    emptyLinkActivated = Signal(str)  # a link of the empty message ("clear", "alltopics"…), as the table's

    def __init__(self, library: Library, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mapPane")
        self._settings = settings
        self.view = MapView(library, self)
        self._runner = Runner(self, threads=1)
        self.quiet = False  # tests: no message boxes
        # the bar wraps where the pane is narrow: as one row it was the pane's minimum (335 px), and a 700 px
        # window could not give it beside the sidebar and the editors; "Colour:" stays with its two buttons
        bar = FlowLayout()
        bar.setContentsMargins(4, 2, 4, 2)
        colour = QWidget(self)
        colour_row = QHBoxLayout(colour)
        colour_row.setContentsMargins(0, 0, 0, 0)
        colour_row.addWidget(QLabel("Colour:", colour))
        self.byTopic = QToolButton(colour)
        self.byTopic.setObjectName("mapColourTopic")
        self.byTopic.setText("Topic")
        self.byState = QToolButton(colour)
        self.byState.setObjectName("mapColourState")
        self.byState.setText("Reading state")
        group = QButtonGroup(self)
        for button in (self.byTopic, self.byState):
            button.setCheckable(True)
            button.setAutoRaise(True)
            group.addButton(button)
            colour_row.addWidget(button)
        bar.addWidget(colour)
        bar.addStretch()  # the states' legend is on the map (MapView.legend_rect): here it cut the hint
        # cut where the pane is narrow (the hint with "…", its whole in its tooltip): a label's whole text as its
        # minimum widened the window, and the sidebar and the table gave way
        self.hint = ElidedLabel("Drag: select · wheel: zoom · right-drag: pan", self)
        self.hint.setEnabled(False)
        # at least its first words: where the row has not even those, it goes on the next one (it was cut to
        # nothing in a small window)
        self.hint.setMinimumWidth(round(self.hint.fontMetrics().horizontalAdvance("Drag: select…")) + 2)
        bar.addWidget(self.hint)
        views = QWidget(self)  # Show All and Export… wrap together
        views_row = QHBoxLayout(views)
        views_row.setContentsMargins(0, 0, 0, 0)
        self.fitButton = QToolButton(views)
        self.fitButton.setObjectName("mapFit")
        self.fitButton.setText("Show All")
        self.fitButton.setAutoRaise(True)
        self.fitButton.setToolTip("Show the whole map (0)")
        self.fitButton.clicked.connect(self.view.fit)
        self.exportButton = QToolButton(views)
        self.exportButton.setObjectName("mapExport")
        self.exportButton.setText("Export…")
        self.exportButton.setAutoRaise(True)
        self.exportButton.setToolTip("Save the map as shown, as a PNG image or an SVG drawing")
        self.exportButton.clicked.connect(self.export_dialog)
        views_row.addWidget(self.fitButton)
        views_row.addWidget(self.exportButton)
        bar.addWidget(views)
        # why no paper is lit, as the empty table says it (with its links): a topic picked and a search that found
        # nothing left the map all dimmed, unexplained (a trial)
        self.emptyLabel = QLabel(self)
        self.emptyLabel.setObjectName("mapEmptyLabel")
        self.emptyLabel.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.emptyLabel.setWordWrap(True)
        self.emptyLabel.setTextFormat(Qt.TextFormat.RichText)
        self.emptyLabel.setContentsMargins(8, 4, 8, 4)
        self.emptyLabel.linkActivated.connect(self.emptyLinkActivated)
        self.emptyLabel.hide()
        self.computeButton = QPushButton("Compute Topics", self)
        self.computeButton.setObjectName("mapCompute")
        self.computeButton.clicked.connect(self.computeRequested)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addLayout(bar)
        layout.addWidget(self.emptyLabel)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.computeButton, 0, Qt.AlignmentFlag.AlignHCenter)
        mode = str(settings.value("mapColour", "topic"))
        (self.byState if mode == "state" else self.byTopic).setChecked(True)
        self.view.set_colour_by("state" if mode == "state" else "topic")
        self.byTopic.toggled.connect(lambda on: self.set_colour_by("topic") if on else None)
        self.byState.toggled.connect(lambda on: self.set_colour_by("state") if on else None)
        self.view.loaded.connect(self._loaded)
        self._loaded()

    def set_colour_by(self, mode: str) -> None:
        """Colour by "topic" or "state" (remembered)."""
        (self.byState if mode == "state" else self.byTopic).setChecked(True)
        self.view.set_colour_by(mode)
        self._settings.setValue("mapColour", mode)

    def show_empty(self, text: str | None) -> None:
        """Say why no paper is a result and what to do (the empty table's message), or hide it (None)."""
        if text is None:
            self.emptyLabel.hide()
            return
        self.emptyLabel.setText(text)
        self.emptyLabel.show()

    def _loaded(self) -> None:
        has = self.view.data is not None
        self.computeButton.setVisible(not has and not self.view.loading)
        for widget in (self.fitButton, self.exportButton, self.byTopic, self.byState):
            widget.setEnabled(has)

    # ---- export ----

    def export_dialog(self) -> None:
        folder = Path(str(self._settings.value("exportFolder", str(Path.home()))))
        path, _ = QFileDialog.getSaveFileName(
            self.window(), "Export the Map", str(folder / "map.png"), "PNG image (*.png);;SVG drawing (*.svg)"
        )
        if path:
            self._settings.setValue("exportFolder", str(Path(path).parent))
            self.export(Path(path))

    def export(self, path: Path) -> bool:
        """Write the map as shown to a PNG image (twice the size on screen) or an SVG drawing, by the
        file's suffix, on a worker, the legend of its colours beside it (the topics', or the states');
        exportFinished says how it went. False if there is no map yet."""
        view = self.view
        if view.data is None:
            return False
        svg = path.suffix.lower() == ".svg"
        if not svg and path.suffix.lower() != ".png":
            path = path.with_suffix(".png")
        text = view._colours()[1]
        factor = 1.0 if svg else 2.0
        scene, placed = view.export_image(factor)
        font = view._label_font()
        legend = view.legend()
        write = _write_svg if svg else _write_png
        job: Callable[[], Path] = lambda: write(path, scene, placed, factor, text, font, legend)  # noqa: E731
        self._runner.run(job, self._exported, self._export_failed)
        return True

    def _exported(self, path: Path) -> None:
        self.exportFinished.emit(path)

    def _export_failed(self, exc: Exception) -> None:
        if not self.quiet:
            QMessageBox.critical(self.window(), "Export the Map", f"Could not write the map:\n\n{exc}")
        self.exportFinished.emit(exc)


def _write_png(
    path: Path, scene: Scene, placed: list, factor: float, text: int, font: QFont, legend: list[Entry]
) -> Path:
    """The map's image with its names, and its legend in a panel on the right."""
    from readinglist.ui.map_legend import arrange, draw
    from readinglist.ui.map_render import rasterise

    view, background = scene.view, scene.background
    buf = rasterise(view, background, scene.layers())
    dots = QImage(buf.data, view.width, view.height, view.width * 4, QImage.Format.Format_RGB32)
    key = arrange(legend, font, factor, view.height) if legend else None
    side = math.ceil(key.size.width()) if key is not None else 0
    image = QImage(view.width + side, view.height, QImage.Format.Format_RGB32)
    image.fill(QColor.fromRgb(background))
    painter = QPainter(image)
    painter.drawImage(0, 0, dots)
    if key is not None:
        painter.setPen(QPen(QColor.fromRgb(NO_TOPIC), factor))
        painter.drawLine(QPointF(view.width, 0), QPointF(view.width, view.height))
        draw(painter, key, QPointF(view.width, 0), QColor.fromRgb(text))
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scaled = QFont(font)
    scaled.setPointSizeF(font.pointSizeF() * factor)
    painter.setFont(scaled)
    halo = QColor.fromRgb(background)
    halo.setAlpha(LABEL_HALO)
    for label, px, py in placed:
        box = MapView.label_box(label, px, py, factor)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(halo)
        painter.drawRoundedRect(box, 4 * factor, 4 * factor)
        painter.setPen(QColor.fromRgb(text))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label.text)
    painter.end()
    if not image.save(str(path)):
        raise OSError(f"{path}: could not be written")
    return path


def _write_svg(
    path: Path, scene: Scene, placed: list, factor: float, text: int, font: QFont, legend: list[Entry]
) -> Path:
    from readinglist.ui.map_legend import arrange, svg_entries
    from readinglist.ui.map_render import SvgLabel, svg

    size = QFontMetricsF(font).height() * 0.8 * factor
    boxes = [(label, MapView.label_box(label, px, py, factor)) for label, px, py in placed]
    labels = [SvgLabel(label.text, box.center().x(), box.center().y(), size) for label, box in boxes]
    key = arrange(legend, font, factor, scene.view.height) if legend else None
    side = svg_entries(key, scene.view.width) if key is not None else (0.0, [])
    document = svg(scene.view, scene.background, scene.layers(), labels, text, scene.background, side)
    path.write_text(document, encoding="utf-8")
    return path
