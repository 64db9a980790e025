"""The paper table pane: the view that paints the model, and the controller that owns the current paper.

The view gives the rows it is about to paint their items itself, just before it paints (so a second view,
or one through a proxy model, paints filled cells too), and flags each paint so that a search on another
thread makes way.
The controller, `PaperTable`, is the one owner of which paper is current — the paper at the view's current
row — and the other panes follow its `currentPaperChanged`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QWidget

from readinglist.library import Library
from readinglist.papers import SearchResult
from readinglist.ui.paint_gate import PaintGate
from readinglist.ui.paper_model import COLUMNS, TITLE, PaperTableModel


def empty_text(library_empty: bool, query: str, view: str | None) -> str:
    """What an empty table says: why it is empty (the library, the query, the sidebar's filter — `view`
    says its papers in words, "unread papers tagged “rl”", None for all), and what to do, as links the
    window follows (import, clear, all)."""
    if library_empty:
        return "Your library is empty.<br><a href='import'>Import papers…</a> or drop files here."
    if query:
        where = f" among the {html.escape(view)}" if view else ""
        return f"No papers match “{html.escape(query)}”{where} — <a href='clear'>clear the search</a>"
    if view:
        return f"No {html.escape(view)}. <a href='all'>Show all papers</a>"
    return "No papers."


def paper_model(model: QAbstractItemModel | None) -> PaperTableModel | None:
    """The PaperTableModel a view shows, directly or through proxy models."""
    while isinstance(model, QAbstractProxyModel):
        model = model.sourceModel()
    return model if isinstance(model, PaperTableModel) else None


class _ViewportFilter(QObject):
    """The view's own filter on its viewport: before each paint the rows are filled and the paint flagged;
    on a resize the empty-table message takes the viewport's size.

    Not a paintEvent override: that would run the whole C++ paint inside a Python call, holding the
    interpreter lock throughout, and a repaint beside a busy search thread measured slower that way
    (docs/performance-changes.md). Here Python returns before the paint begins, as before the split."""

    def __init__(self, view: PaperTableView, gate: PaintGate | None):
        super().__init__(view)
        self._view = view
        self._gate = gate
        self._paint_over = (lambda: gate.painting(False)) if gate is not None else None

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            if self._gate is not None and self._paint_over is not None:  # a search waits until it is over
                self._gate.painting(True)
                QTimer.singleShot(0, self._paint_over)
            self._view.fill_visible()
        elif event.type() == QEvent.Type.Resize:
            self._view.emptyLabel.resize(self._view.viewport().size())
        return False


class PaperTableView(QTableView):
    """A view of a PaperTableModel (directly or through proxies) that gives the rows it is about to paint
    their items just before it paints them, and flags each paint to the gate so that a search on another thread makes
    way (paint_gate.py). Home/End (and Ctrl+Home/End) select the first/last paper: Qt moved to the first/last
    column of the row-selecting table, and Ctrl+End moved the current paper while the selection (what r/s/u
    and tags act on) stayed behind. An empty table says why, and what to do, in `emptyLabel`."""

    def __init__(self, model: QAbstractItemModel, gate: PaintGate | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.DoubleClicked)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(TITLE, QHeaderView.ResizeMode.Stretch)
        for col, width in (("state", 28), ("priority", 30), ("venue", 90), ("year", 50), ("tags", 130)):
            header.resizeSection(COLUMNS.index(col), width)
        self.emptyLabel = QLabel(self.viewport())
        self.emptyLabel.setObjectName("emptyLabel")
        self.emptyLabel.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.emptyLabel.setWordWrap(True)
        self.emptyLabel.setTextFormat(Qt.TextFormat.RichText)
        self.emptyLabel.hide()
        self.viewport().installEventFilter(_ViewportFilter(self, gate))

    def fill_visible(self) -> None:
        """The rows about to be painted get their items (the model keeps only those of rows shown)."""
        first = self.rowAt(0)
        if first < 0:
            return
        model = self.model()
        last = self.rowAt(self.viewport().height() - 1)
        last = last if last >= 0 else model.rowCount() - 1
        if isinstance(model, PaperTableModel):
            model.fill(first, last)
            return
        indexes = [model.index(row, 0) for row in range(first, last + 1)]
        while isinstance(model, QAbstractProxyModel):
            indexes = [model.mapToSource(i) for i in indexes]
            model = model.sourceModel()
        if isinstance(model, PaperTableModel):
            model.fill_rows(sorted(i.row() for i in indexes if i.isValid()))

    def select_row(self, row: int) -> None:
        """Make `row` current and the only row selected, and show it."""
        index = self.model().index(row, TITLE)
        self.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.scrollTo(index)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if key in (Qt.Key.Key_Home, Qt.Key.Key_End) and mods in (
            Qt.KeyboardModifier.NoModifier,
            Qt.KeyboardModifier.ControlModifier,
        ):
            rows = self.model().rowCount()
            if rows:
                self.select_row(0 if key == Qt.Key.Key_Home else rows - 1)
            event.accept()
            return
        super().keyPressEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        """Light/dark: the muted colour of read papers is baked into the model's items."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and (model := paper_model(self.model())) is not None:
            model.restyle()


class PaperTable(QObject):
    """The table pane's controller: the results shown, their order, the selection, and the one current
    paper (`current_id`, the paper at the view's current row), announced by `currentPaperChanged`."""

    currentPaperChanged = Signal(object)  # int | None; emitted as the table moves, before anything renders
    selectionChanged = Signal()
    scrolled = Signal()
    titleEdited = Signal(int, str)
    emptyLinkActivated = Signal(str)

    def __init__(self, library: Library, gate: PaintGate | None, parent: QWidget):
        super().__init__(parent)
        self.model = PaperTableModel(library, self)
        self.view = PaperTableView(self.model, gate, parent)
        self.view.setObjectName("paperTable")
        self._wanted: int | None = None  # a paper asked for that the results lack: current once results land
        self.model.titleEdited.connect(self.titleEdited)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._sort_changed)
        self.view.selectionModel().currentRowChanged.connect(self._current_row_changed)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self.selectionChanged.emit())
        self.view.verticalScrollBar().valueChanged.connect(lambda _value: self.scrolled.emit())
        self.view.emptyLabel.linkActivated.connect(self.emptyLinkActivated)

    # ---- the current paper and the selection ----

    @property
    def current_id(self) -> int | None:
        current = self.view.currentIndex()
        return self.model.id_at(current.row()) if current.isValid() else None

    def _current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.currentPaperChanged.emit(self.model.id_at(current.row()) if current.isValid() else None)

    def selected_rows(self) -> list[int]:
        """The rows selected, in order, read from the selection's ranges: selectedRows() makes a Python
        index per row, which took 40 ms for the 36k papers of an area selected on the 94k map."""
        rows: set[int] = set()
        selection = self.view.selectionModel().selection()
        for i in range(selection.count()):
            block = selection.at(i)
            rows.update(range(block.top(), block.bottom() + 1))
        return sorted(rows)

    def selected_ids(self) -> list[int]:
        """What r/s/u and tags act on: the selected papers, else the current one."""
        ids = [pid for r in self.selected_rows() if (pid := self.model.id_at(r)) is not None]
        if not ids and (current := self.current_id) is not None:
            ids = [current]
        return ids

    def selected_count(self) -> int:
        return len(self.selected_rows())

    def select_row(self, row: int | None) -> None:
        """Make the paper at `row` current, the only one selected; no such row: no paper is current."""
        if row is not None and 0 <= row < self.model.rowCount():
            self.view.select_row(row)
        elif self.view.currentIndex().isValid():
            self.view.selectionModel().clear()  # announced by currentRowChanged
        else:
            self.currentPaperChanged.emit(None)

    def move(self, step: int) -> None:
        current = self.view.currentIndex()
        row = (current.row() if current.isValid() else -1) + step
        if 0 <= row < self.model.rowCount():
            self.view.select_row(row)

    def go_to(self, paper_id: int) -> bool:
        """Select the paper if the results hold it; else it becomes current when the next results land, and
        False says the caller should show more."""
        row = self.model.row_of(paper_id)
        if row is None:
            self._wanted = paper_id
            return False
        self.view.select_row(row)
        return True

    def edit_title(self) -> None:
        pid = self.current_id
        if not self.model.editable or pid is None:
            return
        row = self.model.row_of(pid)
        if row is not None:
            index = self.model.index(row, TITLE)
            self.view.setFocus()
            self.view.setCurrentIndex(index)
            self.view.edit(index)

    # ---- contents ----

    def show_results(self, result: SearchResult, same_query: bool) -> None:
        """New results, in the order the header asks for. The paper asked for (`go_to`), else the current one,
        stays current if they hold it, else the first; a refresh of the same query keeps the scroll position."""
        keep = self._wanted if self._wanted is not None else self.current_id
        self._wanted = None
        scroll = self.view.verticalScrollBar().value()
        self.model.set_ids(result.ids, result.scores)
        header = self.view.horizontalHeader()
        if 0 <= header.sortIndicatorSection() < len(COLUMNS):
            self.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        row = self.model.row_of(keep) if keep is not None else None
        self.select_row(row if row is not None else 0)
        if row is not None and same_query:
            self.view.verticalScrollBar().setValue(scroll)

    def refresh(self, ids: Sequence[int]) -> None:
        self.model.refresh(ids)

    def show_empty(self, text: str | None) -> None:
        """Say why the table is empty and what to do (rich text with links), or hide the message (None)."""
        label = self.view.emptyLabel
        if text is None:
            label.hide()
            return
        label.setText(text)
        label.resize(self.view.viewport().size())
        label.show()

    def _sort_changed(self, section: int, order: Qt.SortOrder) -> None:
        """The current paper and the selection stay what they were: a sort empties the rows' items, and
        Qt lets go of the current index and the selection held on them (the keys then acted on nothing)."""
        if 0 <= section < len(COLUMNS):
            keep = self.current_id
            selected = self.selected_ids() if self.selected_count() > 1 else []
            self.model.sort(section, order)
            row = self.model.row_of(keep) if keep is not None else None
            if row is not None:
                self.view.select_row(row)
            rows = [r for r in self.model.shown(selected) if r != keep]
            if rows:
                flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
                for pid in rows:
                    if (r := self.model.row_of(pid)) is not None:
                        self.view.selectionModel().select(self.model.index(r, 0), flags)
