"""The sidebar: the library by reading state and the tags, each with its count. Picking an entry filters the
papers; a tag's context menu renames, merges or deletes it, as an edit the window makes undoable."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QMouseEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QInputDialog, QMenu, QMessageBox, QTreeView, QWidget

from readinglist.library import Library
from readinglist.papers import STATE_LABELS, STATES, StoreError

Filter = tuple[str, str | None]  # ("all", None), ("state", "read"), ("tag", "name")
ALL: Filter = ("all", None)


class SidebarModel(QStandardItemModel):
    """Library (All, Unread, Skimmed, Read) and Tags, each with its count."""

    FilterRole = Qt.ItemDataRole.UserRole + 10  # "state\x1fread", "tag\x1fname", "all\x1f"

    @staticmethod
    def encode(key: Filter) -> str:
        return f"{key[0]}\x1f{key[1] or ''}"

    @staticmethod
    def decode(value: object) -> Filter | None:
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
        entries: list[tuple[str, Filter, int]] = [("All", ALL, counts["all"])]
        entries += [(STATE_LABELS[state], ("state", state), counts[state]) for state in STATES]
        self._fill(self.library_root, entries)
        self._fill(self.tags_root, [(name, ("tag", name), n) for name, n in tags])
        self.tags_root.setText(f"Tags ({len(tags)})" if tags else "Tags")

    def _fill(self, root: QStandardItem, entries: list[tuple[str, Filter, int]]) -> None:
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

    def find(self, key: Filter) -> QModelIndex:
        for root in (self.library_root, self.tags_root):
            for r in range(root.rowCount()):
                if root.child(r).data(self.FilterRole) == self.encode(key):
                    return root.child(r).index()
        return QModelIndex()


class Sidebar(QTreeView):
    """The sidebar pane; it owns the filter (`filter`) that searches combine with the query."""

    filterChanged = Signal(object)  # Filter: another entry was picked, or the papers under the filter changed
    tagsEdited = Signal(object, str)  # {paper id: its tags after the edit}, the undo text
    navigate = Signal(int)  # the mouse's Back (-1) or Forward (+1) button

    def __init__(self, library: Library, parent: QWidget | None = None):
        super().__init__(parent)
        self.library = library
        self._filter: Filter = ALL
        self.entries = SidebarModel(self)
        self.setObjectName("tagSidebar")
        self.setModel(self.entries)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.expandAll()
        self.selectionModel().currentChanged.connect(self._current_changed)
        self.setMinimumWidth(150)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        step = {Qt.MouseButton.BackButton: -1, Qt.MouseButton.ForwardButton: 1}.get(event.button(), 0)
        if step:
            self.navigate.emit(step)
            return
        super().mousePressEvent(event)

    @property
    def filter(self) -> Filter:
        return self._filter

    def set_filter(self, key: Filter) -> None:
        """Filter by `key` and select its entry (filterChanged is emitted if the entry picked changes)."""
        self.setCurrentIndex(self.entries.find(key))
        self._filter = key

    def update_counts(self, counts: dict[str, int]) -> None:
        """New counts (from `Library.counts()`) and the tags as they are now; the filter's entry stays picked."""
        self.entries.update_counts(counts, self.library.tag_counts())
        self.expandAll()
        index = self.entries.find(self._filter)
        if index.isValid() and self.currentIndex() != index:
            self.selectionModel().blockSignals(True)
            self.setCurrentIndex(index)
            self.selectionModel().blockSignals(False)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        key = SidebarModel.decode(current.data(SidebarModel.FilterRole)) if current.isValid() else None
        if key is None:
            return
        self._filter = key
        self.filterChanged.emit(key)

    # ---- tags: rename, merge, delete ----

    def _menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        key = SidebarModel.decode(index.data(SidebarModel.FilterRole)) if index.isValid() else None
        if not key or key[0] != "tag" or not key[1] or self.library.read_only:
            return
        name = key[1]
        menu = QMenu(self)
        menu.addAction("Rename or Merge…", lambda: self.rename_tag(name))
        menu.addAction("Delete Tag", lambda: self.delete_tag(name))
        menu.exec(self.viewport().mapToGlobal(pos))

    def rename_tag(self, old: str, new: str | None = None) -> None:
        """Rename a tag (asking for the new name if not given); an existing name merges the two."""
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
        merge = new.strip().lower() in self.library.tag_names() and new.strip().lower() != old
        self.tagsEdited.emit(after, f"{'Merge' if merge else 'Rename'} tag “{old}” into “{new}”")
        if self._filter == ("tag", old):
            self.set_filter(("tag", new.strip().lower()))
        self.filterChanged.emit(self._filter)

    def delete_tag(self, name: str) -> None:
        self.tagsEdited.emit(self.library.plan_delete_tag(name), f"Delete tag “{name}”")
        if self._filter == ("tag", name):
            self._filter = ALL
        self.filterChanged.emit(self._filter)
