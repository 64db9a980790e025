"""The sidebar: the library by reading state, the saved lists and the tags, each with its count, and under
them what the papers shown are and how far their triage has come. Its first entry, Suggested, is the
untriaged papers (unread, no priority) in the order the interest ranking predicts (ui/suggestions.py).

The sidebar narrows the papers two ways at once, as Zotero's collections and tag selector do: by a state (the
Library section: All, Unread, Queued, …) and by a tag or a saved list. Both choices stay highlighted, a click
on a state keeps the tag, a click on a tag keeps the state, a second click on the tag (or list) lets it go,
and the caption under the tree says in words what is shown ("Unread · tag diffusion") with a button to show
every tag again. A list is a saved query, state and tag: picking it picks its state too, and another state
may then be picked to see the rest of the list. Edits (renaming a tag or a list, deleting, moving a list)
leave as signals that the window makes undoable.

Over 400 lines: three sections of one tree with one selection model (a state plus a tag or list); the
counts, the caption and the context menus all read that one selection.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from readinglist.library import Library
from readinglist.papers import (
    DEFAULT_STATE,
    STATE_HINTS,
    STATE_KEYS,
    STATE_LABELS,
    STATES,
    SmartList,
    StoreError,
    same_tag,
)
from readinglist.ui.fitting import WrappingLabel, elide, elide_counted
from readinglist.ui.wording import CAPTION_QUERY_CHARS, quoted

Key = tuple[str, str | None]  # one row: ("all", None), ("state", "read"), ("tag", "name"), ("list", "12")
ALL_KEY: Key = ("all", None)
SUGGESTED_KEY: Key = ("suggested", None)
KEYWORDS_OPEN = 12  # a Keywords section of more entries than this starts closed (a click on its heading opens it)
DUPLICATES_KEY: Key = ("duplicates", None)


@dataclass(frozen=True)
class Filter:
    """What the sidebar narrows the papers to: a state (None: every state), and a tag or a saved list; or,
    `suggested`, the untriaged papers (unread, no priority) by predicted interest, within the tag if one."""

    state: str | None = None
    tag: str | None = None
    smart_list: SmartList | None = None
    suggested: bool = False
    duplicates: bool = False  # the papers of the possible duplicates, each pair's together

    def search_args(self) -> dict[str, Any]:
        """Library.search's arguments for this filter (the query typed is searched within them). Suggested
        searches the unread papers: the ranking keeps those without a priority, in its order."""
        if self.duplicates:
            return {"duplicates": True}
        sl = self.smart_list
        state = DEFAULT_STATE if self.suggested else self.state
        return {"state": state, "tag": sl.tag if sl else self.tag, "within": sl.query if sl else ""}

    def phrase(self, keyword: bool = False) -> str:
        """The papers shown, in words that fit a sentence: "unread papers tagged “rl”" (`keyword`: the tag is
        one of the Keywords: "papers with the keyword “CuO”")."""
        tagged = f" with the keyword “{self.tag}”" if keyword else f" tagged “{self.tag}”"
        if self.duplicates:
            return "possible duplicates"
        if self.suggested:
            return "suggested papers" + (tagged if self.tag else "")
        head = f"{STATE_LABELS[self.state].lower()} papers" if self.state else "papers"
        if self.smart_list is not None:
            return f"{head} in the list “{self.smart_list.name}”"
        return f"{head}{tagged}" if self.tag else head

    def caption(self, keyword: bool = False) -> str:
        """What the sidebar's caption says: "Unread · tag rl", "List: To read", "List: To read · Read"
        (`keyword`: "All · keyword CuO")."""
        kind = "keyword" if keyword else "tag"
        if self.duplicates:
            return "Possible duplicates"
        if self.suggested:
            return f"Suggested · {kind} {self.tag}" if self.tag else "Suggested"
        state = STATE_LABELS[self.state] if self.state else "All"
        sl = self.smart_list
        if sl is not None:
            if self.state == sl.state:
                return f"List: {sl.name}"
            return f"List: {sl.name} · {state if self.state else 'every state'}"
        return f"{state} · {kind} {self.tag}" if self.tag else ("All papers" if self.state is None else state)

    @property
    def narrowed(self) -> bool:
        """A tag or a list is chosen (what the caption's clear button lets go)."""
        return self.tag is not None or self.smart_list is not None


ALL = Filter()


def missing_tag_text(tag: str) -> str:
    """Why a list whose tag no paper has shows nothing, and what brings it back."""
    return (
        f"it filters on the tag “{tag}”, which no paper has now (deleted, say): it shows no papers until "
        "a paper has the tag again (Edit → Undo), or the list is given the view shown (right-click → Replace with "
        "the View Shown)"
    )


class SidebarModel(QStandardItemModel):
    """Library (All and each state), Lists and Tags, each entry with its count."""

    KeyRole = Qt.ItemDataRole.UserRole + 10  # "state\x1fread", "tag\x1fname", "list\x1f12", "all\x1f"
    LabelRole = Qt.ItemDataRole.UserRole + 11  # an entry's name, without its count (cut to fit, the count kept)
    CountRole = Qt.ItemDataRole.UserRole + 12  # "1,234", "…", "tag gone"

    @staticmethod
    def encode(key: Key) -> str:
        return f"{key[0]}\x1f{key[1] or ''}"

    @staticmethod
    def decode(value: object) -> Key | None:
        if not isinstance(value, str) or "\x1f" not in value:
            return None
        kind, _, name = value.partition("\x1f")
        return kind, (name or None)

    def __init__(self, parent: Any = None):
        super().__init__(parent)
        self.setHorizontalHeaderLabels(["Library"])
        self.library_root = QStandardItem("Library")
        self.lists_root = QStandardItem("Lists")
        self.tags_root = QStandardItem("Tags")
        self.keywords_root = QStandardItem("Keywords")
        for root in (self.library_root, self.lists_root, self.tags_root, self.keywords_root):
            root.setSelectable(False)
            root.setEditable(False)
            font = root.font()
            font.setBold(True)
            root.setFont(font)
            self.appendRow(root)
        self.lists_root.setToolTip("Saved views: a query, a state and a tag, counted live (File → Save View as List)")
        self.tags_root.setToolTip("Click a tag to show its papers in the state chosen above; click it again to let go")
        self.keywords_root.setToolTip(
            "Keywords: the tags imported files gave (BibTeX keywords, RIS KW, a keywords column), kept apart from "
            "yours. Click here to show or hide them; right-click to make them your tags or remove them"
        )

    @staticmethod
    def library_entries(counts: dict[str, int]) -> list[tuple[str, Key, str]]:
        """The Library section: Suggested (the untriaged papers, by predicted interest), All, then each state,
        with its count."""
        entries: list[tuple[str, Key, str]] = [
            ("Suggested", SUGGESTED_KEY, f"{counts.get('untriaged', counts[DEFAULT_STATE]):,}"),
            ("All", ALL_KEY, f"{counts['all']:,}"),
        ]
        entries += [(STATE_LABELS[state], ("state", state), f"{counts[state]:,}") for state in STATES]
        if counts.get("duplicates"):  # pairs found at import, for the user to merge or keep apart
            entries.append(("Possible duplicates", DUPLICATES_KEY, f"{counts['duplicates']:,}"))
        return entries

    def update_counts(
        self, counts: dict[str, int], tags: list[tuple[str, int]], keywords: Collection[str] = ()
    ) -> None:
        """The counts, and the tags: the user's under Tags, those only files gave (`keywords`) under Keywords."""
        self._fill(self.library_root, self.library_entries(counts))
        for r in range(self.library_root.rowCount()):
            item = self.library_root.child(r)
            key = self.decode(item.data(self.KeyRole))
            if key and key[0] == "state" and key[1]:
                tip = f"{STATE_LABELS[key[1]]}: {STATE_HINTS[key[1]]} (key {STATE_KEYS[key[1]].lower()})"
                if item.toolTip() != tip:
                    item.setToolTip(tip)
            elif key == DUPLICATES_KEY:
                item.setToolTip("Possible duplicates: pairs that may be one paper (found at import). Select both "
                                "papers of a pair, right-click: Merge Duplicates or Keep Apart")  # fmt: skip
            elif key == SUGGESTED_KEY and not item.toolTip().startswith("Suggested:"):
                item.setToolTip("Suggested: the papers you have not triaged (unread, no priority), those you will "
                                "most likely care about first, learned from your marks and interests")  # fmt: skip
        own = [(name, n) for name, n in tags if name not in keywords]
        given = [(name, n) for name, n in tags if name in keywords]
        self._fill(self.tags_root, [(name, ("tag", name), f"{n:,}") for name, n in own])
        self.tags_root.setText(f"Tags ({len(own)})" if own else "Tags")
        # the Keywords heading is the view's to write (Sidebar._mark_keywords_heading: it says whether it is open)
        self._fill(self.keywords_root, [(name, ("tag", name), f"{n:,}") for name, n in given])

    def update_lists(self, lists: list[SmartList], counts: dict[int, int], missing: dict[int, str]) -> None:
        """The saved lists in their order, with the counts known (… until counted); a list whose tag no paper
        has now (`missing`: deleted, say) says so where its count was, not a bare 0."""

        def shown(sl: SmartList) -> str:
            return "tag gone" if sl.id in missing else f"{counts[sl.id]:,}" if sl.id in counts else "…"

        self._fill(self.lists_root, [(sl.name, ("list", str(sl.id)), shown(sl)) for sl in lists])
        by_id = {str(sl.id): sl for sl in lists}
        for r in range(self.lists_root.rowCount()):
            item = self.lists_root.child(r)
            key = self.decode(item.data(self.KeyRole))
            if key and key[1] in by_id:
                sl = by_id[key[1]]
                tip = f"{sl.name}: {sl.describe()} — right-click to rename, move or delete"
                if sl.id in missing:
                    tip = f"{sl.name}: {sl.describe()} — {missing_tag_text(missing[sl.id])}"
                item.setToolTip(tip)
        if not lists:
            hint = QStandardItem("No lists yet: Ctrl+S saves the view")
            hint.setEnabled(False)
            hint.setSelectable(False)
            hint.setEditable(False)
            hint.setToolTip(
                "No lists yet: File → Save View as List (Ctrl+S) keeps the query, the state and the tag shown, with "
                "a live count"
            )
            self.lists_root.appendRow(hint)

    def _fill(self, root: QStandardItem, entries: Sequence[tuple[str, Key, str]]) -> None:
        wanted = [self.encode(key) for _, key, _ in entries]
        for r in reversed(range(root.rowCount())):
            if root.child(r).data(self.KeyRole) not in wanted:
                root.removeRow(r)
        for row, (label, key, count) in enumerate(entries):
            text = f"{label}  ({count})"
            item = root.child(row) if row < root.rowCount() else None
            if item is None or item.data(self.KeyRole) != self.encode(key):  # new, or moved: (re)placed here
                later = range(row, root.rowCount())
                existing = next((r for r in later if root.child(r).data(self.KeyRole) == wanted[row]), None)
                if existing is not None:
                    root.insertRow(row, root.takeRow(existing))
                else:
                    item = QStandardItem(text)
                    item.setEditable(False)
                    item.setData(self.encode(key), self.KeyRole)
                    item.setData(label, self.LabelRole)
                    item.setData(count, self.CountRole)
                    item.setData(label, Qt.ItemDataRole.ToolTipRole)  # the whole name, where it is cut to fit
                    root.insertRow(row, [item])
                item = root.child(row)
            if item.text() != text:
                item.setText(text)
                item.setData(count, self.CountRole)
                if item.data(self.LabelRole) != label:  # a list renamed: it kept its row, and showed its old name
                    item.setData(label, self.LabelRole)
                    item.setData(label, Qt.ItemDataRole.ToolTipRole)

    def find(self, key: Key) -> QModelIndex:
        """The entry's row, looked for by Qt (a loop here ran in Python over every tag, on every key)."""
        flags = Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive | Qt.MatchFlag.MatchWrap
        found = self.match(self.index(0, 0), self.KeyRole, self.encode(key), 1, flags)
        return found[0] if found else QModelIndex()


def text_width(option: QStyleOptionViewItem) -> int:
    """The pixels an item view's entry has for its text: its rect less the style's icon and margins, and less
    one spare pixel: the view cuts a text whose width, in fractions of a pixel, passes its room by a fraction
    that the whole pixels measured here round away ("Possible duplicates (3…" at one sidebar width: a trial)."""
    widget = option.widget
    style = widget.style() if widget is not None else QApplication.style()
    rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1  # as Qt draws it
    return rect.width() - 2 * margin - 1


class _FittedDelegate(QStyledItemDelegate):
    """Each entry cut to the sidebar's width where it is too long: its name cut with "…" at a word's end and
    its count kept ("reinforcement-learning… (2)": the view's own cut took the count with the name's end); the
    whole name is in its tooltip. A heading is cut as one."""

    def fitted(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> str:
        label, count = index.data(SidebarModel.LabelRole), index.data(SidebarModel.CountRole)
        if isinstance(label, str) and isinstance(count, str):
            return elide_counted(option.fontMetrics, label, count, text_width(option))
        return elide(option.fontMetrics, option.text, text_width(option))

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = self.fitted(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)


class Sidebar(QTreeView):
    """The sidebar pane; it owns the filter (`filter`) that searches combine with the query."""

    filterChanged = Signal(object)  # Filter: another entry was picked, or the papers under the filter changed
    # {paper id: its tags after the edit}, the undo text, {paper id: which are keywords after} or None, the
    # filter the edit leaves (a tag chosen follows its rename, and is let go when deleted): the window's undo
    # puts the filter back with the tags; and (old, new) for a rename, whose saved lists follow it, else None
    tagsEdited = Signal(object, str, object, object, object)
    keywordsMadeTags = Signal(object, str)  # [(paper id, tag)]: keywords files gave, now the user's; the undo text
    listRenameRequested = Signal(int, str)  # list id, new name
    listRedefineRequested = Signal(int)  # list id: give it the view shown now
    listMoveRequested = Signal(int, int)  # list id, new place
    listDeleteRequested = Signal(int)  # list id
    saveListRequested = Signal()
    navigate = Signal(int)  # the mouse's Back (-1) or Forward (+1) button

    def __init__(self, library: Library, parent: QWidget | None = None):
        super().__init__(parent)
        self.library = library
        self._filter: Filter = ALL
        self._lists: list[SmartList] = []
        self._at_press: Filter | None = None  # the filter before a press (a click on its tag lets the tag go)
        self._updating = False  # rows are being replaced: the current row moving is not the user's pick
        self.entries = SidebarModel(self)
        self.setObjectName("tagSidebar")
        self.setModel(self.entries)
        self._delegate = _FittedDelegate(self)
        self.setItemDelegate(self._delegate)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)  # the two choices, shown by us
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setExpandsOnDoubleClick(False)  # the Keywords heading opens and closes on a click (_clicked)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.expandAll()
        self.collapse(self.entries.keywords_root.index())  # opened when it gets its first few (_rows_replaced)
        self.expanded.connect(self._mark_keywords_heading)
        self.collapsed.connect(self._mark_keywords_heading)
        self._mark_keywords_heading()
        self.selectionModel().currentChanged.connect(self._current_changed)
        self.clicked.connect(self._clicked)
        self.setMinimumWidth(150)
        self._show_choice()

    def _mark_keywords_heading(self, _index: QModelIndex | None = None) -> None:
        """The Keywords heading says it opens and closes (▸ ▾: the tree draws no arrows), and is hidden while
        the library has no keywords."""
        root = self.entries.keywords_root
        count = root.rowCount()
        text = f"Keywords ({count}) {'▾' if self.isExpanded(root.index()) else '▸'}" if count else "Keywords"
        if root.text() != text:
            root.setText(text)
        self.setRowHidden(root.row(), QModelIndex(), not count)

    def shown_text(self, key: Key) -> str:
        """What the entry's row shows at the sidebar's width now: its name cut to fit, its count kept."""
        index = self.entries.find(key)
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        option.rect = self.visualRect(index)
        self._delegate.initStyleOption(option, index)
        return self._delegate.fitted(option, index)

    # ---- the filter ----

    @property
    def filter(self) -> Filter:
        return self._filter

    @property
    def lists(self) -> list[SmartList]:
        return list(self._lists)

    def set_filter(self, view: Filter) -> None:
        """Show `view` picked (filterChanged is emitted if it differs from the filter before)."""
        self._apply(view)

    def restore(self, view: Filter) -> None:
        """Show `view` picked without a word of it (the window opening on the view it was closed on searches
        once, after)."""
        self._filter = view
        self._show_choice()

    def clear_narrowing(self) -> None:
        """Let go of the tag or list, keeping the state."""
        self._apply(replace(self._filter, tag=None, smart_list=None))

    def _apply(self, view: Filter) -> None:
        changed = view != self._filter
        self.restore(view)
        if changed:
            self.filterChanged.emit(view)

    def selectionCommand(self, index: QModelIndex | QPersistentModelIndex, event: Any = None) -> Any:
        """Qt never changes the highlight itself: the rows highlighted are the filter's (see _show_choice)."""
        return QItemSelectionModel.SelectionFlag.NoUpdate

    def _show_choice(self) -> None:
        """Highlight the state's row and the tag's or list's row: what is combined is what is lit."""
        view = self._filter
        first = DUPLICATES_KEY if view.duplicates else SUGGESTED_KEY if view.suggested else None
        keys: list[Key] = [first or (("state", view.state) if view.state else ALL_KEY)]
        if view.smart_list is not None:
            keys.append(("list", str(view.smart_list.id)))
        elif view.tag:
            keys.append(("tag", view.tag))
        selection = QItemSelection()
        for key in keys:
            index = self.entries.find(key)
            if index.isValid():
                selection.select(index, index)
                if index.parent() == self.entries.keywords_root.index() and not self.isExpanded(index.parent()):
                    self.expand(index.parent())  # a keyword chosen (a saved list's, the last session's): in sight
        self.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _key_at(self, index: QModelIndex) -> Key | None:
        return SidebarModel.decode(index.data(SidebarModel.KeyRole)) if index.isValid() else None

    def _pick(self, key: Key) -> Filter:
        """The filter after picking the row `key`: a state keeps the tag or list, a tag or list keeps the
        state (a list brings its own); All is every paper, lets go of them too (two readers' trials expected
        it: it said "All (19)" and showed the tag's 2)."""
        kind, value = key
        view = self._filter
        if kind == "duplicates":
            return Filter(duplicates=True)
        if kind == "suggested":  # the untriaged papers, within the tag chosen (a list brings a state of its own)
            return Filter(tag=view.tag, suggested=True)
        if kind == "all":
            return Filter()
        if kind == "state":
            return replace(view, state=value, suggested=False, duplicates=False)
        if kind == "tag":
            return replace(view, tag=value, smart_list=None, duplicates=False)
        if kind == "list":
            sl = next((sl for sl in self._lists if str(sl.id) == value), None)
            if sl is not None:
                return Filter(state=sl.state, smart_list=sl)  # (not suggested: a list is its own view)
        return view

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """Arrow keys (and a press) pick the row they reach."""
        key = self._key_at(current)
        if key is None or self._updating:
            return
        self._apply(self._pick(key))

    @staticmethod
    def _narrows(view: Filter, key: Key) -> bool:
        """Whether `view` is narrowed by the tag or list row `key`."""
        if key[0] == "tag":
            return same_tag(view.tag, key[1])
        return key[0] == "list" and view.smart_list is not None and str(view.smart_list.id) == key[1]

    def mousePressEvent(self, event: QMouseEvent) -> None:
        step = {Qt.MouseButton.BackButton: -1, Qt.MouseButton.ForwardButton: 1}.get(event.button(), 0)
        if step:  # the mouse's Back and Forward buttons
            self.navigate.emit(step)
            return
        if event.button() == Qt.MouseButton.RightButton:  # a context menu's click picks nothing
            event.accept()
            return
        self._at_press = self._filter
        super().mousePressEvent(event)

    def _clicked(self, index: QModelIndex) -> None:
        """A click on the tag or list that was chosen before it lets it go; on any other row, picks it."""
        key = self._key_at(index)
        before, self._at_press = self._at_press, None
        if index == self.entries.keywords_root.index():
            self.setExpanded(index, not self.isExpanded(index))  # no arrow here: the heading opens and closes
        if key is None:
            self._show_choice()
        elif before is not None and self._narrows(before, key):
            self._apply(replace(before, tag=None, smart_list=None))  # the state as it was before the press
        else:
            self._apply(self._pick(key))

    def event(self, event: QEvent) -> bool:
        """F2 on a list renames it, though the window's F2 edits a paper's title."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_F2
            and (key := self._key_at(self.currentIndex())) is not None
            and key[0] == "list"
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Space toggles the current tag or list, as a click does; Delete and F2 act on a list."""
        key = self._key_at(self.currentIndex())
        heading = self.entries.keywords_root.index()
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex() == heading:
            self.setExpanded(heading, not self.isExpanded(heading))
            return
        if event.key() == Qt.Key.Key_Space and key is not None:
            self._at_press = self._filter
            self._clicked(self.currentIndex())
            return
        if key is not None and key[0] == "list" and key[1] and not self.library.read_only:
            lid = int(key[1])
            if event.key() == Qt.Key.Key_F2:
                self.rename_list(lid)
                return
            if event.key() == Qt.Key.Key_Delete:
                self.listDeleteRequested.emit(lid)
                return
            if event.modifiers() & Qt.KeyboardModifier.AltModifier and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                self.move_list(lid, -1 if event.key() == Qt.Key.Key_Up else 1)
                return
        super().keyPressEvent(event)

    # ---- counts ----

    def update_counts(self, counts: dict[str, int]) -> None:
        """New counts (from `Library.counts()`) and the tags as they are now; the choice stays lit."""
        with self._rows_replaced():
            self.entries.update_counts(counts, *self.library.tag_summary())
        self._mark_keywords_heading()
        if self._filter.duplicates and not counts.get("duplicates"):
            # the last pair merged or kept apart: its entry is gone, and its view (empty now) with it
            self._apply(replace(self._filter, duplicates=False))
            return
        self._show_choice()

    @contextmanager
    def _rows_replaced(self) -> Iterator[None]:
        """Rows change under the view: the current row (the keyboard's place) stays on its entry, and its
        moving is not taken for the user's pick."""
        current = self._key_at(self.currentIndex())
        roots = (self.entries.library_root, self.entries.lists_root, self.entries.tags_root, self.entries.keywords_root)
        empty = [root for root in roots if not root.hasChildren()]
        self._updating = True
        try:
            yield
            # a section gets its first entry: open it (expandAll on every key costs a pass over the tree); the
            # keywords only when few (a file's hundreds would push the rest out of sight: a click opens them)
            for root in empty:
                if root.hasChildren() and (root is not self.entries.keywords_root or root.rowCount() <= KEYWORDS_OPEN):
                    self.expand(root.index())
            index = self.entries.find(current) if current is not None else QModelIndex()
            if index.isValid() and index != self.currentIndex():
                self.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
        finally:
            self._updating = False

    def update_lists(
        self, lists: list[SmartList], counts: dict[int, int], missing: dict[int, str] | None = None
    ) -> None:
        """The saved lists as they are now, with their counts (… for those not counted yet; `missing`: {list
        id: its tag} of those whose tag no paper has now). A chosen list that was redefined is searched as it
        is now; one deleted is let go."""
        self._lists = list(lists)
        with self._rows_replaced():
            self.entries.update_lists(self._lists, counts, missing or {})
        chosen = self._filter.smart_list
        if chosen is not None:
            now = next((sl for sl in self._lists if sl.id == chosen.id), None)
            if now != chosen:
                self._apply(replace(self._filter, smart_list=now))
                return
        self._show_choice()

    # ---- tags: rename, merge, delete ----

    def _menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        key = self._key_at(index)
        if self.library.read_only:
            return
        from PySide6.QtWidgets import QMenu  # the menus' and dialogs' classes: not before the first paint

        menu = QMenu(self)
        keywords = self.library.keyword_tags()
        if key and key[0] == "tag" and key[1] and key[1] in keywords:
            name = key[1]
            menu.addAction("Make It My Tag", lambda: self.make_keywords_tags(name))
            menu.addAction("Rename or Merge…", lambda: self.rename_tag(name))
            menu.addAction("Delete Keyword", lambda: self.delete_tag(name))
        elif key and key[0] == "tag" and key[1]:
            name = key[1]
            menu.addAction("Rename or Merge…", lambda: self.rename_tag(name))
            menu.addAction("Delete Tag", lambda: self.delete_tag(name))
        elif index == self.entries.keywords_root.index() and keywords:
            menu.addAction("Make Them All My Tags", self.make_keywords_tags)
            menu.addAction("Remove All Keywords…", self._confirm_remove_keywords)
        elif key and key[0] == "list" and key[1]:
            lid = int(key[1])
            place = next((i for i, sl in enumerate(self._lists) if sl.id == lid), 0)
            menu.addAction("Rename…", lambda: self.rename_list(lid))
            menu.addAction("Replace with the View Shown", lambda: self.listRedefineRequested.emit(lid))
            up = menu.addAction("Move Up", lambda: self.move_list(lid, -1))
            up.setEnabled(place > 0)
            down = menu.addAction("Move Down", lambda: self.move_list(lid, 1))
            down.setEnabled(place < len(self._lists) - 1)
            menu.addSeparator()
            menu.addAction("Delete List", lambda: self.listDeleteRequested.emit(lid))
        else:
            menu.addAction("Save View as List…", self.saveListRequested.emit)
        menu.exec(self.viewport().mapToGlobal(pos))

    def rename_tag(self, old: str, new: str | None = None) -> None:
        """Rename a tag (asking for the new name if not given); an existing name merges the two."""
        from PySide6.QtWidgets import QInputDialog, QMessageBox

        if new is None:
            new, ok = QInputDialog.getText(
                self.window(), "Rename Tag", f"Rename “{old}” to (an existing tag merges the two):", text=old
            )
            if not ok:
                return
        try:
            after = self.library.plan_rename_tag(old, new)
        except StoreError as exc:
            QMessageBox.warning(self.window(), "Rename Tag", str(exc))
            return
        new = self.library.rename_target(old, new)  # the name plan_rename_tag gave the papers
        merge = not same_tag(new, old) and any(same_tag(new, t) for t in self.library.tag_names())
        keywords = self.library.keywords_after_rename(old, new, after)  # a keyword renamed is still one
        view = replace(self._filter, tag=new) if same_tag(self._filter.tag, old) else self._filter
        if (sl := view.smart_list) is not None:  # a list chosen follows it too (its tag and its query's `tag:`),
            # as the library will leave it: a name another list has is not taken (the sidebar showed it a moment)
            moved = dict((before.id, after) for before, after in self.library.retagged_lists(self._lists, old, new))
            view = replace(view, smart_list=moved.get(sl.id, sl))
        text = f"{'Merge' if merge else 'Rename'} tag “{old}” into “{new}”"
        self._edited(after, text, keywords, view, (old, new))

    def make_keywords_tags(self, name: str | None = None) -> None:
        """Make a keyword (None: every keyword a file gave) the user's tag, on every paper that has it."""
        links = [(pid, t) for pid, t in self.library.keyword_links() if name is None or same_tag(t, name)]
        if links:
            self.keywordsMadeTags.emit(links, f"Make keyword “{name}” a tag" if name else "Make all keywords tags")

    def _confirm_remove_keywords(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        links = self.library.keyword_links()
        names, papers = len({t for _, t in links}), len({pid for pid, _ in links})
        asked = QMessageBox.question(
            self.window(),
            "Remove All Keywords",
            f"Remove {names:,} keywords from {papers:,} papers? Edit → Undo brings them back (until you quit).",
        )
        if asked == QMessageBox.StandardButton.Yes:
            self.remove_keywords()

    def remove_keywords(self) -> None:
        """Take every keyword files gave (and the user has not made theirs) off its papers (undoable)."""
        after = self.library.plan_remove_keywords()
        if after:
            keywords = self.library.keyword_tags()
            gone = self._filter.tag is not None and any(same_tag(self._filter.tag, k) for k in keywords)
            view = replace(self._filter, tag=None) if gone else self._filter
            self._edited(after, "Remove imported keywords", None, view)

    def delete_tag(self, name: str) -> None:
        """Take the tag (or keyword: the notice and undo call it what the menu called it) off every paper."""
        view = replace(self._filter, tag=None) if same_tag(self._filter.tag, name) else self._filter
        keyword = any(kw for _, kw in self.library.tag_marks([name]).values())
        kind = "keyword" if keyword else "tag"
        self._edited(self.library.plan_delete_tag(name), f"Delete {kind} “{name}”", None, view)

    def _edited(
        self,
        after: dict[int, list[str]],
        text: str,
        keywords: dict[int, set[str]] | None,
        view: Filter,
        renamed: tuple[str, str] | None = None,
    ) -> None:
        """A tag edit made here, then the filter it leaves, searched again (which papers a tag means changed)."""
        self.tagsEdited.emit(after, text, keywords, view, renamed)
        self._filter = view
        self.filterChanged.emit(self._filter)

    # ---- lists: rename, move ----

    def rename_list(self, list_id: int, new: str | None = None) -> None:
        sl = next((sl for sl in self._lists if sl.id == list_id), None)
        if sl is None:
            return
        if new is None:
            from PySide6.QtWidgets import QInputDialog

            new, ok = QInputDialog.getText(
                self.window(), "Rename List", f"Rename the list “{sl.name}” to:", text=sl.name
            )
            if not ok or not new.strip() or new.strip() == sl.name:
                return
        self.listRenameRequested.emit(list_id, new)

    def move_list(self, list_id: int, step: int) -> None:
        place = next((i for i, sl in enumerate(self._lists) if sl.id == list_id), None)
        if place is not None and 0 <= place + step < len(self._lists):
            self.listMoveRequested.emit(list_id, place + step)


class ViewSummary(QWidget):
    """Under the sidebar's tree: what the papers shown are, in words, a button that lets go of the tag or
    list, and how many of them have been triaged (marked, or given a priority)."""

    clearRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.caption = WrappingLabel(self)  # a word too long for its line (a tag's name) cut with "…"
        self.caption.setObjectName("viewCaption")
        self.clearButton = QToolButton(self)
        self.clearButton.setObjectName("clearViewButton")
        self.clearButton.setText("✕")
        self.clearButton.setAutoRaise(True)
        self.clearButton.setToolTip("Show every tag and list again (the state chosen stays)")
        self.clearButton.clicked.connect(self.clearRequested)
        # the count in a label over a slim bar: a style that draws the text inside the bar covers its first
        # letters with the fill in the text's own colour ("tr" of "triaged 5 of 17" unreadable)
        self.count = QLabel(self)
        self.count.setObjectName("triageCount")
        self.progress = QProgressBar(self)
        self.progress.setObjectName("triageProgress")
        self.progress.setTextVisible(False)
        self.progress.setFixedHeight(max(self.fontMetrics().height() // 3, 4))
        for shown in (self.count, self.progress):
            shown.setToolTip("Papers shown that have been triaged: a state other than unread, or a priority")
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.caption, 1)
        head.addWidget(self.clearButton)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 4)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.count)
        layout.addWidget(self.progress)

    def show_view(
        self, view: Filter, query: str, topic: str | None = None, keyword: bool = False, missing_tag: str | None = None
    ) -> None:
        """The view in words: the sidebar's filter (`keyword`: its tag is a keyword; `missing_tag`: its list's
        tag, which no paper has now), the topic picked under it (if any) and the query."""
        text = view.caption(keyword) + (f" (tag {missing_tag} gone)" if missing_tag else "")
        text += f" · topic {topic}" if topic else ""
        if query.strip():
            text += f" · {quoted(query, CAPTION_QUERY_CHARS)}"  # a pasted abstract would push the tags down
        self.caption.set_full_text(text)
        self.caption.setToolTip(
            f"Showing {view.phrase(keyword)}"
            + (f" in the topic {quoted(topic)}" if topic else "")
            + (f" matching {quoted(query)}" if query.strip() else "")
            + (f" — {missing_tag_text(missing_tag)}" if missing_tag else "")
        )
        self.clearButton.setVisible(view.narrowed)

    def show_triaged(self, triaged: int, shown: int) -> None:
        self.progress.setRange(0, max(shown, 1))
        self.progress.setValue(min(triaged, shown))
        self.progress.setFormat(f"triaged {triaged:,} of {shown:,}")
        self.count.setText(self.progress.format())
