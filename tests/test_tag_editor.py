"""The tag editor under the detail pane, as a reader uses it: `t`, type, take a completion, go on typing;
Enter applies, leaving the field (Tab, a click elsewhere, another paper) applies as the note saves, and Esc
puts back the paper's tags. Keys go to the widget that has the focus, as a user's do."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from test_window import type_keys


def in_table(qtbot, w, row=0):
    w.table.view.setFocus()
    w.table.select_row(row)
    qtbot.waitUntil(lambda: w.table.view.hasFocus() and w.detail.paper_id == w.table.current_id)
    return w.table.current_id


def tagged(qtbot, w, row, tags):
    """The paper at `row`, current, with these tags, shown in the field."""
    pid = in_table(qtbot, w, row)
    w.library.add_tags([pid], tags)
    w.editors.update_completions()
    w.detail.refresh([pid])
    qtbot.waitUntil(lambda: w.editors.tagEditor.text() == ", ".join(tags))
    return pid


def start_tags(qtbot, w):
    qtbot.keyClick(w.table.view, "t")
    qtbot.waitUntil(w.editors.tagEditor.hasFocus)
    return w.editors.tagEditor


def test_enter_on_a_completion_takes_it_and_the_reader_types_on(qtbot, window):
    """`r`, Down, Enter on "rl": the field reads "rl" and keeps the cursor; `, video` goes on in it (it went
    to the search, the tags applied and the field left); Enter with the list closed applies both."""
    lib = window.library
    lib.add_tags([lib.search("").ids[-1]], ["rl"])
    window.editors.update_completions()
    pid = in_table(qtbot, window)
    field = start_tags(qtbot, window)
    qtbot.keyClick(field, "r")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not popup.isVisible())
    assert field.text() == "rl" and field.hasFocus()
    assert lib.paper(pid).tags == []  # only the completion was taken
    type_keys(qtbot, ", video")
    assert field.text() == "rl, video" and window.search_bar.field.text() == ""
    if popup.isVisible():  # ("video" is no tag yet: nothing to offer, but close the list as a reader would)
        qtbot.keyClick(popup, Qt.Key.Key_Escape)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert lib.paper(pid).tags == ["rl", "video"]
    assert window.table.view.hasFocus()


def test_enter_takes_the_completion_the_list_opens_on_highlighted(qtbot, window):
    """`t`, `to`, with the reader's "to-read" offered first: it is highlighted, the field still reads "to",
    and Enter applies "to-read" (it applied a new tag "to": README says Enter takes the completion, a user
    trial). Typed whole, "to-read" is the one highlighted though "to-read-later" comes first."""
    lib = window.library
    lib.add_tags([lib.search("").ids[-1]], ["to-read", "topology"])
    lib.add_tags([lib.search("").ids[-2]], ["to-read-later"])
    window.editors.update_completions()
    pid = in_table(qtbot, window)
    field = start_tags(qtbot, window)
    type_keys(qtbot, "to")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(lambda: popup.isVisible() and popup.currentIndex().isValid())
    assert popup.currentIndex().data() == "to-read" and field.text() == "to"
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not popup.isVisible())
    assert field.text() == "to-read" and lib.paper(pid).tags == []  # taken, as a highlighted one is
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert lib.paper(pid).tags == ["to-read"]
    other = in_table(qtbot, window, 1)
    start_tags(qtbot, window)
    type_keys(qtbot, "To-read")
    qtbot.waitUntil(lambda: popup.isVisible() and popup.currentIndex().isValid())
    assert popup.currentIndex().data() == "to-read"
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: lib.paper(other).tags == ["to-read"])


def test_up_from_the_highlighted_completion_and_enter_applies_exactly_what_was_typed(qtbot, window):
    """ "vis" with "vision" offered and highlighted: Up leaves none highlighted and the field reads "vis";
    Enter applies "vis", as typed."""
    lib = window.library
    lib.add_tags([lib.search("").ids[-1]], ["vision"])
    window.editors.update_completions()
    pid = in_table(qtbot, window)
    field = start_tags(qtbot, window)
    type_keys(qtbot, "vis")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(lambda: popup.isVisible() and popup.currentIndex().isValid())
    qtbot.keyClick(popup, Qt.Key.Key_Up)
    assert not popup.currentIndex().isValid() and field.text() == "vis"
    qtbot.keyClick(popup, Qt.Key.Key_Enter)
    qtbot.waitUntil(lambda: lib.paper(pid).tags == ["vis"])
    assert not popup.isVisible() and window.table.view.hasFocus()


KEYWORDS_BIB = """@article{k1, title = {Belief functions at work}, year = {2005},
  keywords = {the evidential reasoning approach, Theories and models of many-electron systems}}
"""


def test_the_readers_own_tags_are_offered_before_a_files_keywords_and_enter_takes_none_unchosen(
    qtbot, window, tmp_path
):
    """`t`, `rl, the`: the reader's "theory" is offered first, and highlighted, then the keywords "the
    evidential reasoning approach" and "Theories and models…" (they came first, by name, and Enter took the
    first: a keyword silently made the reader's tag). `rl, the ev` offers only the keyword, highlighted
    nowhere: Enter applies "rl, the ev" as typed, the keywords stay keywords."""
    lib = window.library
    source = tmp_path / "k.bib"
    source.write_text(KEYWORDS_BIB, encoding="utf-8")
    lib.import_files([source])
    keywords = {"the evidential reasoning approach", "Theories and models of many-electron systems"}
    assert lib.keyword_tags() == keywords
    lib.add_tags([lib.search("").ids[-1]], ["theory", "rl"])
    window.update_counts()
    pid = in_table(qtbot, window)
    field = start_tags(qtbot, window)
    type_keys(qtbot, "rl, the")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    offered = [popup.model().index(r, 0).data() for r in range(popup.model().rowCount())]
    assert offered == ["theory", "the evidential reasoning approach", "Theories and models of many-electron systems"]
    qtbot.waitUntil(lambda: popup.currentIndex().isValid())
    assert popup.currentIndex().data() == "theory"  # the reader's own tag, highlighted: Enter would take it
    type_keys(qtbot, " ev")  # only a keyword offered now: none highlighted
    qtbot.waitUntil(lambda: popup.isVisible() and popup.model().rowCount() == 1)
    qtbot.wait(50)  # (time for a highlight that must not come)
    assert not popup.currentIndex().isValid()
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: lib.paper(pid).own_tags == ["rl", "the ev"])
    assert field.text() == "rl, the ev" and lib.keyword_tags() == keywords


def test_a_keyword_made_the_readers_tag_elsewhere_moves_up_among_the_completions(qtbot, window, tmp_path):
    """The sidebar's Make It My Tag: the next time the field is entered, the tag is offered among the
    reader's own, above the keywords."""
    lib = window.library
    source = tmp_path / "k.bib"
    source.write_text(KEYWORDS_BIB, encoding="utf-8")
    lib.import_files([source])
    lib.add_tags([lib.search("").ids[-1]], ["theory"])
    window.update_counts()
    window.sidebar.make_keywords_tags("Theories and models of many-electron systems")
    in_table(qtbot, window)
    start_tags(qtbot, window)
    type_keys(qtbot, "the")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    offered = [popup.model().index(r, 0).data() for r in range(popup.model().rowCount())]
    assert offered == ["Theories and models of many-electron systems", "theory", "the evidential reasoning approach"]
    qtbot.keyClick(popup, Qt.Key.Key_Escape)


def test_tags_typed_then_tab_are_applied_and_undoable(qtbot, window):
    """`t`, `, saf`, Tab, Esc, j, k: the field showed "rl, saf", then "rl" again, nothing saved."""
    pid = tagged(qtbot, window, 0, ["rl"])
    field = start_tags(qtbot, window)
    type_keys(qtbot, ", saf")
    qtbot.keyClick(field, Qt.Key.Key_Tab)
    assert not field.hasFocus()
    assert window.library.paper(pid).tags == ["rl", "saf"]
    assert "saf" in window.actionUndo.text() or "saf" in window.actionUndo.toolTip()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    window.table.view.setFocus()
    type_keys(qtbot, "jk")
    qtbot.waitUntil(lambda: window.table.current_id == pid and window.detail.paper_id == pid)
    assert field.text() == "rl, saf" and window.library.paper(pid).tags == ["rl", "saf"]
    window.actionUndo.trigger()
    assert window.library.paper(pid).tags == ["rl"]
    qtbot.waitUntil(lambda: field.text() == "rl")


def test_undo_of_a_tag_typed_in_another_case_spells_it_as_before_on_every_paper(qtbot, window):
    """A tag typed with capitals ("LLM") spells the library's "llm" so on every paper; undo took it off the
    paper it was typed on and left the others' "LLM"."""
    lib = window.library
    other = lib.search("").ids[-1]
    lib.add_tags([other], ["llm"])
    pid = tagged(qtbot, window, 0, ["rl"])
    field = start_tags(qtbot, window)
    type_keys(qtbot, ", LLM")
    qtbot.keyClick(field, Qt.Key.Key_Return)  # no completion highlighted: what was typed is applied
    assert lib.tags_of([pid, other]) == {pid: ["LLM", "rl"], other: ["LLM"]}
    window.actionUndo.trigger()
    assert lib.tags_of([pid, other]) == {pid: ["rl"], other: ["llm"]}


def test_clicking_another_paper_applies_the_tags_to_the_paper_they_were_typed_for(qtbot, window):
    pid = tagged(qtbot, window, 0, ["rl"])
    start_tags(qtbot, window)
    type_keys(qtbot, ", saf")
    view = window.table.view
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(window.table.model.index(2, 1)).center()
    )
    qtbot.waitUntil(lambda: window.table.current_id != pid and window.detail.paper_id == window.table.current_id)
    other = window.table.current_id
    assert window.library.paper(pid).tags == ["rl", "saf"]
    assert window.library.paper(other).tags == []
    assert window.editors.tagEditor.text() == ""


def test_another_paper_made_current_while_typing_gets_none_of_the_tags(qtbot, window):
    """Next Paper from the menu (the field keeps the focus): what was typed goes to the paper it was typed
    for, as a note is saved when the paper changes, and the next paper's tags are shown."""
    pid = tagged(qtbot, window, 0, ["rl"])
    field = start_tags(qtbot, window)
    type_keys(qtbot, ", saf")
    window.actionNext.trigger()
    qtbot.waitUntil(lambda: window.table.current_id != pid and window.detail.paper_id == window.table.current_id)
    other = window.table.current_id
    qtbot.waitUntil(lambda: field.text() == "")
    assert window.library.paper(pid).tags == ["rl", "saf"]
    assert window.library.paper(other).tags == []
    window.actionUndo.trigger()
    assert window.library.paper(pid).tags == ["rl"]


def test_esc_still_puts_back_the_tags_and_applies_nothing(qtbot, window):
    pid = tagged(qtbot, window, 0, ["rl"])
    depth = window.undo_stack.count()
    field = start_tags(qtbot, window)
    type_keys(qtbot, ", saf")
    qtbot.keyClick(field, Qt.Key.Key_Escape)
    assert window.table.view.hasFocus() and field.text() == "rl"
    assert window.library.paper(pid).tags == ["rl"] and window.undo_stack.count() == depth


def test_tags_typed_are_applied_when_the_window_closes(qtbot, window):
    pid = tagged(qtbot, window, 0, ["rl"])
    start_tags(qtbot, window)
    type_keys(qtbot, ", saf")
    window.close()
    assert window.library.paper(pid).tags == ["rl", "saf"]


def test_a_tag_typed_in_lower_case_takes_the_spelling_the_library_has(qtbot, window):
    """`t`, `llm, Vision` Enter, where the library has "LLM": the paper gets LLM (capitals are typed on
    purpose, their lack seldom is) and Vision as typed; the completion list offers LLM as spelt."""
    lib = window.library
    lib.add_tags([lib.search("").ids[-1]], ["LLM"])
    window.editors.update_completions()
    pid = in_table(qtbot, window)
    field = start_tags(qtbot, window)
    type_keys(qtbot, "ll")
    popup = window.editors.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    assert popup.model().index(0, 0).data() == "LLM"
    type_keys(qtbot, "m, Vision")
    assert field.text() == "llm, Vision"
    if popup.isVisible():
        qtbot.keyClick(popup, Qt.Key.Key_Escape)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert lib.paper(pid).tags == ["LLM", "Vision"]
    qtbot.waitUntil(lambda: field.text() == "LLM, Vision")


def test_a_tag_holding_a_comma_stays_whole_through_the_field(qtbot, window):
    """The field shows tags joined by ", ", and read them back parted at every comma: a keyword made the
    reader's ("Optimization, convex") became two tags when another was typed beside it."""
    pid = in_table(qtbot, window)
    window.library.set_tags({pid: ["Optimization, convex"]})
    window.editors.update_completions()
    window.detail.refresh([pid])
    qtbot.waitUntil(lambda: window.editors.tagEditor.text() == "Optimization, convex")
    assert not window.editors.tags_pending()
    field = start_tags(qtbot, window)
    field.end(False)
    type_keys(qtbot, ", mine")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.library.paper(pid).tags == ["mine", "Optimization, convex"]


def test_a_tag_without_a_space_after_its_comma_is_no_edit_and_a_rename_shows_in_the_field(qtbot, window):
    """A review: "Optimization,convex" shown in the field read as pending, and moving to another paper applied
    it as two tags. A trial: after the sidebar renamed a comma tag the field kept the old text, and Enter
    wrote the old tags back, parted at the comma."""
    pid = in_table(qtbot, window, 0)
    window.library.set_tags({pid: ["Optimization,convex", "mine"]})
    window.detail.refresh([pid])
    qtbot.waitUntil(lambda: window.editors.tagEditor.text() == "mine, Optimization,convex")
    assert not window.editors.tags_pending()
    in_table(qtbot, window, 1)
    in_table(qtbot, window, 0)
    assert window.library.paper(pid).tags == ["mine", "Optimization,convex"]
    window.sidebar.rename_tag("Optimization,convex", "convex optimization")
    qtbot.waitUntil(lambda: window.editors.tagEditor.text() == "convex optimization, mine")


def test_a_papers_tags_shown_stay_apart_though_another_has_a_tag_joining_them(qtbot, window):
    """A review: with "alpha, beta" a tag of another paper, a paper's "alpha" and "beta" shown in the field
    became that one tag when the reader typed another beside them."""
    other = in_table(qtbot, window, 1)
    window.library.set_tags({other: ["alpha, beta"]})
    pid = in_table(qtbot, window, 0)
    window.library.set_tags({pid: ["alpha", "beta"]})
    window.editors.update_completions()
    window.detail.refresh([pid])
    qtbot.waitUntil(lambda: window.editors.tagEditor.text() == "alpha, beta")
    field = start_tags(qtbot, window)
    field.end(False)
    type_keys(qtbot, ", mine")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.library.paper(pid).tags == ["alpha", "beta", "mine"]


def test_a_run_of_selection_changes_reads_the_papers_common_tags_once(qtbot, window, monkeypatch):
    """The field shows the common tags of the papers selected, read once a run of changes ends (the loop's
    next turn): each change read them, 11 ms for 8k papers, paid at each step of a selection made in steps.
    What it shows is the last selection's, as before."""
    w = window
    first = tagged(qtbot, w, 0, ["mine", "shared"])
    ids = w.table.model.ids
    w.library.add_tags(ids[1:3], ["shared"])
    reads: list[int] = []
    read = w.library.own_tags_of
    monkeypatch.setattr(w.library, "own_tags_of", lambda papers: reads.append(len(papers)) or read(papers))
    w.table.view.selectAll()  # three changes in one turn of the loop, the first paper current throughout
    w.table.select_ids([first, ids[1]])
    w.table.select_ids([first, ids[1], ids[2]])
    assert reads == []  # not yet: on the next turn
    qtbot.waitUntil(lambda: w.editors.tagEditor.text() == "shared")
    assert reads == [3]  # once, for the papers selected last
    assert not any(action.isChecked() for action in w.mark_actions.values())  # several: no state pressed
    w.table.select_ids([first])
    qtbot.waitUntil(lambda: w.editors.tagEditor.text() == "mine, shared")  # one paper: its own tags
