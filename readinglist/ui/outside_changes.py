"""Changes made by another process — the command line, a script — noticed within a second.

Every change moves the library's revision on; the watcher looks twice a second (one indexed read), and for
the papers changed by someone else (this process knows the revisions it wrote) says which changed, or, when
papers were added or many changed at once (an import), that the results need searching again.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from readinglist.library import Library

POLL_MS = 500
MANY = 200  # more changed papers than this (an import elsewhere): search again rather than refresh each row


class OutsideChanges(QObject):
    papersChanged = Signal(list)  # ids of papers another process changed
    libraryChanged = Signal()  # papers added, removed or changed in bulk: counts and results need redoing
    listsChanged = Signal()  # the saved lists changed (saved, renamed, moved or deleted from the command line)
    topicsChanged = Signal()  # the topics were computed again (`readinglist topics --recompute`, say)

    def __init__(self, library: Library, parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._seen = library.revision()
        self._count = library.counts()["all"]
        self._lists = library.smart_lists()  # (a few rows: read each look; saving one moves no revision)
        self._topics = library.topics_stamp()  # (one row of meta: storing topics moves no revision either)
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.look)
        self._timer.start()

    def look(self) -> None:
        """What changed since the last look, by others (the timer calls this; tests may too)."""
        lists = self._library.smart_lists()
        if lists != self._lists:
            self._lists = lists
            self.listsChanged.emit()
        topics = self._library.topics_stamp()
        if topics != self._topics:  # the window's own computation too: the window tells them apart
            self._topics = topics
            self.topicsChanged.emit()
        revision = self._library.revision()
        if revision == self._seen:
            return
        if self._library.changed_only_here(self._seen, revision):  # the window's own removal, undo or edit
            self._seen, self._count = revision, self._library.counts()["all"]
            return
        changed = self._library.changed_elsewhere(self._seen)
        self._seen = revision
        count = self._library.counts()["all"]
        if count != self._count or len(changed) > MANY:
            self._count = count
            self.libraryChanged.emit()
        elif changed:
            self.papersChanged.emit(changed)

    def pause(self) -> None:
        """Stop looking while the window's own import writes from a child process: each chunk it commits
        would look like another process's import (the whole window refreshed, the suggestions re-ranked,
        every half second); the window refreshes once when the import is over."""
        self._timer.stop()

    def resume(self) -> None:
        """Look again; what was written meanwhile by anyone counts as already seen (the window refreshed
        everything after its import)."""
        self._seen = self._library.revision()
        self._count = self._library.counts()["all"]
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
