"""The window's edits, done only when the library can be written, never by waiting on the event loop.

An import holds the library for the whole file (all or nothing), for minutes when the file is large, in this
window or in another process; an edit made meanwhile froze the window until it ended, or failed after 30 s
with a traceback and the mark lost (a trial pressed s during an import: 14 presses gave 13 marks, and a
Cancel clicked meanwhile came too late). Here an edit waits EDIT_WAIT at most. A triage mark (a state, a
priority) or a note's undo step that cannot be done yet waits in order and is done as soon as the library is
free (a mark is one value, so later marks cannot undo one that waited); any other edit is refused with a
message, and what the reader typed stays where it is. Undo and redo wait for the marks before them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from readinglist.library import Library
from readinglist.papers import StoreBusy
from readinglist.ui.undo import SetNoteCommand, SetPriorityCommand, SetStateCommand

EDIT_WAIT = 0.1  # seconds the window's thread waits for another writer before an edit waits or is refused
RETRY_MS = 500  # how often waiting edits are tried again
KEPT = (SetStateCommand, SetPriorityCommand, SetNoteCommand)  # what waits; anything else is refused
BUSY = "the library is busy: an import is writing it"


class EditGate(QObject):
    """Pushes the window's commands when the library can be written (see the module doc)."""

    waitingChanged = Signal(int)  # edits waiting now
    saved = Signal(int)  # edits that waited, now done
    refused = Signal(str)  # an edit not done, and why, in words

    def __init__(self, library: Library, stack: QUndoStack, push: Callable[[QUndoCommand], None], parent: QObject):
        super().__init__(parent)
        self._library, self._stack, self._push = library, stack, push
        self._waiting: list[QUndoCommand] = []
        self._done = 0  # of those waiting since the library was last free
        self._timer = QTimer(self)
        self._timer.setInterval(RETRY_MS)
        self._timer.timeout.connect(self.save_waiting)
        if not library.read_only:
            library.set_write_wait(EDIT_WAIT)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def push(self, command: QUndoCommand) -> bool:
        """Do the command (pushed on the stack) if the library can be written now, after the edits waiting;
        else keep it for later or refuse it. Returns whether it was done now."""
        if self._waiting and not self.save_waiting():
            return self._keep(command)
        try:
            with self._library.editing():
                self._push(command)
        except StoreBusy:
            return self._keep(command)
        return True

    def step(self, undo: bool) -> bool:
        """Undo (or redo) the last command once the edits waiting are done; refused while the library is busy."""
        word = "Undo" if undo else "Redo"
        if self._waiting and not self.save_waiting():
            self.refused.emit(f"{word} waits: {BUSY}, and {self._marks(self.waiting)} before it are not saved yet")
            return False
        try:
            with self._library.editing():
                self._stack.undo() if undo else self._stack.redo()
        except StoreBusy:
            self.refused.emit(f"Not done: {word} — {BUSY}. Try again when it has finished.")
            return False
        return True

    def save_waiting(self, wait: float = 0.0) -> bool:
        """Do the edits waiting, in order, as far as the library lets; True once none waits."""
        while self._waiting:
            try:
                with self._library.editing(wait=wait):
                    self._push(self._waiting[0])
            except StoreBusy:
                self._timer.start()
                return False
            self._waiting.pop(0)
            self._done += 1
        self._timer.stop()
        if self._done:
            done, self._done = self._done, 0
            self.waitingChanged.emit(0)
            self.saved.emit(done)
        return True

    def _keep(self, command: QUndoCommand) -> bool:
        if isinstance(command, KEPT):
            self._waiting.append(command)
            self._timer.start()
            self.waitingChanged.emit(self.waiting)
        else:
            self.refused.emit(f"Not done: {command.text()} — {BUSY}. Try again when it has finished.")
        return False

    @staticmethod
    def _marks(n: int) -> str:
        return f"{n} change{'s' if n != 1 else ''}"


def waiting_text(n: int) -> str:
    """What the notice says while edits wait."""
    return (
        f"{EditGate._marks(n).capitalize()} waiting: {BUSY}. "
        f"{'They are' if n != 1 else 'It is'} saved as soon as it finishes."
    )
