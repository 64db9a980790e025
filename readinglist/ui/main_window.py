"""The main window: search on top, library and tags on the left, papers in the middle, the paper on the right.

Searches and imports run on the worker pool; the UI thread only applies results. Every edit goes through the
undo stack, and every edit is one key away.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSettings,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QShortcut,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCompleter,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from readinglist import markup
from readinglist.export import ExportOptions, export
from readinglist.library import ImportSummary, Library
from readinglist.papers import (
    EXPORT_FORMATS,
    ImportCancelled,
    ImportFailure,
    QueryError,
    SearchResult,
    StoreError,
    import_file_filter,
    normalise_tags,
)
from readinglist.ui.detail import empty_html, paper_html
from readinglist.ui.dialogs import ExportDialog
from readinglist.ui.models import COLUMNS, PaperTableModel, SidebarModel
from readinglist.ui.paint_gate import PaintGate
from readinglist.ui.undo import SetNoteCommand, SetStateCommand, SetTagsCommand, SetTitleCommand
from readinglist.ui.workers import Runner

SEARCH_DEBOUNCE_MS = 0  # searches coalesce (one in flight, the latest queued), so no debounce is needed
DETAIL_AFTER_SEARCH_MS = 120  # the first result's abstract once typing pauses, not for every keystroke
RELATED_DELAY_MS = 700  # related papers once the reader rests on a paper, not while typing or triaging
NOTE_AUTOSAVE_MS = 800
IMPORT_FILTER = import_file_filter()


class TagCompleter(QCompleter):
    """Completes the tag being typed after the last comma."""

    def splitPath(self, path: str) -> list[str]:
        return [path.split(",")[-1].strip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:
        widget = self.widget()
        head = widget.text().rsplit(",", 1)[0] + ", " if isinstance(widget, QLineEdit) and "," in widget.text() else ""
        return head + str(index.data())


class _ImportSignals(QObject):
    progress = Signal(int, int, str)


class MainWindow(QMainWindow):
    searchFinished = Signal()  # all results applied to the table (tests and benchmarks wait on it)
    importFinished = Signal(object)  # list[ImportSummary] | Exception

    def __init__(self, library: Library, settings: QSettings, read_only_reason: str | None = None):
        super().__init__()
        self.library = library
        self.settings = settings
        self.read_only = library.read_only
        self.runner = Runner(self)
        self.undo_stack = QUndoStack(self)
        self._search_gen = 0
        self._searching = False
        self._search_pending = False
        self._last_result: SearchResult | None = None
        self._filter: tuple[str, str | None] = ("all", None)
        self._current_id: int | None = None
        self._note_saved = ""
        self._note_paper: int | None = None
        self._related_gen = 0
        self._import_cancel: threading.Event | None = None
        self._counts: dict[str, int] | None = None
        self._pending_select: int | None = None  # a paper to select once the search that shows it lands
        self._shown_related: list | None = None
        self._refresh_id: int | None = None  # an edited paper to re-render on the next turn of the loop
        self._related_cancel: threading.Event | None = None
        self.quiet_export = False  # no "Exported" message box (tests, scripts)
        self.paint_gate = PaintGate()
        library.set_search_checkpoint(self.paint_gate.make_way)
        self.setWindowTitle("readinglist" + (" (read-only)" if self.read_only else ""))
        self.setObjectName("mainWindow")
        self.setAcceptDrops(not self.read_only)
        self._build_actions()
        self._build_ui()
        self._build_menus()
        self._restore_settings()
        self._update_counts()
        if read_only_reason:
            self.statusBar().showMessage(read_only_reason)
        self.searchField.setText(str(self.settings.value("lastQuery", "") or ""))
        self.run_search()
        # all papers come from SQLite; Whoosh loads on a worker once the window is up, before the first query
        self._warm_timer = QTimer(self)  # a child: it dies with the window
        self._warm_timer.setSingleShot(True)
        self._warm_timer.timeout.connect(self._warm_index)
        self._warm_timer.start(400)
        self._freeze_long_lived()  # and again once the warm-up has loaded the index

    def _warm_index(self) -> None:
        """Load now, on a worker, what the first search, the first paper shown and the first edit need."""

        def warm() -> None:
            self.library.sync_index()
            self.library.prepare_background_indexing()
            markup.warm()

        self.runner.run(warm, lambda _: self._freeze_long_lived(), lambda _exc: None)

    @staticmethod
    def _freeze_long_lived() -> None:
        """Move what is loaded by now (modules, Qt wrappers, the index's tables) out of the cyclic garbage
        collector's sight: a full collection walked all of it, 21 ms at 8k papers and 31 ms at 94k, on
        whichever thread allocated next: a stalled repaint. Young garbage is collected first; what lives
        on is in use for the whole session anyway."""
        gc.collect(1)
        gc.freeze()

    # ---- construction ----

    def _action(
        self,
        name: str,
        text: str,
        shortcuts: Sequence[str | QKeySequence | QKeySequence.StandardKey],
        slot,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        action.setShortcuts([s if isinstance(s, QKeySequence) else QKeySequence(s) for s in shortcuts])
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.actionMarkRead = self._action("actionMarkRead", "Mark &Read", ["R"], lambda: self.mark("read"))
        self.actionMarkSkimmed = self._action("actionMarkSkimmed", "Mark &Skimmed", ["S"], lambda: self.mark("skimmed"))
        self.actionMarkUnread = self._action("actionMarkUnread", "Mark &Unread", ["U"], lambda: self.mark("unread"))
        self.actionUndo = self.undo_stack.createUndoAction(self, "&Undo")
        self.actionUndo.setObjectName("actionUndo")
        self.actionUndo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
        self.actionRedo = self.undo_stack.createRedoAction(self, "&Redo")
        self.actionRedo.setObjectName("actionRedo")
        self.actionRedo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for a in (self.actionUndo, self.actionRedo):
            self.addAction(a)
        self.actionImport = self._action(
            "actionImport", "&Import…", [QKeySequence.StandardKey.Open], self.import_dialog
        )
        self.actionExport = self._action("actionExport", "&Export…", ["Ctrl+E"], self.export_dialog)
        self.actionNext = self._action("actionNext", "Next Paper", ["J"], lambda: self.move_selection(1))
        self.actionPrevious = self._action("actionPrevious", "Previous Paper", ["K"], lambda: self.move_selection(-1))
        self.actionFocusTags = self._action("actionFocusTags", "Edit &Tags", ["T"], self.focus_tags)
        self.actionFocusNotes = self._action("actionFocusNotes", "Edit &Note", ["N"], self.focus_notes)
        self.actionFocusSearch = self._action(
            "actionFocusSearch", "&Find", ["/", QKeySequence.StandardKey.Find], self.focus_search
        )
        self.actionEditTitle = self._action("actionEditTitle", "Edit Tit&le", ["F2"], self.edit_title)
        self.actionAutoAdvance = QAction("&Advance After Marking", self, checkable=True)
        self.actionAutoAdvance.setObjectName("actionAutoAdvance")
        self.actionAutoAdvance.setChecked(bool(self.settings.value("autoAdvance", True, type=bool)))
        self.actionAutoAdvance.toggled.connect(lambda on: self.settings.setValue("autoAdvance", on))
        self.actionQuit = self._action("actionQuit", "&Quit", [QKeySequence.StandardKey.Quit], self.close)
        esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        esc.setContext(Qt.ShortcutContext.WindowShortcut)
        esc.activated.connect(self.escape)
        if self.read_only:
            for a in (self.actionMarkRead, self.actionMarkSkimmed, self.actionMarkUnread, self.actionImport,
                      self.actionEditTitle):  # fmt: skip
                a.setEnabled(False)

    def _build_ui(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(6, 6, 6, 0)
        outer.setSpacing(4)
        self.searchField = QLineEdit(central)
        self.searchField.setObjectName("searchField")
        self.searchField.setClearButtonEnabled(True)
        self.searchField.setPlaceholderText(
            'Search titles, abstracts, authors, tags and notes — e.g. diffusion "early exit" author:bengio year:2024'
        )
        self.searchField.setToolTip(
            'words (stemmed) · "phrase" · prefix* · fuzzy~ · a OR b · NOT c · title: abstract: author: tag: '
            "note: venue: year:2020..2024 · state:unread|skimmed|read"
        )
        self.searchField.installEventFilter(self)
        self.queryError = QLabel(central)
        self.queryError.setObjectName("queryError")
        self.queryError.setStyleSheet("color: #d32f2f;")
        self.queryError.setWordWrap(True)
        self.queryError.hide()
        outer.addWidget(self.searchField)
        outer.addWidget(self.queryError)

        self.sidebar_model = SidebarModel(self)
        self.tagSidebar = QTreeView(central)
        self.tagSidebar.setObjectName("tagSidebar")
        self.tagSidebar.setModel(self.sidebar_model)
        self.tagSidebar.setHeaderHidden(True)
        self.tagSidebar.setRootIsDecorated(False)
        self.tagSidebar.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tagSidebar.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tagSidebar.customContextMenuRequested.connect(self._sidebar_menu)
        self.tagSidebar.expandAll()
        self.tagSidebar.selectionModel().currentChanged.connect(self._sidebar_changed)
        self.tagSidebar.setMinimumWidth(150)

        self.model = PaperTableModel(self.library, self)
        self.model.titleEdited.connect(self._title_edited)
        self.paperTable = QTableView(central)
        self.paperTable.setObjectName("paperTable")
        self.paperTable.setModel(self.model)
        self.paperTable.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.paperTable.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.paperTable.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.paperTable.setAlternatingRowColors(True)
        self.paperTable.setShowGrid(False)
        self.paperTable.setWordWrap(False)
        self.paperTable.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.paperTable.verticalHeader().hide()
        self.paperTable.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.paperTable.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.paperTable.horizontalHeader()
        header.setSectionsClickable(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.sortIndicatorChanged.connect(self._sort_changed)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COLUMNS.index("title"), QHeaderView.ResizeMode.Stretch)
        for col, width in (("state", 28), ("venue", 90), ("year", 50), ("tags", 130)):
            header.resizeSection(COLUMNS.index(col), width)
        self.paperTable.selectionModel().currentRowChanged.connect(self._current_changed)
        self.paperTable.selectionModel().selectionChanged.connect(lambda *_: self._update_status())
        self.emptyLabel = QLabel(self.paperTable.viewport())
        self.emptyLabel.setObjectName("emptyLabel")
        self.emptyLabel.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.emptyLabel.setWordWrap(True)
        self.emptyLabel.setTextFormat(Qt.TextFormat.RichText)
        self.emptyLabel.linkActivated.connect(self._empty_link)
        self.emptyLabel.hide()
        self.paperTable.viewport().installEventFilter(self)
        self.paperTable.installEventFilter(self)

        right = QWidget(central)
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        self.detailView = QTextBrowser(right)
        self.detailView.setObjectName("detailView")
        self.detailView.setOpenLinks(False)
        self.detailView.anchorClicked.connect(self._link_clicked)
        buttons = QHBoxLayout()
        for action in (self.actionMarkUnread, self.actionMarkSkimmed, self.actionMarkRead):
            b = QToolButton(right)
            b.setDefaultAction(action)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.tagEditor = QLineEdit(right)
        self.tagEditor.setObjectName("tagEditor")
        self.tagEditor.setPlaceholderText("Tags, comma-separated — Enter applies")
        self.tagEditor.returnPressed.connect(self.apply_tags)
        self.tagEditor.setReadOnly(self.read_only)
        self.tag_completer = TagCompleter(self.library.tag_names(), self.tagEditor)
        self.tag_completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.tagEditor.setCompleter(self.tag_completer)
        self.notesEditor = QPlainTextEdit(right)
        self.notesEditor.setObjectName("notesEditor")
        self.notesEditor.setPlaceholderText("Notes (Markdown), saved as you type")
        self.notesEditor.setReadOnly(self.read_only)
        self.notesEditor.textChanged.connect(self._note_typed)
        self.notesPreview = QTextBrowser(right)
        self.notesPreview.setObjectName("notesPreview")
        self.notesPreview.setOpenExternalLinks(False)
        self.notesPreview.anchorClicked.connect(self._link_clicked)
        self.notesStack = QStackedWidget(right)
        self.notesStack.addWidget(self.notesEditor)
        self.notesStack.addWidget(self.notesPreview)
        self.previewToggle = QToolButton(right)
        self.previewToggle.setObjectName("previewToggle")
        self.previewToggle.setText("Preview")
        self.previewToggle.setCheckable(True)
        self.previewToggle.toggled.connect(self._toggle_preview)
        notes_head = QHBoxLayout()
        notes_head.addWidget(QLabel("<b>Note</b>"))
        notes_head.addStretch(1)
        notes_head.addWidget(self.previewToggle)
        editors = QWidget(right)
        el = QVBoxLayout(editors)
        el.setContentsMargins(0, 0, 0, 0)
        el.addLayout(buttons)
        el.addWidget(self.tagEditor)
        el.addLayout(notes_head)
        el.addWidget(self.notesStack)
        self.rightSplitter = QSplitter(Qt.Orientation.Vertical, right)
        self.rightSplitter.setObjectName("rightSplitter")
        self.rightSplitter.addWidget(self.detailView)
        self.rightSplitter.addWidget(editors)
        self.rightSplitter.setStretchFactor(0, 3)
        self.rightSplitter.setStretchFactor(1, 1)
        rl.addWidget(self.rightSplitter)

        self.mainSplitter = QSplitter(Qt.Orientation.Horizontal, central)
        self.mainSplitter.setObjectName("mainSplitter")
        self.mainSplitter.addWidget(self.tagSidebar)
        self.mainSplitter.addWidget(self.paperTable)
        self.mainSplitter.addWidget(right)
        self.mainSplitter.setStretchFactor(0, 0)
        self.mainSplitter.setStretchFactor(1, 3)
        self.mainSplitter.setStretchFactor(2, 2)
        self.mainSplitter.setSizes([200, 560, 480])
        outer.addWidget(self.mainSplitter, 1)
        self.setCentralWidget(central)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self.run_search)
        self.searchField.textChanged.connect(lambda _: self._search_timer.start())
        self._shown_id: int | None = None
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self._show_current)
        self._related_timer = QTimer(self)
        self._related_timer.setSingleShot(True)
        self._related_timer.setInterval(RELATED_DELAY_MS)
        self._related_timer.timeout.connect(self._start_related)
        self.paperTable.verticalScrollBar().valueChanged.connect(lambda _value: self._give_way())
        self._note_timer = QTimer(self)
        self._note_timer.setSingleShot(True)
        self._note_timer.setInterval(NOTE_AUTOSAVE_MS)
        self._note_timer.timeout.connect(self.save_note)
        self.statusLabel = QLabel(self)
        self.statusLabel.setObjectName("statusLabel")
        # import progress lives in the status bar, built now and shown when needed: a progress dialog
        # appearing mid-import held up the event loop for 100-250 ms (a new top-level window)
        self.importBar = QWidget(self)
        self.importBar.setObjectName("importProgress")
        bar_layout = QHBoxLayout(self.importBar)
        bar_layout.setContentsMargins(0, 0, 0, 0)
        self.importLabel = QLabel("Importing…", self.importBar)
        self.importProgressBar = QProgressBar(self.importBar)
        self.importProgressBar.setMaximumWidth(220)
        self.importCancel = QPushButton("Cancel", self.importBar)
        self.importCancel.setObjectName("importCancel")
        for widget in (self.importLabel, self.importProgressBar, self.importCancel):
            bar_layout.addWidget(widget)
        bar_layout.addStretch(1)
        self.importBar.hide()
        self.importCancel.clicked.connect(self._cancel_import)
        self.statusBar().addWidget(self.importBar, 1)
        self.statusBar().addPermanentWidget(self.statusLabel)
        self.setMinimumSize(640, 420)
        self.resize(1280, 800)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addActions([self.actionImport, self.actionExport])
        file_menu.addSeparator()
        file_menu.addAction(self.actionQuit)
        edit = bar.addMenu("&Edit")
        edit.addActions([self.actionUndo, self.actionRedo])
        edit.addSeparator()
        edit.addActions([self.actionFocusSearch, self.actionFocusTags, self.actionFocusNotes, self.actionEditTitle])
        paper = bar.addMenu("&Paper")
        paper.addActions([self.actionMarkRead, self.actionMarkSkimmed, self.actionMarkUnread])
        paper.addSeparator()
        paper.addActions([self.actionNext, self.actionPrevious])
        paper.addSeparator()
        paper.addAction(self.actionAutoAdvance)

    # ---- settings ----

    def _restore_settings(self) -> None:
        s = self.settings
        for key, restore in (
            ("geometry", self.restoreGeometry),
            ("windowState", self.restoreState),
            ("mainSplitter", self.mainSplitter.restoreState),
            ("rightSplitter", self.rightSplitter.restoreState),
            ("tableHeader", self.paperTable.horizontalHeader().restoreState),
        ):
            value = s.value(key)
            if isinstance(value, QByteArray | bytes):
                restore(value)
        header = self.paperTable.horizontalHeader()
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # rank order / library order on start

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("geometry", self.saveGeometry())
        s.setValue("windowState", self.saveState())
        s.setValue("mainSplitter", self.mainSplitter.saveState())
        s.setValue("rightSplitter", self.rightSplitter.saveState())
        s.setValue("tableHeader", self.paperTable.horizontalHeader().saveState())
        s.setValue("lastQuery", self.searchField.text())
        s.sync()

    # ---- searching ----

    def run_search(self) -> None:
        """Start a search for what the field says now; a search already running finishes first, then the
        latest query runs once (intermediate keystrokes are never searched after the fact)."""
        self._search_gen += 1
        if self._searching:
            self._search_pending = True
            return
        self._start_search(self._search_gen, self.searchField.text())

    def _give_way(self) -> None:
        """Courtesy work gives way to the reader: a related-papers search in progress stops (it is tried
        again once things are quiet) while the reader searches, scrolls or moves on. At 94k papers one
        takes 30–110 ms of CPU, and sharing the interpreter with it doubled the time of a repaint."""
        if self._related_cancel is not None:
            self._related_cancel.set()
        if self._related_timer.isActive():
            self._related_timer.start()  # and not while the reader is still busy

    def _start_search(self, gen: int, text: str) -> None:
        self._give_way()
        kind, value = self._filter
        state = value if kind == "state" else None
        tag = value if kind == "tag" else None
        self._searching = True
        self.runner.run(
            lambda: self.library.search(text, state=state, tag=tag),
            lambda result: self._search_done(gen, result),
            lambda exc: self._search_failed(gen, exc),
        )

    def _search_finished_one(self) -> bool:
        self._searching = False
        if self._search_pending:
            self._search_pending = False
            self.run_search()
            return True
        return False

    def _search_done(self, gen: int, result: SearchResult) -> None:
        if self._search_finished_one() or gen != self._search_gen:
            return  # stale: a newer query is on its way
        self.queryError.hide()
        previous_query = self._last_result.query if self._last_result is not None else None
        self._last_result = result
        keep = self._pending_select or self._current_id
        scroll = self.paperTable.verticalScrollBar().value()
        self.model.set_ids(result.ids, result.scores)
        header = self.paperTable.horizontalHeader()
        if 0 <= header.sortIndicatorSection() < len(COLUMNS):
            self.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        row = self.model.row_of(keep) if keep is not None else None
        self._select_row(row if row is not None else 0)
        if self._detail_timer.isActive():  # the results of a query being typed: render when they rest
            self._detail_timer.start(DETAIL_AFTER_SEARCH_MS)
        self._pending_select = None
        if row is not None and result.query == previous_query:
            self.paperTable.verticalScrollBar().setValue(scroll)  # a refresh of the same query keeps the view
        self._update_empty()
        self._update_status()
        self.searchFinished.emit()

    def _search_failed(self, gen: int, exc: Exception) -> None:
        if self._search_finished_one() or gen != self._search_gen:
            return
        message = str(exc) if isinstance(exc, QueryError) else f"Search failed: {exc}"
        self.queryError.setText(message)  # the last results stay
        self.queryError.show()
        self.searchFinished.emit()

    def _sort_changed(self, section: int, order: Qt.SortOrder) -> None:
        if 0 <= section < len(COLUMNS):
            keep = self._current_id
            self.model.sort(section, order)
            row = self.model.row_of(keep) if keep is not None else None
            if row is not None:
                self.paperTable.scrollTo(self.model.index(row, 0))

    def _sidebar_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        key = SidebarModel.decode(current.data(SidebarModel.FilterRole)) if current.isValid() else None
        if key is None:
            return
        self._filter = key
        self.run_search()

    # ---- selection and the detail pane ----

    def _select_row(self, row: int | None) -> None:
        if row is None or not (0 <= row < self.model.rowCount()):
            self._show_paper(None)
            return
        index = self.model.index(row, COLUMNS.index("title"))
        self.paperTable.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.paperTable.scrollTo(index)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """The table moves at once; the detail pane follows on the next turn of the event loop, so a search's
        rows appear before the paper is rendered and held-down j/k renders only where it stops."""
        self.save_note()
        self._current_id = self.model.id_at(current.row()) if current.isValid() else None
        self._detail_timer.start()

    def _show_current(self) -> None:
        self._detail_timer.setInterval(0)
        if self._shown_id != self._current_id or self._current_id is None:
            self._show_paper(self._current_id)

    def selected_ids(self) -> list[int]:
        rows = sorted({i.row() for i in self.paperTable.selectionModel().selectedRows()})
        ids = [pid for r in rows if (pid := self.model.id_at(r)) is not None]
        if not ids and self._current_id is not None:
            ids = [self._current_id]
        return ids

    def _show_paper(self, paper_id: int | None) -> None:
        self._current_id = paper_id
        self._shown_id = paper_id
        paper = self.library.paper(paper_id) if paper_id is not None else None
        if paper is None:
            self._current_id = None
            self.detailView.setHtml(empty_html(self.palette(), "Select a paper to read it here."))
            self._set_editors(None, [], "")
            return
        self._render_detail(paper)
        self._set_editors(paper.id, paper.tags, paper.note)
        self._give_way()  # the related papers of the previous paper are of no use now
        self._related_gen += 1
        self._related_timer.start()

    def _start_related(self) -> None:
        pid, gen = self._current_id, self._related_gen
        if pid is None:
            return
        if self._searching:  # a search is running: it has the CPU; related papers can wait for it
            self._related_timer.start()
            return
        cancel = threading.Event()
        self._related_cancel = cancel  # set when a search starts: the user's search gets the CPU
        self.runner.run(
            lambda: self.library.papers(self.library.related(pid, cancel=cancel)),
            lambda related: self._related_done(gen, pid, related),
            lambda exc: None,  # related papers are a courtesy; the paper is already shown
        )

    def _render_detail(self, paper, related=None) -> None:
        result = self._last_result
        match = None
        if result and result.query.strip() and result.terms:
            match = self.library.highlighter(result.terms)
        scroll = self.detailView.verticalScrollBar().value()
        self.detailView.setHtml(paper_html(paper, self.palette(), match, related))
        if related is not None:
            self.detailView.verticalScrollBar().setValue(scroll)
        self._shown_related = related

    def _related_done(self, gen: int, pid: int, related) -> None:
        if gen != self._related_gen or pid != self._current_id:
            return
        if not related and self._related_cancel is not None and self._related_cancel.is_set():
            self._related_timer.start()  # cut short by a search: try again when things are quiet
            return
        paper = self.library.paper(pid)
        if paper is not None:
            self._render_detail(paper, related)

    def _set_editors(self, paper_id: int | None, tags: list[str], note: str) -> None:
        enabled = paper_id is not None and not self.read_only
        if not self.tagEditor.hasFocus() or paper_id != self._note_paper:
            common = self._common_tags() if len(self.selected_ids()) > 1 else tags
            self.tagEditor.setText(", ".join(common))
        self.tagEditor.setEnabled(paper_id is not None)
        self.tagEditor.setReadOnly(not enabled)
        if paper_id != self._note_paper or self.notesEditor.toPlainText() == self._note_saved:
            self._note_paper = paper_id
            self._note_saved = note
            if self.notesEditor.toPlainText() != note:
                self.notesEditor.blockSignals(True)
                self.notesEditor.setPlainText(note)
                self.notesEditor.blockSignals(False)
            if self.previewToggle.isChecked():
                self.notesPreview.setMarkdown(note)
        self.notesEditor.setEnabled(paper_id is not None)
        self.notesEditor.setReadOnly(not enabled)

    def _common_tags(self) -> list[str]:
        tag_map = self.library.tags_of(self.selected_ids())
        if not tag_map:
            return []
        sets = [set(t) for t in tag_map.values()]
        common = set.intersection(*sets)
        first = next(iter(tag_map.values()))
        return [t for t in first if t in common]

    def _link_clicked(self, url: QUrl) -> None:
        if url.scheme() == "paper":
            self.go_to_paper(int(url.path()))
        elif url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)

    def go_to_paper(self, paper_id: int) -> None:
        row = self.model.row_of(paper_id)
        if row is None:  # not among the results: show everything, then select it
            self._pending_select = paper_id
            self.searchField.clear()
            self.tagSidebar.setCurrentIndex(self.sidebar_model.find(("all", None)))
            self._filter = ("all", None)
            self.run_search()
            return
        self._select_row(row)

    # ---- editing ----

    def _changed(self, ids: Sequence[int]) -> None:
        """After any edit (or its undo): refresh those rows, the counts, and the shown paper."""
        self.model.refresh(ids)
        self._update_counts()
        if self._current_id is not None and self._current_id in ids:
            # on the next turn of the event loop: marking with auto-advance moves on first, and then only
            # the next paper is rendered (rendering the one being left cost a third of a triage key)
            self._refresh_id = self._current_id
            QTimer.singleShot(0, self._refresh_current)

    def _refresh_current(self) -> None:
        pid, self._refresh_id = self._refresh_id, None
        if pid is None or pid != self._current_id or pid != self._shown_id:
            return  # moved on: the paper now current is rendered by _show_current
        paper = self.library.paper(pid)
        if paper is not None:
            self._render_detail(paper, self._shown_related)
            self._set_editors(paper.id, paper.tags, paper.note)

    def mark(self, state: str) -> None:
        ids = self.selected_ids()
        if not ids or self.read_only:
            return
        advance = self.actionAutoAdvance.isChecked() and len(ids) == 1
        self.undo_stack.push(SetStateCommand(self.library, ids, state, self._changed))
        if advance:
            self.move_selection(1)

    def move_selection(self, step: int) -> None:  # not move(): that is QWidget's, for the window's position
        current = self.paperTable.currentIndex()
        row = (current.row() if current.isValid() else -1) + step
        if 0 <= row < self.model.rowCount():
            self._select_row(row)

    def apply_tags(self) -> None:
        ids = self.selected_ids()
        if not ids or self.read_only:
            return
        typed = normalise_tags([self.tagEditor.text()])
        current = self.library.tags_of(ids)
        if len(ids) == 1:
            after = {ids[0]: typed}
        else:  # many papers: add what was typed, remove what was taken out of the common tags
            common = set(self._common_tags())
            removed = common - set(typed)
            after = {
                pid: [t for t in tags if t not in removed] + [t for t in typed if t not in tags]
                for pid, tags in current.items()
            }
        if all(after[pid] == current.get(pid) for pid in after):
            return
        n = len(ids)
        self.undo_stack.push(
            SetTagsCommand(self.library, after, f"Tag {n} paper{'s' if n != 1 else ''}", self._changed)
        )
        self.tag_completer.model().setStringList(self.library.tag_names())  # type: ignore[attr-defined]

    def _note_typed(self) -> None:
        if self.previewToggle.isChecked():
            self.notesPreview.setMarkdown(self.notesEditor.toPlainText())
        self._note_timer.start()

    def save_note(self) -> None:
        """Autosave: within a second of the last keystroke, on selection change, and on close."""
        self._note_timer.stop()
        pid = self._note_paper
        text = self.notesEditor.toPlainText()
        if pid is None or self.read_only or text == self._note_saved:
            return
        before = self._note_saved
        self._note_saved = text
        self.undo_stack.push(SetNoteCommand(self.library, pid, before, text, self._changed))

    def _toggle_preview(self, on: bool) -> None:
        if on:
            self.notesPreview.setMarkdown(self.notesEditor.toPlainText())
        self.notesStack.setCurrentIndex(1 if on else 0)

    def edit_title(self) -> None:
        if self.read_only or self._current_id is None:
            return
        row = self.model.row_of(self._current_id)
        if row is not None:
            index = self.model.index(row, COLUMNS.index("title"))
            self.paperTable.setFocus()
            self.paperTable.setCurrentIndex(index)
            self.paperTable.edit(index)

    def _title_edited(self, paper_id: int, title: str) -> None:
        paper = self.library.paper(paper_id)
        if paper is None or title == paper.title:
            return
        new = None if title == paper.auto_title else title
        self.undo_stack.push(SetTitleCommand(self.library, paper_id, new, self._changed))

    # ---- tags in the sidebar ----

    def _sidebar_menu(self, pos) -> None:
        index = self.tagSidebar.indexAt(pos)
        key = SidebarModel.decode(index.data(SidebarModel.FilterRole)) if index.isValid() else None
        if not key or key[0] != "tag" or not key[1] or self.read_only:
            return
        name = key[1]
        menu = QMenu(self)
        menu.addAction("Rename or Merge…", lambda: self.rename_tag(name))
        menu.addAction("Delete Tag", lambda: self.delete_tag(name))
        menu.exec(self.tagSidebar.viewport().mapToGlobal(pos))

    def rename_tag(self, old: str, new: str | None = None) -> None:
        if new is None:
            new, ok = QInputDialog.getText(
                self, "Rename Tag", f"Rename “{old}” to (an existing tag merges the two):", text=old
            )
            if not ok:
                return
        try:
            after = self.library.plan_rename_tag(old, new)
        except StoreError as exc:
            QMessageBox.warning(self, "Rename Tag", str(exc))
            return
        merge = new.strip().lower() in self.library.tag_names() and new.strip().lower() != old
        text = f"{'Merge' if merge else 'Rename'} tag “{old}” into “{new}”"
        self.undo_stack.push(SetTagsCommand(self.library, after, text, self._changed))
        if self._filter == ("tag", old):
            self._filter = ("tag", new.strip().lower())
            self.tagSidebar.setCurrentIndex(self.sidebar_model.find(self._filter))
        self.run_search()

    def delete_tag(self, name: str) -> None:
        after = self.library.plan_delete_tag(name)
        self.undo_stack.push(SetTagsCommand(self.library, after, f"Delete tag “{name}”", self._changed))
        if self._filter == ("tag", name):
            self._filter = ("all", None)
        self.run_search()

    # ---- status, counts, empty states ----

    def _update_counts(self) -> None:
        counts = self.library.counts()
        self.sidebar_model.update_counts(counts, self.library.tag_counts())
        self.tagSidebar.expandAll()
        if self._filter:
            index = self.sidebar_model.find(self._filter)
            if index.isValid() and self.tagSidebar.currentIndex() != index:
                self.tagSidebar.selectionModel().blockSignals(True)
                self.tagSidebar.setCurrentIndex(index)
                self.tagSidebar.selectionModel().blockSignals(False)
        self._counts = counts
        self._update_status()

    def _update_status(self) -> None:
        c = self._counts or self.library.counts()
        parts = [f"{c['all']:,} papers", f"{c['read']:,} read", f"{c['skimmed']:,} skimmed"]
        parts.append(f"{self.model.rowCount():,} shown")
        selected = len(self.paperTable.selectionModel().selectedRows())
        if selected > 1:
            parts.append(f"{selected:,} selected")
        self.statusLabel.setText(" · ".join(parts))

    def _update_empty(self) -> None:
        if self.model.rowCount():
            self.emptyLabel.hide()
            return
        query = self.searchField.text().strip()
        kind, value = self._filter
        if self.library.counts()["all"] == 0:
            text = "Your library is empty.<br><a href='import'>Import papers…</a> or drop files here."
        elif query:
            where = f" in {value}" if value else ""
            text = f"No papers match “{query}”{where} — <a href='clear'>clear the search</a>"
        elif kind == "tag":
            text = f"No papers are tagged “{value}”."
        elif kind == "state":
            text = f"No {value} papers. <a href='all'>Show all papers</a>"
        else:
            text = "No papers."
        self.emptyLabel.setText(text)
        self.emptyLabel.resize(self.paperTable.viewport().size())
        self.emptyLabel.show()

    def _empty_link(self, link: str) -> None:
        if link == "clear":
            self.searchField.clear()
        elif link == "import":
            self.import_dialog()
        elif link == "all":
            self.tagSidebar.setCurrentIndex(self.sidebar_model.find(("all", None)))

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self.paperTable.viewport():
            kind = event.type()
            if kind == QEvent.Type.Paint:  # a search on another thread waits until this paint is over
                self.paint_gate.painting(True)
                QTimer.singleShot(0, lambda: self.paint_gate.painting(False))
                self._fill_shown_rows()
            elif kind == QEvent.Type.Resize:
                self.emptyLabel.resize(self.paperTable.viewport().size())
        elif obj is self.paperTable and event.type() == QEvent.Type.KeyPress:
            # Home/End go to the first/last paper, selected: Qt's own move to the first/last column of a
            # row-selecting table, and Ctrl+Home/End moved the current paper (the one shown) while the
            # selection (what r/s/u and tags act on) stayed behind
            key = event.key()  # type: ignore[attr-defined]
            mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_Home, Qt.Key.Key_End) and mods in (
                Qt.KeyboardModifier.NoModifier,
                Qt.KeyboardModifier.ControlModifier,
            ):
                if self.model.rowCount():
                    self._select_row(0 if key == Qt.Key.Key_Home else self.model.rowCount() - 1)
                return True
        if obj is self.searchField and event.type() == QEvent.Type.KeyPress:
            key = event.key()  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.model.rowCount():
                self.paperTable.setFocus()
                return True
        return super().eventFilter(obj, event)

    def _fill_shown_rows(self) -> None:
        """The rows about to be painted get their items (the model keeps only those of rows shown)."""
        table = self.paperTable
        first = table.rowAt(0)
        if first < 0:
            return
        last = table.rowAt(table.viewport().height() - 1)
        self.model.fill(first, last if last >= 0 else self.model.rowCount() - 1)

    # ---- focus ----

    def focus_search(self) -> None:
        self.searchField.setFocus()
        self.searchField.selectAll()

    def focus_tags(self) -> None:
        if self._current_id is not None:
            self.tagEditor.setFocus()
            self.tagEditor.end(False)

    def focus_notes(self) -> None:
        if self._current_id is not None:
            self.previewToggle.setChecked(False)
            self.notesEditor.setFocus()

    def escape(self) -> None:
        focus = QApplication.focusWidget()
        if focus is self.searchField and self.searchField.text():
            self.searchField.clear()
        elif focus in (self.tagEditor, self.notesEditor):
            if focus is self.notesEditor:
                self.save_note()
            self.paperTable.setFocus()
        elif self.searchField.text():
            self.searchField.clear()
        else:
            self.paperTable.setFocus()

    # ---- import and export ----

    def import_dialog(self) -> None:
        if self.read_only:
            return
        folder = str(self.settings.value("importFolder", str(Path.home())))
        files, _ = QFileDialog.getOpenFileNames(self, "Import Papers", folder, IMPORT_FILTER)
        if files:
            self.settings.setValue("importFolder", str(Path(files[0]).parent))
            self.start_import([Path(f) for f in files])

    def start_import(self, files: Sequence[Path]) -> None:
        if self._import_cancel is not None or self.read_only:
            return
        cancel = threading.Event()
        self._import_cancel = cancel
        bar = self.importProgressBar
        bar.setRange(0, 0)  # busy until the first progress report
        self.importLabel.setText("Importing…")
        self.importCancel.setEnabled(True)
        self.importBar.show()
        signals = _ImportSignals(self)

        def on_progress(done: int, total: int, message: str) -> None:
            if cancel.is_set():
                return
            self.importLabel.setText(message)
            bar.setRange(0, total)
            bar.setValue(min(done, total) if total else 0)

        signals.progress.connect(on_progress)

        def work() -> list[ImportSummary]:
            return self.library.import_files(files, progress=signals.progress.emit, cancel=cancel)

        self.runner.run(work, self._import_done, self._import_failed)

    def _cancel_import(self) -> None:
        if self._import_cancel is not None:
            self._import_cancel.set()  # the import stops at its next chunk and rolls back
            self.importCancel.setEnabled(False)
            self.importLabel.setText("Cancelling…")

    def _import_finish(self) -> None:
        self._import_cancel = None
        self.importBar.hide()
        self._freeze_long_lived()  # what the import loaded (parsers, LaTeX tables) stays
        self._update_counts()
        self.tag_completer.model().setStringList(self.library.tag_names())  # type: ignore[attr-defined]
        self.run_search()

    def _import_done(self, summaries: list[ImportSummary]) -> None:
        self._import_finish()
        self.statusBar().showMessage("Imported: " + "; ".join(s.line() for s in summaries), 15000)
        warnings = [w for s in summaries for w in s.warnings]
        if warnings:
            QMessageBox.information(self, "Import", "Imported, with warnings:\n\n" + "\n".join(warnings[:20]))
        self.importFinished.emit(summaries)

    def _import_failed(self, exc: Exception) -> None:
        self._import_finish()
        if isinstance(exc, ImportCancelled):
            self.statusBar().showMessage("Import cancelled; the library is unchanged.", 10000)
        else:
            if isinstance(exc, ImportFailure):
                text = f"Could not import {exc.path}:\n\n{exc.problem}" + (f" (line {exc.line})" if exc.line else "")
            else:
                text = f"Import failed: {exc}"
            QMessageBox.critical(self, "Import", text + "\n\nThe library was not changed by this file.")
        self.importFinished.emit(exc)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self.read_only and event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.start_import(files)

    def export_dialog(self) -> None:
        dialog = ExportDialog(self, has_selection=len(self.selected_ids()) > 0, settings=self.settings)
        if not dialog.exec():
            return
        options, scope = dialog.options(), dialog.scope()
        folder = str(self.settings.value("exportFolder", str(Path.home())))
        ext = EXPORT_FORMATS[options.format].extension
        path, _ = QFileDialog.getSaveFileName(
            self, "Export Reading List", str(Path(folder) / f"reading-list{ext}"), f"{options.format} (*{ext})"
        )
        if not path:
            return
        self.export_to(Path(path), options, scope)

    def export_to(self, path: Path, options: ExportOptions, scope: str) -> int:
        if scope == "selection":
            ids = self.selected_ids()
            options.scope = "selection"
        elif scope == "all":
            ids = self.library.search("").ids
            options.scope = "all papers"
        else:
            ids = list(self.model.ids)
            options.query = self.searchField.text().strip()
            kind, value = self._filter
            options.scope = f"{kind} {value}" if value else ""
        try:
            export(self.library.papers(ids), options, path)
        except OSError as exc:
            QMessageBox.critical(self, "Export", f"Could not write {path}:\n\n{exc.strerror or exc}")
            return 0
        self.settings.setValue("exportFolder", str(path.parent))
        self.statusBar().showMessage(f"Exported {len(ids)} papers to {path}", 15000)
        if not self.quiet_export:
            box = QMessageBox(
                QMessageBox.Icon.Information, "Export", f"Exported {len(ids)} papers to\n{path}", parent=self
            )
            open_button = box.addButton("Open Folder", QMessageBox.ButtonRole.ActionRole)
            box.addButton(QMessageBox.StandardButton.Ok)
            box.exec()
            if box.clickedButton() is open_button:
                QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))
        return len(ids)

    def changeEvent(self, event: QEvent) -> None:
        """The system switched between light and dark: the detail pane's colours are baked into its HTML,
        the table's muted colour for read papers into its cached rows."""
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "detailView"):
            self.model.restyle()
            self._show_paper(self._current_id)
        super().changeEvent(event)

    # ---- closing ----

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_note()
        if self._import_cancel is not None:
            self._import_cancel.set()
        self.save_settings()
        self.runner.wait()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Join workers and close the library (tests call this before teardown)."""
        self._warm_timer.stop()
        self.runner.wait()
        self.library.close()
