"""Qt models over the library: the paper table (ids in memory, rows fetched a page at a time) and the sidebar.

As in Anki's browser, the model holds only ids; a row's text is fetched the first time a view asks for it,
a page of neighbours at once, so 100k papers cost a list of ints, not 100k rows of text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QPointF, QRectF, Qt, Signal
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

Index = QModelIndex | QPersistentModelIndex

COLUMNS = ["state", "title", "venue", "year", "tags"]
HEADERS = {"state": "", "title": "Title", "venue": "Venue", "year": "Year", "tags": "Tags"}
STATE_TIP = {"unread": "Unread", "skimmed": "Skimmed", "read": "Read"}
SortRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
PAGE = 200


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


Cells = tuple[dict[int, Any], ...]  # per column: role → value, the answers a view asks for
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_EDIT = int(Qt.ItemDataRole.EditRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_SORT = int(SortRole)
_ID = int(IdRole)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_STATE_ORDER = {"unread": 0, "skimmed": 1, "read": 2}
_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren


class PaperTableModel(QAbstractTableModel):
    """A row's answers to every role are worked out once, when its page is fetched, and a cell is painted
    with one Python call (multiData) instead of seven data() calls: painting a screenful of rows went from
    12.8 to 7.3 ms, and each call is one more wait for the interpreter lock while a search runs."""

    titleEdited = Signal(int, str)  # paper id, new title (the window turns it into an undoable command)

    def __init__(self, library: Library, parent: Any = None):
        super().__init__(parent)
        self.library = library
        self.ids: list[int] = []
        self.scores: list[float] = []
        self._cells: dict[int, Cells] = {}
        self._row_of: dict[int, int] | None = None  # id → row, built when a batch of lookups needs it
        self.editable = not library.read_only
        editable = _FLAGS | Qt.ItemFlag.ItemIsEditable
        self._flags = [editable if c == "title" and self.editable else _FLAGS for c in COLUMNS]
        self._bold: QFont | None = None
        self._muted: QBrush | None = None

    # ---- contents ----

    def set_ids(self, ids: Sequence[int], scores: Sequence[float] = ()) -> None:
        self.beginResetModel()
        self.ids = list(ids)
        self.scores = list(scores)
        self._row_of = None  # 20 ms at 94k papers: not before a batch needs it
        self._cells.clear()
        self.endResetModel()

    def refresh(self, ids: Sequence[int]) -> None:
        """Some papers changed: refetch only those rows and say so with dataChanged."""
        rows = sorted(row for row in self._rows_of(ids) if row is not None)
        for i in ids:
            self._cells.pop(i, None)
        for row in rows:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def restyle(self) -> None:
        """The palette changed (light/dark): read rows are drawn in the new scheme's muted colour."""
        self._muted = None
        self._cells.clear()
        if self.ids:
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

    def _row(self, row: int) -> Cells | None:
        pid = self.ids[row]
        got = self._cells.get(pid)
        if got is None:
            start = max(0, row - PAGE // 4)
            page = [i for i in self.ids[start : start + PAGE] if i not in self._cells]
            if len(self._cells) > 20 * PAGE:  # bound the cache for huge libraries
                self._cells.clear()
            for i, values in self.library.rows(page).items():
                self._cells[i] = self._make_cells(*values)
            got = self._cells.get(pid)
        return got

    def _make_cells(self, title: str, venue: str, year: int | None, state: str, tags: str) -> Cells:
        cells: Cells = (
            {
                _DISPLAY: "",
                _DECORATION: state_icon(state),
                _TOOLTIP: STATE_TIP[state],
                _ALIGN: _CENTER,
                _SORT: _STATE_ORDER[state],
            },
            {_DISPLAY: title, _EDIT: title, _TOOLTIP: title, _SORT: title.casefold()},
            {_DISPLAY: venue, _SORT: venue},
            {_DISPLAY: year or "", _ALIGN: _CENTER, _SORT: year or 0},
            {_DISPLAY: tags, _SORT: tags},
        )
        if state == "unread":
            if self._bold is None:
                self._bold = QFont()
                self._bold.setBold(True)
            cells[1][_FONT] = self._bold
        elif state == "read":
            if self._muted is None:
                color = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
                self._muted = QBrush(color)
            for cell in cells:
                cell[_FOREGROUND] = self._muted
        return cells

    # ---- QAbstractTableModel ----

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.ids)

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        """One Python call per cell a view asks for: Qt's own index() asks rowCount() and columnCount(),
        two calls into Python (each a wait for the interpreter lock while a search runs)."""
        if 0 <= row < len(self.ids) and 0 <= column < len(COLUMNS) and not parent.isValid():
            return self.createIndex(row, column)
        return QModelIndex()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return HEADERS[COLUMNS[section]]
            if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section] == "state":
                return "Reading state (r read, s skimmed, u unread)"
        return None

    def _cell(self, index: Index) -> dict[int, Any]:
        """The answers of one cell, role → value (empty outside the table)."""
        row = index.row()
        cells = self._row(row) if index.isValid() and row < len(self.ids) else None
        return cells[index.column()] if cells is not None else {}

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        role = int(role)
        if role == _ID:
            return self.ids[index.row()] if index.isValid() and index.row() < len(self.ids) else None
        return self._cell(index).get(role)

    def multiData(self, index: Index, roleDataSpan: Any) -> None:
        """Every role a delegate asks for, in one call (QStyledItemDelegate asks for seven per cell). Each
        slot is set or cleared: a delegate reuses its slots from cell to cell."""
        cell = self._cell(index)
        for slot in roleDataSpan:
            value = cell.get(slot.role())
            if value is None:
                slot.clearData()
            else:
                slot.setData(value)

    def flags(self, index: Index) -> Qt.ItemFlag:
        return self._flags[index.column()] if index.isValid() else Qt.ItemFlag.NoItemFlags

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
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
        entries += [
            (label, ("state", state), counts[state])
            for label, state in (("Unread", "unread"), ("Skimmed", "skimmed"), ("Read", "read"))
        ]
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
