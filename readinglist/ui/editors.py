"""The editors under the detail pane: the mark buttons, the tags (with completion) and the note (Markdown,
saved as you type, with a preview that renders math as the abstract does). They edit the paper the detail
pane shows (`load`); each edit leaves as a signal that the window turns into an undoable command. Enter in
the tag editor applies the tags and the reader is done with it (`finished`); leaving the field otherwise (Tab,
a click elsewhere, another paper made current, the window closed) applies them too, as the note is saved and a
title edited in the table is; Esc puts back the paper's tags. The completions offer the reader's own tags first,
then a file's keywords. The list opens on the completion Enter takes, highlighted (the tag typed, or the first of
the reader's own: never a keyword unchosen); Enter on a completion highlighted only takes it: the reader goes on
typing tags; Enter with none highlighted (Up from the first) applies exactly what was typed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QAbstractProxyModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import QAction, QFocusEvent, QKeyEvent, QPalette, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPlainTextEdit,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from readinglist.library import Library
from readinglist.papers import Paper, StoreBusy, StoreError, clean_tags, tag_key
from readinglist.ui.flow import FlowLayout
from readinglist.ui.safe_browser import SafeTextBrowser
from readinglist.ui.wording import papers, quoted

NOTE_AUTOSAVE_MS = 800
UNSAVED_RETRY_MS = 1000  # how often a note an import kept from being saved is tried again
TAG_FIELD_MIN = 24  # the tag field's least width, in letters: narrower, the priorities go under it


def tags_change_text(before: dict[int, list[str]], after: dict[int, list[str]]) -> str:
    """What a change of tags did, for the undo history and the status bar: "Tag 5 papers “rl”", "Remove
    “must-read” from 5 papers" (it said "Tagged" for a removal too), or "Change the tags of 2 papers"."""
    changed = [pid for pid in after if after[pid] != before.get(pid, [])]
    added = sorted({t for pid in changed for t in after[pid] if t not in before.get(pid, [])})
    removed = sorted({t for pid in changed for t in before.get(pid, []) if t not in after[pid]})

    def named(tags: list[str]) -> str:
        shown = ", ".join(quoted(t) for t in tags[:3])
        return shown + (f" and {len(tags) - 3} more" if len(tags) > 3 else "")

    if added and not removed:
        return f"Tag {papers(len(changed))} {named(added)}"
    if removed and not added:
        return f"Remove {named(removed)} from {papers(len(changed))}"
    return f"Change the tags of {papers(len(changed))}"


class TagCompleter(QCompleter):
    """Completes the tag being typed after the last comma."""

    def splitPath(self, path: str) -> list[str]:
        return [path.split(",")[-1].strip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:
        widget = self.widget()
        head = widget.text().rsplit(",", 1)[0] + ", " if isinstance(widget, QLineEdit) and "," in widget.text() else ""
        return head + str(index.data())


class TagCompletions(QStringListModel):
    """The tags the completer offers: the reader's own first, then the keywords files gave, each group in name
    order, the keywords in muted text. In one list by name, "the" offered a file's "the evidential reasoning
    approach" and "Theories and models…" above the reader's "theory" (a user trial)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._own = 0  # how many of the rows, from the first, are the reader's own tags

    def set_tags(self, names: list[str], keywords: set[str]) -> None:
        own = [n for n in names if n not in keywords]
        self._own = len(own)
        self.setStringList(own + [n for n in names if n in keywords])

    def is_keyword(self, row: int) -> bool:
        return row >= self._own

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if index.isValid() and self.is_keyword(index.row()):
            if role == Qt.ItemDataRole.ForegroundRole:
                return QApplication.palette().color(QPalette.ColorRole.PlaceholderText)
            if role == Qt.ItemDataRole.ToolTipRole:
                return "A keyword from an imported file: taken, it becomes your tag"
        return super().data(index, role)


class _EnterTakesCompletion(QObject):
    """On the completer's popup, before the completer sees the key: Enter on a completion highlighted (the
    arrow keys, the mouse) takes it into the field and closes the list, and that is all it does: the cursor
    stays in the field for more tags, and Enter with the list closed applies. (The completer passed the Enter
    on to the field, which applied the tags and went back to the papers, so that ", video" typed next started
    a search.) Enter with none highlighted closes the list and applies exactly what was typed, as Enter with the
    list closed does: it took the first completion, and "rl, the" became "rl, the evidential reasoning
    approach", a file's keyword made the reader's tag without their choosing it (a user trial)."""

    def __init__(self, completer: QCompleter, field: QLineEdit):
        super().__init__(field)
        self._completer, self._field = completer, field

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):  # fmt: skip
            popup = self._completer.popup()
            if popup is not None and popup.isVisible():
                index = popup.currentIndex()
                popup.hide()
                if index.isValid():
                    self._field.setText(self._completer.pathFromIndex(index))
                else:  # the field's own Enter, the list closed: what was typed is applied
                    QApplication.sendEvent(self._field, event)
                return True
        return False


class Editors(QWidget):
    tagsApplied = Signal(object, str, object)  # {paper id: its tags after}, the undo text, {id: keywords after}
    noteEdited = Signal(int, str, str)  # paper id, note before, note after
    # a note saved here had been changed elsewhere meanwhile: both versions kept (False: the reader had emptied
    # it, and the other version is what stays)
    noteKeptBoth = Signal(bool)
    noteRefused = Signal(str)  # why the note typed could not be saved (too long to export): it stays in the field
    noteWaiting = Signal()  # a note kept here until an import lets the library go (then noteEdited, notesSaved)
    notesSaved = Signal()  # every note that waited is saved
    linkClicked = Signal(QUrl)  # in the note's preview
    finished = Signal()  # Enter in the tag editor: the tags are applied, back to the papers

    def __init__(
        self,
        library: Library,
        selection: Callable[[], list[int]],
        mark_actions: Sequence[QAction],
        parent: QWidget | None = None,
        priority_actions: Sequence[QAction] = (),
    ):
        """`selection` gives the papers tags apply to (the table's selection, else its current paper)."""
        super().__init__(parent)
        self._library = library
        self._selection = selection
        self._read_only = library.read_only
        self._paper: int | None = None  # the paper whose tags and note are in the editors
        self._note_saved = ""
        # notes an import kept from being saved: paper id → (the text typed, the note it was typed over)
        self._unsaved: dict[int, tuple[str, str]] = {}
        self._unapplied: dict[int, str] = {}  # tags typed for a paper, refused while the library was busy
        self._tags_shown: list[str] = []  # the tags the field was given (what Enter's changes are made to)
        self._tags_for: list[int] = []  # the papers the tags in the field are being typed for
        # the states on a row of their own, the priorities beside the tags: one row of both was cut to
        # "Qu…ed" at 1024 px wide. The states' row wraps where the pane is narrow: as one row it was the pane's
        # minimum, which a 700×500 window beside the map could not give, and the buttons were clipped. So do
        # the priorities, as one group under the tags, where the field would be narrower than TAG_FIELD_MIN
        # (at 700×500 it was 65 px beside them, narrower than the buttons: a user trial)
        self.markButtons = FlowLayout()
        self.priorityButtons = QWidget(self)
        self.priorityButtons.setObjectName("priorityButtons")
        priority_row = QHBoxLayout(self.priorityButtons)
        priority_row.setContentsMargins(0, 0, 0, 0)
        priority_row.setSpacing(2)
        row: QLayout
        for row, group in ((self.markButtons, mark_actions), (priority_row, priority_actions)):
            for action in group:
                b = QToolButton(self if group is mark_actions else self.priorityButtons)
                b.setDefaultAction(action)
                b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
                b.setAutoRaise(group is priority_actions)
                b.setMinimumWidth(b.sizeHint().width())  # never elided: the row wraps instead
                row.addWidget(b)
        self.tagEditor = QLineEdit(self)
        self.tagEditor.setObjectName("tagEditor")
        self.tagEditor.setPlaceholderText("Tags, comma-separated — Enter applies")
        self.tagEditor.setMinimumWidth(self.tagEditor.fontMetrics().horizontalAdvance("x" * TAG_FIELD_MIN))
        self.tagEditor.returnPressed.connect(self._enter)
        self.tagEditor.setReadOnly(self._read_only)
        self.completions = TagCompletions(self)
        self.completer = TagCompleter(self.completions, self.tagEditor)
        self.update_completions()
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.tagEditor.setCompleter(self.completer)
        # Enter while the list of completions is open takes the completion highlighted, and only that; with
        # none highlighted it applies what was typed
        self._enter_takes_completion = _EnterTakesCompletion(self.completer, self.tagEditor)
        popup = self.completer.popup()
        if popup is not None:
            popup.installEventFilter(self._enter_takes_completion)
        self.tagEditor.textEdited.connect(self._tags_typed)
        # the completion Enter would take is highlighted as the list opens or narrows (after the completer
        # has filtered it for the text typed: queued)
        self.tagEditor.textEdited.connect(lambda _text: QTimer.singleShot(0, self, self._highlight_best))
        self.tagEditor.installEventFilter(self)  # leaving the field applies what was typed
        self.notesEditor = QPlainTextEdit(self)
        self.notesEditor.setObjectName("notesEditor")
        self.notesEditor.setPlaceholderText("Notes (Markdown), saved as you type")
        self.notesEditor.setReadOnly(self._read_only)
        self.notesEditor.textChanged.connect(self._note_typed)
        self.notesPreview = SafeTextBrowser(self)
        self.notesPreview.setObjectName("notesPreview")
        self.notesPreview.anchorClicked.connect(self.linkClicked)
        self.notesStack = QStackedWidget(self)
        self.notesStack.addWidget(self.notesEditor)
        self.notesStack.addWidget(self.notesPreview)
        self.previewToggle = QToolButton(self)
        self.previewToggle.setObjectName("previewToggle")
        self.previewToggle.setText("Preview")
        self.previewToggle.setCheckable(True)
        self.previewToggle.toggled.connect(self._toggle_preview)
        notes_head = QHBoxLayout()
        notes_head.addWidget(QLabel("<b>Note</b>"))
        notes_head.addStretch(1)
        notes_head.addWidget(self.previewToggle)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.markButtons)
        self.tagRow = FlowLayout()
        self.tagRow.addWidget(self.tagEditor)  # (expanding: it takes the room the priorities leave)
        self.tagRow.addWidget(self.priorityButtons)
        layout.addLayout(self.tagRow)
        layout.addLayout(notes_head)
        layout.addWidget(self.notesStack)
        self._note_timer = QTimer(self)
        self._note_timer.setSingleShot(True)
        self._note_timer.setInterval(NOTE_AUTOSAVE_MS)
        self._note_timer.timeout.connect(self.save_note)
        self._unsaved_timer = QTimer(self)
        self._unsaved_timer.setInterval(UNSAVED_RETRY_MS)
        self._unsaved_timer.timeout.connect(lambda: self.save_unsaved_notes())

    def load(self, paper: Paper | None) -> None:
        """The paper shown (or shown again, edited). Tags being typed for it and a note not yet saved stay."""
        paper_id = paper.id if paper is not None else None
        tags, note = (paper.own_tags, paper.note) if paper is not None else ([], "")  # a file's keywords apart
        enabled = paper_id is not None and not self._read_only
        if paper_id != self._paper and self.tags_pending():
            # another paper made current while the field kept the cursor (Next Paper from the menu, Alt+Left):
            # what was typed goes to the papers it was typed for, as the note is saved; the new one's tags shown
            self.apply_tags(self._tags_for)
        if paper_id != self._paper or not (self.tagEditor.hasFocus() or self.tags_pending()):
            selection = self._selection()  # read once: 8k papers selected took 4 reads of their ids a load
            several = len(selection) > 1
            self._set_tags_field(self._common_tags(selection) if several else tags, selection)
            if paper_id in self._unapplied and not several:
                self.tagEditor.setText(self._unapplied[paper_id])  # typed, refused while busy: still to apply
        self.tagEditor.setEnabled(paper_id is not None)
        self.tagEditor.setReadOnly(not enabled)
        if self._writing_note(paper_id, note):
            # the note changed outside (the command line) while the reader is in it, all they typed saved: it
            # is not swapped under their cursor (what they wrote was lost, the typing went on at its start: a
            # trial); both versions are kept, the reader's first, as for an edit made meanwhile
            self.save_note(unchanged_too=True)
        elif paper_id != self._paper or self.notesEditor.toPlainText() == self._note_saved:
            another = paper_id != self._paper
            self._paper = paper_id
            self._note_saved = note
            if paper_id in self._unsaved:  # typed before, and waiting to be saved: shown as typed, saved later
                note, self._note_saved = self._unsaved[paper_id]
            if self.notesEditor.toPlainText() != note:
                self.notesEditor.blockSignals(True)
                self.notesEditor.setPlainText(note)
                self.notesEditor.blockSignals(False)
            if self.previewToggle.isChecked():
                self._show_preview(note)
            if self.previewToggle.isChecked() and another:
                # a paper without a note shows the field to write one (its placeholder says so), not a blank
                # preview that ignores typing; a paper with one, its preview, as the toggle asks. Only on
                # moving to a paper: a first note's autosave loads it again while the reader types on
                self.notesStack.setCurrentIndex(1 if note.strip() else 0)
        self.notesEditor.setEnabled(paper_id is not None)
        self.notesEditor.setReadOnly(not enabled)

    def _writing_note(self, paper_id: int | None, stored: str) -> bool:
        """Is the reader in this paper's note (its field has the window's focus, whether or not the window is
        active: they may have gone to a terminal), with all they typed saved, and the stored note another?"""
        window = self.window()
        typed = self.notesEditor.toPlainText()
        return (
            paper_id is not None
            and paper_id == self._paper
            and not self._read_only
            and window is not None
            and window.focusWidget() is self.notesEditor
            and typed == self._note_saved
            and stored != typed
            and bool(typed.strip())
        )

    def focus_tags(self) -> None:
        self.tagEditor.setFocus()
        self.tagEditor.end(False)

    def focus_notes(self) -> None:
        self.previewToggle.setChecked(False)
        self.notesEditor.setFocus()

    def update_completions(self) -> None:
        """The tags offered as completions, as the library has them now (the reader's own first)."""
        counts, keywords = self._library.tag_summary()
        self.completions.set_tags([name for name, _ in counts], keywords)

    # ---- tags ----

    def _enter(self) -> None:
        self.apply_tags()
        self.finished.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The reader left the tag field — Tab, a click elsewhere, another window, the window closed: what was
        typed is applied (one undoable step), as the note is saved and a title edited in the table is kept.
        Not while the list of completions or a menu is open over it: the field gets the cursor back. Entering
        the field, the completions are read again: a keyword made the reader's tag in the sidebar moves up."""
        entered = watched is self.tagEditor and event.type() == QEvent.Type.FocusIn
        if entered and isinstance(event, QFocusEvent) and event.reason() != Qt.FocusReason.PopupFocusReason:
            self.update_completions()
        if watched is self.tagEditor and event.type() == QEvent.Type.FocusOut and isinstance(event, QFocusEvent):
            popup = self.completer.popup()
            over = event.reason() in (Qt.FocusReason.PopupFocusReason, Qt.FocusReason.MenuBarFocusReason)
            if not over and not (popup is not None and popup.isVisible()) and self.tags_pending():
                self.apply_tags()
        return super().eventFilter(watched, event)

    def _highlight_best(self) -> None:
        """With the list of completions open, the one Enter takes is highlighted, as the reader sees it: the
        tag typed, where the library has it, else the first of the reader's own tags offered ("to" offers
        "to-read": Enter applied a new tag "to", a user trial). A file's keyword is never highlighted unchosen
        (Enter would make it the reader's tag: an earlier trial), nor anything before a letter of the tag is
        typed. Up from it leaves none highlighted, and Enter applies exactly what was typed. The
        field's text stays as typed: only Down, Up or the mouse write a completion into it."""
        popup = self.completer.popup()
        model = self.completer.completionModel()
        if popup is None or not popup.isVisible() or popup.currentIndex().isValid():
            return
        typed = self.completer.splitPath(self.tagEditor.text()[: self.tagEditor.cursorPosition()])[0]
        if not typed or not isinstance(model, QAbstractProxyModel):
            return
        best = None
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            if self.completions.is_keyword(model.mapToSource(index).row()):
                break  # (the reader's own tags come first: the rest are keywords)
            if tag_key(str(index.data())) == tag_key(typed):
                best = index
                break
            if best is None:
                best = index
        if best is not None:
            self.completer.blockSignals(True)  # (its `highlighted` would write the completion into the field)
            try:
                popup.setCurrentIndex(best)
            finally:
                self.completer.blockSignals(False)

    def _tags_typed(self, _text: str) -> None:
        self._tags_for = self._selection()

    def tags_pending(self) -> bool:
        """Whether the field holds tags typed and not applied (nor put back with Esc)."""
        return self.tagEditor.text() != ", ".join(self._tags_shown)  # as _set_tags_field wrote it

    def _typed_tags(self) -> list[str]:
        """The tags the field holds: those it showed, where its text still opens with them as it showed them
        (a paper's "alpha" and "beta" stay two, though another paper has the tag "alpha, beta"), then what was
        typed, parted at commas except inside a tag the library has or the field showed."""
        text, shown = self.tagEditor.text(), self._tags_shown
        head = ", ".join(shown)
        if shown and text.startswith(head) and text[len(head) :].lstrip()[:1] in ("", ","):
            return clean_tags([*shown, *self._library.spelt_tags([text[len(head) :]], shown)])
        return self._library.spelt_tags([text], shown)

    def _set_tags_field(self, tags: list[str], selection: list[int] | None = None) -> None:
        """The field shows these tags, and Enter applies what is typed as changes to them (see apply_tags), to
        the papers selected (`selection`, if read already)."""
        self._tags_shown = list(tags)
        self._tags_for = self._selection() if selection is None else selection
        self.tagEditor.setText(", ".join(tags))

    def revert_tags(self) -> None:
        """Esc: what was typed and never applied goes; the field shows the paper's tags again."""
        ids = self._selection()
        for pid in ids:
            self._unapplied.pop(pid, None)
        if len(ids) > 1:
            self._set_tags_field(self._common_tags())
        else:
            self._set_tags_field(self._library.own_tags_of(ids).get(ids[0], []) if ids else [])

    def _common_tags(self, selection: list[int] | None = None) -> list[str]:
        tag_map = self._library.own_tags_of(self._selection() if selection is None else selection)
        if not tag_map:
            return []
        sets = [set(t) for t in tag_map.values()]
        common = set.intersection(*sets)
        first = next(iter(tag_map.values()))
        return [t for t in first if t in common]

    def apply_tags(self, ids: list[int] | None = None) -> None:
        """Enter, or leaving the field: what was typed is applied as changes to the tags the field showed — the
        tags added, those taken out removed — to one paper or to several (their common tags shown): `ids`, else
        the selection. A tag another process (the command line) gave a paper while the reader typed is not one
        the reader took out: it stays. The field then holds no change: leaving it after Enter applies nothing."""
        ids = self._selection() if ids is None else ids
        if not ids or self._read_only:
            return
        typed = self._typed_tags()
        current = self._library.own_tags_of(ids)  # the user's: a file's keywords are kept apart, and stay
        shown = self._tags_shown
        text = self.tagEditor.text()
        if len(ids) == 1 and current.get(ids[0]) == shown:
            after = {ids[0]: typed}  # nothing changed meanwhile: the tags as typed, in the reader's order
        else:
            removed = set(shown) - set(typed)
            added = [t for t in typed if t not in shown]  # a tag shown and kept, removed elsewhere, stays removed
            after = {
                pid: [t for t in tags if t not in removed] + [t for t in added if t not in tags]
                for pid, tags in current.items()
            }
        after = {pid: tags for pid, tags in after.items() if tags != current.get(pid)}  # what changes
        self._tags_shown = typed
        if ids == self._selection() and self.tagEditor.text() != ", ".join(typed):
            self.tagEditor.setText(", ".join(typed))  # as the library spells them ("llm" typed: "LLM")
        if after:
            # each paper's keywords stay, but one typed here is the user's tag now
            keywords = self._library.keywords_of(list(after))
            whole, imported = {}, {}
            for pid, tags in after.items():
                mine = {tag_key(t) for t in tags}
                kept = [k for k in keywords[pid] if tag_key(k) not in mine]
                whole[pid], imported[pid] = tags + kept, {tag_key(k) for k in kept}
            self.tagsApplied.emit(whole, tags_change_text(current, after), imported)
            now = self._library.own_tags_of(list(after))
            if any({tag_key(t) for t in now.get(pid, [])} != {tag_key(t) for t in tags} for pid, tags in after.items()):
                # not done (the library was busy: the window said so): the field keeps them typed, Enter tries
                # again, and a paper shown again gets them back (they went with the next paper: a trial)
                self._tags_shown = shown
                if len(ids) == 1:
                    self._unapplied[ids[0]] = text
                return
        for pid in ids:
            self._unapplied.pop(pid, None)
        self.update_completions()

    # ---- the note ----

    def _note_typed(self) -> None:
        if self.previewToggle.isChecked():
            self._show_preview(self.notesEditor.toPlainText())
        self._note_timer.start()

    def save_note(self, unchanged_too: bool = False, wait: float | None = None) -> None:
        """Autosave: shortly after the last keystroke, when the current paper changes, and on close. Saved over
        the note as it was loaded: if another process (the command line) changed it meanwhile, both are kept,
        its text appended here below a rule, and `noteKeptBoth` says so. `unchanged_too`: saved even when
        nothing was typed since the last save (another process's note has come while the reader is in it).
        While another writer holds the library longer than `wait` (else the window's edit wait), the text is
        kept here (unsaved_notes) and tried again until saved."""
        self._note_timer.stop()
        pid = self._paper
        text = self.notesEditor.toPlainText()
        if pid is None or self._read_only or (text == self._note_saved and not unchanged_too):
            return
        try:
            with self._library.editing(wait=wait):
                before, after = self._library.save_note(pid, text, self._note_saved)
        except StoreBusy:  # an import holds the library: the text is kept here, and saved once it lets go
            new = pid not in self._unsaved
            self._unsaved[pid] = (text, self._note_saved)
            self._unsaved_timer.start()
            if new:
                self.noteWaiting.emit()
            return
        except StoreError as exc:  # the note as last saved stays stored, the text typed in the field
            self._unsaved.pop(pid, None)  # (the field holds it: not tried again behind the reader's back)
            self.noteRefused.emit(str(exc))
            return
        self._note_saved = after
        if after != text:
            self._show_kept(text, after)
        if after != before:  # (a note the reader emptied, changed elsewhere meanwhile, stays: no step to undo)
            self.noteEdited.emit(pid, before, after)
        self._saved_now(pid)  # last: it may close the window, whose closing saves the note again

    @property
    def unsaved_notes(self) -> dict[int, tuple[str, str]]:
        return dict(self._unsaved)

    def save_unsaved_notes(self, wait: float = 0.0) -> bool:
        """Save the notes that waited for an import, as far as the library lets; True once none waits. The note
        in the field is saved as it reads now (the reader may have typed on). One that cannot be saved for
        another reason (its paper removed meanwhile) is said, with its text, and not tried again."""
        for pid, (text, base) in list(self._unsaved.items()):
            if pid == self._paper:
                self.save_note(unchanged_too=True, wait=wait)
                if pid in self._unsaved:
                    return False
                continue
            try:
                with self._library.editing(wait=wait):
                    before, after = self._library.save_note(pid, text, base)
            except StoreBusy:
                return False
            except StoreError as exc:
                del self._unsaved[pid]
                self.noteRefused.emit(f"{exc} The note typed was: “{text[:200]}”")
                continue
            if after != before:
                self.noteEdited.emit(pid, before, after)
            self._saved_now(pid)
        if not self._unsaved:
            self._unsaved_timer.stop()
        return True

    def drop_unsaved_notes(self) -> None:
        """Forget the notes waiting (the reader closes without them)."""
        self._unsaved.clear()
        self._unsaved_timer.stop()
        self._note_saved = self.notesEditor.toPlainText()  # (closing saves the field's note: not it either)

    def _saved_now(self, pid: int) -> None:
        if self._unsaved.pop(pid, None) is not None and not self._unsaved:
            self._unsaved_timer.stop()
            self.notesSaved.emit()

    def _show_kept(self, typed: str, kept: str) -> None:
        """The note as stored after keeping both versions: what the reader typed stays as typed, the cursor
        where it was; the other version is added below (or, when the reader had emptied the note, shown)."""
        self.notesEditor.blockSignals(True)
        try:
            if typed and kept.startswith(typed):
                mine = self.notesEditor.textCursor()
                anchor, position = mine.anchor(), mine.position()
                cursor = QTextCursor(self.notesEditor.document())
                cursor.movePosition(QTextCursor.MoveOperation.End)
                cursor.insertText(kept[len(typed) :])
                mine.setPosition(anchor)  # a cursor at the end would have moved past the text added
                mine.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
                self.notesEditor.setTextCursor(mine)
            else:
                self.notesEditor.setPlainText(kept)
        finally:
            self.notesEditor.blockSignals(False)
        if self.previewToggle.isChecked():
            self._show_preview(kept)
        self.noteKeptBoth.emit(bool(typed.strip()))

    def _show_preview(self, note: str) -> None:
        """The note rendered (markup loads when a preview is first shown, not before the first paint)."""
        from readinglist.ui.note_preview import show_note

        show_note(self.notesPreview.document(), note)

    @property
    def previewing(self) -> bool:
        """Whether notes are shown rendered (the Preview button): the window keeps it across a restart."""
        return self.previewToggle.isChecked()

    def set_previewing(self, on: bool) -> None:
        self.previewToggle.setChecked(on)

    def _toggle_preview(self, on: bool) -> None:
        if on:
            self._show_preview(self.notesEditor.toPlainText())
        self.notesStack.setCurrentIndex(1 if on else 0)
