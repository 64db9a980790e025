"""The paper table pane: the view that paints the model, and the controller that owns the current paper.

The view gives the rows it is about to paint their items itself, just before it paints (so a second view,
or one through a proxy model, paints filled cells too), and flags each paint so that a search on another
thread makes way.
The controller, `PaperTable`, is the one owner of which paper is current — the paper at the view's current
row — and the other panes follow its `currentPaperChanged`. Keys typed in the table are its own: the letter
keys that act on papers (`add_key_action`) fire only while the table has focus and no editor is open, and any
other printable key goes to the search field (`typed`). Title takes the width the other columns leave; the
header's context menu shows and hides columns; a cell whose text is cut off shows all of it as a tooltip.

Over 400 lines: the view and its controller share the selection, the sort and the key handling; the model
is paper_model.py.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractProxyModel,
    QByteArray,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QFont, QFontMetrics, QHelpEvent, QKeyEvent, QMouseEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QMenu, QTableView, QToolTip, QWidget

from readinglist.library import Library
from readinglist.papers import SearchResult
from readinglist.ui.paint_gate import PaintGate
from readinglist.ui.paper_model import COLUMNS, LABELS, TITLE, IdRole, PaperTableModel, WaitingRole
from readinglist.ui.wording import quoted

HIDDEN_AT_FIRST = ("tags", "added")  # the title gets the room; the header's menu shows them
# the share of the table's width the title keeps when the table narrows (a small window): the other columns give
# way, down to SQUEEZED_MIN pixels each, and get their widths back as it widens
TITLE_ROOM = 0.4
SQUEEZED_MIN = 40
# the columns that may have no value for any paper shown (the bundled corpus names no authors): such a column
# keeps only its header's width, and the title gets the rest (an empty Authors column took 170 px at 1280 wide)
MAY_BE_EMPTY = ("authors", "venue", "year", "tags")
TEXT_MARGIN = 4  # pixels either side of a cell's text (Fusion draws 3, and a cut-off guess errs towards a tip)


def navigation_step(event: QMouseEvent) -> int:
    """-1 for the mouse's Back button, +1 for Forward, 0 for any other."""
    return {Qt.MouseButton.BackButton: -1, Qt.MouseButton.ForwardButton: 1}.get(event.button(), 0)


def empty_text(library_empty: bool, query: str, view: str | None, unreadable: bool = False) -> str:
    """What an empty table says: why it is empty (the library, the query — `unreadable` if it cannot be
    parsed —, the sidebar's filter — `view` says its papers in words, "unread papers tagged “rl”", None for
    all), and what to do, as links the window follows (import, clear, all)."""
    import html  # (not before the first paint: a library's first paint has papers)

    if library_empty:
        return "Your library is empty.<br><a href='import'>Import papers…</a> or drop files here."
    shown = html.escape(quoted(query))
    if query and unreadable:
        return f"{shown} cannot be searched (see under the search field) — <a href='clear'>clear the search</a>"
    if query:
        where = f" among the {html.escape(view)}" if view else ""
        return f"No papers match {shown}{where} — <a href='clear'>clear the search</a>"
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
            self._view.emptyLabel.setGeometry(self._view.viewport().rect())
        elif event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            return self._view.tool_tip(event)
        return False


def _own_viewport(view: QAbstractItemView) -> QWidget:
    """A viewport made here, as the view's own is made (its name, the Base colour filled in): Python knows its
    type. Handing Python the viewport Qt made (a QWidget of a type it has not seen) makes PySide create every
    widget class of QtWidgets with all their enums, to find the object's type among them — a start-up cost
    that no part of the window needs before its first paint."""
    viewport = QWidget(view)
    viewport.setObjectName("qt_scrollarea_viewport")
    viewport.setBackgroundRole(QPalette.ColorRole.Base)
    viewport.setAutoFillBackground(True)
    return viewport


class PaperTableView(QTableView):
    """A view of a PaperTableModel (directly or through proxies) that gives the rows it is about to paint
    their items just before it paints them, and flags each paint to the gate so that a search on another thread makes
    way (paint_gate.py). Home/End (and Ctrl+Home/End) select the first/last paper: Qt moved to the first/last
    column of the row-selecting table, and Ctrl+End moved the current paper while the selection (what r/s/u
    and tags act on) stayed behind. An empty table says why, and what to do, in `emptyLabel`."""

    typed = Signal(str)  # a printable key that is no shortcut: the reader is typing a search
    navigate = Signal(int)  # the mouse's Back (-1) or Forward (+1) button
    columnsChosen = Signal()  # the reader showed or hid a column: from now on the columns are theirs

    def __init__(self, model: QAbstractItemModel, gate: PaintGate | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setViewport(_own_viewport(self))
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
        header.setSectionsMovable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setSortIndicatorClearable(True)  # a third click on a header goes back to rank order
        header.setStretchLastSection(False)
        # a column squeezed by a narrow window says "Au…", not "utho" (a header's text is not cut by default);
        # each header's tooltip names it whole
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(lambda pos: self.header_menu().exec(header.mapToGlobal(pos)))
        self.header_actions: list[QAction] = []  # on top of the header's menu (the window's Relevance order)
        fm = self.fontMetrics()
        widths = {"state": 28, "priority": 30, "authors": fm.horizontalAdvance("Vaswani, Shazeer, … (12)") + 16,
                  "venue": fm.horizontalAdvance("NeurIPS") + 24, "year": fm.horizontalAdvance("2026") + 22,
                  "tags": fm.horizontalAdvance("reading group") + 16,
                  "added": fm.horizontalAdvance("2026-12-31") + 22}  # fmt: skip
        for col, width in widths.items():
            header.resizeSection(COLUMNS.index(col), width)
        for col in HIDDEN_AT_FIRST:
            header.setSectionHidden(COLUMNS.index(col), True)
        self._wanted: dict[int, int] = {}  # the other columns' widths, as set or dragged (see fit_title)
        self._empty: set[int] = set()  # the columns no paper shown has a value for (see set_empty_columns)
        self._squeezing = False
        header.sectionResized.connect(self._section_resized)
        self.fit_columns()
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.emptyLabel = QLabel(self.viewport())
        self.emptyLabel.setObjectName("emptyLabel")
        self.emptyLabel.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.emptyLabel.setWordWrap(True)
        self.emptyLabel.setTextFormat(Qt.TextFormat.RichText)
        self.emptyLabel.hide()
        self.viewport().installEventFilter(_ViewportFilter(self, gate))

    # ---- columns ----

    def fit_columns(self) -> None:
        """The title takes the width the other columns leave, and is always shown (also after a layout of
        the header saved by another version is restored)."""
        header = self.horizontalHeader()
        header.setSectionHidden(TITLE, False)
        for column in range(len(COLUMNS)):
            mode = QHeaderView.ResizeMode.Stretch if column == TITLE else QHeaderView.ResizeMode.Interactive
            header.setSectionResizeMode(column, mode)
        header.setSectionResizeMode(COLUMNS.index("state"), QHeaderView.ResizeMode.Fixed)
        self._wanted = {
            c: header.sectionSize(c)
            for c in range(len(COLUMNS))
            if c != TITLE and header.sectionResizeMode(c) == QHeaderView.ResizeMode.Interactive
        }
        self.fit_title()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_title()

    def _section_resized(self, column: int, _old: int, new: int) -> None:
        if not self._squeezing and column in self._wanted:
            self._wanted[column] = new  # the reader dragged it: the width to keep, and to give back

    def set_empty_columns(self, columns: set[int]) -> None:
        """These columns have no value for any paper shown: each keeps only its header's width (its name), and
        the title gets the rest, until a paper shown has a value for it."""
        if columns != self._empty:
            self._empty = set(columns)
            self.fit_title()

    def empty_columns(self) -> set[int]:
        return set(self._empty)

    def fit_title(self) -> None:
        """The title keeps TITLE_ROOM of the width: the other columns shrink in proportion when the table is
        narrow, rather than the title to nothing, and get their widths back as it widens. A column with no
        value to show is as wide as its header's name, at most, and squeezed to a sliver."""
        header = self.horizontalHeader()
        width = self.viewport().width()
        shown = {
            c: min(w, header.sectionSizeHint(c)) if c in self._empty else w
            for c, w in self._wanted.items()
            if not header.isSectionHidden(c)
        }
        if width <= 0 or not shown or not self.isVisible():  # (before the first show its width means nothing)
            return
        fixed = sum(header.sectionSize(c) for c in range(len(COLUMNS))
                    if c != TITLE and c not in self._wanted and not header.isSectionHidden(c))  # fmt: skip
        room = width - fixed - int(width * TITLE_ROOM)
        if sum(shown.values()) > room:  # squeezed: an empty column gives way first, to a sliver (its name is in
            sliver = header.minimumSectionSize()  # its header's tooltip), then the others in proportion
            shown = {c: min(w, sliver) if c in self._empty else w for c, w in shown.items()}
        floors = {c: min(w, SQUEEZED_MIN) for c, w in shown.items()}
        above = sum(shown.values()) - sum(floors.values())  # what the columns can give, down to their floors
        spare = room - sum(floors.values())
        scale = 1.0 if spare >= above or not above else max(spare, 0) / above
        self._resize_sections({c: floors[c] + int((w - floors[c]) * scale) for c, w in shown.items()})

    def _resize_sections(self, sizes: dict[int, int]) -> None:
        """Set these columns' widths as the layout's, not the reader's (not remembered as wanted)."""
        header = self.horizontalHeader()
        self._squeezing = True
        try:
            for c, size in sizes.items():
                if header.sectionSize(c) != size:
                    header.resizeSection(c, size)
        finally:
            self._squeezing = False

    def header_state(self) -> QByteArray:
        """The header's layout to keep (QSettings), with the columns at the widths the reader gave them, not
        as squeezed for a narrow window."""
        self._resize_sections(self._wanted)
        state = self.horizontalHeader().saveState()
        self.fit_title()
        return state

    def column_menu(self) -> QMenu:
        """The header's context menu: a check for every column but the title."""
        header = self.horizontalHeader()
        menu = QMenu(self)
        menu.setObjectName("columnsMenu")
        for column, name in enumerate(COLUMNS):
            if column == TITLE:
                continue
            action = QAction(LABELS[name], menu, checkable=True)
            action.setObjectName(f"column-{name}")
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(partial(self._show_column, column))
            menu.addAction(action)
        return menu

    def header_menu(self) -> QMenu:
        """The header's context menu: `header_actions`, then the columns' checks."""
        menu = self.column_menu()
        if self.header_actions:
            first = menu.actions()[0] if menu.actions() else None
            menu.insertActions(first, self.header_actions)  # type: ignore[arg-type]
            menu.insertSeparator(first)  # type: ignore[arg-type]
        return menu

    def _show_column(self, column: int, on: bool) -> None:
        self.horizontalHeader().setSectionHidden(column, not on)
        self.fit_title()
        self.columnsChosen.emit()

    def tool_tip(self, event: QHelpEvent) -> bool:
        """A cell's tooltip: all of its text where it is cut off, the whole author list, the state's name;
        nothing where the cell shows it all. A row whose marks wait to be saved says so in every cell."""
        index = self.indexAt(event.pos())
        tip = ""
        if index.isValid():
            column = COLUMNS[index.column()] if index.column() < len(COLUMNS) else ""
            text = str(index.data() or "")
            if column == "state":
                tip = str(index.data(Qt.ItemDataRole.ToolTipRole) or "")
            elif column == "authors" and text and (text.endswith(")") or self._cut_off(index, text)):
                tip = self._all_authors(index) or text
            elif text and self._cut_off(index, text):
                tip = text
            if waiting := index.data(WaitingRole):  # a mark shown before it is saved
                tip = f"{tip} — {waiting}" if tip else str(waiting)[:1].upper() + str(waiting)[1:]
        if not tip:
            QToolTip.hideText()
            event.ignore()
            return True
        shown = "\n".join(textwrap.wrap(tip, 100)) or tip  # plain text: Qt wraps rich text in a narrow column
        QToolTip.showText(event.globalPos(), shown, self.viewport(), self.visualRect(index))
        return True

    def _cut_off(self, index: QModelIndex, text: str) -> bool:
        font = index.data(Qt.ItemDataRole.FontRole)
        metrics = QFontMetrics(font) if isinstance(font, QFont) else self.fontMetrics()
        return metrics.horizontalAdvance(text) > self.visualRect(index).width() - 2 * TEXT_MARGIN

    def _all_authors(self, index: QModelIndex) -> str:
        model = paper_model(self.model())
        pid = index.siblingAtColumn(0).data(IdRole)
        paper = model.library.paper(int(pid)) if model is not None and pid is not None else None
        return ", ".join(paper.authors) if paper is not None else ""

    def fill_visible(self) -> None:
        """The rows about to be painted get their items (the model keeps only those of rows shown)."""
        first = self.rowAt(0)
        if first < 0:
            return
        model = self.model()
        last = self.rowAt(self.viewport().height() - 1)
        if last < 0:  # no row at the bottom (the list ends above it, or the view is being laid out): a screenful
            # at most, not every row to the end of a large library
            fits = self.viewport().height() // max(1, self.verticalHeader().defaultSectionSize()) + 1
            last = min(model.rowCount() - 1, first + fits)
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

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if step := navigation_step(event):
            self.navigate.emit(step)
            event.accept()
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        text = event.text()
        if (
            text
            and text.isprintable()
            and not text.isspace()
            and not mods & ~Qt.KeyboardModifier.ShiftModifier
            and self.state() != QAbstractItemView.State.EditingState
        ):
            self.typed.emit(text)  # not QTableView's jump to a row starting with it
            event.accept()
            return
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
    # the reader clicked a paper or pressed Enter on it: chose it, though it was current already (the first
    # result of a title searched): the window keeps it current when the results change (MainWindow._chosen)
    chosen = Signal(int)
    contextMenuRequested = Signal(QPoint)  # global position, over a paper (made current) or not
    typed = Signal(str)  # a printable key that is no shortcut, typed in the table
    navigate = Signal(int)  # the mouse's Back (-1) or Forward (+1) button over the table
    orderChanged = Signal()  # a column's sort or rank order came into force (see `sort_column`)

    def __init__(self, library: Library, gate: PaintGate | None, parent: QWidget):
        super().__init__(parent)
        self._new_results = False  # rank order is being put back for new results: no reorder of the old
        # no results shown yet: the first are the last session's query again, which a sort restored with the
        # header was made on (it stays, as a refresh's does)
        self._shown_any = False
        self.model = PaperTableModel(library, self)
        self.view = PaperTableView(self.model, gate, parent)
        self.view.setObjectName("paperTable")
        # Tab leaves the list for the next pane, as in a file list: Qt's table moved the current cell instead,
        # and at the row's end the current paper, out of the selection that keys act on
        self.view.setTabKeyNavigation(False)
        self.key_actions: list[QAction] = []
        self.model.titleEdited.connect(self.titleEdited)
        self.view.typed.connect(self.typed)
        self.view.navigate.connect(self.navigate)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.view.horizontalHeader().sortIndicatorChanged.connect(self._sort_changed)
        self.view.selectionModel().currentRowChanged.connect(self._current_row_changed)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.view.verticalScrollBar().valueChanged.connect(lambda _value: self.scrolled.emit())
        self.view.emptyLabel.linkActivated.connect(self.emptyLinkActivated)
        self.view.pressed.connect(self._chosen)
        self.view.activated.connect(self._chosen)
        self.view.columnsChosen.connect(self.fit_empty_columns)  # a column shown may have nothing to show

    def add_key_action(self, action: QAction) -> QAction:
        """A key that acts on papers only where it cannot be text: while the table has focus and no editor is
        open (a shortcut of the view's own). Menus still show it and trigger it from anywhere."""
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.view.addAction(action)
        self.key_actions.append(action)
        return action

    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if index.isValid() and not self.view.selectionModel().isRowSelected(index.row(), QModelIndex()):
            self.view.select_row(index.row())  # a click on a paper outside the selection acts on that paper
        self.contextMenuRequested.emit(self.view.viewport().mapToGlobal(pos))

    # ---- the current paper and the selection ----

    @property
    def current_id(self) -> int | None:
        current = self.view.currentIndex()
        return self.model.id_at(current.row()) if current.isValid() else None

    def _chosen(self, index: QModelIndex) -> None:
        pid = self.model.id_at(index.row()) if index.isValid() else None
        if pid is not None:
            self.chosen.emit(pid)

    def _current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.currentPaperChanged.emit(self.model.id_at(current.row()) if current.isValid() else None)

    def _selection_changed(self, *_: object) -> None:
        """The current paper is one the selection holds: a Ctrl+click let go of the current paper, and the
        detail pane went on showing it while the state buttons acted on the papers still selected (a new
        user's trial). The selected paper nearest to it is current instead."""
        selection = self.view.selectionModel()
        current = self.view.currentIndex()
        if current.isValid() and selection.hasSelection() and not selection.isRowSelected(current.row(), QModelIndex()):
            nearest = min(self.selected_rows(), key=lambda r: (abs(r - current.row()), r))
            selection.setCurrentIndex(
                self.model.index(nearest, current.column()), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        self.selectionChanged.emit()

    def selected_rows(self) -> list[int]:
        """The rows selected, in order, read from the selection's ranges: selectedRows() makes a Python
        index per row, too slow for the tens of thousands of papers of an area selected on the map."""
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
        """Select the paper if the results hold it; False if they do not."""
        row = self.model.row_of(paper_id)
        if row is None:
            return False
        self.view.select_row(row)
        return True

    def select_ids(self, ids: Sequence[int]) -> list[int]:
        """Select these papers (those the results hold), the first of them current and shown; returns them."""
        rows = sorted(r for r in self.model.rows_of(ids) if r is not None)
        if not rows:
            return []
        first = self.model.row_of(ids[0])
        first = first if first is not None else rows[0]
        self.view.select_row(first)
        selection = QItemSelection()
        start = prev = rows[0]
        for row in [*rows[1:], None]:
            if row is not None and row == prev + 1:
                prev = row
                continue
            selection.select(self.model.index(start, 0), self.model.index(prev, len(COLUMNS) - 1))
            if row is not None:
                start = prev = row
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        self.view.selectionModel().select(selection, flags)
        return [pid for r in rows if (pid := self.model.id_at(r)) is not None]

    def clear_current(self) -> None:
        """No paper current or selected (the detail pane shows one the results lack)."""
        self.select_row(None)

    def remove(self, ids: Sequence[int]) -> None:
        """These papers left the library: their rows go, and the paper after them is current."""
        had = self.current_id in ids
        rows = self.model.remove_ids(ids)
        if had and rows:
            self.select_row(min(rows[0], self.model.rowCount() - 1) if self.model.rowCount() else None)

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

    def show_results(
        self, result: SearchResult, same_query: bool, keep: int | None = None, first: bool = False
    ) -> bool:
        """New results: a new query in rank order (a column's sort applies to the query it was made on), the
        same query again (a refresh) in the order shown. `keep` (else the current paper, unless `first`)
        stays current if they hold it, else the first is; a refresh of the same query keeps the scroll
        position, but a current paper that was in sight stays in sight: a re-rank of the Suggested order moved
        it elsewhere, and a restart on a paper far down showed it with no row of it to be seen (a user trial).
        Returns whether `keep` was among them."""
        keep = keep if keep is not None or first else self.current_id
        scroll = self.view.verticalScrollBar().value()
        in_sight = keep is not None and keep == self.current_id and self._in_sight(self.view.currentIndex().row())
        header = self.view.horizontalHeader()
        reset = not same_query and self._shown_any and self.sort_column is not None
        self._shown_any = True
        if reset:  # a column's sort applies to the query it was made on: a new query comes in rank order
            self._new_results = True
            try:
                header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            finally:
                self._new_results = False
        self.model.set_ids(result.ids, result.scores)
        self.fit_empty_columns()
        if self.sort_column is not None:
            self.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        row = self.model.row_of(keep) if keep is not None else None
        self.select_row(row if row is not None else 0)
        if row is not None and same_query:
            self.view.verticalScrollBar().setValue(scroll)
            if in_sight:
                self.view.scrollTo(self.model.index(row, TITLE))  # (nothing moves if it is in sight still)
        if reset:
            self.orderChanged.emit()
        return row is not None

    def _in_sight(self, row: int) -> bool:
        """Is some of this row in the table's viewport?"""
        rect = self.view.visualRect(self.model.index(row, TITLE))
        return rect.isValid() and rect.intersects(self.view.viewport().rect())

    @property
    def sort_column(self) -> str | None:
        """The column the rows are sorted by, or None for the order the results came in (rank order for a
        query, library order without one)."""
        section = self.view.horizontalHeader().sortIndicatorSection()
        return COLUMNS[section] if 0 <= section < len(COLUMNS) else None

    @property
    def sort_descending(self) -> bool:
        return self.view.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder

    def sort_by_rank(self) -> None:
        """Back to rank order (library order without a query): no column's sort indicator."""
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)

    def refresh(self, ids: Sequence[int]) -> None:
        self.model.refresh(ids)
        empty = self._empty_names()
        if empty:  # a paper edited may have a value for a column that had none (a first tag)
            still = self.model.library.empty_columns(self.model.shown(ids), empty)
            self.view.set_empty_columns({COLUMNS.index(name) for name in still})

    def _empty_names(self) -> list[str]:
        return [COLUMNS[c] for c in sorted(self.view.empty_columns())]

    def fit_empty_columns(self) -> None:
        """Find which columns shown have no value for any paper shown: they give their room to the title."""
        header = self.view.horizontalHeader()
        names = [name for name in MAY_BE_EMPTY if not header.isSectionHidden(COLUMNS.index(name))]
        empty = self.model.library.empty_columns(self.model.ids, names) if names and self.model.ids else set()
        self.view.set_empty_columns({COLUMNS.index(name) for name in empty})

    def show_empty(self, text: str | None) -> None:
        """Say why the table is empty and what to do (rich text with links), or hide the message (None)."""
        label = self.view.emptyLabel
        if text is None:
            label.hide()
            return
        label.setText(text)
        # placed, not only sized: a scroll moves the viewport's children, and the rows' going (a table scrolled
        # down, then a query with no match) scrolled it up without moving it back, above the viewport's top
        label.setGeometry(self.view.viewport().rect())
        label.show()

    def _sort_changed(self, section: int, order: Qt.SortOrder) -> None:
        """The current paper and the selection stay what they were: a sort empties the rows' items, and
        Qt lets go of the current index and the selection held on them (the keys then acted on nothing).
        No column (a third click on its header, Relevance): back to the order the results came in."""
        if self._new_results:
            return
        keep = self.current_id
        selected = self.selected_ids() if self.selected_count() > 1 else []
        if 0 <= section < len(COLUMNS):
            self.model.sort(section, order)
        else:
            self.model.sort_by_rank()
        row = self.model.row_of(keep) if keep is not None else None
        if row is not None:
            self.view.select_row(row)
        rows = [r for r in self.model.shown(selected) if r != keep]
        if rows:
            flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            for pid in rows:
                if (r := self.model.row_of(pid)) is not None:
                    self.view.selectionModel().select(self.model.index(r, 0), flags)
        self.orderChanged.emit()
