"""What the window says about a search (issue 11): the closest matches, "Did you mean" (a click or Alt+D
searches the correction), never a hint about older text than the field's, and rank order one step away
(a new query comes in rank order; the Relevance entry, the link beside the order, a third header click).
Driven on the bundled corpus, as a user would: keys, clicks, typing."""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QPoint, Qt

from readinglist.app import create_main_window
from readinglist.library import Library
from readinglist.ui import menus
from readinglist.ui.paper_model import COLUMNS

TITLE = COLUMNS.index("title")


@pytest.fixture
def window(qtbot, data_dir):
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19 and w.search_bar.idle)
    yield w
    w.runner.wait()
    w.library.close()


def search(qtbot, w, text):
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText(text)
    qtbot.waitUntil(lambda: w.search_bar.idle)


def slow_searches(monkeypatch, w, seconds=0.3):
    real = w.library.search

    def slow(text="", **kw):
        time.sleep(seconds)
        return real(text, **kw)

    monkeypatch.setattr(w.library, "search", slow)
    return real


def titles_shown(w):
    model = w.table.model
    w.table.view.viewport().repaint()  # the rows shown get their items in the order shown
    return [model.data(model.index(r, TITLE)) for r in range(model.rowCount())]


def click_header(qtbot, w, column):
    header = w.table.view.horizontalHeader()
    pos = QPoint(header.sectionViewportPosition(column) + 10, header.height() // 2)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=pos)


# ---- the line under the field: closest matches, the words no paper has ----


def test_a_query_no_paper_fully_matches_says_these_are_the_closest_matches(qtbot, window):
    bar = window.search_bar
    search(qtbot, window, "diffusion exit")  # BEXA has "exit", others "diffusion": none has both
    assert window.table.model.rowCount() > 1
    assert bar.hint.isVisible() and not bar.suggestion.isVisible()
    assert bar.hint.text() == "No paper has every word — closest matches (1 of 2 words)"
    search(qtbot, window, "diffusion xyzzy")
    assert bar.hint.text() == "No paper has “xyzzy” — closest matches (1 of 2 words)"
    search(qtbot, window, "early exit")  # a paper has every word: nothing to say
    assert window.table.model.rowCount() == 1 and not bar.hint.isVisible()
    search(qtbot, window, "note:diffusion")  # abstracts have it, no note does: not "No paper has “diffusion”"
    assert window.table.model.rowCount() == 0 and bar.hint.text() == "No paper's note has “diffusion”"
    search(qtbot, window, "xyzzy title:qwzx")
    assert bar.hint.text() == "No paper has “xyzzy”; no paper's title has “qwzx”"


def test_the_closest_matches_line_counts_the_most_words_any_match_has():
    """A pasted title's best fit may be a word short of another match (engine.rank_keys): the line says how
    close the closest matches come, the most words any has, not the first one's count."""
    from readinglist.papers import SearchResult
    from readinglist.ui.search_bar import hint_text

    result = SearchResult([1, 2], [9.0, 5.0], "a pasted title", partial=True, matched=[4, 5], word_count=6)
    assert hint_text(result) == "No paper has every word — closest matches (5 of 6 words)"


def test_the_line_keeps_its_height_so_the_table_does_not_move(qtbot, window):
    top = window.table.view.mapTo(window, QPoint(0, 0)).y()
    search(qtbot, window, "diffusion xyzzy")
    assert window.search_bar.hint.isVisible()
    assert window.table.view.mapTo(window, QPoint(0, 0)).y() == top
    search(qtbot, window, "Graph neural netwroks")
    assert window.search_bar.suggestion.isVisible()
    assert window.table.view.mapTo(window, QPoint(0, 0)).y() == top


# ---- Did you mean ----


def test_did_you_mean_is_offered_and_a_click_searches_the_correction(qtbot, window):
    bar = window.search_bar
    search(qtbot, window, "Graph neural netwroks")
    assert bar.suggestion.isVisible() and bar.suggestion.text() == "Graph neural networks"
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        qtbot.mouseClick(bar.suggestion, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bar.idle)
    assert bar.text() == "Graph neural networks" and bar.last_result.query == "Graph neural networks"
    assert window.table.model.ids == window.library.search("Graph neural networks").ids
    assert not bar.suggestion.isVisible() and not window.actionApplyCorrection.isEnabled()
    search(qtbot, window, "reinforcment lerning ")  # a space typed after: not shown in the link ("learning ?")
    assert bar.suggestion.isVisible() and bar.suggestion.text() == "reinforcement learning"


def test_did_you_mean_reads_as_one_sentence_beside_results_found_as_typed(qtbot, window, monkeypatch):
    """Results found as typed and a correction offered ("baysian optimization", whose one paper misspells
    Bayesian in its title) leave no closest-matches hint: the line's room went between "Did you mean" and
    the link, spread across the window."""
    import dataclasses

    real = window.library.search

    def offering(text, **kw):
        r = real(text, **kw)
        return (
            dataclasses.replace(r, correction="graph networks", corrections={"grph": "graph"})
            if text == "networks"
            else r
        )

    monkeypatch.setattr(window.library, "search", offering)
    search(qtbot, window, "networks")
    bar = window.search_bar
    assert window.table.model.rowCount() > 0 and bar.suggestion.isVisible() and not bar.hint.isVisible()
    assert bar.suggestion.geometry().left() < bar.fontMetrics().horizontalAdvance("Did you mean ") + 10
    # no gap of the style's margins before the "?": "Did you mean  gaussian process  ?" (the new user's trial)
    text_width = bar.suggestion.fontMetrics().horizontalAdvance(bar.suggestion.text())
    assert bar.suggestion.width() <= text_width + 4


def test_a_long_pasted_sentence_is_offered_its_corrected_words_and_a_click_searches_all_of_it(qtbot, window):
    bar = window.search_bar
    typed = "Early exit neural networks, which adapt computation to input complexity, have proven effective in lerning"
    search(qtbot, window, typed)
    whole = typed.replace("lerning", "learning")
    assert bar.correction == whole
    assert bar.suggestion.text() == "…learning…" and whole in bar.suggestion.toolTip()
    assert bar.hint.text().endswith("No paper has every word as typed — closest matches")  # BEXA has them, corrected
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        qtbot.mouseClick(bar.suggestion, Qt.MouseButton.LeftButton)
    assert bar.text() == whole


@pytest.mark.parametrize("where", ["field", "table"])
def test_alt_d_searches_the_correction_from_the_field_or_the_list(qtbot, window, where):
    bar = window.search_bar
    bar.field.setFocus()
    for ch in "difusion models":
        qtbot.keyClick(bar.field, ch)
    qtbot.waitUntil(lambda: bar.idle and bar.correction == "diffusion models", timeout=10000)
    assert window.actionApplyCorrection.isEnabled()
    target = bar.field if where == "field" else window.table.view
    if where == "table":
        target.setFocus()
        qtbot.waitUntil(target.hasFocus)
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        qtbot.keyClick(target, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: bar.idle)
    assert bar.text() == "diffusion models" and bar.last_result.query == "diffusion models"
    assert bar.correction is None
    qtbot.keyClick(bar.field, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # nothing offered: nothing happens
    assert bar.text() == "diffusion models"


def test_the_correction_key_is_on_the_keys_page_and_in_the_edit_menu(qtbot, window):
    page = menus.show_shortcuts(window).browser.toPlainText()
    assert "Alt+D" in page and "Search the Suggested Spelling" in page


# ---- never a hint about older text ----


def test_a_hint_goes_as_soon_as_the_text_changes_and_alt_d_then_does_nothing(qtbot, window, monkeypatch):
    bar = window.search_bar
    search(qtbot, window, "attenton")
    assert bar.correction == "attention" and bar.suggestion.isVisible()
    search(qtbot, window, "diffusion xyzzy")
    assert bar.hint.isVisible()
    slow_searches(monkeypatch, window)
    bar.field.setText("attenton")
    qtbot.waitUntil(lambda: bar.searching)
    assert not bar.hint.isVisible()  # the last results stay, but not what was said of them
    qtbot.waitUntil(lambda: bar.idle and bar.correction == "attention", timeout=10000)
    bar.field.setText("attention")
    assert not bar.suggestion.isVisible() and bar.correction is None
    assert not window.actionApplyCorrection.isEnabled()
    qtbot.keyClick(bar.field, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)  # the old correction: not applied
    assert bar.text() == "attention"
    qtbot.waitUntil(lambda: bar.idle and bar.last_result.query == "attention", timeout=10000)
    assert not bar.suggestion.isVisible()


def test_results_of_older_text_arriving_show_no_hint(qtbot, window, monkeypatch):
    """The results of "attenton" land after the field already says something else (changed as they were
    handed over, the new text's search not yet started): their Did you mean is not shown for it."""
    bar = window.search_bar
    slow_searches(monkeypatch, window)
    offered = []
    bar.correctionOffered.connect(offered.append)
    bar.field.setText("attenton")
    qtbot.waitUntil(lambda: bar.searching)

    def retype(running):
        if not running and bar.text() == "attenton":
            bar.field.setText("attention")  # in the same turn of the loop as the results' arrival

    bar.runningChanged.connect(retype)
    qtbot.waitUntil(lambda: bar.text() == "attention", timeout=10000)
    assert bar.correction is None and not bar.suggestion.isVisible()
    qtbot.waitUntil(lambda: bar.idle and bar.last_result.query == "attention", timeout=10000)
    assert "attention" not in offered and not bar.suggestion.isVisible()


# ---- rank order one step away ----


def test_a_new_query_comes_in_rank_order_after_a_header_click(qtbot, window):
    search(qtbot, window, "learning")
    rank = window.library.search("learning").ids
    click_header(qtbot, window, TITLE)
    titles = titles_shown(window)
    assert titles == sorted(titles, key=str.casefold) and window.table.model.ids != rank
    assert window.table.sort_column == "title"
    assert window.order_note.label.text() == "Sorted by Title, ascending · back to"
    assert window.order_note.button.isVisible() and not window.actionSortRelevance.isChecked()
    window.search_bar.run()  # the same query again (a refresh): the sort made on it stays
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert titles_shown(window) == titles
    search(qtbot, window, "learning models")
    assert window.table.model.ids == window.library.search("learning models").ids
    assert window.table.sort_column is None
    assert window.table.view.horizontalHeader().sortIndicatorSection() == -1
    assert window.order_note.label.text() == "Ranked by relevance" and not window.order_note.button.isVisible()
    assert window.actionSortRelevance.isChecked()


def test_a_sort_and_the_paper_shown_are_kept_across_a_restart_with_the_query(qtbot, data_dir):
    """The header kept its sort indicator, but the window put rank order back on start: a library sorted by
    year came back in the order added. The query is kept too, so the sort made on it is its own."""
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19 and w.search_bar.idle)
    search(qtbot, w, "learning")
    click_header(qtbot, w, TITLE)
    click_header(qtbot, w, TITLE)
    by_title = titles_shown(w)
    assert by_title == sorted(by_title, key=str.casefold, reverse=True)
    w.table.view.setFocus()
    qtbot.keyClick(w.table.view, Qt.Key.Key_Down)
    qtbot.keyClick(w.table.view, Qt.Key.Key_Down)
    chosen = w.table.current_id  # the reader's paper comes back too (the new user's trial: row 1 did)
    assert chosen is not None and chosen != w.library.search("learning").ids[0]
    w.save_settings()
    w.runner.wait()
    w.library.close()
    w.close()
    again = create_main_window(data_dir)
    qtbot.addWidget(again)
    again.show()
    try:
        qtbot.waitUntil(lambda: again.search_bar.idle and again.search_bar.last_result is not None)
        assert again.search_bar.text() == "learning"
        assert again.table.sort_column == "title" and again.table.sort_descending
        assert titles_shown(again) == by_title
        assert again.order_note.label.text() == "Sorted by Title, descending · back to"
        assert again.table.current_id == chosen and again.detail.current_id == chosen
        search(qtbot, again, "learning models")  # a new query: rank order, as ever
        assert again.table.sort_column is None
        assert again.table.model.ids == again.library.search("learning models").ids
    finally:
        again.runner.wait()
        again.library.close()


def sorted_by_title(qtbot, window, query):
    search(qtbot, window, query)
    click_header(qtbot, window, TITLE)
    assert window.table.sort_column == "title" and window.table.model.ids != window.library.search(query).ids


def test_the_relevance_entry_of_the_header_menu_and_the_view_menu_brings_rank_order_back(qtbot, window):
    rank = window.library.search("framework").ids
    sorted_by_title(qtbot, window, "framework")
    current = window.table.current_id
    entry = next(a for a in window.table.view.header_menu().actions() if a.objectName() == "actionSortRelevance")
    assert entry.text() == "Sort by &Relevance" and not entry.isChecked()
    entry.trigger()
    assert window.table.model.ids == rank and window.table.sort_column is None
    assert window.table.current_id == current  # the paper stays current, at its rank
    assert entry.isChecked() and window.order_note.label.text() == "Ranked by relevance"
    entry.trigger()  # already in rank order: stays so, and checked
    assert window.table.model.ids == rank and entry.isChecked()
    view_menu = next(m for m in window.menuBar().actions() if m.text() == "&View").menu()
    assert window.actionSortRelevance in view_menu.actions()


def test_the_link_beside_the_order_and_a_third_header_click_bring_rank_order_back(qtbot, window):
    rank = window.library.search("framework").ids
    sorted_by_title(qtbot, window, "framework")
    qtbot.mouseClick(window.order_note.button, Qt.MouseButton.LeftButton)
    assert window.table.model.ids == rank and window.order_note.label.text() == "Ranked by relevance"
    click_header(qtbot, window, TITLE)
    click_header(qtbot, window, TITLE)
    assert window.table.sort_column == "title" and window.table.sort_descending
    assert window.order_note.label.text() == "Sorted by Title, descending · back to"
    click_header(qtbot, window, TITLE)
    assert window.table.sort_column is None and window.table.model.ids == rank


def test_without_a_query_the_order_is_the_order_added(qtbot, window):
    assert window.order_note.label.text() == "In the order added"
    added = list(window.table.model.ids)
    click_header(qtbot, window, TITLE)
    assert window.order_note.button.text() == "Order added"
    qtbot.mouseClick(window.order_note.button, Qt.MouseButton.LeftButton)
    assert window.table.model.ids == added


# ---- the warm-up reads the corrections' words ----


def test_the_warm_up_reads_the_correction_words_and_shows_its_errors(qtbot, data_dir, monkeypatch):
    def broken(self):
        raise RuntimeError("the vocabulary could not be read")

    monkeypatch.setattr(Library, "warm_search", broken)
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: "the vocabulary could not be read" in w.notice.text(), timeout=10000)
    search(qtbot, w, "attenton")  # searching still works, and still corrects
    assert w.search_bar.correction == "attention"
    w.close()
    w.runner.wait()
    w.library.close()


def test_the_warm_up_calls_warm_search(qtbot, data_dir, monkeypatch):
    called = []
    real = Library.warm_search
    monkeypatch.setattr(Library, "warm_search", lambda self: (called.append(True), real(self))[1])
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: bool(called), timeout=10000)
    w.close()
    w.runner.wait()
    w.library.close()


# ---- which paper a new query shows ----


def test_typing_a_new_query_shows_its_first_paper_not_one_an_earlier_prefix_put_first(qtbot, window):
    """ "learn"'s first paper is among "learning model"'s results, fifth: typing on, the reader never chose
    it, so the new results show their own first paper (it stayed current, at row 5)."""
    lib = window.library
    early, final = lib.search("learn").ids, lib.search("learning model").ids
    assert early[0] in final and final.index(early[0]) > 0  # what makes this a test
    search(qtbot, window, "learn")
    assert window.table.current_id == early[0]
    search(qtbot, window, "learning model")
    assert window.table.current_id == final[0] and window.detail.current_id == final[0]


def test_a_paper_the_reader_chose_stays_current_as_the_query_changes(qtbot, window):
    lib = window.library
    early, final = lib.search("learn").ids, lib.search("learning model").ids
    chosen = next(pid for pid in early[1:] if pid in final and pid != final[0])
    search(qtbot, window, "learn")
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_Home)
    for _ in early:  # the reader goes down the list to it
        if window.table.current_id == chosen:
            break
        qtbot.keyClick(window.table.view, Qt.Key.Key_Down)
    assert window.table.current_id == chosen
    search(qtbot, window, "learning model")
    assert window.table.current_id == chosen  # the rule of issue 14: results keep the paper being read


def test_a_filter_alone_says_its_papers_are_in_the_order_added(qtbot, window):
    """Every match of "venue:…" scores alike, so they come in the order added (ranking.ranked's ties), and
    the note says so rather than "Ranked by relevance"; a query with words is ranked again."""
    search(qtbot, window, "venue:icml")
    assert window.table.model.rowCount() == 19
    assert window.table.model.ids == sorted(window.table.model.ids)
    assert window.order_note.label.text() == "In the order added"
    click_header(qtbot, window, TITLE)
    assert window.order_note.button.text() == "Order added"
    search(qtbot, window, "venue:icml learning")
    assert window.order_note.label.text() == "Ranked by relevance"


def test_one_match_of_words_is_ranked_by_relevance(qtbot, window):
    """A word one paper has: its one match was ranked (a single score differs from no other, which made the
    note say "In the order added"); one match of a filter alone was not."""
    search(qtbot, window, "robot")
    assert window.table.model.rowCount() == 1
    assert window.order_note.label.text() == "Ranked by relevance"
    search(qtbot, window, "venue:icml robot")
    assert window.table.model.rowCount() == 1 and window.order_note.label.text() == "Ranked by relevance"
    window.library.set_state([window.table.model.ids[0]], "read")
    search(qtbot, window, "state:read")  # a filter alone
    assert window.table.model.rowCount() == 1 and window.order_note.label.text() == "In the order added"


def test_closing_the_window_closes_every_runner_so_no_task_starts_after_it(qtbot, window):
    """Qt deletes a window's thread pools with it, waiting for their threads in C++ with the interpreter
    lock held: a task a timer started after the close (a map render, a recount) hung the process, its
    thread waiting for the lock. Closing the window closes every runner: later work is not started."""
    from readinglist.ui.workers import Runner

    assert window.map_pane is not None  # built when first asked for; its runner closes with the others
    runners = window.findChildren(Runner)
    assert len(runners) >= 3  # the window's, the map's, the topics bar's
    window.close()
    assert all(r.closed for r in runners)
    ran = []
    window.runner.run(lambda: ran.append(1), lambda _result: ran.append(2))
    assert window.runner.wait(1000) and ran == []


def test_searching_on_opens_no_more_database_connections(qtbot, window):
    """Each search runs on a Qt pool thread, whose Python thread state PySide makes anew for every task: the
    store's per-thread connection was lost with it, so every keystroke opened another connection (two file
    descriptors and a page cache) and none was closed — 120 after loading a 94k library, 230 after typing
    the benchmark's queries twice, until the process ran out of descriptors."""
    from readinglist.ui.workers import Runner

    words = ["learning", "policy", "graph", "neural network", "reinforcement", "diffusion model", "attention"]
    for i in range(30):
        search(qtbot, window, words[i % len(words)])
    threads = sum(r.pool.maxThreadCount() for r in window.findChildren(Runner))
    assert window.library.store.connections <= threads + 2  # the pools' threads, the UI's, the index writer's


def test_a_runner_keeps_its_threads_and_each_thread_one_connection(qtbot, lib):
    """The store keeps one connection per OS thread, so a pool that retired idle threads (Qt's default: after
    30 s) would leave their connections behind: a runner's threads live as long as it does."""
    from readinglist.ui.workers import Runner

    runner = Runner(threads=2)
    counted: list[int] = []
    for _ in range(20):
        runner.run(lib.store.count, counted.append)
    qtbot.waitUntil(lambda: len(counted) == 20)
    assert runner.pool.expiryTimeout() == -1
    assert lib.store.connections <= 3  # the two pool threads' and the test's own at most
    runner.close()


def test_the_field_reads_the_word_being_typed_as_a_start_and_a_query_given_whole_does_not(qtbot, window):
    """The field searches as the reader types: "budgeted exi" finds the early-exit paper, its last word read
    as a word's start. The same text given whole (the command line, a saved list) means its words as they
    are: no paper has "exi"."""
    search(qtbot, window, "budgeted exi")
    result = window.search_bar.last_result
    assert result is not None and result.started == "exi" and not result.partial
    assert titles_shown(window)[0] == "BEXA: Budgeted EXit Actor"
    whole = window.library.search("budgeted exi")
    assert whole.started is None and whole.partial


def test_a_keyword_with_a_comma_clicked_in_the_sidebar_filters_what_is_typed(qtbot, window, tmp_path):
    """The index cut "Optimization, convex" at its comma: the sidebar's entry listed its paper, and with a
    query typed beside it the table was empty."""
    import json

    from test_ui import click_sidebar

    f = tmp_path / "convex.json"
    f.write_text(json.dumps([
        {"title": "Convex losses", "abstract": "Convexity.", "keywords": ["Optimization, convex"]},
        {"title": "Convex splits", "abstract": "Convexity.", "keywords": ["convex", "Optimization"]},
    ]))  # fmt: skip
    window.library.import_files([f])
    window.update_counts()
    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("tag", "Optimization, convex"))
    assert titles_shown(window) == ["Convex losses"]
    search(qtbot, window, "convex")
    assert titles_shown(window) == ["Convex losses"]
