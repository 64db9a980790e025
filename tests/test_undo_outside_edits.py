"""Undo and redo beside the command line on one library: an undo takes back what its edit did and only
that, where the paper is still as the edit left it, so a tag, state, priority or title the command line
gave meanwhile stays (a trial: "zeta" added from the shell was gone after Ctrl+Z in the window)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from test_tag_editor import in_table, start_tags, tagged
from test_window import type_keys

from readinglist.library import Library


def test_undo_and_redo_keep_a_tag_the_command_line_added_meanwhile(qtbot, window, data_dir):
    """A trial: "delta" typed in the window, "zeta" added from the command line, Ctrl+Z: "zeta" was gone
    (undo put back the whole list from before), and redo did not bring it back."""
    pid = tagged(qtbot, window, 0, ["rl", "VI"])
    field = start_tags(qtbot, window)
    type_keys(qtbot, ", delta")
    qtbot.keyClick(field, Qt.Key.Key_Tab)
    assert window.library.paper(pid).tags == ["delta", "rl", "VI"]
    other = Library.open(data_dir)  # the command line, on the same library
    try:
        other.add_tags([pid], ["zeta"])
        window.outside.look()
        window.actionUndo.trigger()
        assert other.paper(pid).tags == ["rl", "VI", "zeta"]
        window.actionRedo.trigger()
        assert other.paper(pid).tags == ["delta", "rl", "VI", "zeta"]
        other.set_tags({pid: ["delta", "rl"]})  # the command line takes two away: undo leaves them away
        window.actionUndo.trigger()
        assert other.paper(pid).tags == ["rl"]
    finally:
        other.close()


def test_undoing_a_rename_in_case_only_puts_the_spelling_back():
    from readinglist.ui.undo import rebased

    assert rebased(["CuO", "zeta"], ["CuO"], ["cuo"]) == ["cuo", "zeta"]
    assert rebased(["rl", "zeta"], ["delta"], []) == ["rl", "zeta"]
    assert rebased(["rl"], [], ["delta", "rl"]) == ["rl", "delta"]


def test_undo_of_a_state_or_priority_leaves_one_the_command_line_set_meanwhile(qtbot, window, data_dir):
    """The rule undo follows for notes and tags, for states and priorities: "Skimmed" by the window, "Read"
    from the command line, Ctrl+Z put the paper back to unread."""
    a = in_table(qtbot, window, 0)
    b = next(i for i in window.library.search("").ids if i != a)
    window.table.select_ids([a, b])
    qtbot.keyClick(window.table.view, "s")
    qtbot.keyClick(window.table.view, "2")
    assert window.library.paper(a).state == "skimmed" and window.library.paper(b).priority == 2
    other = Library.open(data_dir)
    try:
        other.set_state([a], "read")
        other.set_priority([b], 1)
        window.outside.look()
        window.actionUndo.trigger()  # the priority: b's is the command line's now
        assert (
            window.notice.text()
            == "Undone: Gave 2 papers priority 2 (1 paper was changed elsewhere since, and left so)."
        )
        window.actionUndo.trigger()  # the state: a's is the command line's now
        assert other.paper(a).state == "read" and other.paper(b).state == "unread"
        assert other.paper(a).priority is None and other.paper(b).priority == 1
        window.actionRedo.trigger()
        window.actionRedo.trigger()
        assert other.paper(a).state == "read" and other.paper(b).state == "skimmed"
        assert other.paper(a).priority == 2 and other.paper(b).priority == 1
    finally:
        other.close()


def test_undo_of_a_title_leaves_one_the_command_line_gave_meanwhile(qtbot, window, data_dir):
    a = in_table(qtbot, window, 0)
    window.table.titleEdited.emit(a, "Mine")  # as the title column's editor says it
    assert window.library.paper(a).user_title == "Mine"
    other = Library.open(data_dir)
    try:
        other.set_title(a, "The command line's")
        window.actionUndo.trigger()  # not undone, and said so (it said "Undone"): the edit leaves the history
        assert other.paper(a).user_title == "The command line's"
        assert window.notice.text().startswith("Not undone: Edited title — the title was changed elsewhere")
        assert not window.undo_stack.canRedo() and not window.undo_stack.canUndo()
        window.table.titleEdited.emit(a, "Mine again")  # (over the command line's)
        other.set_title(a, "The command line's")
        window.actionUndo.trigger()  # already where the undo takes it: nothing overtaken, said undone
        assert other.paper(a).user_title == "The command line's"
        assert window.notice.text().startswith("Undone: Edited title")
        window.actionRedo.trigger()  # the title is still what the undo left: the redo is one
        assert other.paper(a).user_title == "Mine again"
    finally:
        other.close()


def test_undo_of_a_note_the_command_line_changed_since_says_it_was_not_undone(qtbot, window, data_dir):
    """A trial: a note typed in the window, `readinglist note ID --set …` from the shell, then Ctrl+Z said
    "Undone: Edited note — …" and Ctrl+Shift+Z "Redone…", while the note stayed the command line's. Now the
    undo says it was not undone, and why; the note stays the command line's, and nothing is left to redo."""
    pid = in_table(qtbot, window, 0)
    window.editors.focus_notes()
    type_keys(qtbot, "mine")
    window.editors.save_note()
    assert window.library.paper(pid).note == "mine" and window.undo_stack.canUndo()
    said = []
    window.edits.refused.connect(said.append)
    other = Library.open(data_dir)
    try:
        other.set_note(pid, "the command line's")
        window.focus_papers()
        window.outside.look()
        window.actionUndo.trigger()
        assert other.paper(pid).note == "the command line's"
        assert said and said[-1].startswith("Not undone: Edited note — the note was changed elsewhere")
        assert "Undone" not in window.notice.text()
        assert not window.undo_stack.canRedo()  # the edit is gone from the history: no "Redone" either
    finally:
        other.close()


def test_a_mark_on_a_paper_the_command_line_removed_is_refused_and_said(qtbot, window, data_dir):
    """A trial: `readinglist remove ID` with the paper shown, `r` in the window: the history got "Mark 1
    paper read", and after `unremove` the paper was unread, while Undo said "Undone: Marked 1 paper read".
    Now the mark is refused, saying the paper was removed elsewhere; nothing goes on the history."""
    pid = in_table(qtbot, window, 0)
    depth = window.undo_stack.count()
    said = []
    window.edits.refused.connect(said.append)
    other = Library.open(data_dir)
    try:
        other.remove([pid])
        qtbot.keyClick(window.table.view, "r")  # (before the window has looked: it still shows the paper)
        assert said and "the paper was removed elsewhere" in said[-1] and "unremove" in said[-1]
        assert window.undo_stack.count() == depth
        other.restore_removed([pid])
        assert other.paper(pid).state == "unread"
    finally:
        other.close()


def test_a_mark_on_several_papers_one_removed_elsewhere_marks_the_rest_and_says_so(qtbot, window, data_dir):
    a = in_table(qtbot, window, 0)
    b = next(i for i in window.library.search("").ids if i != a)
    window.table.select_ids([a, b])
    other = Library.open(data_dir)
    try:
        other.remove([b])
        qtbot.keyClick(window.table.view, "r")
        assert other.paper(a).state == "read"
        assert window.undo_stack.undoText() == "Mark 1 paper read"
        assert "1 paper was removed elsewhere" in window.notice.text()
    finally:
        other.close()


def test_tags_typed_for_a_paper_the_command_line_removed_are_refused_and_said(qtbot, window, data_dir):
    """The tag editor's Enter on a paper removed from the command line while the window showed it: it said
    "Not done: … — FOREIGN KEY constraint failed". It says the paper was removed elsewhere."""
    pid = tagged(qtbot, window, 0, ["rl"])
    field = start_tags(qtbot, window)
    said = []
    window.edits.refused.connect(said.append)
    other = Library.open(data_dir)
    try:
        type_keys(qtbot, ", delta")
        other.remove([pid])
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        assert said and "the paper was removed elsewhere" in said[-1] and "FOREIGN KEY" not in said[-1]
        assert other.restore_removed([pid]) == {pid: pid} and other.paper(pid).tags == ["rl"]
    finally:
        other.close()
