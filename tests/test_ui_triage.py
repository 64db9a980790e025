"""Triage in the window, as a user does it: the x and q keys, priorities 1 2 3 0, "triaged N of M", the
sidebar combining a state with a tag or a list, and smart lists saved, renamed, moved and deleted."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QMessageBox, QProgressBar, QToolButton
from test_ui import click_sidebar, search, window  # noqa: F401 - the window fixture

from readinglist.app import create_main_window
from readinglist.ui import menus
from readinglist.ui.paper_model import COLUMNS
from readinglist.ui.sidebar import ALL, SidebarModel

PRIORITY = COLUMNS.index("priority")


def key(qtbot, w, k):
    qtbot.keyClick(w.table.view, k)


def state_label(w, state):
    index = w.sidebar.entries.find(("state", state))
    return index.data()


def highlighted(w):
    return sorted(
        SidebarModel.decode(i.data(SidebarModel.KeyRole)) for i in w.sidebar.selectionModel().selectedIndexes()
    )


def list_labels(w):
    root = w.sidebar.entries.lists_root
    return [root.child(r).text() for r in range(root.rowCount())]


def test_x_skips_and_q_queues_with_auto_advance_and_undo(qtbot, window):  # noqa: F811
    w = window
    w.table.view.setFocus()
    w.table.select_row(0)
    first, second, third = w.table.model.ids[:3]
    key(qtbot, w, Qt.Key.Key_X)
    assert w.library.paper(first).state == "skipped" and w.table.current_id == second
    key(qtbot, w, Qt.Key.Key_Q)
    assert w.library.paper(second).state == "queued" and w.table.current_id == third
    assert state_label(w, "skipped") == "Skipped  (1)" and state_label(w, "queued") == "Queued  (1)"
    assert w.statusLabel.text() == "19 papers · 19 shown · triaged 2 of 19"
    progress = w.findChild(QProgressBar, "triageProgress")
    assert progress.text() == "triaged 2 of 19" and progress.value() == 2
    # the count is a label beside the bar, which draws no text: a style's fill covered its first letters
    count = w.findChild(QLabel, "triageCount")
    assert count.text() == "triaged 2 of 19" and count.isVisible() and not progress.isTextVisible()
    model = w.table.model
    assert model.data(model.index(0, COLUMNS.index("state")), Qt.ItemDataRole.ToolTipRole) == "Skipped"
    assert model.data(model.index(1, COLUMNS.index("state")), Qt.ItemDataRole.ToolTipRole) == "Queued"
    key(qtbot, w, Qt.Key.Key_U)  # and the old keys still work beside them
    assert w.library.paper(third).state == "unread"
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # u
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # q
    assert w.library.paper(second).state == "unread" and w.statusLabel.text().endswith("triaged 1 of 19")
    qtbot.keyClick(w.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # x
    assert w.library.paper(first).state == "unread" and state_label(w, "skipped") == "Skipped  (0)"
    assert progress.text() == "triaged 0 of 19" and count.text() == "triaged 0 of 19"


def test_priority_keys_stay_on_the_paper_show_a_column_and_sort(qtbot, window):  # noqa: F811
    w = window
    w.table.view.setFocus()
    w.table.select_row(0)
    a, b, c = w.table.model.ids[:3]
    key(qtbot, w, Qt.Key.Key_2)
    assert w.library.paper(a).priority == 2 and w.table.current_id == a  # no advance: q or r may follow
    key(qtbot, w, Qt.Key.Key_Q)  # "2 q": priority 2, queued, next
    assert w.library.paper(a).state == "queued" and w.table.current_id == b
    key(qtbot, w, Qt.Key.Key_3)
    key(qtbot, w, Qt.Key.Key_J)
    key(qtbot, w, Qt.Key.Key_1)
    assert [w.library.paper(i).priority for i in (a, b, c)] == [2, 3, 1]
    model = w.table.model
    assert [model.data(model.index(r, PRIORITY)) for r in range(3)] == ["P2", "P3", "P1"]
    header = w.table.view.horizontalHeader()
    header.setSortIndicator(PRIORITY, Qt.SortOrder.AscendingOrder)
    assert model.ids[:3] == [c, a, b]  # 1 first, none last
    key(qtbot, w, Qt.Key.Key_0)  # the current paper (c) loses its priority
    assert w.table.current_id == c and w.library.paper(c).priority is None
    w.actionUndo.trigger()
    assert w.library.paper(c).priority == 1
    assert model.headerData(PRIORITY, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith("Priority")


def test_the_detail_pane_shows_the_priority(qtbot, window):  # noqa: F811
    w = window
    w.table.view.setFocus()
    w.table.select_row(0)
    pid = w.table.current_id
    qtbot.waitUntil(lambda: w.detail.paper_id == pid)
    key(qtbot, w, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: "priority 1" in w.detail.toPlainText())


def test_typing_keys_and_digits_in_the_search_field_types_them(qtbot, window):  # noqa: F811
    w = window
    w.search_bar.field.setFocus()
    before = w.library.counts()
    qtbot.keyClicks(w.search_bar.field, "xq1203")
    assert w.search_bar.field.text() == "xq1203" and w.library.counts() == before
    assert not w.library.search("priority:1 OR priority:2 OR priority:3").ids


def test_the_editors_have_a_button_for_every_state_and_priority(window):  # noqa: F811
    texts = {b.text() for b in window.editors.findChildren(QToolButton)}
    assert {"Unread", "Queued", "Skimmed", "Read", "Skipped", "P1", "P2", "P3", "P–"} <= texts


def test_the_caption_quotes_a_query_once_and_cuts_a_long_one(qtbot, window):  # noqa: F811
    w = window
    caption = w.findChild(QLabel, "viewCaption")
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText('"early exit"')
    assert caption.text() == 'All papers · "early exit"'  # not “"early exit"”
    pasted = "Early exit neural networks, which adapt computation to input complexity, have proven effective"
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText(pasted)
    assert caption.text().startswith("All papers · “Early exit neural") and caption.text().endswith("…”")
    assert len(caption.text()) < len(pasted) and pasted in caption.toolTip()


def test_the_sidebar_combines_a_state_with_a_tag_and_says_so(qtbot, window):  # noqa: F811
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.set_state(ids[:3], "queued")
    lib.add_tags([ids[0], ids[5]], ["rl"])
    w.update_counts()
    caption = w.findChild(QLabel, "viewCaption")
    clear = w.findChild(QToolButton, "clearViewButton")
    assert caption.text() == "All papers" and clear.isHidden()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "queued"))
    assert sorted(w.table.model.ids) == sorted(ids[:3])
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))
    assert w.table.model.ids == [ids[0]]  # queued and tagged rl: both stay lit
    assert highlighted(w) == [("state", "queued"), ("tag", "rl")]
    assert caption.text() == "Queued · tag rl" and clear.isVisible()
    assert w.statusLabel.text().endswith("1 shown · triaged 1 of 1")
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("all", None))  # All is every paper: the tag goes too (it said "All (19)" for 2)
    assert len(w.table.model.ids) == 19 and caption.text() == "All papers" and clear.isHidden()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))  # every state within the tag: All, then the tag
    assert sorted(w.table.model.ids) == sorted([ids[0], ids[5]]) and caption.text() == "All · tag rl"
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "unread"))
    assert w.table.model.ids == [ids[5]]
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))  # a second click on the tag lets it go; the state stays
    assert len(w.table.model.ids) == 16 and highlighted(w) == [("state", "unread")]
    assert caption.text() == "Unread" and clear.isHidden()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))
    with qtbot.waitSignal(w.searchFinished):
        qtbot.mouseClick(clear, Qt.MouseButton.LeftButton)  # the caption's ✕ does the same
    assert w.sidebar.filter.tag is None and w.sidebar.filter.state == "unread"
    search(qtbot, w, "zzzzqqq")
    assert "among the unread papers" in w.findChild(QLabel, "emptyLabel").text()


def test_arrow_keys_in_the_sidebar_pick_a_state_without_losing_the_tag(qtbot, window):  # noqa: F811
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.add_tags(ids[:4], ["rl"])
    lib.set_state(ids[:1], "queued")
    w.update_counts()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))
    w.sidebar.setFocus()
    w.sidebar.setCurrentIndex(w.sidebar.entries.find(("state", "unread")))
    qtbot.waitUntil(lambda: w.search_bar.idle)
    assert (w.sidebar.filter.state, w.sidebar.filter.tag) == ("unread", "rl")
    with qtbot.waitSignal(w.searchFinished):
        qtbot.keyClick(w.sidebar, Qt.Key.Key_Down)  # Queued
    assert (w.sidebar.filter.state, w.sidebar.filter.tag) == ("queued", "rl") and w.table.model.ids == [ids[0]]


def test_save_the_view_as_a_list_pick_it_and_combine_it_with_a_state(qtbot, window, monkeypatch):  # noqa: F811
    w, lib = window, window.library
    asked = []

    def answer(parent, title, label, **kwargs):
        asked.append(kwargs.get("text"))
        return kwargs.get("text"), True

    monkeypatch.setattr(QInputDialog, "getText", answer)
    search(qtbot, w, "diffusion")
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "unread"))
    matches = list(w.table.model.ids)
    assert matches
    w.table.view.setFocus()
    qtbot.keyClick(w.table.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Save View as List
    assert asked == ["Unread · diffusion"]  # the name it suggests says what the list is
    (sl,) = lib.smart_lists()
    assert (sl.name, sl.query, sl.state, sl.tag) == ("Unread · diffusion", "diffusion", "unread", None)
    assert w.sidebar.filter.smart_list is None and w.search_bar.text() == "diffusion"  # the window stays
    with qtbot.waitSignal(w.searchFinished):
        qtbot.mouseClick(w.notice.button, Qt.MouseButton.LeftButton)  # "Show It"
    assert w.sidebar.filter.smart_list == sl and w.search_bar.text() == ""  # the list is shown now
    assert sorted(w.table.model.ids) == sorted(matches)
    assert highlighted(w) == [("list", str(sl.id)), ("state", "unread")]
    qtbot.waitUntil(lambda: list_labels(w) == [f"Unread · diffusion  ({len(matches)})"], timeout=10000)
    assert w.findChild(QLabel, "viewCaption").text() == "List: Unread · diffusion"
    w.table.view.setFocus()
    w.table.select_row(0)
    key(qtbot, w, Qt.Key.Key_R)  # the count is live: the paper read leaves the unread list
    qtbot.waitUntil(lambda: list_labels(w) == [f"Unread · diffusion  ({len(matches) - 1})"], timeout=10000)
    # the paper read stays shown until the next search (which a busy machine's late warm-up may bring)
    assert w.statusLabel.text().endswith((f"triaged 1 of {len(matches)}", f"triaged 0 of {len(matches) - 1}"))
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "read"))  # the rest of the list: its read papers
    assert w.table.model.ids == [matches[0]]
    assert w.findChild(QLabel, "viewCaption").text() == "List: Unread · diffusion · Read"
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("list", str(sl.id)))  # a click on the chosen list lets it go
    assert w.sidebar.filter.smart_list is None and w.sidebar.filter.state == "read"
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("list", str(sl.id)))  # picking it again brings its own state back
    assert w.sidebar.filter.state == "unread" and len(w.table.model.ids) == len(matches) - 1
    w.actionUndo.trigger()  # the r
    assert lib.paper(matches[0]).state == "unread"
    w.actionUndo.trigger()  # the list's saving is undoable like any edit
    assert lib.smart_lists() == [] and w.sidebar.filter.smart_list is None
    assert list_labels(w) == ["No lists yet: Ctrl+S saves the view"]


def test_saving_the_view_as_a_list_leaves_the_window_where_it_was(qtbot, window, monkeypatch):  # noqa: F811
    """Ctrl+S switched the window to the list saved and emptied the search field (a user trial): the query
    typed, the state, the papers selected and the scroll stay; the list appears in the sidebar, and the
    notice says it was saved, with a button that shows it."""
    w, lib = window, window.library
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Mine", True))
    w.resize(700, 400)  # the results scroll
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "unread"))
    search(qtbot, w, "the")
    shown = list(w.table.model.ids)
    assert len(shown) > 3
    w.table.view.setFocus()
    w.table.select_ids(shown[2:4])
    bar = w.table.view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    view, current, selected = w.sidebar.filter, w.table.current_id, w.table.selected_ids()
    with qtbot.assertNotEmitted(w.searchFinished, wait=300):
        qtbot.keyClick(w.table.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    (sl,) = lib.smart_lists()
    assert (sl.query, sl.state) == ("the", "unread")
    assert w.search_bar.text() == "the" and w.sidebar.filter == view
    assert w.table.model.ids == shown and w.table.current_id == current and w.table.selected_ids() == selected
    assert bar.value() == bar.maximum() > 0
    assert highlighted(w) == [("state", "unread")]  # the list is not picked
    qtbot.waitUntil(lambda: list_labels(w) == [f"Mine  ({len(shown)})"], timeout=10000)
    assert w.notice.text() == "Saved the list “Mine” (Unread · the)." and w.notice.action_text == "Show It"
    with qtbot.waitSignal(w.searchFinished):
        qtbot.mouseClick(w.notice.button, Qt.MouseButton.LeftButton)
    assert w.sidebar.filter.smart_list == sl and w.search_bar.text() == ""
    assert sorted(w.table.model.ids) == sorted(shown)


def test_a_list_of_a_queue_with_a_priority(qtbot, window, monkeypatch):  # noqa: F811
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.set_state(ids[:4], "queued")
    lib.set_priority(ids[:2], 1)
    w.update_counts()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (k.get("text"), True))
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "queued"))
    search(qtbot, w, "priority:1")
    w.actionSaveList.trigger()
    assert [sl.name for sl in lib.smart_lists()] == ["Queued · priority 1"]
    assert sorted(w.table.model.ids) == sorted(ids[:2])
    qtbot.waitUntil(lambda: list_labels(w) == ["Queued · priority 1  (2)"], timeout=10000)
    w.actionUndo.trigger()  # the list goes, and the status bar says so (it said nothing)
    assert not lib.smart_lists() and w.notice.text() == "Undone: Save list “Queued · priority 1”."
    w.actionRedo.trigger()
    assert len(lib.smart_lists()) == 1 and w.notice.text() == "Redone: Save list “Queued · priority 1”."


def test_the_queue_is_read_p1_first(qtbot, window):  # noqa: F811
    """Queued in the order added put a P1 third (a new user's trial): the queue is by priority, then as added."""
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.set_state(ids[:5], "queued")
    lib.set_priority([ids[3]], 1)
    lib.set_priority([ids[1]], 2)
    w.update_counts()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "queued"))
    assert w.table.model.ids == [ids[3], ids[1], ids[0], ids[2], ids[4]]
    assert w.order_note.label.text() == "By priority, then in the order added"
    search(qtbot, w, "exit")  # a query ranks by relevance, as anywhere
    assert w.order_note.label.text() != "By priority, then in the order added"


def test_lists_rename_move_and_delete_with_undo(qtbot, window, monkeypatch):  # noqa: F811
    w, lib = window, window.library
    a = lib.add_smart_list("Alpha", "", "queued")
    b = lib.add_smart_list("Beta", "diffusion")
    w.update_lists()
    qtbot.waitUntil(lambda: list_labels(w) == ["Alpha  (0)", f"Beta  ({len(lib.search('diffusion').ids)})"])
    n = len(lib.search("diffusion").ids)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Gamma", True))
    w.sidebar.setFocus()
    w.sidebar.setCurrentIndex(w.sidebar.entries.find(("list", str(a.id))))
    qtbot.keyClick(w.sidebar, Qt.Key.Key_F2)  # F2 on a list renames it (not the paper's title)
    assert [sl.name for sl in lib.smart_lists()] == ["Gamma", "Beta"] and list_labels(w)[0] == "Gamma  (0)"
    w.sidebar.setFocus()
    w.sidebar.setCurrentIndex(w.sidebar.entries.find(("list", str(b.id))))
    qtbot.keyClick(w.sidebar, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)  # reorder from the keyboard
    assert [sl.name for sl in lib.smart_lists()] == ["Beta", "Gamma"]
    assert list_labels(w) == [f"Beta  ({n})", "Gamma  (0)"]
    qtbot.keyClick(w.sidebar, Qt.Key.Key_Delete)
    assert [sl.name for sl in lib.smart_lists()] == ["Gamma"]
    w.actionUndo.trigger()
    assert [sl.name for sl in lib.smart_lists()] == ["Beta", "Gamma"]
    w.actionUndo.trigger()
    assert [sl.name for sl in lib.smart_lists()] == ["Gamma", "Beta"]
    w.actionUndo.trigger()
    assert [sl.name for sl in lib.smart_lists()] == ["Alpha", "Beta"]
    assert list_labels(w)[0].startswith("Alpha")
    w.actionRedo.trigger()
    assert [sl.name for sl in lib.smart_lists()] == ["Gamma", "Beta"]
    errors = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: errors.append(a[2]))
    w.rename_list(b.id, "gamma")  # taken (in any case): said, and nothing changes
    assert errors and "already" in errors[0] and [sl.name for sl in lib.smart_lists()] == ["Gamma", "Beta"]


def test_a_tag_renamed_onto_a_lists_name_another_list_has_shows_the_name_kept_and_says_why(qtbot, window):  # noqa: F811
    """A list named by its query (`tag:theory`) follows its tag renamed, but not onto a name another list has
    (`tag:pg-theory`): the library keeps its own. The sidebar showed the chosen list under the new name
    meanwhile, and said nothing of why the name stayed; now every view it shows is the list as the library
    holds it, and the notice says which list kept its name and why. Undone, the list is as it was."""
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.add_tags(ids[:2], ["theory"])
    lib.add_tags(ids[2:3], ["pg-theory"])
    mine = lib.add_smart_list("tag:theory", "tag:theory")
    lib.add_smart_list("tag:pg-theory", "tag:pg-theory")
    w.update_lists()
    with qtbot.waitSignal(w.searchFinished):
        w.sidebar.set_filter(replace(ALL, smart_list=mine))
    shown = []
    w.sidebar.filterChanged.connect(lambda view: shown.append(view.smart_list.name if view.smart_list else None))
    with qtbot.waitSignal(w.searchFinished):
        w.sidebar.rename_tag("theory", "pg-theory")  # a merge
    after = lib.smart_lists()[0]
    assert (after.name, after.query) == ("tag:theory", "tag:pg-theory")
    assert shown and set(shown) == {"tag:theory"} and w.sidebar.filter.smart_list == after
    assert w.view_summary.caption.text() == "List: tag:theory"
    assert w.notice.text() == (
        "Merged tag “theory” into “pg-theory” (2 papers); the list “tag:theory” keeps its name: a list named "
        "“tag:pg-theory” exists."
    )
    assert list_labels(w)[0].startswith("tag:theory  (")
    w.actionUndo.trigger()
    assert lib.smart_lists()[0] == mine
    qtbot.waitUntil(lambda: w.sidebar.filter.smart_list == mine)


def test_a_list_saved_in_the_window_is_there_after_a_restart(qtbot, data_dir, monkeypatch):
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Mine", True))
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19)
    w.save_list()
    w.close()
    w.shutdown()
    w2 = create_main_window(data_dir)
    qtbot.addWidget(w2)
    w2.show()
    qtbot.waitUntil(lambda: list_labels(w2) == ["Mine  (19)"], timeout=10000)
    w2.close()
    w2.shutdown()


def test_read_only_window_cannot_triage_or_save_lists(qtbot, data_dir):
    w = create_main_window(data_dir)
    w.close()
    w.shutdown()
    ro = create_main_window(data_dir, read_only=True, read_only_reason="Read-only: test")
    qtbot.addWidget(ro)
    ro.show()
    qtbot.waitUntil(lambda: ro.table.model.rowCount() == 19)
    assert not any(a.isEnabled() for a in (*ro.mark_actions.values(), *ro.priority_actions, ro.actionSaveList))
    ro.set_priority(1)
    ro.save_list("x")
    assert ro.library.search("priority:1").ids == [] and ro.library.smart_lists() == []
    ro.close()
    ro.shutdown()


def test_a_saved_list_of_a_query_says_its_papers_are_ranked_by_relevance(qtbot, window, monkeypatch):  # noqa: F811
    """A list saved from a query shows its papers in rank order, and the line under the search says so (it
    said "In the order added", the search field being empty once the list is shown)."""
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Language models", True))
    search(qtbot, window, "language models")
    ranked = list(window.search_bar.last_result.ids)
    assert window.order_note.label.text() == "Ranked by relevance"
    window.save_list()
    with qtbot.waitSignal(window.searchFinished):
        window.show_list(window.library.smart_lists()[0].id)
    assert window.search_bar.text() == "" and list(window.search_bar.last_result.ids) == ranked
    assert window.order_note.label.text() == "Ranked by relevance"


def test_a_priority_counts_as_triaged_as_the_suggestions_count_it(qtbot, window):  # noqa: F811
    """Keys 1–3 triage a paper as r, s and q do: "triaged N of M" counts it (the Suggested view and
    `readinglist suggest` already left it out as triaged), and clearing the priority takes it back."""
    pid = window.table.model.id_at(0)
    window.table.select_ids([pid])
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_1)
    assert window.library.paper(pid).priority == 1  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: window.statusLabel.text() == "19 papers · 19 shown · triaged 1 of 19")
    assert window.library.counts()["triaged"] == 1 and window.library.counts()["untriaged"] == 18
    qtbot.keyClick(window.table.view, Qt.Key.Key_0)
    qtbot.waitUntil(lambda: window.statusLabel.text() == "19 papers · 19 shown · triaged 0 of 19")


def test_ctrl_0_goes_back_to_every_paper_from_anywhere(qtbot, window):  # noqa: F811
    # a state, a tag or a list had no key back to All: the search field's Esc clears only the query
    w, lib = window, window.library
    ids = lib.search("").ids
    lib.add_tags(ids[:2], ["rl"])
    w.update_counts()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "unread"))
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "rl"))
    assert len(w.table.model.ids) == 2
    w.search_bar.focus()  # from the search field, where a letter key is text
    with qtbot.waitSignal(w.searchFinished):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert (w.sidebar.filter.state, w.sidebar.filter.tag) == (None, None)
    assert len(w.table.model.ids) == len(ids) and highlighted(w) == [("all", None)]
    page = menus.show_shortcuts(w)
    assert "All Papers" in page.browser.toPlainText() and "Ctrl+0" in page.browser.toPlainText()
    page.close()
