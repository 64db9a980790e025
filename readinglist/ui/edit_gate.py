"""The window's edits, done only when the library can be written, never by waiting on the event loop.

An import holds the library for the whole file (all or nothing), for minutes when the file is large, in this
window or in another process; an edit made meanwhile froze the window until it ended, or failed after 30 s
with a traceback and the mark lost (a trial pressed s during an import: 14 presses gave 13 marks, and a
Cancel clicked meanwhile came too late). Here an edit waits EDIT_WAIT at most. A triage mark (a state, a
priority) or a note's undo step that cannot be done yet waits in order and is done as soon as the library is
free (a mark is one value, so later marks cannot undo one that waited); any other edit is refused with a
message, and what the reader typed stays where it is. The marks waiting are shown at once (`marks`: the
window's rows and paper show them as not yet saved), not only counted: a trial pressed s and saw the row keep
its old state. Undo and redo are refused while marks wait, and say so (Undo stayed greyed out and silent when
the only edits were marks waiting).

Each command runs in one transaction begun first (Library.editing): the library being busy can only stop it
before it starts. A command that fails once begun (a full disk) is rolled back, dropped by the stack
(undo.Command) and said, never tried again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from readinglist.library import Library
from readinglist.papers import Marks, StoreBusy
from readinglist.ui.undo import Command, Outcome, PaperCommand, SetNoteCommand, SetPriorityCommand, SetStateCommand
from readinglist.ui.wording import BUSY

EDIT_WAIT = 0.1  # seconds the window's thread waits for another writer before an edit waits or is refused
RETRY_MS = 500  # how often waiting edits are tried again
# a mark on a paper another process removed: where it is
REMOVED_HINT = " (`readinglist removed` lists it, `readinglist unremove ID` brings it back)"
KEPT = (SetStateCommand, SetPriorityCommand, SetNoteCommand)  # what waits; anything else is refused


class _Failed(Exception):
    """A command's redo or undo failed inside the transaction: roll it back."""


class EditGate(QObject):
    """Pushes the window's commands when the library can be written (see the module doc)."""

    waitingChanged = Signal(int)  # edits waiting now: kept, saved, failed or dropped (`marks` follows it)
    saved = Signal(int)  # edits that waited, now done
    refused = Signal(str)  # an edit not done, and why, in words

    def __init__(self, library: Library, stack: QUndoStack, push: Callable[[Command], None], parent: QObject):
        super().__init__(parent)
        self._library, self._stack, self._push = library, stack, push
        self._waiting: list[Command] = []
        self._done = 0  # of those waiting since the library was last free
        self._in_edit = False  # a command runs in its transaction: the window's refreshes wait for the commit
        self._after: list[tuple[Callable[..., None], tuple[object, ...]]] = []
        self._timer = QTimer(self)
        self._timer.setInterval(RETRY_MS)
        self._timer.timeout.connect(self.save_waiting)
        if not library.read_only:
            library.set_write_wait(EDIT_WAIT)

    def defer(self, refresh: Callable[..., None], *args: object) -> bool:
        """Whether `refresh(*args)` (a command's callback into the window) is kept for after the commit: a
        search it starts on a worker reads the library and the index, which have the change only then (undoing
        a removal searched before the paper was back, and never selected it)."""
        if self._in_edit:
            self._after.append((refresh, args))
        return self._in_edit

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def marks(self) -> dict[int, Marks]:
        """The marks waiting, as each paper will have them once saved (only what waits for it), the last
        mark of each kind winning. A note's undo step is not among them: the note editor shows it as typed."""
        marks: dict[int, Marks] = {}
        for command in self._waiting:
            if isinstance(command, SetStateCommand):
                for pid in command.ids:
                    marks.setdefault(pid, {})["state"] = command.state
            elif isinstance(command, SetPriorityCommand):
                for pid in command.ids:
                    marks.setdefault(pid, {})["priority"] = command.priority
        return marks

    def push(self, command: Command) -> bool:
        """Do the command (pushed on the stack) if the library can be written now, after the edits waiting;
        else keep it for later or refuse it. Returns whether it was done now."""
        if self._waiting and not self.save_waiting():
            return self._keep(command)
        done = self._run(command, None)
        return self._keep(command) if done is None else done

    def step(self, undo: bool) -> bool:
        """Undo (or redo) the last command; refused, and said, while marks wait or the library is busy."""
        word = "undone" if undo else "redone"
        if self._waiting and not self.save_waiting():
            n = self.waiting
            said = f"{changes(n)} {'wait' if n != 1 else 'waits'} to be saved — {BUSY}"
            # an undo can follow once they are saved (theirs first); a redo cannot (they are the last edits then)
            self.refused.emit(
                f"Not undone yet: {said}. Undo works once they are saved." if undo else f"Not redone: {said}."
            )
            return False
        command = self._stack.command(self._stack.index() - 1 if undo else self._stack.index())
        if not isinstance(command, Command):
            return False
        outcome = command.outcome
        what = command.summary if isinstance(command, PaperCommand) else command.text()  # (read first: see _run)
        done = self._in_transaction(self._stack.undo if undo else self._stack.redo, outcome, None)
        if done is None:
            self.refused.emit(f"Not {word}: {BUSY}. Try again when it has finished.")
        elif not done:
            self.refused.emit(f"Not {word}: {outcome.failure}")
        elif outcome.nothing:  # another process changed what it would take back (or do again): dropped, said
            self.refused.emit(f"Not {word}: {what} — {outcome.skipped}.")
            return False
        return bool(done)

    def drop_waiting(self) -> None:
        """Forget the edits waiting (the reader closes without them)."""
        dropped, self._waiting = bool(self._waiting), []
        self._timer.stop()
        if dropped:
            self.waitingChanged.emit(0)

    def save_waiting(self, wait: float = 0.0) -> bool:
        """Do the edits waiting, in order, as far as the library lets; True once none waits. One that fails
        is said and dropped, never tried again."""
        before = self.waiting
        while self._waiting:
            command = self._waiting.pop(0)
            outcome = self._run(command, wait)
            if outcome is None:
                self._waiting.insert(0, command)
                self._timer.start()
                if self.waiting != before:  # some were saved before the library was taken again
                    self.waitingChanged.emit(self.waiting)
                return False
            self._done += 1 if outcome else 0
        self._timer.stop()
        if before:  # (also when every one failed: what they showed goes back to what the library holds)
            self.waitingChanged.emit(0)
        if self._done:
            done, self._done = self._done, 0
            self.saved.emit(done)
        return True

    def _run(self, command: Command, wait: float | None) -> bool | None:
        """Push the command in a transaction begun once the library can be written: True done, None busy
        (nothing done, nothing pushed), False failed (rolled back, dropped by the stack, said)."""
        text, outcome = command.text(), command.outcome  # (read first: the stack deletes a failed command)
        done = self._in_transaction(lambda: self._push(command), outcome, wait)
        if done is False:
            self.refused.emit(f"Not done: {text} — {outcome.failure}")
        elif done and outcome.nothing:  # (its papers removed by another process: nothing to mark, nothing pushed)
            self.refused.emit(
                f"Not done: {text} — {outcome.skipped}{REMOVED_HINT if 'removed' in outcome.skipped else ''}."
            )
            return False
        return done

    def _in_transaction(self, act: Callable[[], None], outcome: Outcome, wait: float | None) -> bool | None:
        """Do `act` (a push, an undo or a redo) in a transaction begun once the library can be written: True
        done, None busy (nothing begun), False failed as `outcome` says (rolled back)."""
        try:
            with self._editing(), self._library.editing(wait=wait):
                act()
                if outcome.failure is not None:
                    raise _Failed
        except StoreBusy:
            return None
        except _Failed:
            return False
        return True

    @contextmanager
    def _editing(self) -> Iterator[None]:
        """Around a command's transaction: the window's refreshes are deferred inside, and run once it has
        committed (or rolled back)."""
        self._in_edit = True
        try:
            yield
        finally:
            self._in_edit = False
            calls, self._after = self._after, []
            for refresh, args in calls:
                refresh(*args)

    def _keep(self, command: Command) -> bool:
        if isinstance(command, KEPT):
            self._waiting.append(command)
            self._timer.start()
            self.waitingChanged.emit(self.waiting)
        else:
            self.refused.emit(f"Not done: {command.text()} — {BUSY}. Try again when it has finished.")
        return False


def changes(n: int) -> str:
    return f"{n} change{'s' if n != 1 else ''}"


def waiting_text(n: int) -> str:
    """What the notice says while edits wait."""
    return f"{changes(n).capitalize()} waiting to be saved: {BUSY}. Saved as soon as it finishes."
