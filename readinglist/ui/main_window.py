"""The main window: search on top, library and tags on the left, papers in the middle, the paper on the right.

The window composes the panes and wires them: each pane owns its state and speaks through signals; the
window holds the actions, menus and settings, turns the panes' edits into undoable commands, and says in the
status bar how things stand. The table owns which paper is current; the detail pane follows it (or shows a
paper the results lack: a related paper followed keeps the search), and the editors follow the detail pane.
Searches, imports and exports run on the worker pool; the UI thread only applies results. Every edit goes
through the undo stack, and every edit is one key away. Letter keys act only where they cannot be text (the
table has focus: PaperTable.add_key_action); an action on several papers says what it did, with Undo.

Over 400 lines because it is the one place the panes meet: what is here is the actions, the wiring, and the
few rules that need more than one pane (which paper results keep, what an undo shows, where Back goes); the
behaviour lives in the panes and in menus.py, history.py, notice.py, paper_actions.py and undo.py.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, QSettings, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QMouseEvent,
    QShortcut,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QMainWindow,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from readinglist.library import Library
from readinglist.papers import (
    PRIORITIES,
    STATE_KEYS,
    STATE_LABELS,
    STATES,
    ExportOptions,
    Paper,
    QueryError,
    SearchResult,
    SmartList,
    StoreError,
    Topic,
    describe_view,
    same_tag,
)
from readinglist.ui import menus, runtime
from readinglist.ui.detail import DetailPane
from readinglist.ui.edit_gate import BUSY, EditGate, changes, waiting_text
from readinglist.ui.editors import Editors
from readinglist.ui.history import History, Place
from readinglist.ui.import_bar import ImportBar, ask_import
from readinglist.ui.notice import Notice
from readinglist.ui.order_note import OrderNote
from readinglist.ui.outside_changes import OutsideChanges
from readinglist.ui.paint_gate import PaintGate
from readinglist.ui.paper_model import COLUMNS, LABELS
from readinglist.ui.paper_table import PaperTable, empty_text, navigation_step
from readinglist.ui.search_bar import CORRECTION_KEY, SearchBar
from readinglist.ui.sidebar import ALL, Filter, Sidebar, ViewSummary, missing_tag_text
from readinglist.ui.suggestions import Suggester, reason_text
from readinglist.ui.topics_bar import TopicsBar
from readinglist.ui.topics_section import TopicsSection
from readinglist.ui.undo import (
    DeleteListCommand,
    KeepApartCommand,
    KeywordsToTagsCommand,
    MergePapersCommand,
    MoveListCommand,
    PaperCommand,
    RemovePapersCommand,
    RenameTagCommand,
    SaveListCommand,
    SetNoteCommand,
    SetPriorityCommand,
    SetStateCommand,
    SetTagsCommand,
    SetTitleCommand,
    UpdateListCommand,
)
from readinglist.ui.wording import papers, quoted
from readinglist.ui.workers import Runner

if TYPE_CHECKING:
    from readinglist.interest import Suggestion
    from readinglist.ui.backups import Backups
    from readinglist.ui.exporting import Exporter
    from readinglist.ui.map_view import MapPane

SAME_TOPIC_HELD = 0.5  # topics computed again: the topic holding more than this share of the picked one's papers…
SAME_TOPIC_SHARE = 0.25  # … and they at least this share of its own is the topic picked, under its id now
CLOSE_WAIT = 2.0  # seconds closing waits for an import to let the library go before it says edits wait
WARM_UP_DELAY_MS = 400  # Whoosh loads once the window is up (all papers come from SQLite), before a query
LIST_COUNT_DELAY_MS = 600  # lists are recounted once marking pauses, not on every key of a run of r/x/q
HEADER_KEY = "paperTableHeader"  # the columns' layout (another key than before the Authors column came)
RANKED_ABOVE = "ranked-above"  # the notice that a re-rank put papers above the reader's
TOP_ROWS = 50  # a reader this far down Suggested with every paper above marked is triaging from the top
NO_RANKING = "no-ranking"  # the notice that the Suggested order has nothing to learn from: withdrawn on leaving it
# a query that filters by a tag ("tag:CuO", "tags:rl"): which papers it means changes with the tags
_TAG_TERM = re.compile(r"\btags?:", re.IGNORECASE)


LIBRARY_SAYS_MS = 30_000  # how long a message of the library's (an index rebuilt, not writable) is shown


class MainWindow(QMainWindow):
    searchFinished = Signal()  # all results applied to the table (tests and benchmarks wait on it)
    librarySaid = Signal(str)  # a message of the library's, from any thread (Library.notify)
    importFinished = Signal(object)  # list[ImportSummary] | Exception
    exportFinished = Signal(object)  # int (papers written) | Exception

    def __init__(self, library: Library, settings: QSettings, read_only_reason: str | None = None):
        super().__init__()
        self.library = library
        self.settings = settings
        self.read_only = library.read_only
        self.runner = Runner(self)
        self.suggester = Suggester(library, self.runner, self)
        self.undo_stack = QUndoStack(self)
        self.edits = EditGate(library, self.undo_stack, self._push_now, self)  # edits while an import writes
        self._close_when_saved = False  # the reader closed while edits waited: the window closes once saved
        self._close_anyway = False  # … or chose to close without them
        self._counts: dict[str, int] | None = None
        self._view_by_relevance = False  # the Suggested view's matches of a query in rank order, asked for
        self._shown_by_relevance = False  # … and the results shown are so
        self._suggested_opened = False  # the Suggested view was just picked: its first results start at the top
        self._top_when_reranked: int | None = None  # the Suggested view's first paper, current as a re-rank came
        self._view_triaged: dict[int, str] = {}  # the papers shown that are triaged, with their states
        self._list_counts: dict[int, int] = {}
        self._counting_lists = False  # a count of the lists runs on the pool; another is due after it
        self._lists_due = False
        self._pushing = False  # a command is being pushed: its first redo is not an undo or redo to show
        self._applying = False  # results are being applied: the current paper moves, not by the reader
        self._current_auto = True  # the current paper is the one results put first, not one the reader chose
        # a column's sort let go for the Suggested view: (section, order, the query it was made on)
        self._sort_before_suggested: tuple[int, Qt.SortOrder, str] | None = None
        self._wanted: int | None = None  # the paper to make current when the next results land
        self._reveal: list[int] = []  # … and the papers to select with it (a removal undone)
        self._arriving = False  # going back or forward: the place is being shown
        self._topics_stamp: str | None = None  # which computation's topics the window shows (Library.topics_stamp)
        self._picked_papers: set[int] = set()  # the papers of the topic picked, as it was picked
        self._rerun_provisional = False  # a search running as the warm-up ended: searched again if provisional
        self.paint_gate = PaintGate()  # the table flags its paints; searches make way (paint_gate.py)
        library.set_search_checkpoint(self.paint_gate.make_way)
        self.setWindowTitle("readinglist" + (" (read-only)" if self.read_only else ""))
        self.setObjectName("mainWindow")
        self.setAcceptDrops(not self.read_only)
        self._selection_timer = QTimer(self)  # the editors follow a run of selection changes once (0 ms: next turn)
        self._selection_timer.setSingleShot(True)
        self._selection_timer.setInterval(0)
        self._selection_timer.timeout.connect(self._follow_selection)
        self._build_actions()
        self._build_panes()
        # Tab goes search → sidebar → list (→ the panes after it): Shift+Tab from the list is the sidebar,
        # where the topics' filter and list stood between them (a trial found no key into the sidebar)
        QWidget.setTabOrder(self.search_bar.field, self.sidebar)
        QWidget.setTabOrder(self.sidebar, self.table.view)
        self.history = History(self._here, self)
        self._wire()
        menus.build(self)
        self._restore_settings()
        self.update_counts()
        self.sidebar.update_lists(self.library.smart_lists(), {})  # counted once the index is warm
        if read_only_reason:
            self.notice.show_message(read_only_reason, 0)
        self.search_bar.set_text(str(self.settings.value("lastQuery", "") or ""))
        self._restore_view()
        self._update_caption()
        self._wanted = self._last_paper()  # the paper the reader was on comes back with their query
        self.search_bar.run()
        self._warmed_up = False
        self._warm_timer = QTimer(self)  # a child: it dies with the window
        self._warm_timer.setSingleShot(True)
        self._warm_timer.timeout.connect(self._warm_index)
        self._warm_timer.start(WARM_UP_DELAY_MS)
        self._list_timer = QTimer(self)
        self._list_timer.setSingleShot(True)
        self._list_timer.setInterval(LIST_COUNT_DELAY_MS)
        self._list_timer.timeout.connect(self._count_lists)
        runtime.freeze_long_lived()  # and again once the warm-up has loaded the index

    def _warm_index(self) -> None:
        """Load now, on a worker, what the first search, the first paper shown and the first edit need."""

        def warm() -> Exception | None:
            from readinglist import markup  # (its patterns: after the first paint, before the first abstract)

            self.library.sync_index()
            self.library.prepare_background_indexing()
            markup.warm()
            try:  # the words corrections come from: else read by the first misspelt query
                self.library.warm_search()
            except Exception as exc:  # searching still works (it reads them then); the rest is warm
                return exc
            return None

        self.runner.run(warm, self._warmed, self._warm_failed)

    @property
    def warmed_up(self) -> bool:
        """Whether the warm-up after opening is over (the index and the correction words read, the first
        ranking of the suggestions asked for): what the window holds from then on is what it keeps."""
        return self._warmed_up

    def _warmed(self, failed: Exception | None) -> None:
        self._warmed_up = True
        last = self.search_bar.last_result
        if last is not None and last.provisional:  # found while the index was built: now ranked, corrected
            self.search_bar.run()
        # a search still reading the store's text lands after this, provisional, and was left so: run again then
        self._rerun_provisional = self.search_bar.searching
        runtime.freeze_long_lived()
        self._count_lists()
        self.suggester.schedule(force=True)  # the first ranking, once the search index is up
        if failed is not None:
            self.notice.show_message(f"Could not prepare spelling corrections: {failed}", 0)
        self.topics_bar.update_if_due()  # a library opened with no topics, or with papers new since

    def _warm_failed(self, exc: Exception) -> None:
        self._warmed_up = True
        self.notice.show_message(f"Could not prepare the search index: {exc}", 0)

    # ---- construction ----

    def _action(
        self, name: str, text: str, shortcuts: Sequence[str | QKeySequence.StandardKey], slot: Callable[[], object]
    ) -> QAction:
        """An action whose keys work anywhere in the window (they are never plain text keys)."""
        action = QAction(text, self)
        action.setObjectName(name)
        keys = [QKeySequence(s) for s in shortcuts]
        action.setShortcuts(list({k.toString(): k for k in keys if not k.isEmpty()}.values()))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _key(self, name: str, text: str, key: str, slot: Callable[[], object]) -> QAction:
        """An action on a letter (or other text) key: the key acts only in the table (PaperTable.add_key_action,
        once the table exists); menus trigger it from anywhere."""
        action = QAction(text, self)
        action.setObjectName(name)
        action.setShortcut(QKeySequence(key))
        action.triggered.connect(lambda _checked=False: slot())  # (a checkable one says whether it is checked)
        self.key_actions.append(action)
        return action

    def _build_actions(self) -> None:
        self.key_actions: list[QAction] = []
        key, act = self._key, self._action
        # one per state, named for it (actionMarkRead, actionMarkQueued, …), on its key from papers.STATE_KEYS
        self.mark_actions: dict[str, QAction] = {}
        for state in STATES:
            label = STATE_LABELS[state]
            at = label.lower().find(STATE_KEYS[state].lower())  # the menu's mnemonic on the key's letter
            text = f"Mark {label[:at]}&{label[at:]}" if at >= 0 else f"Mark {label}"
            action = key(f"actionMark{label}", text, STATE_KEYS[state], partial(self.mark, state))
            action.setIconText(label)  # the editors' buttons
            action.setCheckable(True)  # checked: the state of the paper shown (its button and the menu show it)
            action.triggered.connect(lambda _checked=False: self._show_marks())  # after the mark: what it is now
            self.mark_actions[state] = action
            setattr(self, f"actionMark{label}", action)
        self.priority_actions: list[QAction] = []
        for priority in (*PRIORITIES, 0):
            text = f"Priority &{priority}" if priority else "&No Priority"
            action = key(f"actionPriority{priority}", text, str(priority), partial(self.set_priority, priority or None))
            action.setIconText(f"P{priority}" if priority else "P–")
            action.setToolTip(f"Priority {priority} (key {priority})" if priority else "No priority (key 0)")
            action.setCheckable(bool(priority))  # checked: the priority of the paper shown ("P–" is no mark)
            action.triggered.connect(lambda _checked=False: self._show_marks())
            self.priority_actions.append(action)
        self.actionNext = key("actionNext", "Next Paper", "J", lambda: self.move_selection(1))
        self.actionPrevious = key("actionPrevious", "Previous Paper", "K", lambda: self.move_selection(-1))
        self.actionFocusTags = key("actionFocusTags", "Edit &Tags", "T", self.focus_tags)
        self.actionFocusNotes = key("actionFocusNotes", "Edit &Note", "N", self.focus_notes)
        self.actionOpenLink = key("actionOpenLink", "&Open Link", "O", lambda: self.open_link())
        self.actionRemove = key("actionRemove", "Remove from &Library", "Del", self.remove_papers)
        self.actionMerge = act("actionMerge", "&Merge Duplicates", [], self.merge_papers)
        self.actionMerge.setToolTip("Merge the two papers selected into one (tags united, notes joined; undoable)")
        self.actionKeepApart = act("actionKeepApart", "&Keep Apart", [], self.keep_apart)
        self.actionKeepApart.setToolTip("The two papers selected are different papers: not listed as duplicates")
        self.actionSlash = key("actionSlash", "Search", "/", self.focus_search)
        self.actionKeysInList = key("actionKeysInList", "Keyboard Shortcuts", "?", lambda: menus.show_shortcuts(self))
        self.actionUndo = self.undo_stack.createUndoAction(self, "&Undo")
        self.actionUndo.setObjectName("actionUndo")
        self.actionUndo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Undo)])
        self.actionRedo = self.undo_stack.createRedoAction(self, "&Redo")
        self.actionRedo.setObjectName("actionRedo")
        self.actionRedo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for a in (self.actionUndo, self.actionRedo):
            self.addAction(a)
        # through the edit gate, not the stack's own slots: an undo never waits on the event loop for an import
        self.actionUndo.triggered.disconnect()
        self.actionRedo.triggered.disconnect()
        self.actionUndo.triggered.connect(lambda: self._step(undo=True))
        self.actionRedo.triggered.connect(lambda: self._step(undo=False))
        self.actionImport = act("actionImport", "&Import…", [QKeySequence.StandardKey.Open], self.import_dialog)
        self.actionMergeNotes = act("actionMergeNotes", "&Merge Notes Folder…", [], self.merge_notes_dialog)
        self.actionMergeNotes.setToolTip("Merge back the notes, tags and states edited in an exported notes folder")
        self.actionExport = act("actionExport", "&Export…", ["Ctrl+E"], self.export_dialog)
        self.actionBackup = act("actionBackup", "&Back Up Annotations…", [], lambda: self.backups.backup_dialog())
        self.actionRestore = act("actionRestore", "&Restore Annotations…", [], lambda: self.backups.restore_dialog())
        self.actionFocusSearch = act("actionFocusSearch", "&Find", [QKeySequence.StandardKey.Find], self.focus_search)
        self.actionApplyCorrection = act("actionApplyCorrection", "Search the Suggested &Spelling", [CORRECTION_KEY],
                                         lambda: self.search_bar.apply_correction())  # fmt: skip
        self.actionApplyCorrection.setEnabled(False)  # while a "Did you mean" is offered
        self.actionSortRelevance = QAction("Sort by &Relevance", self, checkable=True)
        self.actionSortRelevance.setObjectName("actionSortRelevance")
        self.actionSortRelevance.setChecked(True)
        self.actionSortRelevance.setToolTip("Rank order, the best matches first (without a query: the order added)")
        self.actionSortRelevance.triggered.connect(lambda _on=False: self.sort_by_relevance())
        self.actionEditTitle = act("actionEditTitle", "Edit Tit&le", ["F2"], lambda: self.table.edit_title())
        self.actionCopyCitation = act("actionCopyCitation", "Copy &Citation", ["Ctrl+Shift+C"],
                                      lambda: self.copy("citation"))  # fmt: skip
        self.actionCopyBibtex = act("actionCopyBibtex", "Copy &BibTeX", ["Ctrl+Shift+B"], lambda: self.copy("bibtex"))
        self.actionCopyId = act("actionCopyId", "Copy &ID", [], lambda: self.copy("id"))
        self.actionBack = act("actionBack", "&Back", [QKeySequence.StandardKey.Back, "Alt+Left"], lambda: self.go(-1))
        self.actionForward = act("actionForward", "&Forward", [QKeySequence.StandardKey.Forward, "Alt+Right"],
                                 lambda: self.go(1))  # fmt: skip
        self.actionBack.setEnabled(False)
        self.actionForward.setEnabled(False)
        self.actionSaveList = act("actionSaveList", "&Save View as List…", ["Ctrl+S"], lambda: self.save_list())
        self.actionInterests = act("actionInterests", "My &Interests…", [], self.edit_interests)
        self.actionSortSuggested = QAction("Sort by &Suggested", self, checkable=True)
        self.actionSortSuggested.setObjectName("actionSortSuggested")
        self.actionSortSuggested.setToolTip("Any view's papers by predicted interest (a column's header sorts by it)")
        self.actionSortSuggested.toggled.connect(self._sort_suggested)
        self.actionAutoAdvance = QAction("&Advance After Marking", self, checkable=True)
        self.actionAutoAdvance.setObjectName("actionAutoAdvance")
        self.actionAutoAdvance.setChecked(bool(self.settings.value("autoAdvance", True, type=bool)))
        self.actionAutoAdvance.toggled.connect(lambda on: self.settings.setValue("autoAdvance", on))
        self.actionQuit = act("actionQuit", "&Quit", [QKeySequence.StandardKey.Quit], self.close)
        self.actionShortcuts = act("actionShortcuts", "&Keyboard Shortcuts", ["F1"], lambda: menus.show_shortcuts(self))
        self.actionSearchSyntax = act(
            "actionSearchSyntax", "&Search Syntax", [], lambda: menus.show_search_syntax(self)
        )
        self.actionAbout = act("actionAbout", "&About readinglist", [], lambda: menus.show_about(self))
        self.scheme_actions: dict[str, QAction] = {}  # View → Appearance (menus.py)
        self.actionShowAll = act("actionShowAll", "&All Papers", ["Ctrl+0"], self.show_all)
        self.actionShowAll.setToolTip("Every paper: no state, tag, list or topic (the search stays)")
        self.actionShowPapers = act("actionShowPapers", "&Papers", ["Ctrl+1"], lambda: self.show_tab(0))
        self.actionShowMap = act("actionShowMap", "&Map", ["Ctrl+2"], lambda: self.show_tab(1))
        esc = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        esc.setContext(Qt.ShortcutContext.WindowShortcut)
        esc.activated.connect(self.escape)
        if self.read_only:
            for a in (*self.mark_actions.values(), *self.priority_actions, self.actionImport, self.actionMergeNotes,
                      self.actionRestore, self.actionEditTitle, self.actionRemove, self.actionSaveList,
                      self.actionInterests, self.actionMerge, self.actionKeepApart):  # fmt: skip
                a.setEnabled(False)

    def _build_panes(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(6, 6, 6, 0)
        outer.setSpacing(4)
        self.search_bar = SearchBar(
            self.runner, self.library, lambda: self.sidebar.filter, central, topic=lambda: self.topics_section.topic
        )
        self.sidebarPane = QWidget(central)  # the sidebar's tree, what the view is and its triage under it
        self.sidebarPane.setObjectName("sidebarPane")
        self.sidebar = Sidebar(self.library, self.sidebarPane)
        self.view_summary = ViewSummary(self.sidebarPane)
        sidebar_layout = QVBoxLayout(self.sidebarPane)
        sidebar_layout.setContentsMargins(0, 0, 0, 0)
        sidebar_layout.setSpacing(2)
        sidebar_layout.addWidget(self.sidebar, 1)
        sidebar_layout.addWidget(self.view_summary)
        self.topics_section = TopicsSection(central)
        self.leftSplitter = QSplitter(Qt.Orientation.Vertical, central)  # the sidebar, topics under it
        self.leftSplitter.setObjectName("leftSplitter")
        self.leftSplitter.addWidget(self.sidebarPane)
        self.leftSplitter.addWidget(self.topics_section)
        self.leftSplitter.setStretchFactor(0, 2)
        self.leftSplitter.setStretchFactor(1, 3)
        self.table = PaperTable(self.library, self.paint_gate, central)
        for action in self.key_actions:
            self.table.add_key_action(action)
        right = QWidget(central)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        self.detail = DetailPane(self.library, self.runner, right)
        self.editors = Editors(
            self.library, self.target_ids, list(self.mark_actions.values()), right, self.priority_actions
        )
        self.rightSplitter = QSplitter(Qt.Orientation.Vertical, right)
        self.rightSplitter.setObjectName("rightSplitter")
        self.rightSplitter.addWidget(self.detail)
        self.rightSplitter.addWidget(self.editors)
        self.rightSplitter.setStretchFactor(0, 3)
        self.rightSplitter.setStretchFactor(1, 1)
        right_layout.addWidget(self.rightSplitter)
        self.mainSplitter = QSplitter(Qt.Orientation.Horizontal, central)
        self.mainSplitter.setObjectName("mainSplitter")
        self.centerTabs = QTabWidget(central)  # the papers as a list, or as a map
        self.centerTabs.setObjectName("centerTabs")
        self.centerTabs.setDocumentMode(True)
        self.centerTabs.addTab(self.table.view, "Papers")
        self.mapPage = QWidget(self.centerTabs)  # holds the map pane once it is built (the map_pane property)
        self.mapPage.setObjectName("mapPage")
        self._map_layout = QVBoxLayout(self.mapPage)
        self._map_layout.setContentsMargins(0, 0, 0, 0)
        self._map_pane: MapPane | None = None
        self.centerTabs.addTab(self.mapPage, "Map")
        self.areaChip = QToolButton(self.centerTabs)  # the table shows the area dragged over on the map
        self.areaChip.setObjectName("mapAreaChip")
        self.areaChip.setAutoRaise(True)
        self.areaChip.setToolTip("The papers of the area selected on the map; click to show all results again")
        self.areaChip.hide()
        self.centerTabs.setCornerWidget(self.areaChip)
        self._area: set[int] | None = None
        # the last results as the view arranges them (the Suggested order): what an area narrows, and all of
        # them again once it is let go (the search's own results came back in the order added: a user trial)
        self._results: SearchResult | None = None
        self._empty_text: str | None = None  # why the table is empty (rich text), as the table and the map say it
        for pane in (self.leftSplitter, self.centerTabs, right):
            self.mainSplitter.addWidget(pane)
        self.mainSplitter.setStretchFactor(0, 0)
        self.mainSplitter.setStretchFactor(1, 3)
        self.mainSplitter.setStretchFactor(2, 2)
        self.mainSplitter.setSizes([170, 640, 460])  # the papers' titles get the room (issue 14)
        self.order_note = OrderNote()
        self.search_bar.add_to_hint_line(self.order_note)
        outer.addWidget(self.search_bar)
        outer.addWidget(self.mainSplitter, 1)
        self.setCentralWidget(central)
        self.statusLabel = QLabel(self)
        self.statusLabel.setObjectName("statusLabel")
        self.notice = Notice(self)
        # the library's own messages ("Building the search index for 38,270 papers…", an index that cannot be
        # written) went nowhere in the window: a search typed during a rebuild waited, unexplained
        self.librarySaid.connect(lambda message: self.notice.show_message(message, LIBRARY_SAYS_MS, kind="library"))
        self.library.notify = self._library_says
        self.import_bar = ImportBar(self.runner, self.library, self.notice, self)
        self.topics_bar = TopicsBar(self.library, self)
        self._exporter: Exporter | None = None
        self._backups: Backups | None = None
        self.outside = OutsideChanges(self.library, self)
        self.statusBar().addWidget(self.notice, 1)
        self.statusBar().addWidget(self.import_bar)
        self.statusBar().addWidget(self.topics_bar)
        self.statusBar().addPermanentWidget(self.statusLabel)
        self.setMinimumSize(640, 420)
        self.resize(1280, 800)

    def _wire(self) -> None:
        self.edits.waitingChanged.connect(self._edits_waiting)
        # (after the stack's own connection, which greys Undo out while marks wait with nothing to undo yet)
        self.undo_stack.canUndoChanged.connect(self._enable_undo)
        self.edits.saved.connect(self._edits_saved)
        self.edits.refused.connect(lambda why: self.notice.show_message(f"{why}", 15000))
        search, table, detail, editors = self.search_bar, self.table, self.detail, self.editors
        search.resultsReady.connect(self._show_results)
        search.failed.connect(self._search_failed)
        search.runningChanged.connect(detail.set_search_running)
        search.resultsFocusRequested.connect(lambda: table.view.setFocus())
        search.correctionOffered.connect(lambda text: self.actionApplyCorrection.setEnabled(text is not None))
        table.orderChanged.connect(self._order_changed)
        table.view.header_actions.append(self.actionSortRelevance)
        self.order_note.relevanceRequested.connect(self.sort_by_relevance)
        self.order_note.interestRequested.connect(self.sort_by_interest)
        self.sidebar.filterChanged.connect(lambda _filter: search.run())
        self.sidebar.filterChanged.connect(lambda _filter: self._update_caption())
        search.field.textChanged.connect(lambda _text: self._update_caption())
        self.sidebar.tagsEdited.connect(self._push_sidebar_tags)
        self.sidebar.keywordsMadeTags.connect(
            lambda links, text: self._push_from_sidebar(
                KeywordsToTagsCommand(self.library, links, text, self._refresh_changed), self.sidebar.filter
            )
        )
        self.sidebar.saveListRequested.connect(lambda: self.save_list())
        self.sidebar.listRenameRequested.connect(self.rename_list)
        self.sidebar.listRedefineRequested.connect(self.redefine_list)
        self.sidebar.listMoveRequested.connect(self.move_list)
        self.sidebar.listDeleteRequested.connect(self.delete_list)
        self.view_summary.clearRequested.connect(self.sidebar.clear_narrowing)
        self.sidebar.navigate.connect(self.go)
        table.currentPaperChanged.connect(self._current_changed)
        table.chosen.connect(self._chosen)
        table.selectionChanged.connect(self._selection_changed)
        table.scrolled.connect(detail.give_way)
        table.titleEdited.connect(self._title_edited)
        table.emptyLinkActivated.connect(self._empty_link)
        table.typed.connect(search.type_text)
        table.navigate.connect(self.go)
        table.contextMenuRequested.connect(self._paper_menu)
        detail.paperShown.connect(editors.load)
        detail.paperShown.connect(self._show_marks)
        detail.paperRequested.connect(self.go_to_paper)
        detail.linkFailed.connect(lambda text: self.notice.show_message(text, 8000))
        detail.libraryRequested.connect(self.show_in_library)
        detail.navigate.connect(self.go)
        editors.tagsApplied.connect(self._push_tags)
        editors.noteEdited.connect(self._push_note)
        editors.noteKeptBoth.connect(
            lambda both: self.notice.show_message(
                "The note was also changed outside this window: both versions are kept, the other below a line."
                if both
                else "The note was changed outside this window: that version is kept.",
                15000,
            )
        )
        editors.noteRefused.connect(lambda why: self.notice.show_message(f"The note is not saved. {why}", 0))
        editors.noteWaiting.connect(self._note_waiting)
        editors.notesEditor.textChanged.connect(self._reader_works_on)
        editors.notesSaved.connect(self._notes_saved)
        editors.linkClicked.connect(detail.open_link)
        editors.finished.connect(self.focus_papers)
        self.history.changed.connect(self._history_changed)
        self.undo_stack.indexChanged.connect(self._undo_index_changed)
        self.import_bar.stopped.connect(self._after_import)
        self.import_bar.stopped.connect(self.outside.resume)
        self.import_bar.finished.connect(self.importFinished)
        self.outside.papersChanged.connect(self._changed_elsewhere)
        self.outside.libraryChanged.connect(self._after_import)
        self.outside.listsChanged.connect(self._lists_changed_elsewhere)
        table.view.columnsChosen.connect(lambda: self.settings.setValue("columnsChosen", True))
        table.view.horizontalHeader().sortIndicatorChanged.connect(self._header_sorted)
        self.sidebar.filterChanged.connect(self._filter_changed)
        self.suggester.rankingChanged.connect(self._ranking_changed)
        detail.set_explainer(self._explain)
        self._wire_topics()

    def _wire_topics(self) -> None:
        section, bar = self.topics_section, self.topics_bar
        section.topicChanged.connect(self._remember_topic)
        section.topicChanged.connect(lambda _topic: self.search_bar.run())
        section.topicChanged.connect(lambda _topic: self._update_caption())
        section.computeRequested.connect(bar.recompute)
        section.recomputeButton.setEnabled(not self.read_only)
        bar.started.connect(lambda: section.set_computing(True))
        bar.stopped.connect(lambda: section.set_computing(False))
        bar.computed.connect(self._topics_computed)
        self.outside.topicsChanged.connect(self._topics_computed)  # computed again by another process
        bar.message.connect(lambda text, ms: self.notice.show_message(text, ms))
        self.detail.topicRequested.connect(section.set_topic)
        self._show_topics()
        self.centerTabs.currentChanged.connect(self._tab_changed)

    # ---- the parts built when first used (not before the first paint) ----

    @property
    def map_pane(self) -> MapPane:
        """The Map tab's pane, built when first asked for (the tab shown, a test, a benchmark): the first
        paint of the papers does without its module and its Qt classes."""
        if self._map_pane is None:
            from readinglist.ui.map_view import MapPane

            pane = MapPane(self.library, self.settings, self.mapPage)
            self._map_layout.addWidget(pane)
            pane.show()  # a child added to a page already shown stays hidden until told
            for action in self.key_actions:  # the keys act on the map's area too; its 0 fits the map (map_view.py)
                if action is not self.priority_actions[-1]:
                    pane.view.addAction(action)
            view = pane.view
            view.paperClicked.connect(self._map_clicked)
            view.areaSelected.connect(self._area_selected)
            view.areaCleared.connect(lambda: self._area_selected(None))
            self.areaChip.clicked.connect(view.clear_area)
            pane.computeRequested.connect(self.topics_bar.recompute)
            pane.exportFinished.connect(self._map_exported)
            self.table.currentPaperChanged.connect(view.set_current)
            pane.emptyLinkActivated.connect(self._empty_link)
            self._map_pane = pane
            view.set_current(self.table.current_id)  # ringed once its data comes (it was not, until j: a trial)
            if self._results is not None:  # the results it lights, as _show_results would have
                view.set_results(self._lit(self._results))
            pane.show_empty(self._empty_text)
        return self._map_pane

    @property
    def exporter(self) -> Exporter:
        """Exports (ui/exporting.py, with the export dialog's module), built at the first export."""
        if self._exporter is None:
            from readinglist.ui.exporting import Exporter

            self._exporter = Exporter(self.runner, self.library, self.settings, self.notice, self)
            self._exporter.started.connect(lambda: self.actionExport.setEnabled(False))  # one export at a time
            self._exporter.finished.connect(lambda _outcome: self.actionExport.setEnabled(True))
            self._exporter.finished.connect(self.exportFinished)
        return self._exporter

    @property
    def backups(self) -> Backups:
        """Backing up and restoring annotations (ui/backups.py), built at the first backup or restore."""
        if self._backups is None:
            from readinglist.ui.backups import Backups

            self._backups = Backups(self.runner, self.library, self.settings, self.notice, self)
            self._backups.busy.connect(lambda busy: self.actionRestore.setEnabled(not busy and not self.read_only))
            self._backups.restored.connect(self._after_restore)
        return self._backups

    # ---- settings ----

    def _restore_settings(self) -> None:
        header = self.table.view.horizontalHeader()
        for key, restore in (
            ("geometry", self.restoreGeometry),
            ("windowState", self.restoreState),
            ("mainSplitter", self.mainSplitter.restoreState),
            ("leftSplitter", self.leftSplitter.restoreState),
            ("rightSplitter", self.rightSplitter.restoreState),
            (HEADER_KEY, header.restoreState),
        ):
            value = self.settings.value(key)
            if isinstance(value, QByteArray | bytes):
                restore(value)
        self.table.view.fit_columns()
        self._default_columns()
        # the sort kept with the header was made on the query kept (lastQuery), which the window opens on
        self.centerTabs.setCurrentIndex(1 if self.settings.value("centerTab") == "map" else 0)
        # notes shown rendered, as the reader left them (they reopened as Markdown source: a trial)
        self.editors.set_previewing(bool(self.settings.value("notePreview", False, type=bool)))

    def _last_paper(self) -> int | None:
        """The paper shown when the window was last closed, if the library still has it."""
        value = self.settings.value("lastPaper", "")
        try:
            pid = int(str(value))
        except ValueError:
            return None
        return pid if self.library.paper(pid) is not None else None

    def _restore_view(self) -> None:
        """The sidebar's view and the topic the window was closed on, what still exists of them: a restart
        on "Queued · tag rl-policy" opened on All, mid-triage (a trial). Set without a search of their own:
        the window's first search is in them."""
        try:
            saved = json.loads(str(self.settings.value("lastView", "") or "{}"))
        except ValueError:
            saved = {}
        if not isinstance(saved, dict):
            saved = {}
        state = saved.get("state") if saved.get("state") in STATES else None
        tag = saved.get("tag") if isinstance(saved.get("tag"), str) else None
        if tag is not None:  # the tag as it is spelt now, if it is still there
            tag = next((t for t in self.library.tag_names() if same_tag(t, tag)), None)
        smart = next((sl for sl in self.sidebar.lists if sl.id == saved.get("list")), None)
        if smart is not None:
            state, tag = smart.state, None
        if saved.get("suggested") is True:  # the untriaged papers, within the tag
            view = Filter(tag=tag, suggested=True)
        else:
            duplicates = saved.get("duplicates") is True and bool(self.library.counts().get("duplicates"))
            view = Filter(state=state, tag=tag, smart_list=smart, duplicates=duplicates)
        self.sidebar.restore(view)
        if view.suggested:
            self.detail.set_explainer(self._explain)
        topic = str(self.settings.value("lastTopic", "") or "")
        named = self.topics_section.topic_named(int(topic)) if topic.isdigit() else None
        # the same topic only if it still has its name: topics computed again since (the command line's
        # recompute) may have given its id to another (a trial came back to "linear regression")
        name = self.settings.value("lastTopicName")  # (None: saved by a version that kept the id alone)
        if named is not None and (name is None or named.label == str(name)):
            with QSignalBlocker(self.topics_section):
                self.topics_section.set_topic(named.id)
            self._remember_topic(named.id)

    def _default_columns(self) -> None:
        """Until the reader picks columns, Authors shows only once some paper has authors: the bundled
        corpus has none, and an empty column would take the titles' room."""
        if not self.settings.value("columnsChosen", False, type=bool):
            authors = COLUMNS.index("authors")
            self.table.view.horizontalHeader().setSectionHidden(authors, not self.library.has_authors())
            self.table.view.fit_title()

    def save_settings(self) -> None:
        s = self.settings
        s.setValue("geometry", self.saveGeometry())
        s.setValue("windowState", self.saveState())
        s.setValue("mainSplitter", self.mainSplitter.saveState())
        s.setValue("leftSplitter", self.leftSplitter.saveState())
        s.setValue("centerTab", "map" if self.centerTabs.currentIndex() == 1 else "papers")
        s.setValue("rightSplitter", self.rightSplitter.saveState())
        s.setValue("notePreview", self.editors.previewing)
        s.setValue(HEADER_KEY, self.table.view.header_state())
        s.setValue("lastQuery", self.search_bar.text())
        view = self.sidebar.filter
        s.setValue("lastView", json.dumps({
            "state": view.state, "tag": view.tag, "list": view.smart_list.id if view.smart_list else None,
            "suggested": view.suggested, "duplicates": view.duplicates,
        }))  # fmt: skip
        s.setValue("lastTopic", self.topics_section.topic if self.topics_section.topic is not None else "")
        s.setValue("lastTopicName", picked.label if (picked := self.topics_section.picked) is not None else "")
        s.setValue("lastPaper", self.detail.current_id if self.detail.current_id is not None else "")
        s.sync()

    # ---- the panes, wired ----

    def _show_results(self, result: SearchResult, same_query: bool) -> None:
        """Results replace results: the paper wanted (going back, a removal undone), else the paper shown,
        stays current if they hold it, however late they come — the paper shown only if the reader chose it
        (or the results are the same query's again): a paper that was first for "gau" is no reason to keep
        row 29 of "gaussian process" current when the reader never looked at it."""
        if self._rerun_provisional:
            self._rerun_provisional = False
            if result.provisional:  # read through while the warm-up opened the index: ranked now (_warmed)
                self.search_bar.run()
        self.detail.set_terms(result)
        self._shown_by_relevance = self._by_relevance_in_view(result)
        if self._suggesting():
            in_view, by_interest = self.sidebar.filter.suggested, not self._shown_by_relevance
            result = self.suggester.arrange(result, untriaged_only=in_view, by_interest=by_interest)
        self._results = result
        if self._map_pane is not None:  # else it takes the last results when it is built
            self._map_pane.view.set_results(self._lit(result))
        shown = self._in_area(result)
        wanted, self._wanted = self._wanted, None
        shown_paper = None if self._current_auto and not same_query else self.detail.current_id
        opened, self._suggested_opened = self._suggested_opened, False
        if self.sidebar.filter.suggested and not self._shown_by_relevance and (opened or not same_query):
            shown_paper = None  # the view is its order: opened, or a new query in it, it starts at the best
        keep = wanted if wanted is not None else shown_paper
        self._applying = True
        try:
            found = self.table.show_results(shown, same_query, keep, first=keep is None)
            self._current_auto = wanted is None and (self._current_auto or not found)
            self._say_ranked_above(same_query)
            if self._reveal:
                self.table.select_ids(self._reveal)
                self._reveal = []
        finally:
            self._applying = False
        if wanted is not None and not found:
            self._visit(wanted)
        self._view_triaged = self.library.triaged_among(shown.ids)
        self._order_changed()
        self.detail.rest()  # the results of a query being typed: the paper is rendered once typing rests
        self._update_empty()
        self._update_status()
        self._moved()
        self.searchFinished.emit()

    def _order_changed(self) -> None:
        """Say which order is in force: a column's, or rank order (the Relevance entry checked)."""
        column = self.table.sort_column
        result = self.search_bar.last_result
        # a filter alone ("venue:icml", "tag:rl") scores every match alike: they come in the order added; a
        # saved list's query ranks its papers though the search field is empty (current_view has it)
        query = bool(
            result is not None
            and (result.query.strip() or self.current_view()[0])
            and _ranked(result.scores, result.word_count)
        )
        suggested = "view" if self.sidebar.filter.suggested else "sort" if self.actionSortSuggested.isChecked() else ""
        if suggested == "view" and self._shown_by_relevance:
            suggested = "view by relevance"
        queue = not query and self.sidebar.filter.state == "queued" and not self.current_view()[0]
        self.order_note.show_order(LABELS[column] if column else None, self.table.sort_descending, query, suggested,
                                   unranked=self.suggester.ranking is None, queue=queue,
                                   provisional=result is not None and result.provisional)  # fmt: skip
        self.actionSortRelevance.setChecked(column is None and suggested in ("", "view by relevance"))

    def sort_by_relevance(self) -> None:
        """Back to rank order (the order added, without a query), from a column's sort or the Suggested sort;
        in the Suggested view with a query, its untriaged matches in rank order (until the view is left)."""
        if self.sidebar.filter.suggested and self.table.sort_column is None and self.search_bar.text().strip():
            self._view_by_relevance = True
            self.search_bar.run()
            return
        if self.actionSortSuggested.isChecked():
            self.actionSortSuggested.setChecked(False)  # searched again, in rank order
        self.table.sort_by_rank()
        self._order_changed()  # also when it was in force already: the entry stays checked

    def _by_relevance_in_view(self, result: SearchResult) -> bool:
        """Are these results, in the Suggested view, to be shown in rank order (the reader asked, and they are
        a query's, ranked)? The one test both the order shown and the note saying it use."""
        return bool(
            self.sidebar.filter.suggested
            and self._view_by_relevance
            and result.query.strip()
            and _ranked(result.scores, result.word_count)
        )

    def sort_by_interest(self) -> None:
        """The Suggested view's own order again, after its matches were ranked by relevance."""
        self._view_by_relevance = False
        self.search_bar.run()

    def _search_failed(self, _message: str) -> None:
        """The last results stay; a table with none yet says why it is empty (a query restored at start)."""
        if not self.table.model.rowCount():
            self._update_empty(unreadable=True)
        self.searchFinished.emit()

    def _current_changed(self, paper_id: int | None) -> None:
        """The table moved: the note typed for the paper left is saved; the detail pane follows. The reader
        moving on forgets a paper wanted from results still on their way."""
        self.editors.save_note()
        self.detail.follow(paper_id)
        if not self._applying:
            self._current_auto = False
            if paper_id is not None:
                self._wanted, self._reveal = None, []
            self.notice.clear(RANKED_ABOVE)  # about the paper left ("now ranks above this one" at the top: a trial)
            self._moved()

    def _chosen(self, paper_id: int) -> None:
        """The reader clicked the paper (or pressed Enter on it): theirs now, kept current when the results
        change, as a paper moved to is. One results had put first was not: a title searched, its paper clicked
        and the search cleared, the full list came back on the library's first paper (a trial)."""
        if not self._applying and paper_id == self.table.current_id:
            self._current_auto = False

    def _selection_changed(self) -> None:
        """The papers selected changed: the status bar says how many now, and the editors follow on the next
        turn of the loop (_follow_selection), once for a run of changes: reading the common tags of 8k papers
        selected took 11 ms, paid at each step of Shift+Down held, each change of a selection made in steps."""
        self._update_status()
        self._selection_timer.start()

    def _follow_selection(self) -> None:
        """The papers selected changed around the paper shown: its buttons and tag field follow (pressed for it
        alone, none pressed and the common tags for several). A paper newly current is shown on the next turn
        of the loop and they follow it then; the same paper kept current (an area let go on the map, Ctrl+A
        and a click on its row) is not shown anew, and they went on saying "several" for it (a user trial)."""
        pid = self.table.current_id
        if pid is not None and pid == self.detail.paper_id == self.detail.current_id:
            paper = self.detail.paper(pid)
            self.editors.load(paper)
            self._show_marks(paper)

    def target_ids(self) -> list[int]:
        """What marking, tags and the paper actions act on: the selected papers, else the current one, else
        the paper shown from outside the results."""
        ids = self.table.selected_ids()
        if not ids and self.detail.visiting and self.detail.current_id is not None:
            ids = [self.detail.current_id]
        return ids

    def _visit(self, paper_id: int) -> None:
        """Show a paper the results lack, keeping the search."""
        self.detail.visit(paper_id)
        self.table.clear_current()
        self._moved()

    def go_to_paper(self, paper_id: int) -> None:
        """Follow a link to a paper: the search stays, and where the reader was is one Back away."""
        self.history.record()
        if not self.table.go_to(paper_id):
            self._visit(paper_id)
        self.history.record()

    def show_in_library(self, paper_id: int) -> None:
        """The paper among all papers: the search and the sidebar's filter are cleared for it."""
        self.history.record()
        self._wanted = paper_id
        self.search_bar.clear()
        self.sidebar.set_filter(ALL)
        self.topics_section.set_topic(None)
        self.search_bar.run()

    # ---- back and forward ----

    def _here(self) -> Place:
        return Place(self.search_bar.text(), self.sidebar.filter, self.detail.current_id)

    def _moved(self) -> None:
        if self._arriving:
            self._arriving = False
            self.history.arrived()
        else:
            self.history.moved()

    def _history_changed(self) -> None:
        back, forward = self.history.can_go_back, self.history.can_go_forward
        if back != self.actionBack.isEnabled():
            self.actionBack.setEnabled(back)
        if forward != self.actionForward.isEnabled():
            self.actionForward.setEnabled(forward)

    def go(self, step: int) -> None:
        """Back (-1) or forward (+1) to the query, filter and paper shown there."""
        place = self.history.step(step)
        if place is None:
            return
        self._arriving = True
        if place.query != self.search_bar.text() or place.filter != self.sidebar.filter:
            self._wanted = place.paper  # current once the results land, or shown from outside them
            if place.filter != self.sidebar.filter:
                self.sidebar.set_filter(place.filter)
            self.search_bar.set_text(place.query)
            self.search_bar.run()
            return
        if place.paper is not None and not self.table.go_to(place.paper):
            self._visit(place.paper)
        self._moved()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if step := navigation_step(event):
            self.go(step)
            return
        super().mousePressEvent(event)

    # ---- topics ----

    def _show_topics(self) -> None:
        """The topics as stored now, in the Topics section and the detail pane."""
        self._topics_stamp = self.library.topics_stamp()
        topics = self.library.topics()
        self.topics_section.set_topics(topics)
        self.topics_section.set_unplaced(self.library.unplaced(), self.library.counts()["all"])
        self.detail.set_topic_names({t.id: t.label for t in topics})

    def _remember_topic(self, topic_id: int | None) -> None:
        """The papers of the topic picked: what tells, once topics are computed again, which topic is it now."""
        self._picked_papers = self.library.topic_papers(topic_id) if topic_id is not None else set()

    def _topics_computed(self, _status: object = None) -> None:
        """New topics, computed here or by another process (the command line's `topics --recompute`): shown
        with every name they give (the section, the caption, the paper shown), and the results searched again
        if they depend on topics, with the paper shown staying current. The topic picked stays picked if it
        is still the same papers — under its id or another — and is let go otherwise; the status bar says
        which (an id alone can pass to another topic when their number changes: a trial was left on
        "linear regression" under the name of the reinforcement-learning topic it had picked)."""
        if self.library.topics_stamp() == self._topics_stamp:
            return  # shown already (the window's own computation, noticed by the watcher too)
        section = self.topics_section
        old = section.picked
        with QSignalBlocker(section):  # (its id gone, the section let go of it: the papers it held were forgotten)
            self._show_topics()
        new = self._same_topic(old) if old is not None else None
        with QSignalBlocker(section):
            section.set_topic(new.id if new is not None else None)
        self._remember_topic(section.topic)
        if old is not None and new is None:
            self.notice.show_message(
                f"Topics were computed again and “{old.label}” is not among them: all topics are shown.", 15000
            )
        elif old is not None and new is not None and new.label != old.label:
            self.notice.show_message(f"Topics were computed again: “{old.label}” is now “{new.label}”.", 15000)
        elif old is not None and new is not None and new.id != old.id:  # the same name: topic:N in a query moved
            self.notice.show_message(
                f"Topics were computed again: “{new.label}” stays picked, now topic:{new.id}.", 15000
            )
        self._update_caption()
        if old is not None or "topic:" in self.search_bar.text().lower():
            self.search_bar.run()
        self._reload_map()

    def _same_topic(self, old: Topic) -> Topic | None:
        """The topic now holding most of the papers the topic picked held (more than half of them, and at
        least a quarter of its own), or None: the topic picked, under whatever id it has now."""
        papers = self._picked_papers
        if not papers:
            return None
        counted = Counter(self.library.topics_of(sorted(papers)).values())
        if not counted:
            return None
        tid, n = max(counted.items(), key=lambda item: (item[1], item[0] == old.id))
        topic = self.topics_section.topic_named(tid)
        if topic is None or n <= SAME_TOPIC_HELD * len(papers) or n < SAME_TOPIC_SHARE * topic.size:
            return None
        return topic

    def _reload_map(self) -> None:
        """The map read again (topics computed, papers removed or brought back), if it was ever shown."""
        if self._map_pane is not None and (self._map_pane.view.data is not None or self.centerTabs.currentIndex() == 1):
            self._map_pane.view.load()

    # ---- the map ----

    def show_tab(self, index: int) -> None:
        """The papers as a list (0) or as the map (1)."""
        self.centerTabs.setCurrentIndex(index)
        (self.table.view if index == 0 else self.map_pane.view).setFocus()

    def _tab_changed(self, index: int) -> None:
        if index == 1 and (view := self.map_pane.view).data is None and not view.loading:
            view.load()  # numpy and the map's arrays load only once the map is first shown

    def _lit(self, result: SearchResult) -> list[int] | None:
        """The papers the map lights: the results, or None when nothing narrows them (all are lit)."""
        narrowed = result.query.strip() or self.sidebar.filter != ALL or self.topics_section.topic is not None
        return list(result.ids) if narrowed else None

    def _in_area(self, result: SearchResult) -> SearchResult:
        """The results within the area selected on the map, if one is."""
        area = self._area
        if area is None:
            return result
        keep = [i for i, pid in enumerate(result.ids) if pid in area]
        scores = [result.scores[i] for i in keep] if result.scores else []
        return replace(result, ids=[result.ids[i] for i in keep], scores=scores)

    def _area_selected(self, ids: list[int] | None) -> None:
        """A drag on the map selected these papers (None: the area was cleared): the table shows them, all
        selected, so that r/s/u and tags act on them; the search and the filters still apply."""
        self._area = set(ids) if ids is not None else None
        self.areaChip.setText(f"Map area: {papers(len(ids))}  ✕" if ids is not None else "")
        self.areaChip.setVisible(ids is not None)
        result = self._results
        if result is None:
            return
        shown = self._in_area(result)
        self.table.show_results(shown, True)
        self._view_triaged = self.library.triaged_among(shown.ids)
        if ids:
            self.table.view.selectAll()
        self._update_empty()
        self._update_status()

    def _map_clicked(self, paper_id: int) -> None:
        """A dot was clicked: the table selects its paper; one outside the area shows all results again,
        one outside the results is shown with the search kept (as a related paper's link is)."""
        if self.table.go_to(paper_id):
            return
        result = self._results
        if self._area is not None and result is not None and paper_id in result.ids:
            self.map_pane.view.clear_area()  # all results again, that paper current (go_to asked for it)
        else:
            self.go_to_paper(paper_id)

    def _map_exported(self, outcome: object) -> None:
        if isinstance(outcome, Path):
            self.notice.show_message(f"Map exported to {outcome}", 10000)

    # ---- editing ----

    def _push(self, command: PaperCommand) -> bool:
        """Do it, undoably; an action on several papers (or a removal) says what it did, with Undo. False: not
        done (waiting for an import to end, or refused)."""
        self.notice.clear("undo")  # an Undo or Redo offered for an older edit would now do the wrong one
        # one paper removed is named, as its undo names it (read first: a removed paper has no row to read)
        removing = isinstance(command, RemovePapersCommand)
        one = self.library.paper(command.ids[0]) if removing and len(command.ids) == 1 else None
        if not isinstance(command, SetNoteCommand):  # (a note's step comes of its save, maybe one that waited)
            self._reader_works_on()
        if not self.edits.push(command):
            return False  # waiting for an import to end, or refused (the gate's notice says which)
        if len(command.ids) > 1 or removing or isinstance(command, MergePapersCommand) or command.outcome.skipped:
            said = command.summary + (f" — {quoted(one.title, 60)}" if one is not None else "")
            if command.outcome.skipped:  # some of the papers were removed by another process meanwhile
                said += f" ({command.outcome.skipped})"
            self.notice.show_message(f"{said}.", 15000, "Undo", self._undo_from_notice, kind="undo")
        return True

    def _push_now(self, command: QUndoCommand) -> None:
        """Push the command (its first redo does it), not as an undo or redo to show (see _changed)."""
        self._pushing = True
        try:
            self.undo_stack.push(command)
        finally:
            self._pushing = False

    def _step(self, undo: bool) -> None:
        if self.edits.step(undo):
            self._say_undone(redone=not undo)

    def _library_says(self, message: str) -> None:
        """Library.notify: called on the library's threads too, so posted to this one; never fails (the window
        may be gone while the library closes)."""
        with suppress(RuntimeError):  # the window's C++ side is deleted
            self.librarySaid.emit(message)

    def _edits_waiting(self, n: int) -> None:
        """Marks were made, saved or dropped while the library was busy: the rows and the paper shown show
        those still waiting, as not yet saved, and the rest as the library holds them."""
        marks = self.edits.marks()
        self.table.model.set_waiting(marks)
        self.detail.show_waiting(marks)  # (its buttons follow: paperShown)
        self._enable_undo()
        if self._close_when_saved:
            return  # the notice says the window closes once they are saved, with its button
        if n:
            self.notice.show_message(waiting_text(n), 0, kind="waiting")
        else:
            self.notice.clear("waiting")

    def _enable_undo(self) -> None:
        """Undo stays enabled while edits wait, with nothing on the stack yet: it says why it cannot undo
        them now (EditGate.step), where it was greyed out and silent (a trial)."""
        if not self.read_only:
            self.actionUndo.setEnabled(self.undo_stack.canUndo() or bool(self.edits.waiting))

    def _edits_saved(self, n: int) -> None:
        self.notice.show_message(f"Saved {changes(n)} that waited for the library.", 10000)
        self._close_if_all_saved()

    def _close_if_all_saved(self) -> None:
        """After a close that waited for edits: close once no mark and no note waits."""
        if self._close_when_saved and not self.edits.waiting and not self.editors.unsaved_notes:
            QTimer.singleShot(0, self.close)  # after the edit's own signals are done with

    def _reader_works_on(self) -> None:
        """An edit, or typing in a note, after a close that waits for edits: the window no longer closes by
        itself once they are saved."""
        if self._close_when_saved:
            self._close_when_saved = False
            self.notice.clear("closing")

    def _note_waiting(self) -> None:
        if not self._close_when_saved:  # (else the notice says the window closes once it is saved)
            text = f"The note waits to be saved ({BUSY}); it is kept, and saved as soon as it finishes."
            self.notice.show_message(text, 0, kind="waiting")

    def _notes_saved(self) -> None:
        self.notice.show_message("Saved the note that waited for the library.", 10000)
        self._close_if_all_saved()

    def _undo_index_changed(self, _index: int) -> None:
        """An undo, a redo or another edit: an Undo button about an older edit would undo the wrong one."""
        if not self._pushing:
            self.notice.clear("undo")

    def _undo_from_notice(self) -> None:
        self.actionUndo.trigger()

    def _say_undone(self, redone: bool) -> None:
        """Ctrl+Z and its redo say what they did, and of which paper when it is one: an undo may act on a
        paper other than the one shown (it then selects it, unless done from the sidebar), and said nothing (a
        new user's trial). One done from the sidebar shows its filter as it was on that side of it (_show_views)."""
        stack = self.undo_stack
        command = stack.command(stack.index() - 1 if redone else stack.index())
        if command is None:
            return
        if not isinstance(command, PaperCommand):  # a list saved, renamed, moved or deleted: its own words
            said = command.text()
        else:
            if command.views is not None:
                self._show_views(command.views, redone)
            said = command.summary
            if len(command.ids) == 1 and (paper := self.library.paper(command.ids[0])) is not None:
                said += f" — {quoted(paper.title, 60)}"
            if command.outcome.skipped:  # not all of it: another process changed or removed some papers since
                said += f" ({command.outcome.skipped}, and left so)"
        again, verb = (self.actionUndo, "Undo") if redone else (self.actionRedo, "Redo")
        self.notice.show_message(
            f"{'Redone' if redone else 'Undone'}: {said}.", 15000, verb, again.trigger, kind="undo"
        )

    def _changed(self, ids: Sequence[int]) -> None:
        """After an edit of the papers selected (or its undo): refresh those rows, the counts, and the paper
        shown; an undo or a redo selects and shows the papers it changed (where the reader was). An edit
        made from the sidebar refreshes only (_push_from_sidebar)."""
        self._after_change(ids, self._pushing)

    def _after_change(self, ids: Sequence[int], pushed: bool) -> None:
        if self.edits.defer(self._after_change, ids, pushed):
            return  # after the edit's commit
        self._refresh_changed(ids)
        if not pushed and ids:
            self._show_changed(ids)

    def _refresh_changed(self, ids: Sequence[int]) -> None:
        """The papers shown stay until the next search, in their new state: "triaged N of M" follows them,
        and costs the papers changed, not the papers shown."""
        if self.edits.defer(self._refresh_changed, ids):
            return  # after the edit's commit
        self.table.refresh(ids)
        shown = self.table.model.shown(ids)
        if shown:
            triaged = self.library.triaged_among(shown)  # a state other than unread, or a priority
            for pid in shown:
                if pid in triaged:
                    self._view_triaged[pid] = triaged[pid]
                else:
                    self._view_triaged.pop(pid, None)
        self.update_counts()
        view = self.sidebar.filter
        if view.tag is not None or (view.smart_list is not None and (view.smart_list.tag or view.smart_list.query)):
            # the tag chosen may have become the user's or a keyword (Make It My Tag, its undo, a keyword typed
            # in the tag editor), the chosen list's tag (or one its query requires) gone or back: the caption
            # said "keyword" still; it says what the view is now, as does the empty table's message
            self._update_caption()
            if not self.table.model.rowCount():
                self._update_empty()
        self.detail.refresh(ids)
        self._list_timer.start()  # the lists are recounted once the marking pauses
        if self._map_pane is not None:
            self._map_pane.view.papers_changed(list(ids))
        self.suggester.schedule()  # and the suggestions re-ranked, in the background

    def _changed_elsewhere(self, ids: Sequence[int]) -> None:
        """Another process changed these papers: rows, counts, tags and the paper shown follow (a note being
        typed stays as typed)."""
        self._refresh_changed(ids)
        self.editors.update_completions()

    def _show_changed(self, ids: Sequence[int]) -> None:
        if not self.table.select_ids(ids):
            self._visit(ids[0])

    def _removed(self, ids: Sequence[int]) -> None:
        if self.edits.defer(self._removed, ids):
            return  # after the edit's commit
        self.table.remove(ids)
        if self.detail.visiting and self.detail.current_id in ids:
            self.detail.follow(self.table.current_id)
        self._papers_came_or_went()
        self._update_empty()

    def _restored(self, ids: Sequence[int]) -> None:
        """A removal undone: the results are searched again, and the papers brought back selected."""
        if self.edits.defer(self._restored, ids):
            return  # after the edit's commit
        self._papers_came_or_went()
        if ids:
            self._wanted, self._reveal = ids[0], list(ids)
        self.search_bar.run()

    def _papers_came_or_went(self) -> None:
        """Papers were removed or brought back (here, or elsewhere: an import, the command line): the counts,
        the tag completions, the map's dots and the suggestions follow."""
        self.update_counts()
        self.editors.update_completions()
        self._reload_map()
        self.suggester.schedule(force=True)

    def _push_tags(self, after: dict[int, list[str]], text: str, imported: dict[int, set[str]] | None = None) -> None:
        self._push(SetTagsCommand(self.library, after, text, self._changed, imported))

    def _push_sidebar_tags(
        self,
        after: dict[int, list[str]],
        text: str,
        imported: dict[int, set[str]] | None,
        view: Filter,
        renamed: tuple[str, str] | None = None,
    ) -> None:
        """A tag renamed or deleted, or the keywords removed, from the sidebar (which then shows `view`). The
        saved lists on a tag renamed follow it (`renamed`: old and new names). A list left filtering on a tag
        no paper has now keeps it (undone, the tag is back and the list with it), and the notice names it: it
        showed no papers, unexplained (a trial)."""
        lists = self.sidebar.lists
        before = self.library.missing_list_tags(lists)
        changed = self._refresh_changed
        command = (
            SetTagsCommand(self.library, after, text, changed, imported)
            if renamed is None
            else RenameTagCommand(self.library, after, text, changed, imported, renamed, self.update_lists)
        )
        done = self._push_from_sidebar(command, view)
        lists = self.sidebar.lists  # as the rename left them
        now = self.library.missing_list_tags(lists)
        gone = {sl.name: now[sl.id] for sl in lists if sl.id in now and sl.id not in before}
        kept = self.library.names_kept(command.moved, *command.renamed) if isinstance(command, RenameTagCommand) else {}
        if kept:
            # a list named by its query keeps its name where another list has the one the query now gives: said,
            # or the sidebar's unchanged name looked like the rename had missed it
            said = "; ".join(f"the list {quoted(name)} keeps its name: a list named {quoted(wanted)} exists"
                             for name, wanted in kept.items())  # fmt: skip
            self.notice.show_message(f"{command.summary}; {said}.", 20000, "Undo", self._undo_from_notice, kind="undo")
        elif gone:
            names = ", ".join(quoted(name) for name in gone)
            tags = ", ".join(dict.fromkeys(quoted(tag) for tag in gone.values()))
            lists_said = f"The list {names} filters" if len(gone) == 1 else f"The lists {names} filter"
            self.notice.show_message(
                f"{command.summary}. {lists_said} on the tag {tags}, which no paper has now: "
                f"{'it shows' if len(gone) == 1 else 'they show'} no papers until it is back.",
                20000, "Undo", self._undo_from_notice, kind="undo",
            )  # fmt: skip
        elif (
            done and len(command.ids) == 1 and not command.outcome.skipped
        ):  # _push says what an edit of several papers did; one is said here
            # too: a tag merged into another (on one paper) changed the sidebar's tags, unsaid
            self.notice.show_message(f"{command.summary}.", 15000, "Undo", self._undo_from_notice, kind="undo")

    def _push_from_sidebar(self, command: PaperCommand, view: Filter) -> bool:
        """An edit of a tag or the keywords chosen in the sidebar, which leaves its filter `view`: its undo and
        redo refresh the papers it changed, never select them (a tag's 2,613 papers selected made the
        next r or x a mass edit: a trial), and show the filter of their side (_show_views)."""
        command.views = (self.sidebar.filter, view)
        return self._push(command)

    def _show_views(self, views: tuple[Filter, Filter], redone: bool) -> None:
        """After the undo (or redo) of an edit made from the sidebar: its filter as it was before (after) the
        edit, if it is still as the edit (its undo) left it — a tag chosen is back with its papers, and a
        tag renamed back is followed. Else a view filtered by a tag is searched again, as the edit itself
        was (a `tag:CuO` search stayed "No papers match" after Delete Tag undone). Either way the current
        paper and the papers selected stay so, where the results hold them."""
        before, after = views
        start, end = (before, after) if redone else (after, before)
        selected = self.table.selected_ids() if self.table.selected_count() > 1 else []
        current = self.table.current_id
        if current in selected:  # select_ids makes the first current
            selected.remove(current)
            selected.insert(0, current)
        query, _, tag = self.current_view()
        if self.sidebar.filter == start and start != end:
            self._reveal = selected
            self.sidebar.set_filter(end)  # searched (filterChanged)
        elif tag is not None or _TAG_TERM.search(query):
            self._reveal = selected
            self.search_bar.run()

    def _push_note(self, paper_id: int, before: str, after: str) -> None:
        self._push(SetNoteCommand(self.library, paper_id, before, after, self._changed))

    def _title_edited(self, paper_id: int, title: str) -> None:
        paper = self.library.paper(paper_id)
        if paper is None or title == paper.title:
            return
        new = None if title == paper.auto_title else title
        self._push(SetTitleCommand(self.library, paper_id, new, self._changed))

    def _show_marks(self, paper: Paper | None = None) -> None:
        """The state and priority buttons (and the Paper menu) check the paper shown's; none for several papers
        selected (SVOO queued with P1 showed no button pressed: a trial)."""
        if paper is None and self.detail.current_id is not None:
            paper = self.detail.paper(self.detail.current_id)  # with its marks waiting to be saved
        one = paper is not None and self.table.selected_count() <= 1  # (not 8k ids read to count them)
        for state, action in self.mark_actions.items():
            action.setChecked(one and paper is not None and paper.state == state)
        for action, priority in zip(self.priority_actions, (*PRIORITIES, 0), strict=True):
            action.setChecked(one and paper is not None and bool(priority) and paper.priority == priority)

    def mark(self, state: str) -> None:
        ids = self.target_ids()
        if not ids or self.read_only:
            return
        advance = self.actionAutoAdvance.isChecked() and len(ids) == 1 and self.table.current_id is not None
        self._push(SetStateCommand(self.library, ids, state, self._changed))
        if advance:
            self.move_selection(1)

    def set_priority(self, priority: int | None) -> None:
        """Keys 1 2 3 (0 clears): the table stays on the paper, so that q or r can follow."""
        ids = self.target_ids()
        if not ids or self.read_only:
            return
        self._push(SetPriorityCommand(self.library, ids, priority, self._changed))

    # ---- suggestions ----

    def _suggesting(self) -> bool:
        """The papers shown are in predicted-interest order: the Suggested view, or the Suggested sort."""
        return self.sidebar.filter.suggested or self.actionSortSuggested.isChecked()

    def _explain(self, paper_id: int) -> Suggestion | None:
        """Why a paper is suggested, while suggestions are what the reader looks at."""
        return self.suggester.explain(paper_id) if self._suggesting() else None

    def _filter_changed(self, view: object) -> None:
        """Picking Suggested shows its order: a column's sort lets go; with nothing to learn from, it says so."""
        self._view_by_relevance = False  # the Suggested view opens in its own order
        header = self.table.view.horizontalHeader()
        if self.sidebar.filter.suggested:
            self._suggested_opened = True
            if header.sortIndicatorSection() >= 0:  # kept for the way back, with the query it was made on
                self._sort_before_suggested = (header.sortIndicatorSection(), header.sortIndicatorOrder(),
                                               self.search_bar.text())  # fmt: skip
            header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            if self.suggester.ranking is None and self.suggester.idle:
                self._say_no_ranking()
        else:
            if not self.actionSortSuggested.isChecked():
                self.notice.clear(NO_RANKING)  # about a view the reader has left
            if self._sort_before_suggested is not None:
                section, order, query = self._sort_before_suggested
                if query == self.search_bar.text() and header.sortIndicatorSection() < 0:
                    header.setSortIndicator(section, order)  # back from Suggested: the sort left there is back
            self._sort_before_suggested = None
        self.detail.set_explainer(self._explain)

    def _sort_suggested(self, on: bool) -> None:
        if on:
            self.table.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            if self.suggester.ranking is None:
                self._say_no_ranking()
        elif not self.sidebar.filter.suggested:
            self.notice.clear(NO_RANKING)
        self.detail.set_explainer(self._explain)
        self.search_bar.run()

    def _say_no_ranking(self) -> None:
        """Predicted interest asked for (the view or the sort) with no ranking: why, and the way to interests."""
        self.notice.show_message(reason_text(self.suggester.reason), 15000, "My Interests…", self.edit_interests,
                                 kind=NO_RANKING)  # fmt: skip

    def _header_sorted(self, section: int, _order: Qt.SortOrder) -> None:
        """A column's header sorts by that column: the Suggested sort lets go."""
        if section >= 0 and self.actionSortSuggested.isChecked():
            self.actionSortSuggested.setChecked(False)

    def _ranking_changed(self) -> None:
        """A re-rank arrived: the papers shown in its order are searched again (the current paper stays
        current; the papers marked meanwhile leave the Suggested view), and the paper shown says why anew."""
        if self._suggesting():
            current = self.table.current_id
            row = self.table.model.row_of(current) if current is not None and self.sidebar.filter.suggested else None
            # at the top: every paper above it marked meanwhile (they leave the view with this re-rank)
            above = self.table.model.ids[:row] if row is not None and row <= TOP_ROWS else None
            at_top = above is not None and len(self.library.triaged_among(above)) == len(above)
            self._top_when_reranked = current if at_top else None
            self.search_bar.run()
            self.detail.set_explainer(self._explain)

    def _say_ranked_above(self, same_query: bool) -> None:
        """The reader triaging from the top of Suggested keeps their paper through a re-rank; papers the re-rank
        put above it are said, with the way to them (they were passed over unseen: a new user's trial). The
        current paper does not change under the reader's keys: they could mark one they never saw."""
        top, self._top_when_reranked = self._top_when_reranked, None
        if not same_query:
            return  # results of a query typed meanwhile: their order is the query's, not the re-rank's
        row = self.table.model.row_of(top) if top is not None and self.table.current_id == top else None
        if row:
            self.notice.show_message(
                f"Re-ranked: {papers(row)} now rank{'s' if row == 1 else ''} above this one",
                10000, "Go to the top", lambda: self.table.select_row(0), kind=RANKED_ABOVE,
            )  # fmt: skip
        elif top is not None:
            self.notice.clear(RANKED_ABOVE)

    def edit_interests(self) -> None:
        """My interests: a text box and "Load from BibTeX…"; saved, they re-rank the suggestions."""
        if self.read_only:
            return
        from readinglist.ui.interests import InterestsDialog  # its dialog's Qt classes: not before the first paint

        dialog = InterestsDialog(self.library, self.settings, self)
        if dialog.exec():
            self.notice.show_message("Interests saved: the suggestions are re-ranked with them.", 5000)
            self.suggester.schedule(force=True)
        dialog.deleteLater()

    # ---- smart lists ----

    def current_view(self) -> tuple[str, str | None, str | None]:
        """The view shown as a list would keep it: (query, state, tag) — a list's own query and tag with
        the query typed and the state picked."""
        view, text = self.sidebar.filter, self.search_bar.text().strip()
        sl = view.smart_list
        if sl is None:
            return text, view.state, view.tag
        if sl.query and text:
            grouped = [f"({q})" if " OR " in q or " NOT " in q else q for q in (sl.query, text)]
            return " ".join(grouped), view.state, sl.tag
        return sl.query or text, view.state, sl.tag

    def save_list(self, name: str | None = None) -> None:
        """Save the view shown as a list (asking for its name if not given). The window stays as it was — the
        query typed, the papers selected, the scroll: the list only appears in the sidebar, and the notice
        offers to show it (saving switched to the list and emptied the search field, a trial)."""
        if self.read_only:
            return
        query, state, tag = self.current_view()
        left_out = self._not_saved_with_a_list(query, state, tag)
        while True:
            if name is None:
                from PySide6.QtWidgets import QInputDialog

                name, ok = QInputDialog.getText(
                    self, "Save View as List",
                    f"A list keeps this view's query, state and tag; its count stays live.{left_out}\nName:",
                    text=describe_view(query, state, tag),
                )  # fmt: skip
                if not ok:
                    return
            try:
                self.library.check_smart_list(name, query)
                break
            except (StoreError, QueryError) as exc:
                from PySide6.QtWidgets import QMessageBox

                QMessageBox.warning(self, "Save View as List", str(exc))
                name = None
        command = SaveListCommand(self.library, name, query, state, tag, self.update_lists)
        if self.edits.push(command) and (saved := command.saved) is not None:
            said = f"Saved the list “{saved.name}” ({saved.describe()})."
            self.notice.show_message(said, 15000, "Show It", partial(self.show_list, saved.id))

    def _not_saved_with_a_list(self, query: str, state: str | None, tag: str | None) -> str:
        """What narrows the view that a list does not keep (a topic picked in the sidebar, an area picked on the
        map), for the Save dialog to say, with how many papers the list will hold: the view showed 195 papers,
        the list saved from it 236, and the dialog had not said why (a user trial). '' when nothing is left out."""
        left: list[str] = []
        if (topic := self.topics_section.picked) is not None:
            left.append(f"the topic {quoted(topic.label, 60)} picked in the sidebar")
        if self._area is not None:
            left.append("the area picked on the map")
        if not left:
            return ""
        try:
            holds = f"{papers(self.library.list_count(SmartList(0, '', query, state, tag)))}"
        except (StoreError, QueryError):
            holds = "every paper the rest of the view matches"
        shown = f", where the view shows {len(self._results.ids)}" if self._results is not None else ""
        keep = f" (“topic:{topic.id}” in the query keeps the topic)" if topic is not None else ""
        return f"\n\nNot saved with it: {' and '.join(left)}. The list will hold {holds}{shown}{keep}."

    def show_list(self, list_id: int) -> None:
        """Show the saved list (with its own state), the search field emptied: the list holds the query."""
        if (sl := self._list(list_id)) is not None:
            self.search_bar.clear()
            self.sidebar.set_filter(replace(ALL, state=sl.state, smart_list=sl))

    def _list(self, list_id: int) -> SmartList | None:
        return next((sl for sl in self.sidebar.lists if sl.id == list_id), None)

    def rename_list(self, list_id: int, name: str) -> None:
        sl = self._list(list_id)
        if sl is None or self.read_only:
            return
        try:
            self.library.check_smart_list(name, list_id=list_id)
        except StoreError as exc:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, "Rename List", str(exc))
            return
        after = replace(sl, name=" ".join(name.split()))
        self.edits.push(UpdateListCommand(self.library, after, f"Rename list “{sl.name}”", self.update_lists))

    def redefine_list(self, list_id: int) -> None:
        """The list keeps its name and takes the view shown (its query, state and tag)."""
        sl = self._list(list_id)
        if sl is None or self.read_only:
            return
        query, state, tag = self.current_view()
        after = SmartList(sl.id, sl.name, query, state, tag)
        self.edits.push(UpdateListCommand(self.library, after, f"Redefine list “{sl.name}”", self.update_lists))

    def move_list(self, list_id: int, place: int) -> None:
        if (sl := self._list(list_id)) is not None and not self.read_only:
            self.edits.push(MoveListCommand(self.library, list_id, place, sl.name, self.update_lists))

    def delete_list(self, list_id: int) -> None:
        if (sl := self._list(list_id)) is not None and not self.read_only:
            self.edits.push(DeleteListCommand(self.library, list_id, sl.name, self.update_lists))

    def _lists_changed_elsewhere(self) -> None:
        """The saved lists changed: the sidebar follows, unless it shows them so already (this window's own)."""
        if self.library.smart_lists() != self.sidebar.lists:
            self.update_lists()

    def update_lists(self) -> None:
        """The saved lists as they are now, with the counts known, and a recount on its way."""
        if self.edits.defer(self.update_lists):
            return  # after the edit's commit
        lists = self.library.smart_lists()
        self.sidebar.update_lists(lists, self._list_counts, self.library.missing_list_tags(lists))
        self._count_lists()

    def _count_lists(self) -> None:
        """Count every list on the pool (one count at a time; a change meanwhile counts again after it)."""
        lists = self.sidebar.lists
        if not lists:
            return
        if self._counting_lists:
            self._lists_due = True
            return
        self._counting_lists = True

        def count() -> tuple[dict[int, int], dict[int, str]]:
            # and which lists' tags no paper has now: a tag deleted (or put back) is a change that recounts
            return {sl.id: self.library.list_count(sl) for sl in lists}, self.library.missing_list_tags(lists)

        self.runner.run(count, self._lists_counted, self._lists_failed)

    def _lists_counted(self, counted: tuple[dict[int, int], dict[int, str]]) -> None:
        self._counting_lists = False
        self._list_counts, missing = counted
        self.sidebar.update_lists(self.sidebar.lists, self._list_counts, missing)
        if self._lists_due:
            self._lists_due = False
            self._count_lists()

    def _lists_failed(self, exc: Exception) -> None:
        self._counting_lists = False
        self.notice.show_message(f"Could not count the saved lists: {exc}")

    def remove_papers(self) -> None:
        ids = self.target_ids()
        if ids and not self.read_only:
            self._push(RemovePapersCommand(self.library, ids, self._removed, self._restored))

    def merge_papers(self) -> None:
        """Merge the two papers selected: the one added first is kept, the other merged into it."""
        ids = sorted(self.target_ids())
        if len(ids) == 2 and not self.read_only:
            self._push(MergePapersCommand(self.library, ids[0], ids[1], self._removed, self._restored))

    def keep_apart(self) -> None:
        ids = sorted(self.target_ids())
        if len(ids) == 2 and not self.read_only:
            self._push(KeepApartCommand(self.library, ids[0], ids[1], self._changed))

    def move_selection(self, step: int) -> None:  # not move(): that is QWidget's, for the window's position
        self.table.move(step)

    def _paper_menu(self, pos: QPoint) -> None:
        menu = menus.paper_menu(self)
        menu.exec(pos)
        menu.deleteLater()

    # ---- the paper actions that leave the window ----

    def open_link(self, url: str | None = None) -> None:
        """The paper's page (its URL, else its first link) in the browser."""
        from readinglist.ui import paper_actions  # (citations, the browser: when first used)

        if url is None:
            ids = self.target_ids()
            links = paper_actions.web_links(self.library.paper(ids[0]) if ids else None)
            if not links:
                self.notice.show_message("This paper has no link.", 5000)
                return
            url = links[0]
        paper_actions.open_in_browser(url)

    def copy(self, what: str) -> None:
        """Copy the target papers as a text citation, BibTeX, or their ids."""
        from readinglist.ui import paper_actions

        chosen = self.library.papers(self.target_ids())
        if chosen:
            self.notice.show_message(paper_actions.copy(chosen, what), 5000)

    # ---- status, counts, empty states ----

    def update_counts(self) -> None:
        """Counts in the sidebar and the status bar, read again (after edits, imports, or outside changes)."""
        counts = {**self.library.counts(), "duplicates": len(self.library.possible_duplicates())}
        self.sidebar.update_counts(counts)
        if self.library.topics_stamp() != self._topics_stamp:  # computed again elsewhere: the picked one checked
            self._topics_computed()
        elif self.topics_section.topics:
            self.topics_section.set_topics(self.library.topics())  # what is left to triage in each
            self.topics_section.set_unplaced(self.library.unplaced(), counts["all"])
        self._counts = counts
        self._update_status()

    def _update_status(self) -> None:
        c = self._counts or self.library.counts()
        shown, triaged = self.table.model.rowCount(), len(self._view_triaged)
        parts = [f"{c['all']:,} papers", f"{shown:,} shown", f"triaged {triaged:,} of {shown:,}"]
        selected = self.table.selected_count()
        if selected > 1:
            parts.append(f"{selected:,} selected")
        self.statusLabel.setText(" · ".join(parts))
        self.view_summary.show_triaged(triaged, shown)

    def _keyword(self, view: Filter) -> bool:
        """Whether the view's tag is one of the Keywords (the words say "keyword", not "tag")."""
        # one tag looked up by name (the caption follows every keystroke), not every keyword read
        return view.tag is not None and any(kw for _, kw in self.library.tag_marks([view.tag]).values())

    def _missing_tag(self, view: Filter) -> str | None:
        """The chosen list's tag, or one its query requires (`tag:theory`), if no paper has it now (deleted, say):
        the list shows nothing, and says why."""
        sl = view.smart_list
        return self.library.missing_list_tags([sl]).get(sl.id) if sl is not None else None

    def _update_caption(self) -> None:
        topic = self.topics_section.picked
        view = self.sidebar.filter
        label = topic.label if topic else None
        self.view_summary.show_view(view, self.search_bar.text(), label, self._keyword(view), self._missing_tag(view))

    def _update_empty(self, unreadable: bool = False) -> None:
        """The empty table's message, whenever the table is empty (after results, a removal, a failed query)."""
        self._empty_text = None
        if not self.table.model.rowCount():
            empty = self.library.counts()["all"] == 0
            view = self.sidebar.filter
            phrase = view.phrase(self._keyword(view)) if view != ALL else None
            text = empty_text(empty, self.search_bar.text().strip(), phrase, unreadable=unreadable)
            result = self.search_bar.last_result
            if result is not None and result.provisional and result.query.strip() and not empty:
                text = (
                    "No paper found yet: the search index is being built, and the search runs again once it is ready."
                )
            if (tag := self._missing_tag(view)) is not None and not empty:
                import html  # (not before the first paint, as empty_text's)

                text += f"<br>(the list {html.escape(missing_tag_text(tag))})"
            topic = self.topics_section.picked
            if topic is not None and not empty:
                text += f"<br>(in the topic “{topic.label}” — <a href='alltopics'>show all topics</a>)"
            if self._area is not None and not empty:  # an area picked on the map narrows every search
                text += (f"<br>(among the {papers(len(self._area))} of the map area — "
                         "<a href='allarea'>let go of the area</a>)")  # fmt: skip
            self._empty_text = text
        self.table.show_empty(self._empty_text)
        if self._map_pane is not None:  # the map says it too: there, nothing lit was unexplained (a trial)
            self._map_pane.show_empty(self._empty_text)

    def _empty_link(self, link: str) -> None:
        if link == "clear":
            self.search_bar.clear()
        elif link == "import":
            self.import_dialog()
        elif link == "all":
            self.sidebar.set_filter(ALL)
        elif link == "alltopics":
            self.topics_section.set_topic(None)
        elif link == "allarea" and self._map_pane is not None:
            self._map_pane.view.clear_area()

    # ---- focus ----

    def focus_search(self) -> None:
        self.search_bar.focus()

    def focus_papers(self) -> None:
        """Back to the papers shown, out of an editor: the table, or the map on its tab (the table's focus on
        the Map tab went nowhere: the tag field kept the keys, and "j" typed "rl-policyj": a trial)."""
        if self._map_pane is not None and self.centerTabs.currentIndex() == 1:
            self._map_pane.view.setFocus()
        else:
            self.table.view.setFocus()

    def focus_tags(self) -> None:
        if self.target_ids():
            self.editors.focus_tags()

    def focus_notes(self) -> None:
        if self.target_ids():
            self.editors.focus_notes()

    def show_all(self) -> None:
        """Ctrl+0: back to every paper from a state, tag, list, topic, Suggested or the duplicates, from the
        keyboard wherever the focus is (a click on All keeps a topic picked: this lets go of it too)."""
        section = self.topics_section
        if section.topic is not None and self.sidebar.filter != Filter():
            with QSignalBlocker(section):  # one search, the sidebar's, with the topic let go (not two)
                section.set_topic(None)
        else:
            section.set_topic(None)
        self.sidebar.set_filter(Filter())

    def escape(self) -> None:
        """Esc: out of an editor, back to the papers (the tags as they were); anywhere else the search is
        cleared and the cursor put in it, so that what is typed next is a query, never a key on a paper."""
        focus = QApplication.focusWidget()
        editors = self.editors
        if self._map_pane is not None and focus is self._map_pane.view and self._map_pane.view.clear_area():
            return
        if focus is editors.tagEditor:
            editors.revert_tags()
            self.focus_papers()
        elif focus is editors.notesEditor:
            editors.save_note()
            self.focus_papers()
        else:
            self.search_bar.clear()
            self.search_bar.focus()

    # ---- import and export ----

    def import_dialog(self) -> None:
        if not self.read_only and (files := ask_import(self, self.settings)):
            self.start_import(files)

    def merge_notes_dialog(self) -> None:
        from readinglist.ui.import_bar import ask_notes_folder

        if not self.read_only and (folder := ask_notes_folder(self, self.settings)) is not None:
            self.start_import([folder])

    def start_import(self, files: Sequence[Path]) -> None:
        """Import on a worker with progress in the status bar; importFinished says how it went."""
        if not self.read_only and self.import_bar.start(files):
            self.outside.pause()  # its chunks are this window's, even when a child process writes them
            self.notice.clear()
            self.topics_bar.cancel()  # computed again once the import is in

    def _after_import(self) -> None:
        runtime.freeze_long_lived()  # what the import loaded (parsers, LaTeX tables) stays
        self._default_columns()
        self._papers_came_or_went()
        self._list_timer.start()
        self.search_bar.run()
        self.topics_bar.update_if_due()
        if self.detail.current_id is not None:  # a record merged into it, or another process changed it
            self.detail.refresh([self.detail.current_id])

    def _after_restore(self, _summary: object) -> None:
        """Annotations of any paper may have changed, and lists come: the counts, lists, results and the paper
        shown."""
        self.update_lists()
        self._after_import()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if not self.read_only and event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        files = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if files:
            event.acceptProposedAction()
            self.settings.setValue("importFolder", str(files[0].parent))  # where the import dialog opens next
            self.start_import(files)

    def export_dialog(self) -> None:
        from readinglist.ui.exporting import ask_export

        counts = {
            "results": self.table.model.rowCount(),
            "selection": len(self.table.selected_ids()),
            "all": (self._counts or self.library.counts())["all"],
        }
        view = self.sidebar.filter
        name = view.smart_list.name if view.smart_list is not None else view.tag or ""
        chosen = ask_export(self, self.settings, counts, name)
        if chosen is not None:
            self.export_to(*chosen)

    def export_to(self, path: Path, options: ExportOptions, scope: str) -> None:
        """Export the results, the selection or all papers on a worker; exportFinished says how it went.
        What is exported is decided now: the results or the selection as they are when it is asked for."""
        ids: list[int] | None = None  # all papers
        if scope == "selection":
            ids = self.target_ids()
            options.scope = "selection"
        elif scope == "all":
            options.scope = "all papers"
        else:
            ids = list(self.table.model.ids)
            options.query = self.search_bar.text().strip()
            view = self.sidebar.filter
            options.scope = view.phrase(self._keyword(view)) if view != ALL else ""
            topic = self.topics_section.picked
            if topic is not None:
                options.scope = " · ".join(x for x in (options.scope, f"topic {topic.label}") if x)
        self.exporter.write(path, options, ids)

    # ---- closing ----

    def closeEvent(self, event: QCloseEvent) -> None:
        self.editors.save_note()
        self.import_bar.cancel()  # this window's import lets the library go: what waits on it is saved
        if not self._close_anyway and not self._saved_before_closing():
            event.ignore()
            return
        self.topics_bar.cancel()
        self.save_settings()
        self.topics_bar.wait()
        for runner in self.findChildren(Runner):  # the map's and the topics bar's too
            runner.close()
        super().closeEvent(event)

    def _saved_before_closing(self) -> bool:
        """Whether nothing the reader did waits to be saved (a mark, a note), after waiting CLOSE_WAIT for an
        import to let the library go. Else the window stays open, says so, and closes once they are saved,
        or at once if the reader chooses to lose them."""
        deadline = time.monotonic() + (0 if self._close_when_saved else CLOSE_WAIT)  # (waited once already)
        while True:
            saved = self.edits.save_waiting(wait=0.2) and self.editors.save_unsaved_notes(wait=0.2)
            if saved or time.monotonic() >= deadline:
                break
        if saved:
            return True
        self._close_when_saved = True
        n = self.edits.waiting + len(self.editors.unsaved_notes)
        self.notice.show_message(
            f"Not closed yet: {changes(n)} {'wait' if n != 1 else 'waits'} to be saved ({BUSY}). The window "
            "closes as soon as they are.", 0, "Close Without Them", self._close_without_saving, kind="closing",
        )  # fmt: skip
        return False

    def _close_without_saving(self) -> None:
        """Close now: the edits waiting are dropped (the retries went on after the window closed and saved
        them, a trial found)."""
        self.edits.drop_waiting()
        self.editors.drop_unsaved_notes()
        self._close_anyway = True
        self.close()

    def shutdown(self) -> None:
        """Join workers and close the library (tests call this before teardown)."""
        self._warm_timer.stop()
        self.suggester.stop()
        self.outside.stop()
        self._list_timer.stop()
        self.topics_bar.cancel()
        self.runner.wait()
        self.topics_bar.wait()
        self.library.close()


def _ranked(scores: list[float], words: int) -> bool:
    """Whether a result is in an order of its own (rank order), not the order added (ties: ranking.ranked).
    One match of a query with words was ranked too: one score cannot differ from another."""
    if len(scores) == 1:
        return words > 0
    return len(scores) > 1 and max(scores) != min(scores)
