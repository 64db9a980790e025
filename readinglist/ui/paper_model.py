"""The paper table's model: the ids of every row in a list, and C++ items only for the rows about to be shown.

As in Anki's browser, the model holds only ids and a row's text is fetched when it is about to be shown, so
100k papers cost a list of ints, not 100k rows of text. The rows get QStandardItems just before they are
painted (`fill`, called by a PaperTableView in its own paint: paper_table.py), so painting a cell calls no
Python — each call would wait for the interpreter lock while a search runs.

A mark waiting to be saved (the library busy with an import: edit_gate.py) is shown on its row at once, in
italics and with a tooltip saying so, from what the window hands `set_waiting`; the model never writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
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
from readinglist.papers import PRIORITY_LABELS, STATE_KEYS, STATE_LABELS, STATES, Marks, TableRow, state_order
from readinglist.ui.compat import immortalize_singletons
from readinglist.ui.wording import BUSY

Index = QModelIndex | QPersistentModelIndex


def _local_date(stamp: str) -> str:
    """2025-12-01T23:30:00+00:00 → the date it was where the reader is."""
    if not stamp:
        return ""
    try:
        return datetime.fromisoformat(stamp).astimezone().date().isoformat()
    except ValueError:
        return stamp[:10]


COLUMNS = ["state", "priority", "title", "authors", "venue", "year", "tags", "added"]
HEADERS = {"state": "", "priority": "P", "title": "Title", "authors": "Authors", "venue": "Venue", "year": "Year",
           "tags": "Tags", "added": "Added"}  # fmt: skip
LABELS = HEADERS | {"state": "Reading State", "priority": "Priority"}  # what the header's menu of columns says
PRIORITY_COLOURS = {1: "#d9480f", 2: "#e8890c", 3: "#868e96"}  # 1 stands out; 3 is a reminder
TITLE = COLUMNS.index("title")
SortRole = Qt.ItemDataRole.UserRole + 1
IdRole = Qt.ItemDataRole.UserRole + 2
WaitingRole = Qt.ItemDataRole.UserRole + 3  # on each cell of a row whose marks wait to be saved: why, in words
WAITING = f"waiting to be saved: {BUSY}"  # a waiting row's tooltip


_ICONS: dict[str, QIcon] = {}


def _state_pixmap(state: str, blue: QColor, green: QColor, grey: QColor | None = None) -> QPixmap:
    pm = QPixmap(32, 32)
    pm.fill(QColor(0, 0, 0, 0))
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    grey = grey or blue
    if state == "queued":  # a ring with a play mark: up next
        p.setPen(QPen(blue, 3))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(16, 16), 9, 9)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(blue)
        p.drawPolygon([QPointF(13, 11), QPointF(21, 16), QPointF(13, 21)])
    elif state == "skipped":  # a struck-through ring: not for me
        p.setPen(QPen(grey, 3))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(16, 16), 8, 8)
        p.drawLine(QPointF(10.5, 21.5), QPointF(21.5, 10.5))
    elif state == "unread":
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
        icon = QIcon(_state_pixmap(state, QColor("#3d7be0"), QColor("#2eb872"), QColor("#8a8f98")))
        white = QColor("#ffffff")
        icon.addPixmap(_state_pixmap(state, white, white, white), QIcon.Mode.Selected)
        _ICONS[state] = icon
    return _ICONS[state]


_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_SORT = int(SortRole)
_ID = int(IdRole)
_WAITING = int(WaitingRole)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
# every role _items sets on a cell: what _set_rows copies onto a row's items in place
_ROLE = Qt.ItemDataRole
_ITEM_ROLES = (
    *(int(r) for r in (_ROLE.DisplayRole, _ROLE.DecorationRole, _ROLE.ToolTipRole, _ROLE.ForegroundRole)),
    int(_ROLE.FontRole),
    _ALIGN,
    _SORT,
    _ID,
    _WAITING,
)
_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
KEEP_FILLED = 300  # rows whose items are kept (a few screenfuls); beyond that, the rows filled longest ago are
# emptied. New results or a sort empty every filled row in one turn of the event loop (docs/performance-changes.md)


class PaperTableModel(QStandardItemModel):
    """The paper table, painted without Python: a QStandardItemModel whose rows are filled with items only
    when they are about to be shown (`fill`, called by a PaperTableView before each paint), the ids of every
    row kept in a list. Answering Qt's questions per painted cell from Python made each paint wait for the
    interpreter lock while a search ran (docs/performance-changes.md, session 4)."""

    titleEdited = Signal(int, str)  # paper id, new title (the window turns it into an undoable command)

    def __init__(self, library: Library, parent: Any = None):
        immortalize_singletons()  # every fill makes thousands of the void calls that leak None (compat.py)
        super().__init__(0, len(COLUMNS), parent)
        self.library = library
        self.ids: list[int] = []
        self.scores: list[float] = []
        self._rank: list[int] = []  # the ids in the order they came (rank order), whatever the sort
        self._filled: dict[int, None] = {}  # rows with items, in the order they were filled
        self._row_of: dict[int, int] | None = None  # id → row, built when a batch of lookups needs it
        self.editable = not library.read_only
        editable = _FLAGS | Qt.ItemFlag.ItemIsEditable
        self._flags = [editable if c == "title" and self.editable else _FLAGS for c in COLUMNS]
        self._waiting: dict[int, Marks] = {}  # paper id → its marks waiting to be saved (set_waiting)
        self._fonts: dict[tuple[bool, bool], QFont] = {}  # (bold, italic) → the font
        self._muted: QBrush | None = None
        self._priority_brushes = {n: QBrush(QColor(c)) for n, c in PRIORITY_COLOURS.items()}
        for column, name in enumerate(COLUMNS):
            header = QStandardItem(HEADERS[name])
            if name == "state":
                keys = ", ".join(f"{STATE_KEYS[s].lower()} {s}" for s in STATES)
                header.setToolTip(f"Reading state ({keys})")
            elif name == "priority":
                header.setToolTip("Priority (1 first; keys 1 2 3, 0 clears)")
            else:  # its name whole where a narrow window cuts it ("Au…")
                header.setToolTip(LABELS[name])
            self.setHorizontalHeaderItem(column, header)

    # ---- contents ----

    def set_ids(self, ids: Sequence[int], scores: Sequence[float] = ()) -> None:
        self.beginResetModel()
        self.blockSignals(True)  # one reset for the views, not a removal and an insertion of every row
        try:
            self.setRowCount(0)
            self.ids = list(ids)
            self._rank = self.ids[:]
            self.scores = list(scores)
            self._row_of = None  # not before a batch needs it
            self._filled.clear()
            self.setRowCount(len(self.ids))
        finally:
            self.blockSignals(False)
        self.endResetModel()

    def fill(self, first: int, last: int) -> None:
        """Give rows first..last (inclusive) their items, if they have none: what a view is about to show."""
        self.fill_rows(range(max(0, first), min(last, len(self.ids) - 1) + 1))

    def fill_rows(self, rows: Iterable[int]) -> None:
        """Give these rows their items, if they have none (a view through a proxy asks for scattered rows)."""
        wanted = [r for r in rows if 0 <= r < len(self.ids)]
        missing = [r for r in wanted if r not in self._filled]
        if not missing:
            return
        self._set_rows(missing)
        excess = len(self._filled) - KEEP_FILLED
        if excess > 0:  # a long scroll: the rows filled longest ago are emptied, a few at a time
            keep = set(wanted)
            self._empty([r for r in islice(self._filled, excess + len(wanted)) if r not in keep][:excess])

    @property
    def has_row_map(self) -> bool:
        """Whether an id → row map is held: it is built for a batch of lookups only (see `row_of`)."""
        return self._row_of is not None

    def _set_rows(self, rows: list[int]) -> None:
        """Give these rows their papers' values: new items where a row has none, the values set in place on
        the items a row has (replacing an item, setItem, costs hundreds of times more than setting its data
        in a model of a large library's rows: it was most of a triage key's time; figures in
        docs/performance-changes.md)."""
        values = self.library.rows([self.ids[r] for r in rows])
        self.blockSignals(True)  # called before a paint (or followed by dataChanged): no update per item
        try:
            for row in rows:
                pid = self.ids[row]
                got = values.get(pid)
                if got is None:
                    continue
                cells, waiting = TableRow(*got), self._waiting.get(pid)
                if waiting:  # as it will be once saved (set_waiting)
                    cells = cells._replace(**waiting)
                for column, new in enumerate(self._items(pid, cells, bool(waiting))):
                    item = self.item(row, column)
                    if item is None:
                        self.setItem(row, column, new)
                        continue
                    item.clearData()
                    for role in _ITEM_ROLES:
                        value = new.data(role)
                        if value is not None:
                            item.setData(value, role)
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
        """Rows whose paper changed: new values for those that had items, and say so with dataChanged."""
        self._set_rows(sorted(r for r in rows if r in self._filled))
        for row in sorted(rows):
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def refresh(self, ids: Sequence[int]) -> None:
        """Some papers changed: refetch only those rows and say so with dataChanged."""
        self._refill([row for row in self.rows_of(ids) if row is not None])

    def set_waiting(self, marks: Mapping[int, Marks]) -> None:
        """The marks waiting to be saved, by paper (EditGate.marks): their rows show them now, marked as not
        yet saved; rows no longer in `marks` show the library's values again."""
        new = dict(marks)
        changed = [pid for pid in new.keys() | self._waiting.keys() if new.get(pid) != self._waiting.get(pid)]
        self._waiting = new
        if changed:
            self.refresh(changed)

    def remove_ids(self, ids: Sequence[int]) -> list[int]:
        """Take these papers' rows out (removed from the library); returns the rows they were at, ascending."""
        gone = sorted(r for r in self.rows_of(ids) if r is not None)
        blocks: list[tuple[int, int]] = []  # (first row, count), contiguous
        for row in gone:
            if blocks and blocks[-1][0] + blocks[-1][1] == row:
                blocks[-1] = (blocks[-1][0], blocks[-1][1] + 1)
            else:
                blocks.append((row, 1))
        for first, count in reversed(blocks):
            self.removeRows(first, count)  # the views hear of it, and the selection follows
            del self.ids[first : first + count]
            if self.scores:
                del self.scores[first : first + count]
            self._filled = {
                (r if r < first else r - count): None for r in self._filled if not first <= r < first + count
            }
        self._row_of = None
        return gone

    def restyle(self) -> None:
        """The palette changed (light/dark): read rows are drawn in the new scheme's muted colour."""
        self._muted = None
        if self.ids:
            self._set_rows(list(self._filled))
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.ids) - 1, len(COLUMNS) - 1))

    def row_of(self, paper_id: int) -> int | None:
        """A scan in C unless a map was built for a batch: building the map costs far more than one scan,
        and marking papers one key at a time never needs it."""
        if self._row_of is not None:
            return self._row_of.get(paper_id)
        try:
            return self.ids.index(paper_id)
        except ValueError:
            return None

    def rows_of(self, ids: Sequence[int]) -> list[int | None]:
        """The rows of several ids: over 16 build the id → row map once, fewer are scanned for."""
        if len(ids) > 16 and self._row_of is None:
            self._row_of = {pid: row for row, pid in enumerate(self.ids)}
        return [self.row_of(i) for i in ids]

    def shown(self, ids: Sequence[int]) -> list[int]:
        """Those of `ids` that are rows of the table."""
        return [pid for pid, row in zip(ids, self.rows_of(ids), strict=True) if row is not None]

    def id_at(self, row: int) -> int | None:
        return self.ids[row] if 0 <= row < len(self.ids) else None

    def _font(self, bold: bool, italic: bool) -> QFont:
        if (bold, italic) not in self._fonts:
            font = QFont()
            font.setBold(bold)
            font.setItalic(italic)
            self._fonts[bold, italic] = font
        return self._fonts[bold, italic]

    def _items(self, pid: int, cells: TableRow, waiting: bool = False) -> list[QStandardItem]:
        """A row's items; `waiting`: its marks wait to be saved (italics, and a tooltip saying so)."""
        title, venue, year, state, tags = cells.title, cells.venue, cells.year, cells.state, cells.tags
        priority, authors, added = cells.priority, cells.authors, _local_date(cells.added)
        state_item = QStandardItem(state_icon(state), "")
        state_item.setToolTip(STATE_LABELS[state])
        state_item.setData(_CENTER, _ALIGN)
        state_item.setData(state_order(state), _SORT)
        state_item.setData(pid, _ID)
        priority_item = QStandardItem(PRIORITY_LABELS.get(priority, "") if priority else "")
        priority_item.setData(_CENTER, _ALIGN)
        priority_item.setData(priority or 9, _SORT)
        if priority:
            priority_item.setForeground(self._priority_brushes[priority])
            priority_item.setToolTip(f"Priority {priority}")
        title_item = QStandardItem(title)  # the full title shows as a tooltip where it is cut off (paper_table.py)
        title_item.setData(title.casefold(), _SORT)
        venue_item = QStandardItem(venue)
        venue_item.setData(venue, _SORT)
        year_item = QStandardItem(str(year) if year else "")
        year_item.setData(_CENTER, _ALIGN)
        year_item.setData(year or 0, _SORT)
        tags_item = QStandardItem(tags)
        tags_item.setData(tags, _SORT)
        authors_item = QStandardItem(authors)
        authors_item.setData(authors, _SORT)
        added_item = QStandardItem(added)
        added_item.setData(_CENTER, _ALIGN)
        added_item.setData(pid, _SORT)
        by_name = {"state": state_item, "priority": priority_item, "title": title_item, "authors": authors_item,
                   "venue": venue_item, "year": year_item, "tags": tags_item, "added": added_item}  # fmt: skip
        items = [by_name[c] for c in COLUMNS]
        for item, flags in zip(items, self._flags, strict=True):
            item.setFlags(flags)
        if waiting:
            for item in items:
                item.setData(WAITING, _WAITING)
                item.setFont(self._font(item is title_item and state == "unread", True))
        elif state == "unread":
            title_item.setFont(self._font(True, False))
        if state in ("read", "skipped"):  # done with, either way
            if self._muted is None:
                color = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
                self._muted = QBrush(color)
            for item in items:
                if item is not priority_item or not priority:
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
        if self.ids:
            self._reorder(self.library.ordered_ids(COLUMNS[column], order == Qt.SortOrder.DescendingOrder))

    def sort_by_rank(self) -> None:
        """Back to the order the results came in: rank order for a query, library order without one."""
        if self.ids:
            self._reorder(self._rank)

    def _reorder(self, ordered: Sequence[int]) -> None:
        """Show the rows in this order of ids (ids not shown are skipped); the current and selected rows follow."""
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        old_ids = [self.ids[i.row()] if i.isValid() else None for i in persistent]
        before = self.ids
        shown = set(before)
        self.ids = [i for i in ordered if i in shown]
        if len(self.ids) < len(before):  # a paper the order lacks (never expected): kept, at the end
            listed = set(self.ids)
            self.ids += [i for i in before if i not in listed]
        score = dict(zip(before, self.scores, strict=False))
        self.scores = [score[i] for i in self.ids] if self.scores else []
        self._row_of = None  # the rows moved; a map is built again only for a batch
        self._empty(list(self._filled))  # their items are in the old order; refilled before the next paint
        kept = [pid for pid in old_ids if pid is not None]
        new_rows = dict(zip(kept, self.rows_of(kept), strict=True))
        for index, pid in zip(persistent, old_ids, strict=True):
            if pid is not None:
                row = new_rows[pid]
                self.changePersistentIndex(index, self.index(row, index.column()) if row is not None else QModelIndex())
        self.layoutChanged.emit()
