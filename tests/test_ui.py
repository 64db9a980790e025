"""The window, driven as a user would: keys, clicks, typing; offscreen, in a temporary data dir."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest
from conftest import corpus, open_window
from PySide6.QtCore import QIdentityProxyModel, QMimeData, QPointF, QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QDropEvent
from PySide6.QtWidgets import (
    QApplication,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QWidget,
)

from readinglist.app import create_main_window
from readinglist.export import ExportOptions
from readinglist.library import Library
from readinglist.papers import Paper
from readinglist.store import NOTE_SEPARATOR
from readinglist.ui import import_bar
from readinglist.ui.dialogs import ImportDetails
from readinglist.ui.paper_model import COLUMNS, KEEP_FILLED, TITLE, IdRole, PaperTableModel, SortRole
from readinglist.ui.paper_table import PaperTableView


@pytest.fixture
def window(qtbot, data_dir):
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.exporter.quiet = True
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19)
    yield w
    w.runner.wait()
    w.library.close()


def search(qtbot, w, text):
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText(text)
    qtbot.waitUntil(lambda: w.search_bar.idle)


def select_paper(qtbot, w, query):
    """The first paper the query finds, current in the table (among all papers if the results lack it)."""
    pid = w.library.search(query).ids[0]
    if not w.table.go_to(pid):
        w.show_in_library(pid)
    qtbot.waitUntil(lambda: w.detail.paper_id == pid and w.table.current_id == pid)
    return pid


def click_sidebar(qtbot, w, key):
    index = w.sidebar.entries.find(key)
    assert index.isValid(), key
    w.sidebar.scrollTo(index)
    qtbot.mouseClick(w.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=w.sidebar.visualRect(index).center())


def tag_labels(w):
    root = w.sidebar.entries.tags_root
    return [root.child(r).text() for r in range(root.rowCount())]


def export(qtbot, w, path, options, scope):
    with qtbot.waitSignal(w.exportFinished, timeout=20000) as got:
        w.export_to(path, options, scope)
    return got.args[0]


def test_contract_names(window):
    assert isinstance(window.findChild(QLineEdit, "searchField"), QLineEdit)
    assert isinstance(window.findChild(QTableView, "paperTable"), QTableView)
    assert isinstance(window.findChild(QTextBrowser, "detailView"), QTextBrowser)
    assert isinstance(window.findChild(QLineEdit, "tagEditor"), QLineEdit)
    assert isinstance(window.findChild(QPlainTextEdit, "notesEditor"), QPlainTextEdit)
    assert isinstance(window.findChild(QTreeView, "tagSidebar"), QTreeView)
    assert isinstance(window.findChild(QTextBrowser, "notesPreview"), QTextBrowser)
    assert isinstance(window.findChild(QToolButton, "previewToggle"), QToolButton)
    for name in ("queryError", "emptyLabel", "statusLabel"):
        assert isinstance(window.findChild(QLabel, name), QLabel), name
    assert isinstance(window.findChild(QWidget, "importProgress"), QWidget)
    assert isinstance(window.findChild(QPushButton, "importCancel"), QPushButton)
    for name in ("actionMarkRead", "actionMarkSkimmed", "actionMarkUnread", "actionUndo", "actionRedo",
                 "actionImport", "actionExport"):  # fmt: skip
        assert isinstance(window.findChild(QAction, name), QAction), name
    assert isinstance(window.findChild(QTableView, "paperTable").model(), PaperTableModel)


def test_status_bar_counts(qtbot, window):
    window.library.set_state(window.library.search("").ids[:3], "read")
    window.update_counts()
    assert window.statusLabel.text() == "19 papers · 19 shown · triaged 0 of 19"  # the view's count: read again
    with qtbot.waitSignal(window.searchFinished):  # at the next search
        window.search_bar.run()
    assert window.statusLabel.text() == "19 papers · 19 shown · triaged 3 of 19"


def test_table_shows_every_match_not_top_n(qtbot, window):
    window.library.import_files([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
    shown = []
    window.searchFinished.connect(lambda: shown.append(list(window.table.model.ids)))
    search(qtbot, window, "learning")
    expected = window.library.search("learning").ids
    assert len(expected) > 100
    assert window.table.model.ids == expected  # rank order, all of them
    assert shown == [expected]  # in one step: no partial page first


def test_search_runs_off_the_ui_thread_and_loop_stays_responsive(qtbot, window, monkeypatch):
    real = window.library.search
    ui_thread = threading.get_ident()
    threads = []

    def slow_search(*args, **kwargs):
        threads.append(threading.get_ident())
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(window.library, "search", slow_search)
    ticks_while_searching = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: ticks_while_searching.append(window.search_bar.searching))
    heartbeat.start()
    window.search_bar.field.setFocus()
    qtbot.keyClicks(window.search_bar.field, "exit")
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 1, timeout=10000)
    heartbeat.stop()
    assert threads and ui_thread not in threads
    assert sum(ticks_while_searching) > 5  # the event loop kept turning while searches ran


def test_latest_query_wins(qtbot, window, monkeypatch):
    real = window.library.search
    applied = []

    def slow_first(text, **kw):
        if text == "d":
            time.sleep(0.4)  # the first keystroke's search is slow; later ones overtake it
        return real(text, **kw)

    monkeypatch.setattr(window.library, "search", slow_first)
    window.search_bar.field.setText("d")
    qtbot.wait(60)
    window.search_bar.field.setText("diffusion")
    window.searchFinished.connect(lambda: applied.append(list(window.table.model.ids)))
    qtbot.waitUntil(lambda: window.table.model.ids == real("diffusion").ids and window.search_bar.idle, timeout=10000)
    qtbot.wait(100)
    assert window.table.model.ids == real("diffusion").ids
    assert all(ids == real("diffusion").ids for ids in applied)  # the stale "d" results never showed


def test_searches_coalesce_one_in_flight_the_latest_queued(qtbot, window, monkeypatch):
    real = window.library.search
    searched = []

    def slow(text, **kw):
        searched.append(text)
        time.sleep(0.3)
        return real(text, **kw)

    monkeypatch.setattr(window.library, "search", slow)
    field = window.search_bar.field
    field.setFocus()
    qtbot.keyClick(field, "d")
    qtbot.waitUntil(lambda: window.search_bar.searching)
    for key in "iff":  # each key on its own turn of the loop, while the search for "d" runs
        qtbot.keyClick(field, key)
        qtbot.wait(20)
    qtbot.waitUntil(lambda: window.search_bar.idle, timeout=10000)
    assert searched == ["d", "diff"]  # "di" and "dif" were never searched
    assert window.search_bar.last_result.query == "diff"


def test_query_error_inline_keeps_last_results(qtbot, window):
    search(qtbot, window, "diffusion")
    before = list(window.table.model.ids)
    search(qtbot, window, "colour:red")
    assert window.search_bar.error.isVisible() and "unknown field" in window.search_bar.error.text()
    assert window.table.model.ids == before
    search(qtbot, window, "diffusion model")
    assert not window.search_bar.error.isVisible()


def test_sidebar_filter_combines_with_query(qtbot, window):
    lib = window.library
    ids = lib.search("learning").ids
    lib.set_state(ids[:2], "read")
    lib.add_tags([ids[0]], ["keep"])
    window.update_counts()
    search(qtbot, window, "learning")
    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("state", "read"))
    assert sorted(window.table.model.ids) == sorted(ids[:2])
    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("tag", "keep"))
    assert window.table.model.ids == [ids[0]]  # read, and tagged keep: the state stays picked
    assert (window.sidebar.filter.state, window.sidebar.filter.tag) == ("read", "keep")
    assert "keep  (1)" in tag_labels(window)[:1]


def test_the_empty_message_shows_after_a_table_scrolled_down(qtbot, window):
    """A table scrolled to its end, then a query with no match: the message sat above the viewport's top (a
    scroll moves the viewport's children), and the table was blank (found by new users' trials)."""
    view, label = window.table.view, window.findChild(QLabel, "emptyLabel")
    window.resize(700, 400)
    search(qtbot, window, "the")
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > 0)
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    search(qtbot, window, "zzzzqqq")
    assert label.isVisible() and label.geometry() == view.viewport().rect()


def test_empty_state_says_what_to_do(qtbot, window):
    search(qtbot, window, "zzzzqqq")
    label = window.findChild(QLabel, "emptyLabel")
    assert window.table.model.rowCount() == 0
    assert label.isVisible() and label.size() == window.table.view.viewport().size()
    assert "No papers match “zzzzqqq”" in label.text() and "clear the search" in label.text()
    window.resize(window.width() - 120, window.height() - 60)  # the message keeps covering the table
    qtbot.waitUntil(lambda: label.size() == window.table.view.viewport().size() and label.width() > 0)
    before = label.size()
    window.resize(window.width() + 120, window.height() + 60)
    qtbot.waitUntil(lambda: label.size() == window.table.view.viewport().size() != before)
    label.linkActivated.emit("clear")  # what QLabel emits when the link is clicked
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 19)
    assert not label.isVisible()


def test_detail_renders_markup_highlights_and_links(qtbot, window):
    search(qtbot, window, "hallucination")
    select_paper(qtbot, window, "self-feedback")
    html = window.detail.toHtml()
    text = window.detail.toPlainText()
    assert "\\emph" not in text and "\\textit" not in text and "$" not in text
    assert "self-feedback" in text
    assert "font-style:italic" in html
    assert "background-color:#ffd54f" in html  # search terms highlighted
    qtbot.waitUntil(lambda: "Related papers" in window.detail.toPlainText())
    pid = select_paper(qtbot, window, '"partially relevant video retrieval"')
    assert pid == window.table.current_id
    assert 'href="https://github.com/lijun2005/ICML26-Holmes"' in window.detail.toHtml()


def test_a_related_paper_without_venue_or_year_has_no_dangling_dash(qtbot, tmp_path):
    """A paper of a file that names no venue or year (the ICLR TSV) was listed among the related papers as
    "Its title —" (a trial): the dash comes only with what follows it."""
    rows = ["title\tabstract",
            "Detecting Hallucinated Content in Conditional Neural Sequence Generation\tHallucinated content in "
            "neural machine translation and abstractive summarization, detected token by token.",
            "Hallucination Detection for Neural Machine Translation\tNeural machine translation hallucinates "
            "content; we detect hallucinated tokens in translation and summarization."]  # fmt: skip
    (tmp_path / "paperlist.tsv").write_text("\n".join(rows) + "\n")
    dated = {
        "title": "Hallucinated Tokens in Abstractive Summarization",
        "venue": "ACL",
        "year": 2021,
        "abstract": "Abstractive summarization hallucinates content; neural translation too: detected tokens.",
    }
    (tmp_path / "dated.jsonl").write_text(json.dumps(dated) + "\n")
    data = tmp_path / "data"
    lib = Library.open(data, seed=False)
    lib.import_files([tmp_path / "paperlist.tsv", tmp_path / "dated.jsonl"])
    lib.close()
    w = open_window(qtbot, data, 3)
    try:
        pid = w.library.search('"Hallucination Detection"').ids[0]
        w.go_to_paper(pid)
        qtbot.waitUntil(lambda: "Related papers" in w.detail.toPlainText(), timeout=15000)
        text = w.detail.toPlainText()
        assert "Detecting Hallucinated Content in Conditional Neural Sequence Generation\n" in text
        assert "Hallucinated Tokens in Abstractive Summarization — ACL 2021" in text  # said where there is one
        assert not any(line.rstrip().endswith("—") for line in text.splitlines())
    finally:
        w.runner.wait()
        w.library.close()


def test_the_authors_a_search_matched_are_highlighted(qtbot, tmp_path):
    from PySide6.QtGui import QPalette

    from readinglist.ui.detail import paper_html

    rows = [{"title": "Notes on the engine", "abstract": "Its programs.", "authors": ["Ada Lovelace", "C. Babbage"]}]
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        (tmp_path / "p.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        lib.import_files([tmp_path / "p.jsonl"])
        [paper] = lib.papers(lib.search("").ids)
        mark = '<span style="background-color:#ffd54f;color:#000">'
        for query in ("author:lovelace", "lovelace engine"):
            shown = paper_html(paper, QPalette(), lib.highlighter(lib.search(query).terms))
            assert f"<i>Ada {mark}Lovelace</span>, C. Babbage</i>" in shown
        shown = paper_html(paper, QPalette(), lib.highlighter(lib.search("author:babbage").terms))
        assert f"<i>Ada Lovelace, C. {mark}Babbage</span></i>" in shown
    finally:
        lib.close()


def test_a_derived_title_says_so_in_the_detail_pane_and_the_exports(qtbot, tmp_path):
    """A title-less abstract's title is the app's guess: the detail pane says so, and so do a BibTeX export
    (a comment BibTeX reads past) and a JSON export (which reads back as title-less); a title the source
    gave, or the reader, is the paper's own (a trial: a derived title was exported as if it were real)."""
    from PySide6.QtGui import QPalette

    from readinglist import export
    from readinglist.export import ExportOptions
    from readinglist.importers import parse_file
    from readinglist.ui.detail import paper_html

    rows = [{"abstract": "We propose GraphNet, a network for sparse graphs. GraphNet is fast."},
            {"title": "A real title", "abstract": "Words of its own."}]  # fmt: skip
    lib = Library.open(tmp_path / "data", seed=False)
    try:
        (tmp_path / "p.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        lib.import_files([tmp_path / "p.jsonl"])
        papers = lib.papers(lib.search("").ids)
        real = next(p for p in papers if p.title == "A real title")
        derived = next(p for p in papers if p is not real)
        assert derived.title_derived and not real.title_derived
        assert "derived from the abstract" in paper_html(derived, QPalette())
        assert "derived from the abstract" not in paper_html(real, QPalette())
        bib = export.bibtex([derived, real], ExportOptions(format="bibtex"))
        assert bib.count("% The source had no title") == 1 and bib.index("% The source") < bib.index("GraphNet")
        out = tmp_path / "out.json"
        export.export([derived, real], ExportOptions(format="json"), out)
        records = parse_file(out).records
        assert sorted(r.title for r in records) == ["", "A real title"]
        lib.set_title(derived.id, "GraphNet")
        assert not lib.paper(derived.id).title_derived
    finally:
        lib.close()


def test_clearing_the_search_clears_the_highlights_of_the_paper_shown(qtbot, window):
    """The paper the reader chose stays current when the search is cleared; its query's words stayed
    highlighted (found by the new user's trial)."""
    search(qtbot, window, "learning")
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_Down)  # the reader moves to the second paper
    pid = window.table.current_id
    qtbot.waitUntil(lambda: window.detail.paper_id == pid and "background-color:#ffd54f" in window.detail.toHtml())
    search(qtbot, window, "")
    assert window.table.current_id == pid
    qtbot.waitUntil(lambda: "background-color:#ffd54f" not in window.detail.toHtml())
    search(qtbot, window, "learning")  # and the next query's words are highlighted on the same paper
    qtbot.waitUntil(lambda: "background-color:#ffd54f" in window.detail.toHtml())
    assert window.detail.current_id == pid


def test_math_shown_readable(qtbot, window):
    select_paper(qtbot, window, "DDSVM")
    text = window.detail.toPlainText()
    assert ("$" not in text and "L2-normalized" in text.replace("\u2009", "")) or "L₂" in text or "L2" in text
    assert "**" not in text  # Markdown bold rendered, not shown


def test_links_open_in_browser_http_only(qtbot, window, monkeypatch):
    opened = []
    monkeypatch.setattr("readinglist.ui.detail.QDesktopServices.openUrl", lambda url: opened.append(url))
    clicked = window.detail.anchorClicked  # what QTextBrowser emits when a link is clicked
    clicked.emit(QUrl("https://example.org/x"))
    clicked.emit(QUrl("file:///etc/passwd"))
    clicked.emit(QUrl("javascript:alert(1)"))
    window.editors.notesPreview.anchorClicked.emit(QUrl("https://example.org/note"))  # links in a note, too
    window.editors.notesPreview.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert [u.toString() for u in opened] == ["https://example.org/x", "https://example.org/note"]
    target = window.library.search("BEXA").ids[0]
    uid = window.library.store.uids([target])[target]
    search(qtbot, window, "diffusion")
    clicked.emit(QUrl(f"paper:{uid}"))  # a related paper outside the results: shown anyway, the search kept
    qtbot.waitUntil(lambda: window.detail.paper_id == target)
    assert window.search_bar.text() == "diffusion" and window.table.current_id is None
    window.editors.notesPreview.anchorClicked.emit(QUrl("paper:nosuchpaper"))  # a note's link to no paper
    qtbot.waitUntil(lambda: "leads to no paper" in window.notice.text())


def test_previews_load_no_local_file(qtbot, window, tmp_path):
    """A note's (or an abstract's) image or link to a local file is never read or shown."""
    secret = tmp_path / "secret.png"
    from PySide6.QtGui import QImage

    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(0xFF0000)
    image.save(str(secret))
    for browser in (window.editors.notesPreview, window.detail):
        browser.setMarkdown(f"![x]({secret.as_uri()}) [local]({secret.as_uri()}) ![y](secret.png)")
        assert browser.loadResource(2, QUrl(secret.as_uri())) is None  # QTextDocument.ImageResource
        assert browser.loadResource(2, QUrl("secret.png")) is None
        assert not browser.openLinks()
        browser.anchorClicked.emit(QUrl(secret.as_uri()))
        assert browser.source().isEmpty()  # not navigated to the file


def test_home_and_end_go_to_the_first_and_last_paper_selected(qtbot, window):
    """What r/s/u act on (the selection) is the paper shown: Ctrl+End in Qt moved only the current row."""
    table = window.table.view
    table.setFocus()
    window.table.select_row(3)
    last = window.table.model.rowCount() - 1
    for key, mods, row in [
        (Qt.Key.Key_End, Qt.KeyboardModifier.NoModifier, last),
        (Qt.Key.Key_Home, Qt.KeyboardModifier.NoModifier, 0),
        (Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier, last),
        (Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier, 0),
    ]:
        qtbot.keyClick(table, key, mods)
        assert table.currentIndex().row() == row
        assert [i.row() for i in table.selectionModel().selectedRows()] == [row]
    qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    shown = window.table.model.id_at(last)
    qtbot.waitUntil(lambda: window.table.current_id == shown)
    qtbot.keyClick(table, Qt.Key.Key_R)
    assert window.library.paper(shown).state == "read"  # the paper shown is the one marked


def test_tab_leaves_the_list_and_goes_search_sidebar_list(qtbot, window):
    """Tab in the list moved Qt's current cell along the row, then to the next paper, away from the selection
    that keys act on; a trial pressed it eight times and never left the list."""
    table = window.table.view
    window.activateWindow()
    table.setFocus()
    window.table.select_row(3)
    shown = window.table.current_id
    qtbot.waitUntil(lambda: QApplication.focusWidget() is table)
    for _ in range(6):
        qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert window.table.current_id == shown and QApplication.focusWidget() is not table
    table.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is table)
    qtbot.keyClick(table, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is window.sidebar  # not the topics' filter and list between them
    window.search_bar.focus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.sidebar
    qtbot.keyClick(window.sidebar, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is table


def test_keyboard_triage_with_auto_advance_and_undo(qtbot, window):
    window.table.view.setFocus()
    window.table.select_row(0)
    first, second = window.table.model.ids[0], window.table.model.ids[1]
    qtbot.keyClick(window.table.view, Qt.Key.Key_R)
    assert window.library.paper(first).state == "read"
    assert window.table.current_id == second  # advanced
    qtbot.keyClick(window.table.view, Qt.Key.Key_S)
    assert window.library.paper(second).state == "skimmed"
    qtbot.keyClick(window.table.view, Qt.Key.Key_K)
    qtbot.keyClick(window.table.view, Qt.Key.Key_K)
    assert window.table.current_id == first
    qtbot.keyClick(window.table.view, Qt.Key.Key_J)
    assert window.table.current_id == second
    qtbot.keyClick(window.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.library.paper(second).state == "unread"
    qtbot.keyClick(window.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.library.paper(first).state == "unread"
    qtbot.keyClick(
        window.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert window.library.paper(first).state == "read"
    assert window.statusLabel.text() == "19 papers · 19 shown · triaged 1 of 19"


def test_auto_advance_setting_off(qtbot, window):
    window.actionAutoAdvance.setChecked(False)
    window.table.view.setFocus()
    window.table.select_row(0)
    first = window.table.model.ids[0]
    qtbot.keyClick(window.table.view, Qt.Key.Key_U)
    qtbot.keyClick(window.table.view, Qt.Key.Key_R)
    assert window.table.current_id == first and window.library.paper(first).state == "read"
    assert (
        QSettings(str(window.library.data_dir / "settings.ini"), QSettings.Format.IniFormat).value(
            "autoAdvance", type=bool
        )
        is False
    )


def test_mark_and_tag_act_on_the_whole_selection(qtbot, window):
    window.table.view.setFocus()
    # through the table's own API: QTableView.selectRow reads the keyboard's modifiers, which the offscreen
    # platform keeps from the last key event (an earlier test's Ctrl+Shift+Z made it toggle the row)
    window.table.select_ids([window.table.model.ids[0], window.table.model.ids[2]])
    ids = window.table.selected_ids()
    assert len(ids) == 2
    window.actionMarkSkimmed.trigger()
    assert {window.library.paper(i).state for i in ids} == {"skimmed"}
    said = []
    for typed in ("batch, two words", "two words", "solo"):  # added; one taken out; one for another
        window.editors.tagEditor.setText(typed)
        with qtbot.waitSignal(window.detail.paperShown):  # the field shows the tags applied
            qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
        assert all(window.library.paper(i).tags == typed.split(", ") for i in ids)
        said.append(window.notice.text())
    assert said == [
        "Tagged 2 papers “batch”, “two words”.",
        "Removed “batch” from 2 papers.",  # it said "Tagged 2 papers."
        "Changed the tags of 2 papers.",
    ]
    for _ in range(3):
        window.actionUndo.trigger()
    assert all(window.library.paper(i).tags == [] for i in ids)
    window.actionUndo.trigger()
    assert {window.library.paper(i).state for i in ids} == {"unread"}


def test_keys_focus_search_tags_notes_and_escape(qtbot, window):
    window.table.view.setFocus()
    window.table.select_row(0)
    qtbot.keyClick(window.table.view, Qt.Key.Key_T)
    assert window.editors.tagEditor.hasFocus()
    qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Escape)
    assert window.table.view.hasFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_N)
    assert window.editors.notesEditor.hasFocus()
    qtbot.keyClick(window.editors.notesEditor, Qt.Key.Key_Escape)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Slash)
    assert window.search_bar.field.hasFocus()
    qtbot.keyClicks(window.search_bar.field, "xyz")
    qtbot.keyClick(window.search_bar.field, Qt.Key.Key_Escape)
    assert window.search_bar.field.text() == ""
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.search_bar.field.hasFocus()


def test_typing_r_in_a_text_field_types_it(qtbot, window):
    window.search_bar.field.setFocus()
    before = window.library.counts()
    qtbot.keyClicks(window.search_bar.field, "rsu")
    assert window.search_bar.field.text() == "rsu"
    assert window.library.counts() == before


def test_tag_editor_enter_applies_with_completer(qtbot, window):
    lib = window.library
    lib.add_tags([lib.search("").ids[5]], ["reinforcement learning"])
    window.editors.update_completions()
    pid = select_paper(qtbot, window, "BEXA")
    window.editors.tagEditor.setFocus()
    window.editors.tagEditor.clear()
    qtbot.keyClicks(window.editors.tagEditor, "exits, reinf")
    window.editors.completer.setCompletionPrefix("reinf")
    assert window.editors.completer.currentCompletion() == "exits, reinforcement learning"  # only the last tag
    window.editors.tagEditor.setText(window.editors.completer.currentCompletion())
    assert window.editors.tagEditor.text() == "exits, reinforcement learning"
    qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
    assert lib.paper(pid).tags == ["exits", "reinforcement learning"]
    assert "exits  (1)" in tag_labels(window)[:2]


def test_notes_autosave_after_typing_and_on_selection_change(qtbot, window):
    pid = select_paper(qtbot, window, "BEXA")
    window.editors.notesEditor.setFocus()
    qtbot.keyClicks(window.editors.notesEditor, "first thought")
    qtbot.waitUntil(lambda: window.library.paper(pid).note == "first thought", timeout=3000)
    qtbot.keyClicks(window.editors.notesEditor, " and more")
    window.table.select_row(0 if window.table.model.row_of(pid) != 0 else 1)  # selection change saves at once
    assert window.library.paper(pid).note == "first thought and more"
    window.actionUndo.trigger()  # autosaves of one paper merge into one undo step
    assert window.library.paper(pid).note == ""


def test_a_note_too_long_to_export_is_not_saved_and_says_so(qtbot, window):
    """A 1 MB note was kept, and its BibTeX export could not be imported back (a trial): such a note is not
    saved; the notice says why, the text stays in the field, and the note as last saved stays stored."""
    pid = select_paper(qtbot, window, "BEXA")
    window.editors.notesEditor.setFocus()
    qtbot.keyClicks(window.editors.notesEditor, "kept")
    qtbot.waitUntil(lambda: window.library.paper(pid).note == "kept", timeout=3000)
    long = "kept " + "a long pasted text. " * 20_000
    window.editors.notesEditor.setPlainText(long)
    window.editors.save_note()
    assert "The note is not saved" in window.notice.text() and "too long to export" in window.notice.text()
    assert window.library.paper(pid).note == "kept"
    assert window.editors.notesEditor.toPlainText() == long


def test_the_state_and_priority_buttons_show_the_paper_shown(qtbot, window):
    """SVOO, queued with P1, showed no button pressed (a trial): the buttons (and the Paper menu) check the
    paper shown's state and priority, again after a key that marks it as it already was; none for several."""
    select_paper(qtbot, window, "SVOO")
    checked = lambda: {a.iconText() for a in (*window.mark_actions.values(), *window.priority_actions) if a.isChecked()}  # noqa: E731
    qtbot.waitUntil(lambda: checked() == {"Unread"})
    window.actionAutoAdvance.setChecked(False)
    window.mark_actions["queued"].trigger()
    window.priority_actions[0].trigger()
    qtbot.waitUntil(lambda: checked() == {"Queued", "P1"})
    window.mark_actions["queued"].trigger()  # queued again: still checked, not toggled off
    assert checked() == {"Queued", "P1"}
    window.mark_actions["read"].trigger()
    qtbot.waitUntil(lambda: checked() == {"Read", "P1"})
    window.priority_actions[0].trigger()  # P1 again
    assert checked() == {"Read", "P1"}
    window.table.select_ids(window.table.model.ids[:2])
    qtbot.waitUntil(lambda: checked() == set())


def test_note_preview_renders_markdown(qtbot, window):
    select_paper(qtbot, window, "BEXA")
    window.editors.notesEditor.setPlainText("**bold** and a [link](https://x.org)")
    window.editors.previewToggle.setChecked(True)
    assert window.editors.notesStack.currentWidget() is window.editors.notesPreview
    assert "**" not in window.editors.notesPreview.toPlainText() and "bold" in window.editors.notesPreview.toPlainText()
    assert "font-weight:700" in window.editors.notesPreview.toHtml()


def test_f2_edits_title_with_undo(qtbot, window):
    pid = select_paper(qtbot, window, "BEXA")
    derived = window.library.paper(pid).title
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_F2)
    editor = window.table.view.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.text() == derived
    editor.setText("Budgeted exits")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits on the next turn of the event loop
    qtbot.waitUntil(lambda: window.library.paper(pid).title == "Budgeted exits")
    model = window.table.model
    assert model.data(model.index(model.row_of(pid), COLUMNS.index("title"))) == "Budgeted exits"
    window.actionUndo.trigger()
    assert window.library.paper(pid).title == derived


def test_sidebar_tag_rename_merge_delete_with_undo(qtbot, window):
    lib = window.library
    a, b = lib.search("").ids[:2]
    lib.add_tags([a], ["ml"])
    lib.add_tags([b], ["machine learning"])
    window.update_counts()
    window.sidebar.rename_tag("ml", "machine learning")
    assert lib.tag_counts() == [("machine learning", 2)]
    window.sidebar.delete_tag("machine learning")
    assert lib.tag_counts() == []
    window.actionUndo.trigger()
    assert lib.tag_counts() == [("machine learning", 2)]
    window.actionUndo.trigger()
    assert sorted(lib.tag_counts()) == [("machine learning", 1), ("ml", 1)]
    assert tag_labels(window) == ["machine learning  (1)", "ml  (1)"]


def test_undoing_a_tag_merge_that_respelt_the_tag_merged_into_spells_it_as_before(qtbot, window):
    """A trial merged "bandits" into "bandit-area" typed "Bandit-Area": undo brought "bandits" back, and the
    papers of "bandit-area" kept "Bandit-Area" (a rename alone undid its case, having its papers in hand)."""
    lib = window.library
    a, b, c = lib.search("").ids[:3]
    lib.add_tags([a, b], ["bandit-area"])
    lib.add_tags([c], ["bandits"])
    window.update_counts()
    window.sidebar.rename_tag("bandits", "Bandit-Area")
    assert lib.tag_counts() == [("Bandit-Area", 3)]
    window.actionUndo.trigger()
    assert sorted(lib.tag_counts()) == [("bandit-area", 2), ("bandits", 1)]
    assert tag_labels(window) == ["bandit-area  (2)", "bandits  (1)"]
    window.actionRedo.trigger()
    assert lib.tag_counts() == [("Bandit-Area", 3)]


def test_sort_by_column_and_back_to_rank(qtbot, window):
    header = window.table.view.horizontalHeader()
    header.setSortIndicator(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    window.table.view.viewport().repaint()  # the rows shown get their items in the new order
    titles = [window.table.model.data(window.table.model.index(r, COLUMNS.index("title"))) for r in range(19)]
    assert titles == sorted(titles, key=str.casefold)
    header.setSortIndicator(COLUMNS.index("title"), Qt.SortOrder.DescendingOrder)
    window.table.view.viewport().repaint()
    assert window.table.model.data(window.table.model.index(0, COLUMNS.index("title"))) == max(titles, key=str.casefold)


def test_model_fills_only_the_rows_shown(qapp):
    class FakeLibrary:
        read_only = False

        def __init__(self):
            self.fetched = 0

        def rows(self, ids):
            self.fetched += len(ids)
            return {i: (f"Paper {i}", "V", 2020, "unread", "") for i in ids}

    lib = FakeLibrary()
    model = PaperTableModel(lib)  # type: ignore[arg-type]
    model.set_ids(range(100_000))
    assert model.rowCount() == 100_000 and lib.fetched == 0
    assert model.data(model.index(50_000, TITLE)) is None  # not shown yet: no items
    model.fill(50_000, 50_039)  # what a view is about to paint
    assert (
        model.data(model.index(50_000, TITLE)) == "Paper 50000"
        and model.data(model.index(50_039, TITLE)) == "Paper 50039"
    )
    assert lib.fetched == 40
    model.fill(50_010, 50_049)
    assert lib.fetched == 50  # only the rows without items
    for start in range(0, 60_000, 40):  # scrolling through the table keeps a bounded number of rows filled
        model.fill(start, start + 39)
    filled = sum(model.item(r, TITLE) is not None for r in range(model.rowCount()))
    assert filled <= KEEP_FILLED + 40 and model.data(model.index(59_999, TITLE)) == "Paper 59999"
    # marking papers one at a time finds their rows by a scan; only a batch builds the id → row map
    for pid in (99_999, 3, 50_000, 7, 8, 9, 10, 11, 12, 13):
        model.refresh([pid])
    assert not model.has_row_map and model.row_of(99_999) == 99_999 and model.row_of(-1) is None
    model.refresh(list(range(100)))
    assert model.has_row_map and model.row_of(42) == 42


def test_a_changed_row_is_refreshed_in_place_and_looks_as_if_filled_afresh(qapp):
    """A triage key refreshes its row: the row's items are kept and given the new values (replacing them
    cost ~0.4 ms an item in a 94k-row model), and nothing of the old look stays (an unread title's bold, a
    read row's muted colour, a priority's colour and tooltip)."""
    from PySide6.QtGui import QIcon

    class FakeLibrary:
        read_only = False

        def __init__(self):
            self.values = {i: (f"Paper {i}", "V", 2020, "unread", "t", None, "A, B", "") for i in range(5)}

        def rows(self, ids):
            return {i: self.values[i] for i in ids}

    def cells(model, row):
        out = []
        for column in range(len(COLUMNS)):
            data = model.itemData(model.index(row, column))
            out.append({r: v.cacheKey() if isinstance(v, QIcon) else v for r, v in data.items()})
        return out

    lib = FakeLibrary()
    model = PaperTableModel(lib)  # type: ignore[arg-type]
    model.set_ids(range(5))
    model.fill(0, 4)
    before = [model.item(2, c) for c in range(len(COLUMNS))]
    for state, priority in (("read", 1), ("skimmed", None), ("unread", 2), ("skipped", None)):
        lib.values[2] = (f"Paper 2 {state}", "W", 2021, state, "u", priority, "C", "")
        model.refresh([2])
        assert [model.item(2, c) for c in range(len(COLUMNS))] == before  # the same items
        fresh = PaperTableModel(lib)  # type: ignore[arg-type]
        fresh.set_ids(range(5))
        fresh.fill(0, 4)
        assert cells(model, 2) == cells(fresh, 2), state


def test_warm_up_freezes_what_it_loaded_out_of_the_collectors_sight(qtbot, window):
    """A full garbage collection walked every module and table loaded at start-up (a stalled
    repaint); after the warm-up they are frozen and a collection skips them."""
    import gc

    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=20000)
    assert gc.get_freeze_count() > 10_000
    assert not any(o is window.table.model for o in gc.get_objects())


def test_model_cells_look_right_and_are_painted_without_python(qtbot):
    """Painting asks the model for every cell: from C++ items, with no Python method in the way (each call
    into Python waited for the interpreter lock while a search ran). Unread titles bold, read rows muted,
    years centred, only titles editable; a palette change recolours read rows."""
    from PySide6.QtGui import QFont, QPalette
    from PySide6.QtWidgets import QApplication, QStyledItemDelegate, QStyleOptionViewItem

    for name in ("data", "multiData", "flags", "index", "parent", "rowCount", "columnCount", "headerData"):
        assert name not in vars(PaperTableModel), f"{name}() in Python would be called for every painted cell"

    class FakeLibrary:
        read_only = False

        def rows(self, ids):
            return {i: (f"Paper {i}", "V", 2020, ("unread", "read")[i % 2], "t") for i in ids}

    model = PaperTableModel(FakeLibrary())  # type: ignore[arg-type]
    model.set_ids(range(10))
    model.fill(0, 9)
    delegate = QStyledItemDelegate()

    def option(row, column):
        opt = QStyleOptionViewItem()
        delegate.initStyleOption(opt, model.index(row, column))
        return opt

    title = COLUMNS.index("title")
    unread, read = option(0, title), option(1, title)
    year = option(0, COLUMNS.index("year"))
    assert unread.text == "Paper 0" and unread.font.bold() and not read.font.bold()
    assert isinstance(model.data(model.index(0, title), Qt.ItemDataRole.FontRole), QFont)
    assert year.text == "2020" and year.displayAlignment == Qt.AlignmentFlag.AlignCenter
    muted = QApplication.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert read.palette.color(QPalette.ColorRole.Text) == muted
    assert unread.palette.color(QPalette.ColorRole.Text) != muted or muted == QApplication.palette().text().color()
    assert model.flags(model.index(0, title)) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(model.index(0, COLUMNS.index("venue"))) & Qt.ItemFlag.ItemIsEditable
    assert model.headerData(title, Qt.Orientation.Horizontal) == "Title"
    sort_values = [model.data(model.index(1, c), SortRole) for c in range(len(COLUMNS))]
    assert sort_values == [3, 9, "paper 1", "", "V", 2020, "t", 1]  # native values: state order, no priority
    # last, casefolded title, year, id
    assert model.data(model.index(1, 0), IdRole) == 1

    old = QApplication.palette()
    changed = QPalette(old)
    changed.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, Qt.GlobalColor.magenta)
    QApplication.setPalette(changed)
    try:
        with qtbot.waitSignal(model.dataChanged):
            model.restyle()
        assert option(1, title).palette.color(QPalette.ColorRole.Text) == Qt.GlobalColor.magenta
    finally:
        QApplication.setPalette(old)


def test_the_window_fills_the_rows_it_paints(qtbot, window):
    """Whatever brings rows into view (a search, scrolling, sorting), they have their items when painted."""
    table, model = window.table.view, window.table.model
    table.resize(table.width(), 200)  # fewer rows than the library shows: scrolling brings new ones
    table.viewport().repaint()
    shown = [r for r in range(model.rowCount()) if table.visualRect(model.index(r, TITLE)).isValid()
             and table.visualRect(model.index(r, TITLE)).intersects(table.viewport().rect())]  # fmt: skip
    assert shown and all(model.data(model.index(r, TITLE)) for r in shown)
    table.scrollToBottom()
    table.viewport().repaint()
    assert model.data(model.index(model.rowCount() - 1, TITLE))
    header = table.horizontalHeader()
    header.setSortIndicator(COLUMNS.index("year"), Qt.SortOrder.DescendingOrder)
    table.viewport().repaint()
    last = model.rowCount() - 1
    pid = model.ids[last]
    assert model.data(model.index(last, TITLE)) == window.library.rows([pid])[pid][0]  # the new order


class _NumberedPapers:
    """A library stand-in whose paper i is titled "Paper i": what the table's rows show, without a store."""

    read_only = False

    def rows(self, ids):
        return {i: (f"Paper {i}", "V", 2020, "unread", "") for i in ids}


def _numbered_papers_model(count: int) -> PaperTableModel:
    model = PaperTableModel(_NumberedPapers())  # type: ignore[arg-type]
    model.set_ids(range(count))
    return model


def test_a_second_view_and_a_view_through_a_proxy_paint_filled_rows(qtbot):
    """The rows get their items in the view's own paint, not from whoever built the window."""

    model = _numbered_papers_model(5000)
    proxy = QIdentityProxyModel()
    proxy.setSourceModel(model)
    direct, through_proxy = PaperTableView(model), PaperTableView(proxy)
    for view in (direct, through_proxy):
        qtbot.addWidget(view)
        view.resize(400, 300)
        with qtbot.waitExposed(view):
            view.show()
    through_proxy.scrollTo(proxy.index(3000, TITLE))  # rows the first view never showed
    for view in (direct, through_proxy):
        view.viewport().repaint()
        first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
        assert 0 <= first < last
        shown = view.model()
        assert all(shown.data(shown.index(r, TITLE)) == f"Paper {r}" for r in range(first, last + 1))
    assert through_proxy.rowAt(0) > 2000 and model.data(model.index(200, TITLE)) is None  # only what was shown


def test_a_view_with_no_row_at_its_bottom_fills_a_screenful_not_every_row(qtbot, monkeypatch):
    """While a view is laid out (after a reset) no row may be found at its bottom: it fills the rows a screen
    holds, not every row to the end of a large library."""

    model = _numbered_papers_model(5000)
    view = PaperTableView(model)
    qtbot.addWidget(view)
    view.resize(400, 300)
    with qtbot.waitExposed(view):
        view.show()
    real = view.rowAt
    bottom = view.viewport().height() - 1
    monkeypatch.setattr(view, "rowAt", lambda y: -1 if y == bottom else real(y))
    model.set_ids(range(5000))  # a reset: nothing filled
    view.fill_visible()
    assert model.data(model.index(0, TITLE)) == "Paper 0" and model.data(model.index(5, TITLE)) == "Paper 5"
    assert model.data(model.index(200, TITLE)) is None and model.data(model.index(4999, TITLE)) is None


@pytest.fixture(params=["thread", "child"])
def import_where(request, monkeypatch):
    """An import on the window's worker thread, and one in a child process (a large file's: see
    import_bar.in_child), which must look the same to the reader."""
    if request.param == "child":
        monkeypatch.setattr(import_bar, "CHILD_FROM_BYTES", 0)
    return request.param


def test_import_with_progress_and_bad_file_dialog(qtbot, window, tmp_path, monkeypatch, import_where):
    errors = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: errors.append(a[2]))
    bad = tmp_path / "broken.json"
    bad.write_text('[{"title": "x"},')
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.start_import([bad])
    assert errors and "broken.json" in errors[0] and "Line 1: invalid JSON" in errors[0]  # the line, then the problem
    assert window.library.counts()["all"] == 19
    with qtbot.waitSignal(window.importFinished, timeout=60000) as got:
        window.start_import([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
    assert got.args[0][0].added == 517
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 536)
    assert window.statusLabel.text().startswith("536 papers")


def test_several_files_with_a_bad_one_import_the_others_and_say_which_failed(
    qtbot, window, tmp_path, monkeypatch, import_where
):
    """Dropping a set of files: a bad one is named in the message, the others are imported (before, the
    import stopped at it and the files after it were silently left out), and .bib files share macros."""
    errors = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: errors.append(a[2]))
    (tmp_path / "a.bib").write_text("@article{k, title = {Quokka habits}, author = Q, journal = {J}}\n")
    (tmp_path / "b.json").write_text('[{"title": "x"},')
    (tmp_path / "c.bib").write_text('@string{Q = "Ann Quokka"}\n')
    (tmp_path / "d.json").write_text(json.dumps([{"title": "Wombat burrows", "abstract": "Wombats dig."}]))
    with qtbot.waitSignal(window.importFinished, timeout=60000) as got:
        window.start_import([tmp_path / n for n in ("a.bib", "b.json", "c.bib", "d.json")])
    assert [s.path.name for s in got.args[0]] == ["a.bib", "c.bib", "d.json"]
    assert len(errors) == 1 and "b.json" in errors[0] and "The other files were imported." in errors[0]
    assert window.library.counts()["all"] == 21
    assert window.notice.text().endswith("; 1 file not imported") and window.notice.action_text == "Details…"
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    shown = window.findChild(ImportDetails, "importDetails").text.toPlainText().splitlines()
    assert shown[0] == "b.json: not imported (the library was not changed by this file)"
    assert shown[1].startswith("  line 1: invalid JSON")
    assert [line.split(":")[0] for line in shown if not line.startswith(" ")] == ["b.json", "a.bib", "c.bib", "d.json"]
    (paper,) = window.library.papers(window.library.search("quokka").ids)
    assert paper.authors == ["Ann Quokka"]


def test_the_import_notice_says_the_states_and_the_users_tags_the_file_gave(qtbot, window, tmp_path, import_where):
    """A Papers3 BibTeX's `read = {Yes}` marked papers read, and a keyword named as a tag of the user's gave
    papers that tag, unsaid: the window's notice says both (ImportSummary.line, as the command line does)."""
    window.library.add_tags(window.library.search("").ids[:1], ["RL"])
    f = tmp_path / "papers3.bib"
    f.write_text(
        "@article{c, title = {Deep RL for quokkas}, author = {A, B}, year = 2020, read = {Yes}, keywords = {RL}}\n"
    )
    with qtbot.waitSignal(window.importFinished, timeout=60000):
        window.start_import([f])
    assert window.notice.text() == (
        "Imported papers3.bib: 1 added; 1 marked read from the file's read field; tagged 1 paper RL (your tag, "
        "which the file has as a keyword)"
    )


def test_import_cancel_leaves_library_unchanged(qtbot, window, import_where):
    with qtbot.waitSignal(window.importFinished, timeout=60000) as got:
        window.start_import([corpus("pmlr_colt2025_uai2025_l4dc2026.jsonl")])
        assert window.import_bar.isVisible()  # progress shows in the window, not in a dialog
        cancel_button = window.findChild(QPushButton, "importCancel")
        qtbot.mouseClick(cancel_button, Qt.MouseButton.LeftButton)
    assert type(got.args[0]).__name__ == "ImportCancelled"
    assert window.library.counts()["all"] == 19
    assert not window.import_bar.isVisible()


def test_a_large_import_runs_in_a_child_process_and_the_window_shows_what_it_added(
    qtbot, window, tmp_path, monkeypatch
):
    """Parsing, matching and indexing thousands of papers on a worker thread took the interpreter from the
    window (stalls of 100 ms with a busy process beside it): a large file is imported in a child."""
    from readinglist import importing

    def not_here(*args, **kwargs):
        raise AssertionError("imported in the window's process")

    monkeypatch.setattr(importing, "import_files", not_here)
    errors = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: errors.append(a[2]))
    papers = [{"title": f"Quokka study {i}", "abstract": f"Quokkas of island {i} and their habits."} for i in range(40)]
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(json.dumps(p) for p in papers) + "\n" + " " * import_bar.CHILD_FROM_BYTES)
    small = tmp_path / "small.jsonl"
    small.write_text(json.dumps({"title": "One quokka", "abstract": "A quokka alone."}) + "\n")
    assert import_bar.in_child([big]) and not import_bar.in_child([small])
    refreshed = []
    window.outside.libraryChanged.connect(lambda: refreshed.append(1))
    with qtbot.waitSignal(window.importFinished, timeout=60000) as got:
        window.start_import([big])
    window.outside.look()  # what another process wrote is looked for: the child's papers are this window's
    assert refreshed == []  # (the window refreshes once, after the import, not again for "another" process)
    assert not isinstance(got.args[0], Exception), got.args[0]
    assert got.args[0][0].added == 40
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 59 and window.search_bar.idle)
    assert window.statusLabel.text().startswith("59 papers")
    assert len(window.library.search("quokka habits").ids) == 40  # the window's index sees what the child wrote
    with qtbot.waitSignal(window.importFinished, timeout=60000) as got:  # a small file, on the worker thread
        window.start_import([small])
    assert isinstance(got.args[0], Exception) and "window's process" in errors[0]


def test_dropping_files_imports_them(qtbot, window, tmp_path):
    f = tmp_path / "drop.jsonl"
    f.write_text(json.dumps({"title": "Dropped paper", "abstract": "About drops."}) + "\n")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)  # fmt: skip
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.dropEvent(event)
    assert window.library.search("dropped").ids


def test_export_scopes(qtbot, window, tmp_path):
    search(qtbot, window, "diffusion")
    shown = len(window.table.model.ids)
    out = tmp_path / "results.md"
    assert export(qtbot, window, out, ExportOptions(), "results") == shown
    text = out.read_text()
    assert "query `diffusion`" in text and f"{shown} papers" in text
    window.table.view.selectRow(0)
    assert export(qtbot, window, tmp_path / "sel.csv", ExportOptions(format="csv"), "selection") == 1
    assert len((tmp_path / "sel.csv").read_text().strip().splitlines()) == 2  # the header and one paper
    assert export(qtbot, window, tmp_path / "all.bib", ExportOptions(format="bibtex"), "all") == 19
    assert (tmp_path / "all.bib").read_text().count("@") == 19
    assert QSettings(str(window.library.data_dir / "settings.ini"), QSettings.Format.IniFormat).value(
        "exportFolder"
    ) == str(tmp_path)


def test_close_and_reopen_keeps_every_edit_and_the_layout(qtbot, data_dir):
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19)
    pid = select_paper(qtbot, w, "BEXA")
    w.actionMarkSkimmed.trigger()
    w.go_to_paper(pid)
    w.editors.tagEditor.setText("exits")
    qtbot.keyClick(w.editors.tagEditor, Qt.Key.Key_Return)
    w.table.view.setFocus()
    w.table.select_row(w.table.model.row_of(pid))
    w.library.set_title(pid, "My title")
    w.resize(790, 555)  # the offscreen screen is 800×600
    w.mainSplitter.setSizes([150, 330, 298])
    search(qtbot, w, "exits")
    assert w.detail.paper_id == pid
    w.editors.notesEditor.setPlainText("unsaved until close")  # saved by closing (or by the autosave timer)
    w.close()
    w.library.close()

    w2 = create_main_window(data_dir)
    qtbot.addWidget(w2)
    w2.show()
    qtbot.waitUntil(lambda: w2.table.model.rowCount() >= 1)
    p = w2.library.paper(pid)
    assert (p.state, p.tags, p.note, p.title) == ("skimmed", ["exits"], "unsaved until close", "My title")
    assert w2.search_bar.text() == "exits"
    assert (w2.width(), w2.height()) == (790, 555)
    assert w2.mainSplitter.sizes()[0] == 150
    w2.close()
    w2.runner.wait()
    w2.library.close()


def test_a_restart_opens_on_the_view_it_was_closed_on(qtbot, data_dir):
    """Closed on "Skimmed · tag exits", the window opened on All with the query kept, mid-triage (a trial): the
    state, tag (or saved list, or Suggested) come back, what still exists of them; a tag gone since is let go."""
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 19)
    ids = w.library.search("").ids
    w.library.add_tags(ids[:3], ["exits"])
    w.library.set_state(ids[1:3], "skimmed")
    w.update_counts()
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("state", "skimmed"))
    with qtbot.waitSignal(w.searchFinished):
        click_sidebar(qtbot, w, ("tag", "exits"))
    qtbot.waitUntil(lambda: set(w.table.model.ids) == set(ids[1:3]))
    w.close()
    w.runner.wait()
    w.library.close()

    w2 = create_main_window(data_dir)
    qtbot.addWidget(w2)
    w2.show()
    qtbot.waitUntil(lambda: set(w2.table.model.ids) == set(ids[1:3]))
    assert (w2.sidebar.filter.state, w2.sidebar.filter.tag) == ("skimmed", "exits")
    w2.library.remove_tags(ids[:3], ["exits"])
    w2.close()
    w2.runner.wait()
    w2.library.close()

    w3 = create_main_window(data_dir)  # the tag is gone: its state stays, the tag is let go
    qtbot.addWidget(w3)
    w3.show()
    qtbot.waitUntil(lambda: set(w3.table.model.ids) == set(ids[1:3]))
    assert (w3.sidebar.filter.state, w3.sidebar.filter.tag) == ("skimmed", None)
    w3.close()
    w3.runner.wait()
    w3.library.close()


def test_read_only_window_disables_editing(qtbot, data_dir):
    w = create_main_window(data_dir)  # creates the library
    w.close()
    w.runner.wait()
    w.library.close()
    ro = create_main_window(data_dir, read_only=True, read_only_reason="Read-only: test")
    qtbot.addWidget(ro)
    ro.show()
    qtbot.waitUntil(lambda: ro.table.model.rowCount() == 19)
    assert not ro.actionMarkRead.isEnabled() and ro.editors.notesEditor.isReadOnly()
    ro.mark("read")
    assert ro.library.counts()["read"] == 0
    assert "read-only" in ro.windowTitle()
    ro.close()
    ro.runner.wait()
    ro.library.close()


def test_smoke_test_and_second_start(tmp_path):
    dd = tmp_path / "smoke"
    env_run = [sys.executable, "-m", "readinglist", "--data-dir", str(dd), "--smoke-test"]
    r = subprocess.run(env_run, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "painted with 19 papers" in r.stderr
    # a second start while another process holds the library opens read-only instead of corrupting it
    from PySide6.QtCore import QLockFile

    lock = QLockFile(str(dd / "readinglist.lock"))
    assert lock.tryLock(100)
    try:
        r = subprocess.run(env_run, capture_output=True, text=True, timeout=120)
    finally:
        lock.unlock()
    assert r.returncode == 0, r.stderr
    assert "painted with 19 papers" in r.stderr


def test_null_qvariants_cannot_exhaust_none(window):
    """PySide6 6.12 on Python 3.11 drops a reference to None per null QVariant returned to Python; the
    window must survive a long session of them (this loop alone used to be a third of the way to a crash)."""
    from PySide6.QtCore import QModelIndex

    before = sys.getrefcount(None)
    for _ in range(20000):
        QModelIndex().data()
    assert sys.getrefcount(None) > 1 << 20 or sys.version_info >= (3, 12)
    assert sys.getrefcount(None) >= before - 20000


def test_second_start_raises_the_first_even_right_after_it_started(tmp_path):
    """The first window opens its door (a local socket) only after its first paint; a second start in
    that moment knocks until it answers instead of opening a read-only second window."""
    dd = tmp_path / "two"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    first = subprocess.Popen([sys.executable, "-m", "readinglist", "--data-dir", str(dd)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (dd / "readinglist.lock").exists():  # the first holds the library
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        second = subprocess.run([sys.executable, "-m", "readinglist", "--data-dir", str(dd)], env=env,
                                capture_output=True, text=True, timeout=120)  # fmt: skip
        assert second.returncode == 0, second.stderr
        assert "raised its window" in second.stderr
    finally:
        first.terminate()
        first.wait(30)


def renders(window):
    """The papers the detail pane renders from now on, one entry per render (QTextBrowser says textChanged
    once per setHtml), related papers arriving included."""
    rendered: list[int | None] = []
    window.detail.textChanged.connect(lambda: rendered.append(window.detail.paper_id))
    return rendered


def test_marking_renders_only_the_paper_shown_next(qtbot, window):
    window.table.view.setFocus()
    window.table.select_row(0)
    first, second = window.table.model.ids[0], window.table.model.ids[1]
    qtbot.waitUntil(lambda: window.detail.paper_id == first)
    rendered = renders(window)
    qtbot.keyClick(window.table.view, Qt.Key.Key_R)  # auto-advance: the read paper is left at once
    qtbot.waitUntil(lambda: window.detail.paper_id == second)
    qtbot.wait(50)
    assert rendered == [second]
    window.actionAutoAdvance.setChecked(False)
    rendered.clear()
    qtbot.keyClick(window.table.view, Qt.Key.Key_S)  # staying: the paper is shown again, as edited
    qtbot.waitUntil(lambda: rendered == [second])
    assert "skimmed" in window.library.paper(second).state
    assert "Skimmed" in window.detail.toPlainText()


def test_an_import_that_leaves_the_paper_shown_alone_does_not_render_it_again(qtbot, window, tmp_path):
    """After an import the paper shown is read again (a record may have merged into it); unchanged, its
    HTML is the same and the pane is not laid out anew in the paint that shows the new results."""
    pid = select_paper(qtbot, window, "BEXA")
    qtbot.waitUntil(lambda: "Related papers" in window.detail.toPlainText())  # nothing more on its way
    rendered = renders(window)
    (tmp_path / "w.json").write_text(json.dumps([{"title": "Wombat burrows", "abstract": "Wombats dig."}]))
    with qtbot.waitSignal(window.importFinished, timeout=60000):
        window.start_import([tmp_path / "w.json"])
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 20)
    qtbot.wait(100)  # the refresh is queued for the next turn of the loop
    assert rendered == [] and window.detail.paper_id == pid
    window.library.add_tags([pid], ["burrowing"])  # changed: rendered again, as it now is
    window.detail.refresh([pid])
    qtbot.waitUntil(lambda: rendered == [pid] and "burrowing" in window.detail.toPlainText())


def test_results_of_a_query_being_typed_render_the_abstract_once_typing_rests(qtbot, window):
    rendered = renders(window)
    window.detail.after_results_ms = 1500  # robust on a slow machine
    window.search_bar.field.setFocus()
    ids = window.table.model.ids[:6]
    for pid in ids:  # each query's results (its paper first, a different one each time) reach the table in turn
        phrase = " ".join(re.findall(r"\w+", window.library.paper(pid).title))
        text = f'title:"{phrase}"'
        window.search_bar.field.setText(text)
        qtbot.waitUntil(lambda t=text: (r := window.search_bar.last_result) is not None and r.query == t)
    assert window.search_bar.last_result.ids[0] == ids[-1]
    qtbot.waitUntil(lambda: window.detail.paper_id == ids[-1], timeout=5000)
    assert rendered == [ids[-1]]  # not one render per result while the query changes


def test_export_runs_off_the_ui_thread_and_reports_errors(qtbot, window, tmp_path, monkeypatch):
    import readinglist.export as exporting  # the window's exporter loads it on first use, from here

    real = exporting.export
    threads = []

    def slow_export(*args, **kwargs):
        threads.append(threading.get_ident())
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(exporting, "export", slow_export)
    ticks = []
    heartbeat = QTimer()
    heartbeat.setInterval(5)
    heartbeat.timeout.connect(lambda: ticks.append(1))
    heartbeat.start()
    assert export(qtbot, window, tmp_path / "all.md", ExportOptions(), "all") == 19
    heartbeat.stop()
    assert threads and threading.get_ident() not in threads
    assert len(ticks) > 5  # the event loop kept turning while the file was written
    assert "Exported 19 papers" in window.notice.text() and window.notice.action_text == "Open Folder"
    errors = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: errors.append(a[2]))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    missing = blocker / "list.md"
    got = export(qtbot, window, missing, ExportOptions(), "all")
    assert isinstance(got, OSError) and not missing.exists()
    assert errors and str(missing) in errors[0] and "Could not write" in errors[0]
    assert window.actionExport.isEnabled()  # one export at a time, and the next may start


def test_index_warm_up_errors_are_shown_in_the_status_bar(qtbot, data_dir, monkeypatch):
    def broken(self):
        raise RuntimeError("the index writer could not start")

    monkeypatch.setattr(Library, "prepare_background_indexing", broken)
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: "the index writer could not start" in w.notice.text(), timeout=10000)
    w.close()
    w.runner.wait()
    w.library.close()


def test_a_note_being_typed_is_saved_when_a_search_leaves_no_paper_current(qtbot, window):
    pid = select_paper(qtbot, window, "BEXA")
    window.editors.notesEditor.setFocus()
    qtbot.keyClicks(window.editors.notesEditor, "half a thought")
    search(qtbot, window, "zzzzqqq")  # within the autosave delay: no paper is current any more
    assert window.table.current_id is None and window.detail.paper_id is None
    assert window.library.paper(pid).note == "half a thought"
    assert window.editors.notesEditor.toPlainText() == "" and not window.editors.notesEditor.isEnabled()


def test_a_palette_change_recolours_the_detail_pane_and_the_read_papers(qtbot, window):
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    first = window.table.model.ids[0]
    window.table.view.setFocus()
    window.table.select_row(0)
    qtbot.keyClick(window.table.view, Qt.Key.Key_R)  # the first paper is read: drawn muted
    qtbot.keyClick(window.table.view, Qt.Key.Key_K)
    qtbot.waitUntil(lambda: "Related papers" in window.detail.toPlainText())  # nothing more is on its way
    old = QApplication.palette()
    changed = QPalette(old)
    changed.setColor(QPalette.ColorRole.PlaceholderText, Qt.GlobalColor.magenta)  # the paper's venue and state
    changed.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, Qt.GlobalColor.cyan)
    try:
        QApplication.setPalette(changed)
        qtbot.waitUntil(lambda: "#ff00ff" in window.detail.toHtml())
        assert window.detail.paper_id == first
        window.table.view.viewport().repaint()
        title = window.table.model.index(0, COLUMNS.index("title"))
        assert window.table.model.data(title, Qt.ItemDataRole.ForegroundRole).color() == Qt.GlobalColor.cyan
    finally:
        QApplication.setPalette(old)


def test_the_window_notices_changes_made_by_another_process(qtbot, window, data_dir, tmp_path):
    """A command-line edit shows within a second: the row, the counts, the tags, the paper shown; a note
    being typed stays as typed. An import elsewhere brings its papers into the results."""
    pid = select_paper(qtbot, window, "BEXA")
    other = Library.open(data_dir)  # another process's view of the library: its own connections
    try:
        saves = []
        window.editors.noteEdited.connect(lambda *args: saves.append(args))
        window.editors.notesEditor.setFocus()
        qtbot.keyClicks(window.editors.notesEditor, "typing, not saved yet")
        other.set_state([pid], "read")
        other.add_tags([pid], ["from-cli"])
        qtbot.waitUntil(lambda: window.statusLabel.text() == "19 papers · 19 shown · triaged 1 of 19", timeout=3000)
        qtbot.waitUntil(lambda: any(t.startswith("from-cli") for t in tag_labels(window)), timeout=3000)
        qtbot.waitUntil(lambda: "from-cli" in window.detail.toPlainText(), timeout=3000)
        row = window.table.model.row_of(pid)
        window.table.model.fill(row, row)
        assert window.table.model.item(row, 0).toolTip() == "Read"
        assert window.editors.notesEditor.toPlainText() == "typing, not saved yet"  # kept, as typed
        qtbot.waitUntil(lambda: bool(saves), timeout=3000)  # and saved by the autosave, not lost to the refresh
        assert (other.paper(pid) or Paper).note == "typing, not saved yet"  # type: ignore[union-attr]
        jsonl = tmp_path / "more.jsonl"
        jsonl.write_text('{"title": "An outside import", "abstract": "Arrived while the window was open."}\n')
        other.import_files([jsonl])
        qtbot.waitUntil(lambda: window.table.model.rowCount() == 20, timeout=3000)
        assert window.statusLabel.text().startswith("20 papers")
    finally:
        other.close()


def test_a_note_set_outside_while_the_reader_is_in_it_is_not_swapped_under_their_cursor(qtbot, window, data_dir):
    """The reader typed "my draft", it was saved; the command line set the note; the window put the command
    line's note in the field, the cursor at its start, and "123" typed next went before it: "my draft" was
    lost (a trial). Both are kept now, the reader's first, the cursor where it was, and the notice says so."""
    pid = select_paper(qtbot, window, "BEXA")
    other = Library.open(data_dir)
    try:
        editor = window.editors.notesEditor
        editor.setFocus()
        qtbot.keyClicks(editor, "my draft")
        qtbot.waitUntil(lambda: other.paper(pid).note == "my draft", timeout=3000)  # type: ignore[union-attr]
        other.set_note(pid, "set from CLI")
        with qtbot.waitSignal(window.editors.noteKeptBoth, timeout=5000):
            window.outside.look()
        kept = "my draft" + NOTE_SEPARATOR + "set from CLI"
        assert editor.toPlainText() == kept and other.paper(pid).note == kept  # type: ignore[union-attr]
        assert editor.textCursor().position() == len("my draft")
        qtbot.keyClicks(editor, "123")
        window.editors.save_note()
        assert other.paper(pid).note == "my draft123" + NOTE_SEPARATOR + "set from CLI"  # type: ignore[union-attr]
    finally:
        other.close()


def test_a_note_changed_by_another_process_while_typed_here_keeps_both(qtbot, window, data_dir):
    """The command line sets a note while the reader types one: the autosave keeps both (the reader's as
    typed, the other below a rule) and says so, instead of overwriting the command line's; one undo goes back
    to the command line's note, not past it."""
    pid = select_paper(qtbot, window, "BEXA")
    other = Library.open(data_dir)
    try:
        editor = window.editors.notesEditor
        editor.setFocus()
        qtbot.keyClicks(editor, "typed here")
        qtbot.waitUntil(lambda: other.paper(pid).note == "typed here", timeout=3000)  # type: ignore[union-attr]
        qtbot.keyClicks(editor, ", more")
        other.set_note(pid, "from the command line")
        with qtbot.waitSignal(window.editors.noteKeptBoth, timeout=3000):
            window.editors.save_note()
        kept = "typed here, more" + NOTE_SEPARATOR + "from the command line"
        assert other.paper(pid).note == kept  # type: ignore[union-attr]
        assert editor.toPlainText() == kept
        assert editor.textCursor().position() == len("typed here, more")  # the reader's cursor stays put
        assert "both versions are kept" in window.notice.text()
        window.actionUndo.trigger()
        assert other.paper(pid).note == "from the command line"  # type: ignore[union-attr]
        for _ in range(2):  # undo and redo repeated: the steps are taken back and done again, never merged anew
            window.actionUndo.trigger()  # "typed here" was replaced by the command line's: nothing to take back
            assert other.paper(pid).note == "from the command line"  # type: ignore[union-attr]
            window.actionRedo.trigger()
            window.actionRedo.trigger()
            assert other.paper(pid).note == kept  # type: ignore[union-attr]
            window.actionUndo.trigger()
    finally:
        other.close()


def test_a_tag_added_by_another_process_while_tags_are_typed_here_stays(qtbot, window, data_dir):
    """The tag field applies what the reader changed in it: a tag the command line gave the paper while the
    field was open is not taken away by Enter."""
    pid = select_paper(qtbot, window, "BEXA")
    other = Library.open(data_dir)
    try:
        window.editors.focus_tags()
        qtbot.keyClicks(window.editors.tagEditor, "gui-tag")
        other.add_tags([pid], ["cli-tag"])
        qtbot.waitUntil(lambda: "cli-tag" in window.detail.toPlainText(), timeout=3000)
        assert window.editors.tagEditor.text() == "gui-tag"  # the field being typed in is left alone
        qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
        assert sorted(window.library.paper(pid).tags) == ["cli-tag", "gui-tag"]  # type: ignore[union-attr]
        window.actionUndo.trigger()
        assert window.library.paper(pid).tags == ["cli-tag"]  # type: ignore[union-attr]
        window.editors.focus_tags()  # the field shows "cli-tag" (Esc: the paper's tags); the command line takes
        window.editors.revert_tags()  # it away meanwhile
        assert window.editors.tagEditor.text() == "cli-tag"
        qtbot.keyClicks(window.editors.tagEditor, ", more")
        other.remove_tags([pid], ["cli-tag"])
        qtbot.keyClick(window.editors.tagEditor, Qt.Key.Key_Return)
        assert window.library.paper(pid).tags == ["more"]  # type: ignore[union-attr]  # not put back
    finally:
        other.close()


def test_a_list_saved_from_the_command_line_appears_in_the_window(qtbot, window, data_dir):
    """A list saved, renamed or deleted from the command line showed in an open window only after a restart."""
    other = Library.open(data_dir)
    try:
        saved = other.add_smart_list("From the command line", "attention")
        window.outside.look()
        qtbot.waitUntil(lambda: [sl.name for sl in window.sidebar.lists] == ["From the command line"])
        other.update_smart_list(replace(saved, name="Renamed there"))
        window.outside.look()
        qtbot.waitUntil(lambda: [sl.name for sl in window.sidebar.lists] == ["Renamed there"])
        other.delete_smart_list(saved.id)
        window.outside.look()
        qtbot.waitUntil(lambda: window.sidebar.lists == [])
    finally:
        other.close()


def test_the_window_does_not_take_its_own_edits_for_outside_changes(qtbot, window):
    seen = []
    window.outside.papersChanged.connect(seen.append)
    window.outside.libraryChanged.connect(lambda: seen.append("all"))
    select_paper(qtbot, window, "BEXA")
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: window.statusLabel.text() == "19 papers · 19 shown · triaged 1 of 19")
    window.outside.look()
    assert seen == []


def test_a_huge_abstract_shows_its_start_and_show_all_renders_the_rest(qtbot, window, tmp_path):
    import json

    from readinglist.markup import DISPLAY_LIMIT

    words = " ".join(f"word{i}" for i in range(DISPLAY_LIMIT // 3))  # several times the display limit
    f = tmp_path / "huge.jsonl"
    f.write_text(json.dumps({"title": "A paper with a huge abstract", "abstract": words + " lastword"}) + "\n")
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.start_import([f])
    pid = select_paper(qtbot, window, "huge abstract")
    shown = window.detail.toPlainText()
    assert "Show all (" in shown and "lastword" not in shown and len(shown) < len(words)
    window.detail.anchorClicked.emit(QUrl(f"showall:{pid}"))  # what a click on the link emits
    qtbot.waitUntil(lambda: "lastword" in window.detail.toPlainText())
    assert "Show all (" not in window.detail.toPlainText()
    select_paper(qtbot, window, "BEXA")  # another paper, then back: cut again
    select_paper(qtbot, window, "huge abstract")
    assert "lastword" not in window.detail.toPlainText()


def test_the_file_menu_backs_up_and_restores_the_annotations(qtbot, window, tmp_path, monkeypatch):
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    texts = [a.text().replace("&", "") for a in file_menu.actions()]
    assert "Back Up Annotations…" in texts and "Restore Annotations…" in texts
    pid = select_paper(qtbot, window, "BEXA")
    window.library.set_note(pid, "a note worth keeping")
    window.library.add_tags([pid], ["backed-up"])
    saved = window.library.add_smart_list("Backed up", tag="backed-up")
    target = tmp_path / "mine.json.gz"
    monkeypatch.setattr("readinglist.ui.backups.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(window.backups.busy, check_params_cb=lambda busy: not busy, timeout=20000):
        window.actionBackup.trigger()
    assert target.exists() and "Backed up the annotations of 1 paper and 1 saved list" in window.notice.text()
    window.library.set_note(pid, "overwritten by mistake")
    window.library.set_tags({pid: []})
    window.library.delete_smart_list(saved.id)
    window.update_lists()
    with qtbot.waitSignal(window.backups.restored, timeout=20000) as got:
        window.backups.restore(target, overwrite=True)
    assert got.args[0].changed == 1 and "mine.json.gz" in window.notice.text()
    assert [sl.name for sl in window.sidebar.lists] == ["Backed up"]  # the sidebar shows the list restored
    paper = window.library.paper(pid)
    assert paper.note == "a note worth keeping" and paper.tags == ["backed-up"]
    qtbot.waitUntil(lambda: "backed-up" in window.detail.toPlainText())  # the paper shown follows
    monkeypatch.setattr("readinglist.ui.backups.QMessageBox.critical", lambda *a: errors.append(a[2]))
    errors: list[str] = []
    bad = tmp_path / "not-a-backup.json.gz"
    bad.write_bytes(b"\x1f\x8b garbage")
    with qtbot.waitSignal(window.backups.busy, check_params_cb=lambda busy: not busy, timeout=20000):
        window.backups.restore(bad)
    assert errors and "not-a-backup.json.gz" in errors[0]


def test_a_narrow_window_keeps_room_for_the_titles(qtbot, window):
    """At 900×600 the fixed-width columns left the title 26 px ("…"): now the other columns give way so the
    title keeps TITLE_ROOM of the table, and they get their widths back when the window widens — the widths
    saved with the layout are the reader's, not the squeezed ones."""
    from readinglist.ui.paper_table import TITLE_ROOM

    view = window.table.view
    header = view.horizontalHeader()
    venue = COLUMNS.index("venue")
    menu = view.column_menu()  # the Authors column shown too (the bundled papers have none: hidden at first)
    next(a for a in menu.actions() if a.objectName() == "column-authors").setChecked(True)
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: view.viewport().width() > 600)
    wide = header.sectionSize(venue)
    window.resize(700, 500)  # (at 900×600 the empty Authors column giving way was room enough)
    qtbot.waitUntil(lambda: header.sectionSize(TITLE) >= int(TITLE_ROOM * view.viewport().width()))
    assert header.sectionSize(venue) < wide
    assert header.sectionSize(COLUMNS.index("authors")) == header.minimumSectionSize()  # it gave way first
    state = view.header_state()  # what closing the window saves
    assert header.sectionSize(venue) < wide  # still squeezed on screen
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: header.sectionSize(venue) == wide)
    saved = QHeaderView(Qt.Orientation.Horizontal)  # the layout saved while squeezed, read back elsewhere
    saved.setModel(view.model())
    assert saved.restoreState(state) and saved.sectionSize(venue) == wide


def test_a_very_narrow_table_with_only_narrow_columns_shown_lays_out(qtbot, window):
    """Only columns already at or under SQUEEZED_MIN shown (nothing they can give up), in a table too narrow for
    them and the title's share: the layout leaves them as they are (it divided by zero, in a resize)."""
    view = window.table.view
    header = view.horizontalHeader()
    menu = view.column_menu()
    for action in menu.actions():
        if action.objectName() in ("column-venue", "column-year", "column-authors"):
            action.setChecked(False)
    priority = COLUMNS.index("priority")
    before = header.sectionSize(priority)
    view.resize(50, view.height())  # the table all but closed (its pane squeezed by the splitter)
    view.fit_title()  # as a resize calls it
    assert header.sectionSize(priority) == before


def test_notes_shown_rendered_stay_so_after_a_restart(qtbot, data_dir):
    """A trial: notes shown with Preview reopened as Markdown source after a restart."""
    w = open_window(qtbot, data_dir, 19)
    assert not w.editors.previewing
    w.editors.set_previewing(True)
    w.close()  # (its settings saved)
    w.runner.wait()
    w.library.close()
    w2 = open_window(qtbot, data_dir, 19)
    assert w2.editors.previewing
    w2.shutdown()


def highlighted_words(detail, line):
    """The words of the detail pane's block reading `line` that are shown highlighted (a background)."""
    block = detail.document().begin()
    while block.isValid() and block.text() != line:
        block = block.next()
    assert block.isValid(), f"no line {line!r} shown"
    found, it = [], block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        if fragment.charFormat().background().style() != Qt.BrushStyle.NoBrush:
            found.append(fragment.text())
        it += 1
    return found


def test_a_title_renamed_with_f2_shows_the_searchs_words_highlighted(qtbot, window):
    """A trial: after F2 gave a paper its own title, the detail pane showed it without the search's
    highlights (the abstract kept them): the reader's title was shown as plain text. Its words are highlighted
    as an imported title's are, and its markup stays as typed."""
    window.search_bar.field.setText("learning")
    qtbot.waitUntil(lambda: window.search_bar.idle and window.search_bar.last_result is not None, timeout=10000)
    window.table.view.setFocus()
    window.table.select_row(0)
    pid = window.table.current_id
    qtbot.waitUntil(lambda: window.detail.paper_id == pid)
    title = window.library.paper(pid).title
    qtbot.waitUntil(lambda: "learning" in [w.lower() for w in highlighted_words(window.detail, title)])
    qtbot.keyClick(window.table.view, Qt.Key.Key_F2)
    editor = window.table.view.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.setText("Learning <b>to</b> rank, by learning")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.library.paper(pid).user_title == "Learning <b>to</b> rank, by learning")
    renamed = "Learning <b>to</b> rank, by learning"
    qtbot.waitUntil(lambda: highlighted_words(window.detail, renamed) == ["Learning", "learning"])
