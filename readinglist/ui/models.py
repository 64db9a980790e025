"""Qt models over the library: the paper table (ids in memory, rows filled as they are shown) and the sidebar.

As in Anki's browser, the model holds only ids; a row's text is fetched when it is about to be shown, so
100k papers cost a list of ints, not 100k rows of text.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QIcon,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import QApplication

from readinglist.library import Library
from readinglist.papers import STATE_LABELS, STATES, state_order
from readinglist.ui.compat import immortalize_singletons

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ["state", "title", "venue", "year", "tags"]
HEADERS = {"state": "", "title": "Title", "venue": "Venue", "year": "Year", "tags": "Tags"}
SortRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2


_ICONS: dict[str, QIcon] = {}


def _state_pixmap(state: str, blue: QColor, green: QColor) -> QPixmap:
    pm = QPixmap(32, 32)
    pm.fill(QColor(0, 0, 0, 0))
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if state == "unread":
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(blue)
        p.drawEllipse(QPointF(16, 16), 8, 8)
    elif state == "skimmed":
        p.setPen(QPen(blue, 3))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(16, 16), 8, 8)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(blue)
        p.drawPie(QRectF(8, 8, 16, 16), 90 * 16, 180 * 16)
    else:
        p.setPen(QPen(green, 4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        p.drawPolyline([QPointF(8, 17), QPointF(14, 23), QPointF(25, 10)])
    p.end()
    return pm


def state_icon(state: str) -> QIcon:
    """Drawn, not a glyph: no font-fallback search the first time a state is shown, same look everywhere;
    white on a selected row, where the colours would vanish into the highlight."""
    if state not in _ICONS:
        icon = QIcon(_state_pixmap(state, QColor("#3d7be0"), QColor("#2eb872")))
        white = QColor("#ffffff")
        icon.addPixmap(_state_pixmap(state, white, white), QIcon.Mode.Selected)
        _ICONS[state] = icon
    return _ICONS[state]


_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_SORT = int(SortRole)
_ID = int(IdRole)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
KEEP_FILLED = 1000  # rows whose items are kept; beyond that, rows far from the ones asked for are emptied


class PaperTableModel(QStandardItemModel):
    """The paper table, painted without Python: a QStandardItemModel whose rows are filled with items only
    when they are about to be shown (`fill`, called by the view's owner before each paint), the ids of every
    row kept in a list. A paint of the table asked Python a few times per cell, and each call waited for the
    interpreter lock while a search ran: a 727×802 table at 8k papers took 17–19 ms idle and 25–31 ms beside
    a busy thread; from C++ items, 8.0 and 9.5 ms."""

    titleEdited = Signal(int, str)  # paper id, new title (the window turns it into an undoable command)

    def __init__(self, library: Library, parent: Any = None):
        immortalize_singletons()  # every fill makes thousands of the void calls that leak None (compat.py)
        super().__init__(0, len(COLUMNS), parent)
        self.library = library
        self.ids: list[int] = []
        self.scores: list[float] = []
        self._filled: dict[int, None] = {}  # rows with items, in the order they were filled
        self._row_of: dict[int, int] | None = None  # id → row, built when a batch of lookups needs it
        self.editable = not library.read_only
        editable = _FLAGS | Qt.ItemFlag.ItemIsEditable
        self._flags = [editable if c == "title" and self.editable else _FLAGS for c in COLUMNS]
        self._bold: QFont | None = None
        self._muted: QBrush | None = None
        for column, name in enumerate(COLUMNS):
            header = QStandardItem(HEADERS[name])
            if name == "state":
                header.setToolTip("Reading state (r read, s skimmed, u unread)")
            self.setHorizontalHeaderItem(column, header)

    # ---- contents ----

    def set_ids(self, ids: Sequence[int], scores: Sequence[float] = ()) -> None:
        self.beginResetModel()
        self.blockSignals(True)  # one reset for the views, not a removal and an insertion of every row
        try:
            self.setRowCount(0)
            self.ids = list(ids)
            self.scores = list(scores)
            self._row_of = None  # 20 ms at 94k papers: not before a batch needs it
            self._filled.clear()
            self.setRowCount(len(self.ids))
        finally:
            self.blockSignals(False)
        self.endResetModel()

    def fill(self, first: int, last: int) -> None:
        """Give rows first..last (inclusive) their items, if they have none: what a view is about to show."""
        first, last = max(0, first), min(last, len(self.ids) - 1)
        rows = [r for r in range(first, last + 1) if r not in self._filled]
        if not rows:
            return
        self._set_rows(rows)
        excess = len(self._filled) - KEEP_FILLED
        if excess > 0:  # a long scroll: the rows filled longest ago are emptied, a few at a time
            self._empty([r for r in islice(self._filled, excess + last - first + 1) if not first <= r <= last][:excess])

    def _set_rows(self, rows: list[int]) -> None:
        values = self.library.rows([self.ids[r] for r in rows])
        self.blockSignals(True)  # called before a paint (or followed by dataChanged): no update per item
        try:
            for row in rows:
                got = values.get(self.ids[row])
                if got is not None:
                    for column, item in enumerate(self._items(self.ids[row], *got)):
                        self.setItem(row, column, item)
                    self._filled[row] = None
        finally:
            self.blockSignals(False)

    def _empty(self, rows: list[int]) -> None:
        self.blockSignals(True)
        try:
            for row in rows:
                for column in range(len(COLUMNS)):
                    self.takeItem(row, column)
                self._filled.pop(row, None)
        finally:
            self.blockSignals(False)

    def _refill(self, rows: list[int]) -> None:
        """Rows whose paper changed: new items for those that had some, and say so with dataChanged."""
        shown = sorted(r for r in rows if r in self._filled)
        self._set_rows(shown)
        for row in sorted(rows):
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def refresh(self, ids: Sequence[int]) -> None:
        """Some papers changed: refetch only those rows and say so with dataChanged."""
        self._refill([row for row in self._rows_of(ids) if row is not None])

    def restyle(self) -> None:
        """The palette changed (light/dark): read rows are drawn in the new scheme's muted colour."""
        self._muted = None
        if self.ids:
            self._set_rows(list(self._filled))
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.ids) - 1, len(COLUMNS) - 1))

    def row_of(self, paper_id: int) -> int | None:
        """A scan in C (under 1 ms at 94k rows) unless a map was built for a batch: building the map
        costs 20 ms at 94k, and marking papers one key at a time never needs it."""
        if self._row_of is not None:
            return self._row_of.get(paper_id)
        try:
            return self.ids.index(paper_id)
        except ValueError:
            return None

    def _rows_of(self, ids: Sequence[int]) -> list[int | None]:
        """The rows of several ids: over 16 build the id → row map once, fewer are scanned for."""
        if len(ids) > 16 and self._row_of is None:
            self._row_of = {pid: row for row, pid in enumerate(self.ids)}
        return [self.row_of(i) for i in ids]

    def id_at(self, row: int) -> int | None:
        return self.ids[row] if 0 <= row < len(self.ids) else None

    def _items(self, pid: int, title: str, venue: str, year: int | None, state: str, tags: str) -> list[QStandardItem]:
        state_item = QStandardItem(state_icon(state), "")
        state_item.setToolTip(STATE_LABELS[state])
        state_item.setData(_CENTER, _ALIGN)
        state_item.setData(state_order(state), _SORT)
        state_item.setData(pid, _ID)
        title_item = QStandardItem(title)
        title_item.setToolTip(title)
        title_item.setData(title.casefold(), _SORT)
        venue_item = QStandardItem(venue)
        venue_item.setData(venue, _SORT)
        year_item = QStandardItem(str(year) if year else "")
        year_item.setData(_CENTER, _ALIGN)
        year_item.setData(year or 0, _SORT)
        tags_item = QStandardItem(tags)
        tags_item.setData(tags, _SORT)
        items = [state_item, title_item, venue_item, year_item, tags_item]
        for item, flags in zip(items, self._flags, strict=True):
            item.setFlags(flags)
        if state == "unread":
            if self._bold is None:
                self._bold = QFont()
                self._bold.setBold(True)
            title_item.setFont(self._bold)
        elif state == "read":
            if self._muted is None:
                color = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
                self._muted = QBrush(color)
            for item in items:
                item.setForeground(self._muted)
        return items

    # ---- QStandardItemModel: only what is not asked per painted cell is answered in Python ----

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """An edited title goes to the window as an undoable command; the row is refilled once it is done."""
        if role != Qt.ItemDataRole.EditRole or COLUMNS[index.column()] != "title":
            return False
        text = str(value).strip()
        if not text:
            return False
        self.titleEdited.emit(self.ids[index.row()], text)
        return True

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sorting is SQLite's job: ask it for the column's order and keep the ids we show."""
        if not self.ids:
            return
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        old_ids = [self.ids[i.row()] if i.isValid() else None for i in persistent]
        ordered = self.library.ordered_ids(COLUMNS[column], order == Qt.SortOrder.DescendingOrder)
        before = self.ids
        shown = set(before)
        self.ids = [i for i in ordered if i in shown]
        score = dict(zip(before, self.scores, strict=False))
        self.scores = [score[i] for i in self.ids] if self.scores else []
        self._row_of = None  # the rows moved; a map is built again only for a batch (20 ms at 94k)
        self._empty(list(self._filled))  # their items are in the old order; refilled before the next paint
        kept = [pid for pid in old_ids if pid is not None]
        new_rows = dict(zip(kept, self._rows_of(kept), strict=True))
        for index, pid in zip(persistent, old_ids, strict=True):
            if pid is not None:
                row = new_rows[pid]
                self.changePersistentIndex(index, self.index(row, index.column()) if row is not None else QModelIndex())
        self.layoutChanged.emit()


class SidebarModel(QStandardItemModel):
    """Library (All, Unread, Skimmed, Read) and Tags, each with its count."""

    FilterRole = Qt.ItemDataRole.UserRole + 10  # "state\x1fread", "tag\x1fname", "all\x1f"

    @staticmethod
    def encode(key: tuple[str, str | None]) -> str:
        return f"{key[0]}\x1f{key[1] or ''}"

    @staticmethod
    def decode(value: object) -> tuple[str, str | None] | None:
        if not isinstance(value, str) or "\x1f" not in value:
            return None
        kind, _, name = value.partition("\x1f")
        return kind, (name or None)

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.setHorizontalHeaderLabels(["Library"])
        self.library_root = QStandardItem("Library")
        self.tags_root = QStandardItem("Tags")
        for root in (self.library_root, self.tags_root):
            root.setSelectable(False)
            root.setEditable(False)
            font = root.font()
            font.setBold(True)
            root.setFont(font)
            self.appendRow(root)

    def update_counts(self, counts: dict[str, int], tags: list[tuple[str, int]]) -> None:
        entries: list[tuple[str, tuple[str, str | None], int]] = [("All", ("all", None), counts["all"])]
        entries += [(STATE_LABELS[state], ("state", state), counts[state]) for state in STATES]
        self._fill(self.library_root, entries)
        self._fill(self.tags_root, [(name, ("tag", name), n) for name, n in tags])
        self.tags_root.setText(f"Tags ({len(tags)})" if tags else "Tags")

    def _fill(self, root: QStandardItem, entries: list[tuple[str, tuple[str, str | None], int]]) -> None:
        existing = {root.child(r).data(self.FilterRole): root.child(r) for r in range(root.rowCount())}
        wanted = [self.encode(key) for _, key, _ in entries]
        for r in reversed(range(root.rowCount())):
            if root.child(r).data(self.FilterRole) not in wanted:
                root.removeRow(r)
        for row, (label, key, n) in enumerate(entries):
            item = existing.get(self.encode(key))
            text = f"{label}  ({n:,})"
            if item is None:
                item = QStandardItem(text)
                item.setEditable(False)
                item.setData(self.encode(key), self.FilterRole)
                item.setData(label, Qt.ItemDataRole.ToolTipRole)
                root.insertRow(row, [item])
            elif item.text() != text:
                item.setText(text)

    def find(self, key: tuple[str, str | None]) -> QModelIndex:
        for root in (self.library_root, self.tags_root):
            for r in range(root.rowCount()):
                if root.child(r).data(self.FilterRole) == self.encode(key):
                    return root.child(r).index()
        return QModelIndex()
