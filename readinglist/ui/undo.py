"""Every annotation is an undoable command: state, tags, note, title (QUndoStack does the bookkeeping)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtGui import QUndoCommand

from readinglist.library import Library

Changed = Callable[[Sequence[int]], None]


class SetStateCommand(QUndoCommand):
    def __init__(self, library: Library, ids: Sequence[int], state: str, changed: Changed):
        n = len(ids)
        super().__init__(f"Mark {n} paper{'s' if n != 1 else ''} {state}")
        self.library, self.ids, self.state, self.changed = library, list(ids), state, changed
        self.before: dict[int, str] = {}

    def redo(self) -> None:
        self.before = self.library.set_state(self.ids, self.state)
        self.changed(self.ids)

    def undo(self) -> None:
        self.library.restore_states(self.before)
        self.changed(self.ids)


class SetTagsCommand(QUndoCommand):
    """Any tag change, stated as each paper's tags after it; undo puts back each paper's tags before."""

    def __init__(self, library: Library, after: dict[int, list[str]], text: str, changed: Changed):
        super().__init__(text)
        self.library, self.after, self.changed = library, after, changed
        self.before: dict[int, list[str]] = {}

    def redo(self) -> None:
        self.before = self.library.set_tags(self.after)
        self.changed(list(self.after))

    def undo(self) -> None:
        self.library.set_tags(self.before)
        self.changed(list(self.after))


class SetNoteCommand(QUndoCommand):
    def __init__(self, library: Library, paper_id: int, before: str, after: str, changed: Changed):
        super().__init__("Edit note")
        self.library, self.paper_id, self.before, self.after, self.changed = library, paper_id, before, after, changed

    def redo(self) -> None:
        self.library.set_note(self.paper_id, self.after)
        self.changed([self.paper_id])

    def undo(self) -> None:
        self.library.set_note(self.paper_id, self.before)
        self.changed([self.paper_id])

    def id(self) -> int:
        return 7001

    def mergeWith(self, other: QUndoCommand) -> bool:
        if isinstance(other, SetNoteCommand) and other.paper_id == self.paper_id:
            self.after = other.after
            return True
        return False


class SetTitleCommand(QUndoCommand):
    def __init__(self, library: Library, paper_id: int, title: str | None, changed: Changed):
        super().__init__("Edit title")
        self.library, self.paper_id, self.title, self.changed = library, paper_id, title, changed
        self.before: str | None = None

    def redo(self) -> None:
        self.before = self.library.set_title(self.paper_id, self.title)
        self.changed([self.paper_id])

    def undo(self) -> None:
        self.library.set_title(self.paper_id, self.before)
        self.changed([self.paper_id])
