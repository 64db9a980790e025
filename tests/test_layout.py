"""The window at small and large sizes, with long names: text too long for its place is cut with "…" at a
sensible place, its whole in a tooltip, never clipped mid-letter; no control is squeezed below its size or
out of its pane, on the papers' tab or the map's (a user trial at 700×500: sidebar and topic names cut
mid-word, the detail pane's state buttons clipped)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from conftest import open_window
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QApplication

from readinglist.app import create_main_window
from readinglist.library import Library
from readinglist.papers import Topic
from readinglist.ui.fitting import elide, elide_counted, fit_words
from readinglist.ui.sidebar import Filter

LONG_TAG = "reinforcement-learning-for-robotic-manipulation-tasks"
UNBROKEN_TAG = "Hallucinationmitigationinlargelanguagemodelssurvey"  # no space nor hyphen to wrap at
LONG_LIST = "Papers to read before the deadline of the workshop submission"


@pytest.fixture
def long_names(data_dir):
    """The bundled papers, two of them tagged with long names, a list with a long name."""
    lib = Library.open(data_dir)
    ids = lib.search("").ids
    lib.add_tags(ids[:2], [LONG_TAG])
    lib.add_tags(ids[2:3], [UNBROKEN_TAG])
    lib.add_smart_list(LONG_LIST, state="unread")
    lib.close()
    return data_dir


@pytest.fixture
def small(qtbot, long_names):
    """The window at 700×500 on those papers."""
    w = open_window(qtbot, long_names, 19)
    w.resize(700, 500)
    qtbot.waitUntil(lambda: w.width() == 700 and w.sidebar.width() < 200)
    yield w
    w.runner.wait()
    w.library.close()


# ---- cutting text ----


def test_a_name_is_cut_at_a_words_end_where_that_keeps_most_of_it(qapp):
    fm = QFontMetrics(QApplication.font())
    name = "neural networks · pattern recognition"
    width = fm.horizontalAdvance("neural networks · patt…")
    assert elide(fm, name, width) == "neural networks…"  # not "neural networks · patt…"
    assert elide(fm, name, 1000) == name
    cut = elide(fm, LONG_TAG, fm.horizontalAdvance("reinforcement-learning-fo…"))
    assert cut == "reinforcement-learning…"
    one_word = elide(fm, UNBROKEN_TAG, 80)  # no word's end to cut at: cut where it must
    assert one_word.endswith("…") and fm.horizontalAdvance(one_word) <= 80 and len(one_word) > 5
    counts = elide(fm, "8,263 · 8,260 to triage", fm.horizontalAdvance("8,263 · 8,2…"))
    assert counts == "8,263…"  # never a number cut short: "8,2…" reads as another number


def test_a_count_stays_when_its_name_is_cut(qapp):
    fm = QFontMetrics(QApplication.font())
    assert elide_counted(fm, "short", "2", 500) == "short  (2)"
    shown = elide_counted(fm, LONG_TAG, "1,234", 150)
    assert shown.endswith("… (1,234)") and shown.startswith("reinforcement") and fm.horizontalAdvance(shown) <= 150


def test_a_caption_cuts_only_the_words_it_cannot_wrap(qapp):
    fm = QFontMetrics(QApplication.font())
    text = f"All · tag {UNBROKEN_TAG} · {LONG_TAG}"
    shown = fit_words(fm, text, 140)
    assert shown.startswith("All · tag Hallucination") and "… · " in shown
    assert shown.endswith(LONG_TAG)  # its hyphens wrap it: whole
    assert all(fm.horizontalAdvance(word) <= 140 for word in shown.split(" ")[:4])


# ---- the sidebar ----


def test_the_sidebars_long_names_are_cut_with_their_counts_kept_and_whole_in_their_tooltips(small):
    sidebar = small.sidebar
    sidebar.expandAll()
    lists = small.library.smart_lists()
    for key, name, count in ((("tag", LONG_TAG), LONG_TAG, "2"), (("tag", UNBROKEN_TAG), UNBROKEN_TAG, "1"),
                             (("list", str(lists[0].id)), LONG_LIST, None)):  # fmt: skip
        index = sidebar.entries.find(key)
        shown = sidebar.shown_text(key)
        assert "…" in shown and shown != index.data()  # cut …
        assert sidebar.fontMetrics().horizontalAdvance(shown) <= sidebar.visualRect(index).width()  # … to fit
        assert name in index.data(Qt.ItemDataRole.ToolTipRole)  # whole in its tooltip
        if count is not None:
            assert shown.endswith(f"… ({count})")  # the count kept (the view's own cut took it)
    assert sidebar.shown_text(("state", "read")) == "Read  (0)"  # what fits is whole


def test_a_list_renamed_shows_its_new_name_cut_and_whole_in_its_tooltip(qtbot, small):
    """A list keeps its row when renamed: the row was drawn, and its tooltip read, with its old name (the name
    the row is cut from was kept apart from its text, and only the text followed)."""
    sl = small.library.smart_lists()[0]
    key = ("list", str(sl.id))
    small.rename_list(sl.id, "Workshop reading before the camera-ready deadline")
    qtbot.waitUntil(lambda: small.library.smart_lists()[0].name.startswith("Workshop"))
    shown = small.sidebar.shown_text(key)
    assert shown.startswith("Workshop") and "…" in shown
    assert "Workshop reading before the camera-ready deadline" in small.sidebar.entries.find(key).data(
        Qt.ItemDataRole.ToolTipRole
    )
    small.actionUndo.trigger()  # and back
    qtbot.waitUntil(lambda: small.sidebar.shown_text(key).startswith("Papers to"))


def test_a_long_tag_picked_is_cut_in_the_caption_and_does_not_widen_the_sidebar(qtbot, small):
    narrowest = small.sidebarPane.minimumSizeHint().width()
    small.sidebar.set_filter(Filter(tag=UNBROKEN_TAG))
    caption = small.view_summary.caption
    qtbot.waitUntil(lambda: UNBROKEN_TAG in caption.full_text())
    qtbot.waitUntil(lambda: "…" in caption.text())
    # the tag's name was the caption's minimum: the sidebar widened, the editors were squeezed, their
    # state buttons clipped
    assert small.sidebarPane.minimumSizeHint().width() == narrowest
    width = caption.contentsRect().width()
    assert all(caption.fontMetrics().horizontalAdvance(word) <= width for word in caption.text().split(" "))
    assert UNBROKEN_TAG in caption.toolTip()
    assert_nothing_squeezed(qtbot, small)


def test_the_sidebar_keeps_the_width_it_was_widened_to(qtbot, long_names):
    w = open_window(qtbot, long_names, 19)
    w.resize(1600, 1000)
    sizes = w.mainSplitter.sizes()
    w.mainSplitter.setSizes([320, sizes[1] - 150, sizes[2]])
    qtbot.waitUntil(lambda: w.mainSplitter.sizes()[0] == 320)
    w.close()
    w.library.close()
    again = create_main_window(long_names)
    qtbot.addWidget(again)
    again.show()
    assert abs(again.mainSplitter.sizes()[0] - 320) <= 2  # (the splitter's rounding, restoring the window)
    again.close()
    again.runner.wait()
    again.library.close()


# ---- the topics ----


def test_a_long_topic_name_and_its_counts_are_cut_at_a_words_end(qtbot, small):
    long = Topic(7, ["neural networks", "pattern recognition", "associative memory"], 8263, {"unread": 8260})
    small.topics_section.set_topics([long])
    name, counts = small.topics_section.shown_lines(7)
    assert name.endswith("…") and name.rstrip("…") in ("neural networks", "neural networks · pattern recognition")
    assert counts in ("8,263 · 8,260 to triage", "8,263 · 8,260 to…", "8,263 · 8,260…", "8,263…")
    small.mainSplitter.setSizes([150, 400, 200])  # the sidebar at its narrowest
    qtbot.waitUntil(lambda: small.mainSplitter.sizes()[0] == 150)
    name, counts = small.topics_section.shown_lines(7)
    width = small.topics_section.visual_rect(7).width() - 8
    metrics = small.topics_section.list.fontMetrics()
    assert max(metrics.horizontalAdvance(name), metrics.horizontalAdvance(counts)) <= width  # not clipped
    assert counts in ("8,263 · 8,260 to triage", "8,263 · 8,260 to…", "8,263 · 8,260…", "8,263…")  # at a word's end
    model = small.topics_section.list.model()
    assert long.label in model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)


# ---- nothing squeezed ----


def squeezed(w) -> list[str]:
    """What is squeezed: a pane below its minimum, a button shown narrower than its label needs or out of its
    parent (none, once the layout has settled)."""
    found = []
    for pane in (w.leftSplitter, w.centerTabs, w.mainSplitter.widget(2), w.editors):
        if pane.width() < pane.minimumSizeHint().width() or pane.height() < pane.minimumSizeHint().height():
            found.append(f"{pane.objectName() or type(pane).__name__} {pane.size()} < {pane.minimumSizeHint()}")
    for button in w.findChildren(QAbstractButton):
        if not button.isVisibleTo(w) or button.isWindow() or button.objectName().startswith("qt_"):
            continue
        parent = button.parentWidget()
        if parent.objectName() == "qt_scrollarea_viewport" or parent.inherits("QAbstractScrollArea"):
            continue
        label = button.text() or button.objectName()
        if button.width() < button.sizeHint().width():  # cut ("Skimm", "Re...te")
            found.append(f"{label!r} {button.width()} < {button.sizeHint().width()}")
        if not parent.rect().contains(button.geometry()):  # out of its pane
            found.append(f"{label!r} at {button.geometry()} out of {parent.rect()}")
    return found


def assert_nothing_squeezed(qtbot, w):
    try:
        qtbot.waitUntil(lambda: not squeezed(w), timeout=3000)
    finally:
        assert squeezed(w) == []


@pytest.mark.parametrize("size", [(700, 500), (1600, 1000)])
@pytest.mark.parametrize("tab", [0, 1])
def test_nothing_is_clipped_at_a_small_or_a_large_window(qtbot, long_names, size, tab):
    w = open_window(qtbot, long_names, 19)
    w.show_tab(tab)
    w.resize(*size)
    qtbot.waitUntil(lambda: (w.width(), w.height()) == size)
    assert w.minimumSizeHint().width() <= size[0] and w.minimumSizeHint().height() <= size[1]
    assert_nothing_squeezed(qtbot, w)
    buttons = [b for b in w.editors.findChildren(QAbstractButton) if b.defaultAction() in w.mark_actions.values()]
    assert len(buttons) == 5
    for a, b in pairwise(buttons):
        assert not a.geometry().intersects(b.geometry())  # side by side, or on another row
    w.runner.wait()
    w.library.close()


def test_the_state_buttons_wrap_onto_a_second_row_where_the_pane_is_narrow(qtbot, small):
    small.mainSplitter.setSizes([150, 800, 1])  # the editors at their narrowest
    editors = small.editors
    qtbot.waitUntil(lambda: editors.markButtons.rows() > 1)
    assert editors.width() < sum(b.sizeHint().width() for b in editors.findChildren(QAbstractButton)[:5])
    assert_nothing_squeezed(qtbot, small)
    small.mainSplitter.setSizes([150, 200, 800])
    qtbot.waitUntil(lambda: editors.markButtons.rows() == 1)


def test_the_tables_column_headers_are_cut_with_an_ellipsis_and_named_in_their_tooltips(small):
    header = small.table.view.horizontalHeader()
    assert header.textElideMode() == Qt.TextElideMode.ElideRight  # "Au…", not "utho" (Qt cuts none by default)
    model = small.table.model
    for column in range(model.columnCount()):
        name = model.headerData(column, Qt.Orientation.Horizontal)
        tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert tip and name in tip  # its name whole, where the column is too narrow for it


# ---- the room given where it is used (a user trial at 700×500) ----


def _abstract_top(detail, paper) -> float:
    """Where the abstract starts in the detail pane, in the viewport's pixels."""
    doc = detail.document()
    cursor = doc.find(paper.plain_abstract[:30])
    assert not cursor.isNull()
    return doc.documentLayout().blockBoundingRect(cursor.block()).top() - detail.verticalScrollBar().value()


def test_a_long_title_is_set_smaller_in_a_small_detail_pane_and_the_abstract_starts_in_sight(qtbot, small):
    """At 700×500 a long title took five lines of large bold text, the abstract out of sight; in a roomy
    pane the title keeps the heading's own size."""
    w = small
    ids = w.library.search("").ids
    paper = max(w.library.papers(ids), key=lambda p: len(p.title))  # "Holmes: Hierarchical evidential …"
    assert w.table.go_to(paper.id)
    detail = w.detail
    qtbot.waitUntil(lambda: detail.paper_id == paper.id)
    assert detail.title_size != ""
    top = _abstract_top(detail, paper)
    assert top > 0 and top + detail.fontMetrics().height() <= detail.viewport().height()
    w.resize(1600, 1000)
    qtbot.waitUntil(lambda: detail.title_size == "")  # set again as the pane grows


def test_the_tag_field_has_the_row_and_the_priorities_go_under_it_in_a_narrow_pane(qtbot, small):
    """It was 65 px beside P1–P3 at 700×500, narrower than the buttons."""
    editors = small.editors
    field, priorities = editors.tagEditor, editors.priorityButtons
    qtbot.waitUntil(lambda: editors.tagRow.rows() == 2)
    assert field.width() >= 0.9 * editors.width() and priorities.geometry().top() > field.geometry().bottom()
    assert_nothing_squeezed(qtbot, small)
    small.resize(1600, 1000)
    qtbot.waitUntil(lambda: editors.tagRow.rows() == 1)  # room enough: beside it again
    assert field.width() > priorities.width() and priorities.geometry().left() > field.geometry().right()


def _show_column(w, name: str) -> None:
    menu = w.table.view.column_menu()
    action = next(a for a in menu.actions() if a.objectName() == f"column-{name}")
    action.setChecked(True)


def test_a_column_no_paper_shown_has_a_value_for_gives_its_room_to_the_title(qtbot, long_names):
    """The bundled papers name no authors: the Authors column, shown, took 170 px of the titles' room at
    1280 wide, and at 700×500 the titles had 95 px. It keeps its name's width (a sliver when squeezed) until
    a paper shown has a value; Tags, shown, widens once a paper shown is tagged."""
    from readinglist.ui.paper_model import COLUMNS

    w = open_window(qtbot, long_names, 19)
    try:
        w.resize(1280, 800)
        header = w.table.view.horizontalHeader()
        authors, venue, tags = (COLUMNS.index(n) for n in ("authors", "venue", "tags"))
        _show_column(w, "authors")
        _show_column(w, "tags")
        qtbot.waitUntil(lambda: not header.isSectionHidden(authors) and header.sectionSize(authors) > 0)
        assert header.sectionSize(authors) <= header.sectionSizeHint(authors) < 100
        assert header.sectionSize(venue) > 40  # "ICML": a column with values keeps its width
        untagged = [pid for pid in w.table.model.ids if not w.library.paper(pid).own_tags]
        w.library.set_tags({pid: [] for pid in w.library.search("").ids})  # (the fixture tagged three)
        w.table.refresh(w.table.model.ids)
        w.search_bar.run()
        qtbot.waitUntil(lambda: header.sectionSize(tags) <= header.sectionSizeHint(tags))
        title = header.sectionSize(2)
        w.library.add_tags(untagged[:1], ["rl"])
        w.table.refresh(untagged[:1])  # as after an edit: the tag is shown, the column widens
        qtbot.waitUntil(lambda: header.sectionSize(tags) > header.sectionSizeHint(tags))
        assert header.sectionSize(2) < title
        w.resize(700, 500)
        qtbot.waitUntil(lambda: header.sectionSize(authors) == header.minimumSectionSize())
    finally:
        w.runner.wait()
        w.library.close()


def test_the_library_says_which_columns_no_paper_among_some_has_a_value_for(long_names):
    lib = Library.open(long_names)
    try:
        ids = lib.search("").ids
        tagged = [pid for pid in ids if lib.paper(pid).own_tags]
        untagged = [pid for pid in ids if pid not in tagged]
        everything = ("authors", "venue", "year", "tags")
        assert lib.empty_columns(ids, everything) == {"authors"}  # the bundled papers name no authors
        assert lib.empty_columns(untagged, everything) == {"authors", "tags"}
        assert lib.empty_columns(untagged[:1], ["venue"]) == set()
        assert lib.empty_columns([], everything) == set(everything)
    finally:
        lib.close()


def test_a_status_message_too_long_for_the_bar_is_cut_at_a_words_end_whole_in_its_tooltip(qtbot, small):
    """At 700×500 "Nothing to learn from yet … mark a few papers read (r) …" was clipped mid-word ("ma")."""
    message = ("Nothing to learn from yet (library order meanwhile): mark a few papers read (r) or skipped (x), "
               "or set your interests.")  # fmt: skip
    notice = small.notice
    notice.show_message(message, 0, "My Interests…", lambda: None)
    label = notice.label
    qtbot.waitUntil(lambda: label.text().endswith("…") and len(label.text()) > 20)
    assert message.startswith(label.text()[:-1].rstrip()) and label.toolTip() == message
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert notice.text() == message and notice.button.isVisible()
    assert label.geometry().right() < notice.button.geometry().left()


def test_what_the_library_has_for_a_column_is_asked_again_only_once_it_changes(lib, data_dir, tmp_path):
    """The table asks on every result, so every keystroke: whether any paper has authors (none of the bundled
    papers has: a scan of them all) and which papers are tagged were read each time. They are kept until the
    library changes, here or in another process (another connection's commit); the answer stays right."""
    import json

    from readinglist.store import Store

    ids = lib.search("").ids
    everything = ("authors", "venue", "year", "tags")
    statements: list[str] = []
    lib.store.db.set_trace_callback(statements.append)
    try:
        assert lib.empty_columns(ids, everything) == {"authors", "tags"}
        assert any("paper_columns" in s for s in statements) and any("paper_tags" in s for s in statements)
        statements.clear()
        for _ in range(3):  # keystrokes on an unchanged library
            assert lib.empty_columns(ids[:5], everything) == {"authors", "tags"}
        assert not any("paper_columns" in s or "paper_tags" in s for s in statements), statements
        lib.add_tags(ids[:1], ["rl"])  # a change made here
        assert lib.empty_columns(ids, everything) == {"authors"}
        assert lib.empty_columns(ids[1:], everything) == {"authors", "tags"}
        other = Store(data_dir / "library.db")  # another process's change (the command line's)
        other.add_tags(ids[1:2], ["cli"])
        other.close()
        assert lib.empty_columns(ids[1:], everything) == {"authors"}
        statements.clear()
        assert lib.empty_columns(ids[2:], everything) == {"authors", "tags"}
        assert not any("paper_columns" in s or "paper_tags" in s for s in statements), statements
    finally:
        lib.store.db.set_trace_callback(None)
    first = lib.paper(ids[0])
    assert first is not None
    f = tmp_path / "again.json"  # the paper imported again, its authors now named
    f.write_text(json.dumps([{"title": first.title, "abstract": first.abstract, "authors": ["Ada Lovelace"]}]))
    lib.import_files([f])
    assert lib.paper(ids[0]).authors == ["Ada Lovelace"]
    assert lib.empty_columns(ids, ["authors"]) == set() and lib.empty_columns(ids[1:], ["authors"]) == {"authors"}
