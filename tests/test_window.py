"""The window a researcher expects (issue 14): keys that never misfire, the columns and menus people look for,
Back and Forward, help, feedback without modal boxes, undo that shows what it changed. Keys are typed into
the widget that has the focus, as a user types them."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from conftest import open_window
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent, QHelpEvent, QPalette, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QMessageBox, QToolTip

from readinglist.app import create_main_window
from readinglist.export import ExportOptions
from readinglist.ui import history as history_module
from readinglist.ui import menus
from readinglist.ui.dialogs import ImportDetails
from readinglist.ui.help import HelpWindow
from readinglist.ui.paper_model import COLUMNS
from readinglist.ui.wording import quoted

TITLE, AUTHORS, ADDED = COLUMNS.index("title"), COLUMNS.index("authors"), COLUMNS.index("added")


@pytest.fixture(autouse=True)
def _short_rest(monkeypatch):
    monkeypatch.setattr(history_module, "REST_MS", 150)  # Back/Forward record a place once the reader rests


def close(w):
    w.close()
    w.runner.wait()
    w.library.close()


def type_keys(qtbot, text):
    """Each key to whichever widget has the focus when it is pressed."""
    for ch in text:
        qtbot.keyClick(QApplication.focusWidget(), ch)


def wait_search(qtbot, w):
    qtbot.waitUntil(lambda: w.search_bar.idle and w.search_bar.last_result is not None, timeout=10000)


def in_table(qtbot, w, row=0):
    w.table.view.setFocus()
    w.table.select_row(row)
    qtbot.waitUntil(lambda: w.table.view.hasFocus() and w.detail.paper_id == w.table.current_id)
    return w.table.current_id


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# ---- 1. keys ------------------------------------------------------------------------------------------


def test_esc_puts_the_cursor_in_the_search_so_typing_is_a_query_not_a_key(qtbot, window):
    window.search_bar.field.setFocus()
    type_keys(qtbot, "diffusion")
    wait_search(qtbot, window)
    in_table(qtbot, window)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Escape)
    assert window.search_bar.field.hasFocus() and window.search_bar.text() == ""
    type_keys(qtbot, "venue:icml")
    assert window.search_bar.text() == "venue:icml"
    assert all(not p.note for p in window.library.papers(window.library.search("").ids))
    assert window.library.counts()["unread"] == 19


def test_typing_in_the_table_goes_to_the_search_field(qtbot, window):
    in_table(qtbot, window)
    type_keys(qtbot, "venue:icml")  # v is no shortcut: the search field takes it and what follows
    assert window.search_bar.field.hasFocus() and window.search_bar.text() == "venue:icml"
    assert window.library.counts()["unread"] == 19 and not window.editors.notesEditor.toPlainText()


def test_letter_keys_act_only_in_the_table_never_where_text_could_go(qtbot, window):
    in_table(qtbot, window)
    window.detail.setFocus()  # the abstract: text that can be selected, not typed
    qtbot.keyClick(window.detail, "r")
    assert window.library.counts()["read"] == 0
    pid = in_table(qtbot, window)
    qtbot.keyClick(window.table.view, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    type_keys(qtbot, "rsu jk")
    assert editor.text() == "rsu jk" and window.library.counts()["read"] == 0 and window.table.current_id == pid
    qtbot.keyClick(editor, Qt.Key.Key_Escape)  # the title editor takes its Esc: cancelled
    assert window.library.paper(pid).user_title is None
    qtbot.keyClick(window.table.view, "r")
    assert window.library.paper(pid).state == "read"


def test_t_tags_enter_r(qtbot, window):
    pid = in_table(qtbot, window)
    qtbot.keyClick(window.table.view, "t")
    assert window.editors.tagEditor.hasFocus()
    type_keys(qtbot, "to read, rl")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert window.table.view.hasFocus()  # Enter applied the tags and went back to the papers
    qtbot.keyClick(QApplication.focusWidget(), "r")
    p = window.library.paper(pid)
    assert p.tags == ["rl", "to read"] and p.state == "read"
    assert window.table.current_id != pid  # and moved on


def test_esc_in_the_tag_editor_puts_back_the_papers_tags(qtbot, window):
    pid = in_table(qtbot, window)
    window.library.add_tags([pid], ["kept"])
    window.detail.refresh([pid])
    qtbot.waitUntil(lambda: window.editors.tagEditor.text() == "kept")
    qtbot.keyClick(window.table.view, "t")
    type_keys(qtbot, ", never applied")
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    assert window.table.view.hasFocus() and window.editors.tagEditor.text() == "kept"
    assert window.library.paper(pid).tags == ["kept"]


def test_an_action_on_several_papers_says_what_it_did_with_undo_one_click_away(qtbot, window):
    in_table(qtbot, window)
    qtbot.keyClick(window.table.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.table.view, "r")
    assert window.library.counts()["read"] == 19
    assert window.notice.text() == "Marked 19 papers read." and window.notice.action_text == "Undo"
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    assert window.library.counts()["read"] == 0
    assert window.notice.text() == "Undone: Marked 19 papers read." and window.notice.action_text == "Redo"
    one = in_table(qtbot, window, 3)
    qtbot.keyClick(window.table.view, "s")  # one paper: the row says it, no notice
    assert window.library.paper(one).state == "skimmed" and window.notice.text() == ""
    title = window.library.paper(one).title
    in_table(qtbot, window, 5)
    window.actionUndo.trigger()  # Ctrl+Z says what it undid, and of which paper (it may not be the one shown)
    assert window.library.paper(one).state == "unread" and window.table.current_id == one
    shown = title if len(title) <= 60 else title[:59].rstrip() + "…"
    assert (
        window.notice.text() == f"Undone: Marked 1 paper skimmed — “{shown}”." and window.notice.action_text == "Redo"
    )
    window.actionRedo.trigger()
    assert window.notice.text().startswith("Redone: Marked 1 paper skimmed") and window.notice.action_text == "Undo"
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    assert window.library.paper(one).state == "unread" and window.notice.text().startswith("Undone: ")


# ---- 2. columns, sorting ------------------------------------------------------------------------------

AUTHORS_8 = ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
             "Łukasz Kaiser", "Illia Polosukhin"]  # fmt: skip
SORT_TITLES = ["Zebra finches sortcheck", "“Quoted” sortcheck", "Σ-delta sortcheck", "θ-VAE sortcheck",
               "ℓ1 norms sortcheck", "Attention sortcheck"]  # fmt: skip


def test_authors_and_added_columns_a_header_menu_and_the_choice_kept(qtbot, data_dir, tmp_path):
    w = open_window(qtbot, data_dir, 19)
    header = w.table.view.horizontalHeader()
    assert header.isSectionHidden(AUTHORS)  # the bundled corpus names no authors: no empty column
    f = write_jsonl(tmp_path / "a.jsonl", [{"title": "Attention is all you need", "abstract": "Transformers.",
                                            "authors": AUTHORS_8}])  # fmt: skip
    with qtbot.waitSignal(w.importFinished, timeout=20000):
        w.start_import([f])
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 20)
    assert not header.isSectionHidden(AUTHORS) and header.isSectionHidden(ADDED)
    w.table.view.viewport().repaint()
    row = w.table.model.row_of(w.library.search('"all you need"').ids[0])
    assert w.table.model.data(w.table.model.index(row, AUTHORS)) == "Vaswani, Shazeer, … (8)"
    menu = w.table.view.column_menu()
    assert [a.text() for a in menu.actions()] == ["Reading State", "Priority", "Authors", "Venue", "Year", "Tags",
                                                "Added"]  # fmt: skip
    next(a for a in menu.actions() if a.text() == "Added").trigger()
    assert not header.isSectionHidden(ADDED)
    assert w.table.model.data(w.table.model.index(row, ADDED)) == time.strftime("%Y-%m-%d")
    header.resizeSection(AUTHORS, 123)
    close(w)
    w2 = open_window(qtbot, data_dir, 20)
    header2 = w2.table.view.horizontalHeader()
    w2.resize(1600, 1000)  # wide enough that no column gives way to the title (PaperTableView.fit_title)
    qtbot.waitUntil(lambda: header2.sectionSize(AUTHORS) == 123)
    assert not header2.isSectionHidden(ADDED)
    assert not header2.isSectionHidden(TITLE)
    close(w2)


def test_the_title_takes_the_width_the_other_columns_leave(qtbot, window):
    header = window.table.view.horizontalHeader()
    visible = [c for c in range(len(COLUMNS)) if not header.isSectionHidden(c)]
    others = sum(header.sectionSize(c) for c in visible if c != TITLE)
    assert header.sectionSize(TITLE) == window.table.view.viewport().width() - others
    assert header.sectionSize(TITLE) > others
    header.resizeSection(COLUMNS.index("venue"), header.sectionSize(COLUMNS.index("venue")) - 20)
    assert header.sectionSize(TITLE) == window.table.view.viewport().width() - others + 20


def tooltip_at(qtbot, w, row, column):
    view = w.table.view
    view.viewport().repaint()
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible())
    rect = view.visualRect(w.table.model.index(row, column))
    pos = rect.center()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_a_cut_off_cell_shows_all_of_it_as_a_tooltip_and_a_whole_one_none(qtbot, window):
    header = window.table.view.horizontalHeader()
    window.mainSplitter.setSizes([150, 250, 800])  # a narrow table: the titles are cut
    model = window.table.model
    row = max(range(19), key=lambda r: len(window.library.rows([model.id_at(r)])[model.id_at(r)].title))
    title = window.library.paper(model.id_at(row)).title
    assert header.sectionSize(TITLE) < window.table.view.fontMetrics().horizontalAdvance(title)
    assert tooltip_at(qtbot, window, row, TITLE).replace("\n", " ") == title
    assert tooltip_at(qtbot, window, row, COLUMNS.index("year")) == ""  # "2026" is all there


def _found(qtbot, window, tmp_path, rows: list[dict]) -> None:
    """The six papers `rows` make imported, and listed by the word they share ("sortcheck")."""
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.start_import([write_jsonl(tmp_path / "s.jsonl", rows)])
    window.search_bar.field.setFocus()
    type_keys(qtbot, "sortcheck")
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 6 and window.search_bar.idle)


def _sorted_by(qtbot, window, column: int) -> list[str]:
    """The column as the table shows it once its header is clicked."""
    header = window.table.view.horizontalHeader()
    pos = QPoint(header.sectionViewportPosition(column) + 10, header.height() // 2)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    window.table.view.viewport().repaint()
    return [window.table.model.data(window.table.model.index(r, column)) for r in range(6)]


def test_titles_starting_with_quotes_greek_or_script_letters_sort_among_the_letters(qtbot, window, tmp_path):
    _found(qtbot, window, tmp_path, [{"title": t, "abstract": "sortcheck"} for t in SORT_TITLES])
    assert _sorted_by(qtbot, window, TITLE) == [
        "Attention sortcheck", "ℓ1 norms sortcheck", "“Quoted” sortcheck", "Σ-delta sortcheck", "θ-VAE sortcheck",
        "Zebra finches sortcheck",
    ]  # fmt: skip


def test_authors_with_letters_that_do_not_decompose_sort_as_a_reader_types_them(qtbot, window, tmp_path):
    # "Høgsgaard" came after "Hz", "Łukasz" after "Zhang": NFKD leaves ø and ł whole
    names = ["Wei Hz", "Sam Huang", "Ida Høgsgaard", "Eva Hofmann", "Łukasz Zabel", "Zoe Zhang"]
    _found(
        qtbot, window, tmp_path, [{"title": f"{n} sortcheck", "abstract": "sortcheck", "authors": [n]} for n in names]
    )
    assert _sorted_by(qtbot, window, AUTHORS) == ["Hofmann", "Høgsgaard", "Huang", "Hz", "Zabel", "Zhang"]
    assert _sorted_by(qtbot, window, TITLE) == [
        f"{n} sortcheck" for n in ["Eva Hofmann", "Ida Høgsgaard", "Łukasz Zabel", "Sam Huang", "Wei Hz", "Zoe Zhang"]
    ]


# ---- 3. the papers' context menu, removal ----------------------------------------------------------------


def test_the_context_menu_marks_tags_opens_copies_and_removes(qtbot, window, monkeypatch):
    pid = in_table(qtbot, window)
    menu = menus.paper_menu(window)
    texts = [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]
    assert texts == ["Mark Unread", "Mark Queued", "Mark Skimmed", "Mark Read", "Mark Skipped", "Priority",
                     "Edit Tags", "Open Link", "Copy Citation", "Copy BibTeX", "Copy ID",
                     "Remove from Library"]  # fmt: skip
    menu.close()
    window.actionCopyId.trigger()
    assert QApplication.clipboard().text() == window.library.paper(pid).uid
    window.actionCopyBibtex.trigger()
    bib = QApplication.clipboard().text()
    # (a bundled paper's title is derived: a comment before the entry says so, which BibTeX reads past)
    assert bib.startswith(("@inproceedings{", "% The source had no title")) and "@inproceedings{" in bib
    assert "booktitle = {ICML}" in bib and "readstatus" not in bib
    window.actionCopyCitation.trigger()
    title = window.library.paper(pid).title  # no authors: the title first, then the year (APA 7)
    assert QApplication.clipboard().text().startswith(f"[{title}]. (2026). ")  # a derived title, as APA describes
    opened = []
    monkeypatch.setattr(
        "readinglist.ui.paper_actions.QDesktopServices.openUrl", lambda url: opened.append(url.toString())
    )
    linked = window.library.search('"partially relevant video retrieval"').ids[0]
    in_table(qtbot, window, window.table.model.row_of(linked))
    qtbot.keyClick(window.table.view, "o")
    assert opened == ["https://github.com/lijun2005/ICML26-Holmes"]


def test_remove_from_the_library_is_undoable_and_keeps_the_annotations(qtbot, window):
    pid = in_table(qtbot, window, 2)
    window.library.add_tags([pid], ["keep"])
    window.library.set_note(pid, "a thought")
    title = window.library.paper(pid).title
    after = window.table.model.id_at(3)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Delete)
    assert window.table.model.row_of(pid) is None and window.table.current_id == after
    assert window.statusLabel.text().startswith("18 papers")
    # the paper is named (a trial: which one went?)
    assert window.notice.text() == f"Removed 1 paper from the library — {quoted(title, 60)}."
    assert window.notice.action_text == "Undo"
    assert window.library.search("tag:keep").ids == []
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.table.current_id == pid, timeout=10000)  # back, and selected
    p = window.library.paper(pid)
    assert (p.tags, p.note) == (["keep"], "a thought") and window.statusLabel.text().startswith("19 papers")


# ---- 4. Back and Forward ------------------------------------------------------------------------------


def test_following_a_related_paper_keeps_the_search_and_is_one_back_away(qtbot, window):
    window.search_bar.field.setFocus()
    type_keys(qtbot, "exit")
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 1 and window.search_bar.idle)
    bexa = window.table.current_id
    in_table(qtbot, window)
    qtbot.wait(300)  # rested on it
    other = next(i for i in window.library.search("").ids if i != bexa)
    window.detail.anchorClicked.emit(
        QUrl(f"paper:{window.library.store.uids([other])[other]}")
    )  # what a click on a related paper emits
    qtbot.waitUntil(lambda: window.detail.paper_id == other)
    assert window.search_bar.text() == "exit" and window.table.model.rowCount() == 1
    assert "Not among the papers listed" in window.detail.toPlainText()
    qtbot.keyClick(window.table.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.detail.paper_id == bexa and window.table.current_id == bexa)
    assert window.actionForward.isEnabled()
    qtbot.mouseClick(window.table.view.viewport(), Qt.MouseButton.ForwardButton)
    qtbot.waitUntil(lambda: window.detail.paper_id == other)


def test_back_and_forward_over_queries(qtbot, window):
    window.search_bar.field.setFocus()
    type_keys(qtbot, "diffusion")
    wait_search(qtbot, window)
    first = in_table(qtbot, window, 1)
    qtbot.wait(300)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Escape)
    type_keys(qtbot, "learning")
    wait_search(qtbot, window)
    second = in_table(qtbot, window, 2)
    qtbot.wait(300)
    qtbot.mouseClick(window.table.view.viewport(), Qt.MouseButton.BackButton)
    qtbot.waitUntil(lambda: window.search_bar.text() == "diffusion" and window.table.current_id == first)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.search_bar.text() == "learning" and window.table.current_id == second)
    assert not window.actionForward.isEnabled()


# ---- 5. Help and View ---------------------------------------------------------------------------------


def test_help_menu_shows_the_keys_the_search_syntax_and_about(qtbot, window):
    window.actionShortcuts.trigger()
    keys = window.findChild(HelpWindow, "shortcutsWindow")
    assert keys.isVisible()
    text = keys.browser.toPlainText()
    assert "Mark Read (in the list)" in text and "Alt+Left" in text and "Remove from Library" in text
    assert "\nr\tMark Read" in text or "r Mark Read" in text.replace("\t", " ").replace("\n", " ")  # not "R"
    assert "R Mark Read" not in text.replace("\t", " ").replace("\n", " ")
    window.actionSearchSyntax.trigger()
    syntax = window.findChild(HelpWindow, "searchSyntaxWindow").browser.toPlainText()
    assert "year:2020..2024" in syntax and "state:unread" in syntax
    window.actionAbout.trigger()
    about = window.findChild(HelpWindow, "aboutWindow").browser.toPlainText()
    assert "readinglist 0." in about and str(window.library.data_dir) in about and "MIT" in about


def test_light_dark_or_the_system_is_chosen_in_the_view_menu_and_kept(qtbot, data_dir):
    from readinglist.ui import theme

    app = QApplication.instance()
    old_palette, old_style = app.palette(), app.style().name()
    w = open_window(qtbot, data_dir, 19)
    try:
        link = w.search_bar.suggestion  # the Did-you-mean link: its colour came from the palette it was made in
        w.scheme_actions["dark"].trigger()
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 80
        assert w.settings.value("colorScheme") == "dark"
        assert link.palette().color(link.foregroundRole()).lightness() > 150  # light blue on dark, not #0000ff
        w.scheme_actions["light"].trigger()
        assert app.palette().color(QPalette.ColorRole.Window).lightness() > 180
        close(w)
        s = QSettings(str(data_dir / "settings.ini"), QSettings.Format.IniFormat)
        assert s.value("colorScheme") == "light"
        w = open_window(qtbot, data_dir, 19)
        assert w.scheme_actions["light"].isChecked()
    finally:
        theme._chosen = "system"
        app.setStyle(old_style)
        app.setPalette(old_palette)
        close(w)


# ---- 6. feedback --------------------------------------------------------------------------------------


def test_the_empty_hint_shows_whenever_nothing_matches_even_a_query_restored_at_start(qtbot, data_dir):
    w = open_window(qtbot, data_dir, 19)
    w.search_bar.set_text("colour:red")
    qtbot.waitUntil(lambda: w.search_bar.error.isVisible())
    close(w)
    w = create_main_window(data_dir)  # reopened: its first search cannot be read, and nothing is listed
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.search_bar.error.isVisible(), timeout=10000)
    label = w.table.view.emptyLabel
    assert w.table.model.rowCount() == 0 and label.isVisible() and "cannot be searched" in label.text()
    w.search_bar.set_text("zzzzqqq")
    qtbot.waitUntil(lambda: "No papers match “zzzzqqq”" in label.text() and w.search_bar.idle)
    assert label.isVisible()
    close(w)


def test_the_query_hint_is_about_the_text_in_the_field_and_nothing_moves(qtbot, window):
    top = window.mainSplitter.geometry().top()
    window.search_bar.field.setFocus()
    type_keys(qtbot, "colour:red")
    qtbot.waitUntil(lambda: window.search_bar.error.isVisible() and window.search_bar.idle)
    assert "colour" in window.search_bar.error.text()
    assert window.mainSplitter.geometry().top() == top  # the hint's line was there before it
    qtbot.keyClick(window.search_bar.field, Qt.Key.Key_Backspace)
    assert not window.search_bar.error.isVisible()  # about other text now: gone until its own search says
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert window.search_bar.error.isVisible() and window.search_bar.error.toolTip().count("colour")
    window.search_bar.field.clear()
    type_keys(qtbot, "diffusion")
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert not window.search_bar.error.isVisible() and window.mainSplitter.geometry().top() == top


def test_an_export_reports_in_the_status_bar_with_open_folder_and_progress_when_large(
    qtbot, window, tmp_path, monkeypatch
):
    from readinglist.ui import exporting

    monkeypatch.setattr(QMessageBox, "exec", lambda *a: pytest.fail("a modal box after an export"))
    monkeypatch.setattr(exporting.Exporter, "LARGE", 5)
    monkeypatch.setattr(exporting.Exporter, "CHUNK", 4)
    seen = []
    window.exporter.progressed.connect(
        lambda done, total: seen.append((window.notice.text(), window.notice.progress.isVisible()))
    )
    opened = []
    monkeypatch.setattr(exporting.QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()))
    with qtbot.waitSignal(window.exportFinished, timeout=20000):
        window.export_to(tmp_path / "all.md", ExportOptions(), "all")
    assert ("Exporting 19 papers…", True) in seen
    assert window.notice.text() == f"Exported 19 papers to {tmp_path / 'all.md'}"
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    assert opened == [str(tmp_path)]


def test_the_export_dialog_says_how_many_papers_each_choice_holds(qtbot, window, monkeypatch):
    from readinglist.ui import exporting

    offered: list[list[str]] = []

    def look(dialog) -> int:
        offered.append([dialog.scopeBox.itemText(i) for i in range(dialog.scopeBox.count())])
        return 0  # cancelled

    monkeypatch.setattr(exporting.ExportDialog, "exec", look)
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.field.setText("learning")
    qtbot.waitUntil(lambda: window.search_bar.idle)
    shown = window.table.model.rowCount()
    assert 2 < shown < 19
    window.table.select_ids(window.table.model.ids[:2])
    window.export_dialog()
    window.table.select_ids(window.table.model.ids[:1])
    window.export_dialog()
    assert offered == [
        [f"Current results ({shown} papers)", "Selected papers (2 papers)", "All papers (19 papers)"],
        [f"Current results ({shown} papers)", "Selected papers (1 paper)", "All papers (19 papers)"],
    ]


def test_an_export_is_named_after_the_list_or_tag_shown(qtbot, window, monkeypatch):
    from readinglist.ui import exporting
    from readinglist.ui.exporting import file_stem

    proposed: list[str] = []
    monkeypatch.setattr(exporting.ExportDialog, "exec", lambda dialog: 1)
    monkeypatch.setattr(exporting.QFileDialog, "getSaveFileName", lambda *a: (proposed.append(a[2]), "", "")[1:])
    window.library.add_tags(window.library.search("").ids[:2], ["Must Read"])
    window.update_counts()
    window.export_dialog()
    from test_ui import click_sidebar

    with qtbot.waitSignal(window.searchFinished):
        click_sidebar(qtbot, window, ("tag", "Must Read"))
    window.export_dialog()
    monkeypatch.setattr(exporting.ExportDialog, "scope", lambda dialog: "all")  # every paper: not the tag's name
    window.export_dialog()
    assert [Path(p).stem for p in proposed] == ["reading-list", "must-read", "reading-list"]
    assert file_stem("Hinton must-reads") == "hinton-must-reads"
    assert file_stem("RL / Écoles") == "rl-écoles" and file_stem("") == file_stem("???") == "reading-list"


def test_ctrl_e_exports_from_the_search_field_and_its_editing_keys_stay_its_own(qtbot, window, monkeypatch):
    """After an export the keyboard is back in the search field, where Ctrl+E did nothing (Qt's line edit
    took it as End on Linux) and what was typed next became a query (a trial). The offscreen platform binds
    no Ctrl+E in a line edit, so this passes there without the fix too: it failed under Xvfb (xcb), by hand."""
    from readinglist.ui import exporting

    asked: list[int] = []
    monkeypatch.setattr(exporting.ExportDialog, "exec", lambda dialog: asked.append(1) and 0)
    field = window.search_bar.field
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    qtbot.keyClick(field, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == [1]
    field.setText("early exit")
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # select all: the field's own
    assert field.selectedText() == "early exit"


def test_an_export_takes_the_format_the_file_name_asks_for(qtbot, window, monkeypatch, tmp_path):
    """RIS chosen (the dialog remembers the last format) and "list.csv" typed wrote RIS into list.csv (a
    trial): the extension's format is written; one two formats share keeps the one chosen of them."""
    from readinglist.ui import exporting

    monkeypatch.setattr(exporting.ExportDialog, "exec", lambda dialog: 1)
    monkeypatch.setattr(exporting.ExportDialog, "options", lambda dialog: ExportOptions(format="ris"))
    monkeypatch.setattr(exporting.ExportDialog, "scope", lambda dialog: "all")
    target = tmp_path / "list.csv"
    monkeypatch.setattr(exporting.QFileDialog, "getSaveFileName", lambda *a: (str(target), ""))
    with qtbot.waitSignal(window.exportFinished, timeout=20000):
        window.export_dialog()
    assert target.read_text(encoding="utf-8-sig").startswith("id,citation_key,title,authors")
    kept = exporting.format_of_name(Path("refs.bib"), ExportOptions(format="biblatex"))
    assert kept.format == "biblatex"  # .bib is BibLaTeX's too
    assert exporting.format_of_name(Path("refs.txt"), ExportOptions(format="ris")).format == "ris"


@pytest.mark.parametrize("mask", [0o022, 0o002])
def test_export_files_are_created_with_the_users_umask(qtbot, window, tmp_path, mask):
    old = os.umask(mask)
    try:
        with qtbot.waitSignal(window.exportFinished, timeout=20000):
            window.export_to(tmp_path / "list.csv", ExportOptions(format="csv"), "all")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "list.csv").stat().st_mode) == 0o666 & ~mask


def test_the_import_dialog_opens_where_the_last_import_came_from(qtbot, window, tmp_path, monkeypatch):
    folder = tmp_path / "downloads"
    folder.mkdir()
    f = write_jsonl(folder / "dropped.jsonl", [{"title": "Dropped", "abstract": "About drops."}])
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                      Qt.KeyboardModifier.NoModifier)  # fmt: skip
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.dropEvent(drop)
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a: (asked.append(a[2]), ([], ""))[1])
    window.import_dialog()
    assert asked == [str(folder)]


def test_every_skipped_record_says_why_in_the_summary_and_the_details(qtbot, window, tmp_path):
    f = tmp_path / "weird.json"
    f.write_text(json.dumps([{"title": "Fine", "abstract": "ok"}, {"abstract": "N/A"}, {"authors": ["Someone"]}]))
    with qtbot.waitSignal(window.importFinished, timeout=20000):
        window.start_import([f])
    text = window.notice.text()
    assert "weird.json: 1 added, 2 skipped" in text and "unchanged" not in text  # the counts that are not 0
    assert "its abstract is a placeholder (“N/A”): record 2" in text and "no title and no abstract: record 3" in text
    assert window.notice.action_text == "Details…"
    qtbot.mouseClick(window.notice.button, Qt.MouseButton.LeftButton)
    details = window.findChild(ImportDetails, "importDetails")
    assert details.isVisible() and "skipped record 3: no title and no abstract" in details.text.toPlainText()


# ---- 7. undo shows what it changed; math in the note ------------------------------------------------------


def test_undo_and_redo_select_and_show_the_paper_they_changed(qtbot, window):
    first = in_table(qtbot, window, 0)
    qtbot.keyClick(window.table.view, "r")  # and on to the next paper
    qtbot.keyClick(window.table.view, "j")
    assert window.table.current_id not in (None, first)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.table.current_id == first and window.detail.paper_id == first)
    assert window.library.paper(first).state == "unread"
    in_table(qtbot, window, 5)
    qtbot.keyClick(
        window.table.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(lambda: window.table.current_id == first and window.detail.paper_id == first)
    assert window.library.paper(first).state == "read"


def test_a_ctrl_click_that_lets_go_of_the_current_paper_shows_one_still_selected(qtbot, window):
    """The state buttons act on the selection: the detail pane shows a paper they act on, never one let go."""
    view = window.table.view
    first, second = window.table.model.ids[:2]
    window.table.select_ids([first, second])
    qtbot.waitUntil(lambda: window.detail.paper_id == first)
    row0 = view.visualRect(window.table.model.index(0, 2)).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, row0)
    assert window.table.selected_ids() == [second]
    qtbot.waitUntil(lambda: window.detail.paper_id == second and window.table.current_id == second)
    assert window.target_ids() == [second]


def previewed(qtbot, window, note: str):
    """The note typed into the first paper's note, then its Preview: the preview browser."""
    in_table(qtbot, window)
    window.editors.notesEditor.setFocus()
    type_keys(qtbot, note)
    window.editors.previewToggle.setChecked(True)
    return window.editors.notesPreview


def test_the_note_preview_renders_math_like_the_abstract(qtbot, window):
    text = previewed(qtbot, window, "margin $\\alpha$ and **bold**").toPlainText()
    assert "α" in text and "$" not in text and "**" not in text


def test_the_note_preview_sets_upright_what_the_formula_asks_upright(qtbot, window):
    """$\\mathrm{KL}$ is upright, as LaTeX sets it; the formula's variables stay italic."""
    doc = previewed(qtbot, window, "divergence $\\mathrm{KL}(q\\|p)$ with $\\mathbf{W}x$").document()
    assert "KL(q‖p)" in doc.toPlainText()

    def shown(word: str) -> QTextCharFormat:
        return doc.find(word, 0, QTextDocument.FindFlag.FindCaseSensitively).charFormat()

    italic = {word: shown(word).fontItalic() for word in ("KL", "q", "W", "x")}
    assert italic == {"KL": False, "q": True, "W": False, "x": True}
    assert shown("W").fontWeight() > shown("x").fontWeight()  # \\mathbf is bold


def test_with_preview_on_a_paper_without_a_note_shows_the_field_to_write_one(qtbot, window):
    """Preview stays on from paper to paper; on one without a note it showed a blank box that ignored typing."""
    editors = window.editors
    previewed(qtbot, window, "first *thoughts*")
    qtbot.waitUntil(lambda: window.library.paper(window.table.current_id).note == "first *thoughts*", timeout=5000)
    in_table(qtbot, window, row=1)
    assert editors.previewToggle.isChecked() and editors.notesStack.currentWidget() is editors.notesEditor
    editors.notesEditor.setFocus()
    type_keys(qtbot, "hello")
    second = window.table.current_id
    qtbot.waitUntil(lambda: window.library.paper(second).note == "hello", timeout=5000)  # saved, loaded again
    type_keys(qtbot, " world")  # the reader types on: the field stays (the preview took the keys)
    assert editors.notesEditor.toPlainText() == "hello world" and editors.notesEditor.hasFocus()
    in_table(qtbot, window, row=0)  # a paper with a note: its preview
    assert editors.notesStack.currentWidget() is editors.notesPreview
    assert "thoughts" in editors.notesPreview.toPlainText() and "*" not in editors.notesPreview.toPlainText()


def test_the_note_preview_makes_underscores_emphasis_not_underline(qtbot, window):
    """`_x_` is emphasis in CommonMark, on GitHub and in Obsidian; Qt's GitHub dialect underlined it."""
    preview = previewed(qtbot, window, "read _carefully_ and *twice*")
    html = preview.toHtml()
    assert "underline" not in html
    assert html.count("font-style:italic") == 2
    assert preview.toPlainText().startswith("read carefully")


def previewed_lines(qtbot, window, note: str):
    """`previewed` for a note of several lines (a typed newline is no key qtbot sends): pasted, then Preview."""
    in_table(qtbot, window)
    window.editors.notesEditor.setFocus()
    window.editors.notesEditor.setPlainText(note)
    window.editors.previewToggle.setChecked(True)
    return window.editors.notesPreview


def _blocks(document: QTextDocument) -> list:
    block, out = document.begin(), []
    while block.isValid():
        out.append(block)
        block = block.next()
    return out


def test_the_note_preview_centres_display_math_on_a_line_of_its_own(qtbot, window):
    """$$…$$ was drawn inline with the text around it (a user trial): it is a centred paragraph of its own,
    in a list item too (and still in the item); the rest of the note stays left, inline math inline."""
    note = "Energy\n$$E = mc^2$$\nand $\\alpha$ here.\n\n- item $$\\sum_i x_i$$ after\n- two"
    blocks = {b.text(): b for b in _blocks(previewed_lines(qtbot, window, note).document())}
    assert list(blocks) == ["Energy", "E = mc²", "and α here.", "item", "∑i xi", "after", "two"]  # no mark left
    centred = [text for text, b in blocks.items() if b.blockFormat().alignment() & Qt.AlignmentFlag.AlignHCenter]
    assert centred == ["E = mc²", "∑i xi"]
    assert blocks["∑i xi"].blockFormat().indent() == blocks["after"].blockFormat().indent() > 0  # in the item


def test_the_note_preview_sets_headings_a_size_or_two_below_a_page(qtbot, window):
    """A `#` heading took Qt's xx-large size, a line of its own for two words in the small pane (a trial): # and ##
    are one step up from the text, the others the text's size, all bold; the text around them is untouched."""
    from PySide6.QtGui import QFont, QTextFormat

    doc = previewed_lines(qtbot, window, "# Main idea\n\nplain text\n\n## Method\n\n### Detail\n").document()
    sizes = {}
    for block in _blocks(doc):
        fmt = block.begin().fragment().charFormat()
        sizes[block.text()] = (fmt.intProperty(QTextFormat.Property.FontSizeAdjustment), fmt.fontWeight())
    assert sizes["Main idea"] == (1, QFont.Weight.Bold) and sizes["Method"] == (1, QFont.Weight.Bold)
    assert sizes["Detail"] == (0, QFont.Weight.Bold)
    assert sizes["plain text"] == (0, QFont.Weight.Normal)


def test_the_note_preview_shows_code_in_a_fixed_pitch_font(qtbot, window):
    """Inline `code` and fenced blocks came out in the text's proportional font (a user trial): their text
    asks for a fixed-pitch font, and the family it names draws one here."""
    from PySide6.QtGui import QFont

    from readinglist.ui.note_preview import is_fixed_pitch

    doc = previewed_lines(qtbot, window, "call `foo(i)` now\n\n```\nfenced(W)\n```\n").document()
    code = {}
    for block in _blocks(doc):
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            code[fragment.text()] = fragment.charFormat()
            fragments += 1
    for text in ("foo(i)", "fenced(W)"):
        fmt = code[text]
        assert fmt.fontFixedPitch() and fmt.fontStyleHint() == QFont.StyleHint.TypeWriter, text
        assert is_fixed_pitch(fmt.font()), text
    assert not code["call "].fontFixedPitch()


def test_code_in_the_note_preview_is_fixed_pitch_where_the_monospace_alias_is_missing(tmp_path):
    """Qt names the platform's fixed font ("monospace"); a system without that alias (a bundle without its
    fontconfig setup, a minimal desktop) drew code in a proportional font. Run with a fontconfig that has the
    fonts but no alias: the code is fixed-pitch all the same."""
    import subprocess
    import sys

    fonts = Path("/usr/share/fonts")
    if not sys.platform.startswith("linux") or not fonts.is_dir():
        pytest.skip("fontconfig's system fonts are Linux's")
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{fonts}</dir><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>'
    )
    script = """
import sys
from PySide6.QtGui import QFontDatabase, QFontMetricsF, QTextDocument
from PySide6.QtWidgets import QApplication
app = QApplication([])
from readinglist.ui.note_preview import show_note
def is_fixed_pitch(font):
    metrics = QFontMetricsF(font)
    return abs(metrics.horizontalAdvance("iiii") - metrics.horizontalAdvance("WWWW")) < 0.5
doc = QTextDocument()
show_note(doc, "call `foo(i)` now")
fmt = doc.find("foo(i)").charFormat()
fixed_installed = any(QFontDatabase.isFixedPitch(f) for f in QFontDatabase.families())
system = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
print(is_fixed_pitch(system), fixed_installed, is_fixed_pitch(fmt.font()))
"""
    env = dict(os.environ, FONTCONFIG_FILE=str(conf), QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    system_fixed, fixed_installed, code_fixed = out.stdout.split()
    if system_fixed == "True" or fixed_installed == "False":
        pytest.skip("this system resolves the fixed font without the alias, or has no fixed-pitch font")
    assert code_fixed == "True"


def test_enter_in_the_tag_field_takes_the_completion_highlighted(qtbot, window):
    """ "vis", Down and Enter, with "vision" offered, is the tag "vision"; Enter on the list only takes the
    completion (the reader may type more tags); Enter again applies. (Enter with no row highlighted applies
    what was typed: test_tag_editor.)"""
    ids = window.library.search("").ids
    window.library.add_tags(ids[:2], ["vision"])
    window.editors.update_completions()
    pid = in_table(qtbot, window, row=5)
    field = window.editors.tagEditor
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    for key in "exits, vis":
        qtbot.keyClick(field, key)
    popup = window.editors.completer.popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not popup.isVisible())
    assert field.text() == "exits, vision" and field.hasFocus() and window.library.paper(pid).tags == []
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.library.paper(pid).tags == ["exits", "vision"])
    other = in_table(qtbot, window, row=6)
    qtbot.waitUntil(lambda: field.isEnabled() and window.detail.paper_id == other)
    window.activateWindow()  # the list was a window of its own: offscreen, the main one is not made active again
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    for key in "visual":  # a new tag: once no tag starts so, the list closes and Enter takes what is typed
        qtbot.keyClick(field, key)
    qtbot.waitUntil(lambda: not popup.isVisible())
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.library.paper(other).tags == ["visual"])


# ---- 8. results replacing results keep the current paper ----------------------------------------------


def slow_searches(monkeypatch, window, seconds=0.5):
    real = window.library.search

    def slow(text="", **kw):
        time.sleep(seconds)
        return real(text, **kw)

    monkeypatch.setattr(window.library, "search", slow)
    return real


@pytest.mark.parametrize("sorted_by_title", [False, True])
def test_a_paper_chosen_while_results_are_on_their_way_stays_chosen(qtbot, window, monkeypatch, sorted_by_title):
    if sorted_by_title:
        window.table.view.horizontalHeader().setSortIndicator(TITLE, Qt.SortOrder.AscendingOrder)
    real = slow_searches(monkeypatch, window)
    among = real("learning").ids
    window.search_bar.field.setFocus()
    type_keys(qtbot, "learning")
    qtbot.waitUntil(lambda: window.search_bar.searching)
    chosen = among[len(among) // 2]
    window.table.view.setFocus()
    window.table.go_to(chosen)  # in the instant before the results arrive
    qtbot.waitUntil(lambda: window.search_bar.idle and window.search_bar.last_result.query == "learning", timeout=10000)
    assert window.table.current_id == chosen and window.detail.current_id == chosen


def test_a_paper_chosen_while_going_back_wins_over_the_paper_back_there(qtbot, window, monkeypatch):
    window.search_bar.field.setFocus()
    type_keys(qtbot, "learning")
    wait_search(qtbot, window)
    there = in_table(qtbot, window, 0)
    qtbot.wait(300)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Escape)
    wait_search(qtbot, window)
    in_table(qtbot, window, 1)
    qtbot.wait(300)
    real = slow_searches(monkeypatch, window)
    chosen = next(i for i in real("learning").ids if i != there)
    qtbot.keyClick(window.table.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.search_bar.searching)
    window.table.go_to(chosen)  # the reader picks another paper before the results back there arrive
    qtbot.waitUntil(lambda: window.search_bar.idle and window.search_bar.text() == "learning", timeout=10000)
    qtbot.waitUntil(lambda: window.search_bar.last_result.query == "learning")
    assert window.table.current_id == chosen


def test_a_paper_chosen_while_the_library_is_on_its_way_wins_over_the_paper_asked_for(qtbot, window, monkeypatch):
    window.search_bar.field.setFocus()
    type_keys(qtbot, "exit")
    qtbot.waitUntil(lambda: window.table.model.rowCount() == 1 and window.search_bar.idle)
    bexa = window.table.current_id
    other = next(i for i in window.library.search("").ids if i != bexa)
    window.detail.anchorClicked.emit(
        QUrl(f"paper:{window.library.store.uids([other])[other]}")
    )  # a related paper the results lack
    qtbot.waitUntil(lambda: window.detail.paper_id == other)
    slow_searches(monkeypatch, window)
    window.detail.anchorClicked.emit(QUrl(f"library:{other}"))  # "Show it in the library": every paper, it current
    qtbot.waitUntil(lambda: window.search_bar.searching)
    window.table.view.setFocus()
    window.table.go_to(bexa)  # the reader picks a paper of the list still shown, before the library arrives
    qtbot.waitUntil(lambda: window.search_bar.idle and window.table.model.rowCount() == 19, timeout=10000)
    assert window.table.current_id == bexa


def test_the_window_says_when_its_warm_up_is_over(qtbot, data_dir):
    """The window benchmark waits for it: the warm-up's first ranking fell into the typing it measured."""
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    assert not w.warmed_up  # the warm-up starts a moment after the window is up
    qtbot.waitUntil(lambda: w.warmed_up, timeout=20000)
    qtbot.waitUntil(lambda: w.suggester.idle)
    assert w.suggester.reranks >= 1  # the first ranking was asked for, and made
    close(w)


def test_the_librarys_messages_show_in_the_window_from_any_thread(qtbot, window):
    """Library.notify went nowhere in the window: "Building the search index for 38,270 papers…" was never
    seen, and a search typed during the rebuild waited unexplained (a trial)."""
    import threading

    said = "Building the search index for 19 papers…"
    thread = threading.Thread(target=window.library.notify, args=(said,))
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: window.notice.text() == said)


def test_a_tag_merged_in_the_sidebar_keeps_the_targets_spelling_and_says_what_it_merged(qtbot, window):
    """Rename or Merge… of "the" typed "rl" while the library has "RL": the RL papers kept their spelling and
    the status bar says what was merged into what (one paper: no notice came)."""
    lib = window.library
    ids = lib.search("").ids[:4]
    lib.add_tags(ids[:3], ["RL"])
    lib.add_tags([ids[3]], ["the"])
    window.update_counts()
    window.sidebar.rename_tag("the", "rl")
    assert lib.tag_counts() == [("RL", 4)]
    assert window.notice.text() == "Merged tag “the” into “RL” (1 paper)." and window.notice.action_text == "Undo"
    window.actionUndo.trigger()
    assert lib.tag_counts() == [("RL", 3), ("the", 1)]


def test_clearing_the_search_keeps_the_paper_opened_current_and_in_sight(qtbot, window):
    """Search a title, click its paper (first, so current already), clear the field: the paper being read stayed
    current only if the click had moved the table; here the full list came back on its first paper."""
    from test_ui import search

    window.resize(900, 400)  # fewer rows in sight than the library has
    pid = window.table.model.ids[-1]  # the library's last paper: far from its first
    title = window.library.paper(pid).title
    search(qtbot, window, title)
    assert window.table.current_id == pid
    view = window.table.view
    rect = view.visualRect(view.model().index(0, 1))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.table.current_id == pid
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.search_bar.clear()
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert window.table.model.rowCount() == 19
    assert window.table.current_id == pid and window.detail.current_id == pid
    row = view.currentIndex().row()
    assert view.visualRect(view.model().index(row, 1)).intersects(view.viewport().rect())
