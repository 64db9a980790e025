"""Edits while another writer holds the library: an import holds it for the whole file (minutes for a large
one), in this window or in another process. A trial pressed s during an import: the window froze, one mark in
fifteen was lost with a traceback, and a Cancel clicked meanwhile came too late. Now the window never waits on
its event loop: a mark waits in order and is saved once the library is free; another edit is refused and
says why; a note typed is kept; closing waits for what waits. The command line waits and says so."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from test_ui import window  # noqa: F401 - the window fixture

from readinglist.library import Library
from readinglist.papers import STATES, StoreBusy

ROOT = Path(__file__).resolve().parent.parent


class OtherWriter:
    """Another process's import, as SQLite sees it: a connection holding the write lock until released."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.db.execute("ROLLBACK")
        self.db.close()


class ThreadWriter:
    """This process's import, on a worker thread: the store's own transaction held until released."""

    def __init__(self, library: Library):
        self.held, self.go = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(library,), daemon=True)
        self.thread.start()
        assert self.held.wait(5)

    def _hold(self, library: Library) -> None:
        with library.store.transaction():
            self.held.set()
            self.go.wait(30)

    def release(self) -> None:
        self.go.set()
        self.thread.join(5)


def on_first(qtbot, w) -> tuple[int, int]:
    """The list focused on its first paper, shown: (that paper, the next)."""
    w.table.view.setFocus()
    w.table.select_row(0)
    first, second = w.table.model.ids[:2]
    qtbot.waitUntil(lambda: w.detail.paper_id == first)
    return first, second


def test_a_write_says_busy_at_once_when_asked_to_wait_little_and_changes_nothing(lib):
    pid = lib.search("").ids[0]
    for make in (lambda: OtherWriter(lib.store.path), lambda: ThreadWriter(lib)):
        writer = make()
        started = time.monotonic()
        with pytest.raises(StoreBusy, match="busy"), lib.editing(wait=0.1):
            lib.set_state([pid], "read")
        assert time.monotonic() - started < 2
        writer.release()
        assert lib.paper(pid).state == "unread"
    with lib.editing(wait=0.1):
        lib.set_state([pid], "read")
    assert lib.paper(pid).state == "read"


def test_a_write_inside_another_is_all_or_nothing_on_its_own(lib):
    """Nested writes are savepoints: one that fails leaves the others of the transaction (the window's edit
    runs the library's writes inside one, so that it begins only when the library is free)."""
    first, second = lib.search("").ids[:2]
    with lib.editing():
        lib.set_state([first], "read")
        with pytest.raises(RuntimeError), lib.store.transaction() as db:
            db.execute("UPDATE papers SET state = 'skipped' WHERE id = ?", (second,))
            raise RuntimeError("part-way")
    assert lib.paper(first).state == "read" and lib.paper(second).state == "unread"


def test_the_command_line_waits_for_another_writer_and_says_so(data_dir):
    lib = Library.open(data_dir)
    uid = lib.paper(lib.search("").ids[0]).uid
    path = lib.store.path
    lib.close()
    writer = OtherWriter(path)
    threading.Timer(2.5, writer.release).start()
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "tag", uid, "waited"],
        cwd=ROOT, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Waiting for the library" in run.stderr and time.monotonic() - started >= 2.5
    lib = Library.open(data_dir)
    try:
        assert "waited" in lib.paper(lib.resolve(uid)).tags
    finally:
        lib.close()


@pytest.mark.parametrize("kind", [OtherWriter, ThreadWriter])
def test_marks_made_while_an_import_writes_wait_and_are_saved_in_order(qtbot, window, kind):  # noqa: F811
    w = window
    first, second = on_first(qtbot, w)
    writer = kind(w.library.store.path) if kind is OtherWriter else kind(w.library)
    started = time.monotonic()
    qtbot.keyClick(w.table.view, Qt.Key.Key_S)  # skimmed, and on to the next
    qtbot.keyClick(w.table.view, Qt.Key.Key_X)  # skipped
    w.table.go_to(first)
    qtbot.keyClick(w.table.view, Qt.Key.Key_R)  # the first again: read, after its skimmed
    assert time.monotonic() - started < 2  # the window never waited for the import
    assert w.edits.waiting == 3 and "3 changes waiting" in w.notice.text()
    assert w.library.paper(first).state == "unread"
    writer.release()
    qtbot.waitUntil(lambda: w.edits.waiting == 0, timeout=5000)
    assert w.library.paper(first).state == "read" and w.library.paper(second).state == "skipped"
    assert "Saved 3 changes" in w.notice.text()
    w.actionUndo.trigger()  # the marks are on the undo stack, in order
    assert w.library.paper(first).state == "skimmed"


def test_other_edits_and_undo_are_refused_while_an_import_writes_and_nothing_is_lost(qtbot, window):  # noqa: F811
    w = window
    pid, _ = on_first(qtbot, w)
    w.editors.tagEditor.setText("bandits")
    w.editors.apply_tags()
    assert "bandits" in w.library.paper(pid).tags
    writer = OtherWriter(w.library.store.path)
    w.actionUndo.trigger()
    assert w.notice.text().startswith("Not undone: the library is busy")
    assert "bandits" in w.library.paper(pid).tags
    w.editors.tagEditor.setText("bandits, theory")
    w.editors.apply_tags()
    assert "Not done" in w.notice.text() and "theory" not in w.library.paper(pid).tags
    writer.release()
    w.actionUndo.trigger()
    assert "bandits" not in w.library.paper(pid).tags


def test_a_note_typed_while_an_import_writes_is_kept_and_saved_after(qtbot, window):  # noqa: F811
    w = window
    first, second = on_first(qtbot, w)
    writer = ThreadWriter(w.library)
    w.editors.notesEditor.setPlainText("Read the proof of Lemma 2.")
    w.editors.save_note()
    assert first in w.editors.unsaved_notes and "note waits" in w.notice.text()
    w.table.go_to(second)
    qtbot.waitUntil(lambda: w.detail.paper_id == second)
    w.table.go_to(first)  # back: the note as typed, not as stored
    qtbot.waitUntil(lambda: w.detail.paper_id == first)
    assert w.editors.notesEditor.toPlainText() == "Read the proof of Lemma 2."
    writer.release()
    qtbot.waitUntil(lambda: not w.editors.unsaved_notes, timeout=5000)
    assert w.library.paper(first).note == "Read the proof of Lemma 2."


def test_closing_waits_for_the_marks_still_waiting(qtbot, window):  # noqa: F811
    w = window
    pid, _ = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_Q)
    assert not w.close()  # not yet: the mark waits
    assert w.isVisible() and "Not closed yet" in w.notice.text()
    writer.release()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert w.library.paper(pid).state == "queued"


def test_a_waiting_mark_that_fails_is_said_and_dropped_never_pushed_again(qtbot, window, monkeypatch):  # noqa: F811
    """A mark that waited, then failed once begun (a full disk), is rolled back, said, and dropped: it was
    pushed again every half second, the stack holding it several times, and the window crashed on closing."""
    from readinglist.papers import StoreError

    w = window
    pid, _ = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_S)
    assert w.edits.waiting == 1

    def full(*_args):
        raise StoreError("the disk is full while writing library.db; nothing was changed")

    monkeypatch.setattr(w.library, "set_state", full)
    writer.release()
    qtbot.waitUntil(lambda: w.edits.waiting == 0, timeout=5000)
    assert "Not done: Mark 1 paper skimmed — the disk is full" in w.notice.text()
    assert w.undo_stack.count() == 0 and w.library.paper(pid).state == "unread"


def test_closing_keeps_its_notice_while_a_note_waits_and_saves_the_note_once(qtbot, window):  # noqa: F811
    w = window
    pid, _ = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    w.editors.notesEditor.setPlainText("MINE")
    assert not w.close()
    qtbot.wait(1500)  # the note's retries (every second) leave the closing notice and its button
    assert w.notice.text().startswith("Not closed yet: 1 change waits") and w.notice.kind == "closing"
    writer.release()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert w.library.paper(pid).note == "MINE"


def test_a_command_line_read_never_waits_for_a_writer(data_dir):
    """Only an edit waits for another process's import; a search beside one answers and closes at once (its
    close waited 30 min to write the automatic backup's mark, a review found)."""
    lib = Library.open(data_dir)
    pid = lib.search("").ids[0]
    lib.set_state([pid], "read")  # an annotation since the last backup: closing would write its mark
    path = lib.store.path
    lib.close()
    writer = OtherWriter(path)
    try:
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "search", "learning"],
            cwd=ROOT, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert time.monotonic() - started < 15 and "Waiting for the library" not in run.stderr
    finally:
        writer.release()


def test_close_without_them_closes_at_once_and_saves_nothing_that_waited(qtbot, window):  # noqa: F811
    """The marks waiting were saved all the same once the import ended (the retries went on after the window
    closed), a trial found."""
    w = window
    pid, _ = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_Q)
    assert not w.close() and w.notice.action_text == "Close Without Them"
    qtbot.mouseClick(w.notice.button, Qt.MouseButton.LeftButton)
    assert not w.isVisible() and w.edits.waiting == 0
    writer.release()
    qtbot.wait(1200)  # past a retry's time
    assert w.library.paper(pid).state == "unread"


def test_topics_waiting_to_be_stored_beside_an_import_stop_when_cancelled(lib):
    """Storing the topics waited 30 s at a time for an import, and closing the window waited for it."""
    from readinglist.papers import TopicsCancelled

    cancel = threading.Event()
    writer = OtherWriter(lib.store.path)
    threading.Timer(1.5, cancel.set).start()
    started = time.monotonic()
    try:
        with pytest.raises(TopicsCancelled):
            lib.compute_topics(count=2, use_process=False, cancel=cancel)
    finally:
        writer.release()
    assert time.monotonic() - started < 10


def test_cancel_is_offered_until_a_files_papers_are_saved_not_while_it_is_indexed(qtbot, window, tmp_path):  # noqa: F811
    """Cancel at "Indexing …" was taken, and the papers came all the same, unexplained (a trial)."""
    import json

    w = window
    f = tmp_path / "more.jsonl"
    f.write_text("".join(json.dumps({"title": f"Paper {i}", "abstract": f"About topic {i}."}) + "\n" for i in range(3)))
    indexing, go = threading.Event(), threading.Event()
    commit = w.library.updater.commit_bulk

    def slow_commit(*args, **kwargs):
        indexing.set()
        go.wait(10)
        return commit(*args, **kwargs)

    w.library.updater.commit_bulk = slow_commit
    try:
        assert w.import_bar.start([f])
        qtbot.waitUntil(lambda: w.import_bar.label.text().startswith("Indexing"), timeout=10000)
        assert not w.import_bar.cancelButton.isEnabled()
        assert "saved" in w.import_bar.cancelButton.toolTip()
    finally:
        go.set()
    qtbot.waitUntil(lambda: not w.import_bar.running, timeout=10000)
    assert w.library.counts()["all"] == 22


def test_tags_refused_while_busy_stay_typed_and_come_back_with_their_paper(qtbot, window):  # noqa: F811
    """Refused, the tags were taken as shown (Enter again did nothing), and they went with the next paper (a
    trial): they stay typed in the field, come back with their paper, and Enter applies them once free."""
    w = window
    first, second = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    w.editors.tagEditor.setText("robust, pac")
    w.editors.apply_tags()
    assert "Not done" in w.notice.text() and w.editors.tags_pending()
    w.table.go_to(second)
    qtbot.waitUntil(lambda: w.detail.paper_id == second)
    assert w.editors.tagEditor.text() == ""
    w.table.go_to(first)
    qtbot.waitUntil(lambda: w.detail.paper_id == first)
    assert w.editors.tagEditor.text() == "robust, pac" and w.editors.tags_pending()
    writer.release()
    w.editors.apply_tags()
    assert sorted(w.library.paper(first).tags) == ["pac", "robust"] and not w.editors.tags_pending()


def shown_row(w, pid: int) -> dict[str, object]:
    """How the table shows the paper's row, painted: its state, priority, title font and waiting tooltip."""
    from readinglist.ui.paper_model import COLUMNS, TITLE, SortRole, WaitingRole

    model = w.table.model
    row = model.row_of(pid)
    w.table.view.scrollTo(model.index(row, TITLE))
    w.table.view.viewport().grab()  # painted: the row has its items (they are made for the rows shown)
    title = model.item(row, TITLE)
    font = title.font()
    return {
        "state": STATES[model.item(row, COLUMNS.index("state")).data(SortRole)],
        "priority": model.item(row, COLUMNS.index("priority")).text(),
        "italic": font.italic(),
        "bold": font.bold(),
        "waiting": title.data(WaitingRole),
    }


def test_a_mark_waiting_shows_on_its_row_and_in_its_paper_until_saved_the_last_one_shown(qtbot, window):  # noqa: F811
    """The row kept its old state while its mark waited for an import, only the status bar counting it (a
    user trial): it shows the mark at once, in italics and said to wait, and as any other once saved."""
    w = window
    first, second = on_first(qtbot, w)
    assert shown_row(w, first) == {"state": "unread", "priority": "", "italic": False, "bold": True, "waiting": None}
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_S)  # skimmed, and on to the next
    row = shown_row(w, first)
    assert row["state"] == "skimmed" and row["italic"] and not row["bold"] and "busy" in str(row["waiting"])
    assert shown_row(w, second)["waiting"] is None
    w.table.go_to(first)
    qtbot.waitUntil(lambda: w.detail.paper_id == first)
    qtbot.keyClick(w.table.view, Qt.Key.Key_1)  # priority 1: the paper stays current
    qtbot.keyClick(w.table.view, Qt.Key.Key_R)  # read, after its skimmed: the last one shows
    row = shown_row(w, first)
    assert (row["state"], row["priority"], row["italic"]) == ("read", "P1", True)
    w.table.go_to(first)
    qtbot.waitUntil(lambda: "Read · priority 1 — waiting to be saved" in w.detail.toPlainText())
    assert w.mark_actions["read"].isChecked() and not w.mark_actions["unread"].isChecked()
    assert w.priority_actions[0].isChecked()
    assert w.library.paper(first).state == "unread" and w.statusLabel.text().endswith("triaged 0 of 19")
    writer.release()
    qtbot.waitUntil(lambda: w.edits.waiting == 0, timeout=5000)
    assert w.library.paper(first).state == "read" and w.library.paper(first).priority == 1
    assert shown_row(w, first) == {"state": "read", "priority": "P1", "italic": False, "bold": False, "waiting": None}
    qtbot.waitUntil(lambda: "Read · priority 1 · id" in w.detail.toPlainText())
    assert "waiting" not in w.detail.toPlainText() and w.statusLabel.text().endswith("triaged 1 of 19")


def test_a_waiting_row_says_so_in_its_tooltip(qtbot, window):  # noqa: F811
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    from readinglist.ui.paper_model import COLUMNS

    w = window
    first, _ = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    try:
        qtbot.keyClick(w.table.view, Qt.Key.Key_Q)
        view, row = w.table.view, w.table.model.row_of(first)
        view.horizontalHeader().setSectionHidden(COLUMNS.index("state"), False)
        shown_row(w, first)
        for column, said in (("state", "Queued — waiting to be saved: the library is busy"),
                             ("venue", "Waiting to be saved: the library is busy")):  # fmt: skip
            pos = view.visualRect(w.table.model.index(row, COLUMNS.index(column))).center()
            view.tool_tip(QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos)))
            assert QToolTip.text().replace("\n", " ").startswith(said)
    finally:
        writer.release()


def test_marks_that_no_longer_wait_unsaved_show_what_the_library_holds(qtbot, window, monkeypatch):  # noqa: F811
    """Dropped (Close Without Them) or failed once the library was free, a waiting mark's row and paper go
    back to the library's values."""
    from readinglist.papers import StoreError

    w = window
    first, second = on_first(qtbot, w)
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_X)  # skipped: this one fails once the library is free
    monkeypatch.setattr(w.library, "set_state", lambda *_args: (_ for _ in ()).throw(StoreError("the disk is full")))
    assert shown_row(w, first)["state"] == "skipped"
    writer.release()
    qtbot.waitUntil(lambda: w.edits.waiting == 0, timeout=5000)
    assert shown_row(w, first) == {"state": "unread", "priority": "", "italic": False, "bold": True, "waiting": None}
    monkeypatch.undo()
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_2)  # on the second paper: priority 2, dropped on closing
    assert shown_row(w, second)["priority"] == "P2"
    assert not w.close()
    qtbot.mouseClick(w.notice.button, Qt.MouseButton.LeftButton)  # Close Without Them
    writer.release()
    assert shown_row(w, second) == {"state": "unread", "priority": "", "italic": False, "bold": True, "waiting": None}
    assert w.detail.paper(second).priority is None


def test_undo_while_only_marks_wait_says_when_it_can_and_then_undoes_them(qtbot, window):  # noqa: F811
    """Undo was greyed out and silent while the only edits were marks waiting (a user trial): it stays
    enabled and says it works once they are saved; then it undoes them as any others."""
    w = window
    first, _ = on_first(qtbot, w)
    assert not w.actionUndo.isEnabled()  # nothing done, nothing waiting
    writer = OtherWriter(w.library.store.path)
    qtbot.keyClick(w.table.view, Qt.Key.Key_S)
    assert w.actionUndo.isEnabled()
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.notice.text().startswith("Not undone yet: 1 change waits to be saved — the library is busy")
    assert "Undo works once they are saved" in w.notice.text() and w.edits.waiting == 1
    writer.release()
    qtbot.waitUntil(lambda: w.edits.waiting == 0, timeout=5000)
    assert w.library.paper(first).state == "skimmed" and w.actionUndo.isEnabled()
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.library.paper(first).state == "unread" and not w.actionUndo.isEnabled()


def test_a_rebuild_of_the_index_keeps_neither_the_window_nor_a_mark_waiting(qtbot, data_dir, monkeypatch):
    """An index made by another version (a schema change: every library's first start after one) is rebuilt on
    the warm-up's worker: meanwhile the papers are listed, marked and tagged at once, and once it is done a
    search finds what was done meanwhile."""
    import json

    from conftest import open_window

    from readinglist.index.engine import Index

    Library.open(data_dir).close()
    state = data_dir / "index" / "readinglist-index.json"
    state.write_text(json.dumps({**json.loads(state.read_text()), "schema": "another version's"}))
    started, go = threading.Event(), threading.Event()
    rebuild = Index.rebuild

    def held(self, *args, **kwargs):
        started.set()
        assert go.wait(30)
        return rebuild(self, *args, **kwargs)

    monkeypatch.setattr(Index, "rebuild", held)
    w = open_window(qtbot, data_dir, 19)
    try:
        qtbot.waitUntil(started.is_set, timeout=10000)  # the rebuild is under way, and held
        first, second = on_first(qtbot, w)
        begun = time.monotonic()
        qtbot.keyClick(w.table.view, Qt.Key.Key_R)  # read, and on to the next
        w.library.add_tags([second], ["rebuilt"])
        assert time.monotonic() - begun < 2 and w.edits.waiting == 0
        assert w.library.paper(first).state == "read" and not w.warmed_up
        go.set()
        qtbot.waitUntil(lambda: w.warmed_up, timeout=20000)
        assert w.library.search("state:read").ids == [first] and w.library.search("tag:rebuilt").ids == [second]
    finally:
        go.set()
        w.close()
        w.runner.wait()
        w.library.close()
