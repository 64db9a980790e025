"""What an undo (or redo) selects, and which papers it shows: an edit of the papers selected selects them
again; one made from the sidebar on a tag or the keywords (thousands of papers, maybe) leaves the reader's
selection and current paper alone, and a view filtered by that tag is searched again (a trial: Delete Tag
undone selected a tag's 2,613 papers, the next x skipped them all; and a `tag:CuO` search stayed empty)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from readinglist.ui.sidebar import ALL


def search(qtbot, w, text):
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText(text)
    qtbot.waitUntil(lambda: w.search_bar.idle)


def tagged(w, n: int = 5, tag: str = "CuO") -> list[int]:
    """The first n papers given `tag` (as an import or the command line would), the sidebar told."""
    ids = w.library.search("").ids[:n]
    w.library.add_tags(ids, [tag])
    w.update_counts()
    return ids


def pick_tag(qtbot, w, tag: str | None) -> None:
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.sidebar.set_filter(replace(w.sidebar.filter, tag=tag))
    qtbot.waitUntil(lambda: w.search_bar.idle)


def step(qtbot, w, redo: bool = False) -> None:
    """Ctrl+Z (Ctrl+Shift+Z), typed in the table; then any search it started has landed."""
    control = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, control | Qt.KeyboardModifier.ShiftModifier if redo else control)
    qtbot.waitUntil(lambda: w.search_bar.idle)


def test_undoing_a_tag_deleted_in_the_sidebar_keeps_the_readers_selection_and_says_what_it_undid(qtbot, window):
    carried = tagged(window, 12)
    window.table.view.setFocus()
    mine = window.table.model.ids[15]  # a paper without the tag, current
    window.table.select_ids([mine])
    qtbot.waitUntil(lambda: window.detail.paper_id == mine)
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.delete_tag("CuO")
    assert window.notice.text() == "Deleted tag “CuO” (12 papers)."
    step(qtbot, window)
    assert all(window.library.paper(i).tags == ["CuO"] for i in carried)
    assert window.table.selected_ids() == [mine] and window.table.current_id == mine
    assert window.detail.paper_id == mine
    assert window.notice.text() == "Undone: Deleted tag “CuO” (12 papers)." and window.notice.action_text == "Redo"
    step(qtbot, window, redo=True)
    assert window.library.tag_counts() == []
    assert window.table.selected_ids() == [mine] and window.notice.text() == "Redone: Deleted tag “CuO” (12 papers)."
    step(qtbot, window)
    qtbot.keyClick(window.table.view, "x")  # the reader's next key marks their paper, not the tag's twelve
    assert window.library.counts()["skipped"] == 1 and window.library.paper(mine).state == "skipped"


def test_undoing_a_mark_of_the_papers_selected_selects_them_again(qtbot, window):
    window.table.view.setFocus()
    chosen = [window.table.model.ids[i] for i in (1, 3, 4)]
    window.table.select_ids(chosen)
    qtbot.keyClick(window.table.view, "r")
    window.table.select_ids([window.table.model.ids[10]])
    step(qtbot, window)
    assert sorted(window.table.selected_ids()) == sorted(chosen)  # where the reader was
    assert {window.library.paper(i).state for i in chosen} == {"unread"}
    qtbot.keyClick(window.table.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # all of them: the same
    qtbot.keyClick(window.table.view, "q")
    window.table.select_ids([window.table.model.ids[0]])
    step(qtbot, window)
    assert len(window.table.selected_ids()) == 19


def test_keywords_made_tags_or_removed_from_the_sidebar_leave_the_selection_on_undo(qtbot, window):
    carried = tagged(window, 6, "vision")
    window.library.make_keywords_tags([(i, "vision") for i in carried], own=False)  # a file's keywords
    window.update_counts()
    window.table.view.setFocus()
    mine = window.table.model.ids[2]
    window.table.select_ids([mine])
    window.sidebar.make_keywords_tags("vision")
    step(qtbot, window)
    assert window.library.keyword_tags() == {"vision"} and window.table.selected_ids() == [mine]
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.remove_keywords()
    assert window.library.keyword_tags() == set()
    step(qtbot, window)
    assert window.library.keyword_tags() == {"vision"} and window.table.selected_ids() == [mine]


def test_a_tag_search_emptied_by_delete_tag_is_searched_again_on_undo_and_redo(qtbot, window):
    carried = tagged(window)
    search(qtbot, window, "tag:CuO")
    assert sorted(window.table.model.ids) == sorted(carried)
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.delete_tag("CuO")
    assert window.table.model.rowCount() == 0  # the delete searched again: no paper carries it now
    step(qtbot, window)
    assert sorted(window.table.model.ids) == sorted(carried)  # not "No papers match" until the next search
    assert len(window.table.selected_ids()) == 1  # the first, as any results: not the five
    step(qtbot, window, redo=True)
    assert window.table.model.rowCount() == 0


def test_a_tag_chosen_in_the_sidebar_comes_back_with_its_papers_when_its_delete_is_undone(qtbot, window):
    carried = tagged(window)
    pick_tag(qtbot, window, "CuO")
    window.table.view.setFocus()
    window.table.select_ids(carried[1:3])  # two of them selected, the second of the five current
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.delete_tag("CuO")
    assert window.sidebar.filter == ALL and window.table.model.rowCount() == 19  # the tag let go
    window.table.select_ids(carried[1:3])
    step(qtbot, window)
    assert window.sidebar.filter.tag == "CuO" and sorted(window.table.model.ids) == sorted(carried)
    assert window.table.selected_ids() == carried[1:3] and window.table.current_id == carried[1]
    step(qtbot, window, redo=True)
    assert window.sidebar.filter == ALL and window.table.model.rowCount() == 19
    assert window.table.selected_ids() == carried[1:3]


def test_a_tag_renamed_in_the_sidebar_is_followed_back_by_the_filter_on_undo(qtbot, window):
    carried = tagged(window)
    pick_tag(qtbot, window, "CuO")
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.rename_tag("CuO", "copper oxide")
    assert window.sidebar.filter.tag == "copper oxide" and window.table.model.rowCount() == 5
    step(qtbot, window)
    assert window.sidebar.filter.tag == "CuO" and sorted(window.table.model.ids) == sorted(carried)
    step(qtbot, window, redo=True)
    assert window.sidebar.filter.tag == "copper oxide" and sorted(window.table.model.ids) == sorted(carried)


def test_a_filter_the_reader_picked_since_stays_when_a_tag_edit_is_undone(qtbot, window):
    tagged(window)
    pick_tag(qtbot, window, "CuO")
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.delete_tag("CuO")
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.set_filter(replace(window.sidebar.filter, state="read"))
    step(qtbot, window)
    assert window.sidebar.filter == replace(ALL, state="read")


def _list_labels(w) -> list[str]:
    root = w.sidebar.entries.lists_root
    return [root.child(r).text() for r in range(root.rowCount())]


@pytest.mark.parametrize("by_query", [False, True], ids=["tag", "query"])
def test_a_list_on_a_tag_deleted_says_so_and_comes_back_with_the_undo(qtbot, window, by_query):
    """A saved list filtering on a tag kept the tag once it was deleted, and showed 0 papers with no word of
    why (a user trial). The list keeps its tag — a saved search is the user's; dropping the tag would widen it
    unasked — and says why it shows nothing: in the deletion's notice, in the sidebar, in the caption and in
    the empty table. Undone, the tag is back and the list with it; redone, it says so again. A list whose
    query requires the tag (`tag:CuO`, saved from a search) says so as one filtering on it does: it showed 0."""
    from PySide6.QtWidgets import QLabel
    from test_ui import click_sidebar

    carried = tagged(window)
    lib = window.library
    query, tag = ("tag:CuO", None) if by_query else ("", "CuO")
    cu = lib.add_smart_list("Copper", query, None, tag)
    lib.add_smart_list("Everything")
    window.update_lists()
    qtbot.waitUntil(lambda: _list_labels(window) == ["Copper  (5)", "Everything  (19)"], timeout=10000)
    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("list", str(cu.id)))
    caption, empty = window.view_summary.caption, window.findChild(QLabel, "emptyLabel")
    assert caption.text() == "List: Copper" and sorted(window.table.model.ids) == sorted(carried)
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.delete_tag("CuO")
    assert window.table.model.rowCount() == 0 and lib.smart_lists()[0] == cu  # the list keeps its tag
    assert window.notice.text() == (
        "Deleted tag “CuO” (5 papers). The list “Copper” filters on the tag “CuO”, which no paper has now: "
        "it shows no papers until it is back."
    )
    assert window.notice.action_text == "Undo"
    qtbot.waitUntil(lambda: _list_labels(window) == ["Copper  (tag gone)", "Everything  (19)"], timeout=10000)
    item = window.sidebar.entries.lists_root.child(0)
    assert "which no paper has now" in item.toolTip()
    assert caption.text() == "List: Copper (tag CuO gone)" and "which no paper has now" in caption.toolTip()
    assert "which no paper has now" in empty.text()
    step(qtbot, window)  # the tag is back, and the list's papers with it
    assert sorted(window.table.model.ids) == sorted(carried) and caption.text() == "List: Copper"
    qtbot.waitUntil(lambda: _list_labels(window) == ["Copper  (5)", "Everything  (19)"], timeout=10000)
    assert "which no paper has now" not in window.sidebar.entries.lists_root.child(0).toolTip()
    step(qtbot, window, redo=True)
    assert window.table.model.rowCount() == 0 and caption.text() == "List: Copper (tag CuO gone)"
    qtbot.waitUntil(lambda: _list_labels(window)[0] == "Copper  (tag gone)", timeout=10000)


def test_a_tag_deleted_that_no_list_filters_on_says_nothing_of_lists(qtbot, window):
    tagged(window)
    tagged(window, 3, "other")
    window.library.add_smart_list("Others", "", None, "other")
    window.update_lists()
    window.sidebar.delete_tag("CuO")
    assert window.notice.text() == "Deleted tag “CuO” (5 papers)."


def test_the_lists_on_a_tag_renamed_follow_it_and_go_back_with_the_undo(qtbot, window):
    """A list on a tag renamed in the sidebar stayed on the old name, which no paper had (a user trial): it
    follows the rename (the list chosen too, its papers shown), and the undo takes it back; a merge moves the
    lists on the tag merged, not those already on the tag merged into."""
    from test_ui import click_sidebar

    carried = tagged(window)
    tagged(window, 2, "copper")
    lib = window.library
    cu = lib.add_smart_list("Copper oxide", "", None, "CuO")
    other = lib.add_smart_list("Copper", "", None, "copper")
    window.update_lists()
    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("list", str(cu.id)))
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.rename_tag("CuO", "cupric oxide")
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert [sl.tag for sl in lib.smart_lists()] == ["cupric oxide", "copper"]
    assert window.sidebar.filter.smart_list == lib.smart_lists()[0]
    assert sorted(window.table.model.ids) == sorted(carried)
    assert window.notice.text() == "Renamed tag “CuO” into “cupric oxide” (5 papers)."  # no list left behind
    qtbot.waitUntil(lambda: _list_labels(window) == ["Copper oxide  (5)", "Copper  (2)"], timeout=10000)
    step(qtbot, window)
    assert [sl.tag for sl in lib.smart_lists()] == ["CuO", "copper"]
    assert window.sidebar.filter.smart_list == lib.smart_lists()[0]
    assert sorted(window.table.model.ids) == sorted(carried)
    step(qtbot, window, redo=True)
    assert [sl.tag for sl in lib.smart_lists()] == ["cupric oxide", "copper"]
    step(qtbot, window)
    window.sidebar.rename_tag("CuO", "copper")  # a merge
    assert [(sl.id, sl.tag) for sl in lib.smart_lists()] == [(cu.id, "copper"), (other.id, "copper")]
    step(qtbot, window)
    assert [(sl.id, sl.tag) for sl in lib.smart_lists()] == [(cu.id, "CuO"), (other.id, "copper")]


def test_a_list_saved_from_a_tag_search_follows_the_tag_renamed_and_goes_back_with_the_undo(qtbot, window):
    """`tag:CuO` typed, saved as a list and shown, then the tag renamed in the sidebar: the list became
    "tag:CuO (0)" (a user trial) where one saved on the tag followed. Its query and the name it gave follow the
    rename, the list shown keeps its papers, and the undo puts both back."""
    carried = tagged(window)
    lib = window.library
    search(qtbot, window, "tag:CuO")
    window.save_list("tag:CuO")
    lib.add_smart_list("Oxides", "NOT state:skipped AND (tag:cuo OR oxide)")
    window.update_lists()
    saved = lib.smart_list("tag:CuO")
    with qtbot.waitSignal(window.searchFinished):
        window.show_list(saved.id)
    qtbot.waitUntil(lambda: window.search_bar.idle)
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.rename_tag("CuO", "copper oxide")
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert [(sl.name, sl.query) for sl in lib.smart_lists()] == [
        ('tag:"copper oxide"', 'tag:"copper oxide"'),
        ("Oxides", 'NOT state:skipped AND (tag:"copper oxide" OR oxide)'),
    ]
    assert window.sidebar.filter.smart_list == lib.smart_lists()[0]
    assert sorted(window.table.model.ids) == sorted(carried)
    qtbot.waitUntil(lambda: _list_labels(window)[0] == 'tag:"copper oxide"  (5)', timeout=10000)
    step(qtbot, window)
    assert [(sl.name, sl.query) for sl in lib.smart_lists()] == [
        ("tag:CuO", "tag:CuO"),
        ("Oxides", "NOT state:skipped AND (tag:cuo OR oxide)"),
    ]
    qtbot.waitUntil(lambda: sorted(window.table.model.ids) == sorted(carried))
    assert window.sidebar.filter.smart_list == lib.smart_lists()[0]
    qtbot.waitUntil(lambda: _list_labels(window)[0] == "tag:CuO  (5)", timeout=10000)
