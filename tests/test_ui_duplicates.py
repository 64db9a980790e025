"""Possible duplicates in the window: the sidebar entry, Merge / Keep Apart on two papers, undo."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from readinglist.app import create_main_window
from readinglist.library import Library
from readinglist.ui import menus
from readinglist.ui.sidebar import DUPLICATES_KEY

RECORDS = [
    {"title": f"A study of topic number {n} in learning", "authors": [f"Author {n}"], "year": 2020,
     "venue": "ICML", "abstract": f"We study topic {n} and report what we found about it in several ways."}
    for n in range(3)
]  # fmt: skip


def _jsonl(path, records):
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def window(qtbot, data_dir, tmp_path):
    lib = Library.open(data_dir)
    lib.import_files([_jsonl(tmp_path / "main.jsonl", RECORDS)])
    workshop = [r | {"venue": "ICML Workshop", "url": f"https://example.org/ws{n}"} for n, r in enumerate(RECORDS)]
    lib.import_files([_jsonl(tmp_path / "ws.jsonl", workshop)])
    lib.close()
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 25)
    yield w
    w.runner.wait()
    w.library.close()


def _entry_text(w):
    index = w.sidebar.entries.find(DUPLICATES_KEY)
    return index.data() if index.isValid() else None


def test_possible_duplicates_in_the_sidebar_merge_undo_and_keep_apart(qtbot, window):
    w = window
    assert _entry_text(w) == "Possible duplicates  (3)"
    index = w.sidebar.entries.find(DUPLICATES_KEY)
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        qtbot.mouseClick(w.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=w.sidebar.visualRect(index).center())
    qtbot.waitUntil(lambda: w.table.model.rowCount() == 6)
    pairs = w.library.possible_duplicates()
    first, second = pairs[0], pairs[1]
    w.table.select_ids([first.a, first.b])
    qtbot.waitUntil(lambda: sorted(w.target_ids()) == sorted([first.a, first.b]))
    names = [a.objectName() for a in menus.paper_menu(w).actions()]
    assert "actionMerge" in names and "actionKeepApart" in names
    w.actionMerge.trigger()
    keep, gone = sorted([first.a, first.b])
    assert w.library.paper(gone) is None and w.library.store.count() == 24
    assert w.library.sources_of(keep) == ["main", "ws"]
    qtbot.waitUntil(lambda: _entry_text(w) == "Possible duplicates  (2)")
    w.actionUndo.trigger()
    assert w.library.paper(gone) is not None and w.library.store.count() == 25
    qtbot.waitUntil(lambda: _entry_text(w) == "Possible duplicates  (3)")
    w.table.select_ids([second.a, second.b])
    qtbot.waitUntil(lambda: sorted(w.target_ids()) == sorted([second.a, second.b]))
    w.actionKeepApart.trigger()
    qtbot.waitUntil(lambda: _entry_text(w) == "Possible duplicates  (2)")
    assert w.library.store.pair(second.a, second.b)[0] == "apart"
    w.actionUndo.trigger()
    qtbot.waitUntil(lambda: _entry_text(w) == "Possible duplicates  (3)")


def test_a_merge_shows_the_merged_papers_link_on_the_kept_one_until_undone(qtbot, window):
    """A trial's COLT paper lost its proceedings link when merged; undo gives each paper its own again."""
    w = window
    pair = w.library.possible_duplicates()[0]
    keep, gone = sorted([pair.a, pair.b])
    url = w.library.paper(gone).url
    assert url and w.library.paper(keep).links == []
    w.table.select_ids([keep, gone])
    qtbot.waitUntil(lambda: sorted(w.target_ids()) == [keep, gone])
    w.actionMerge.trigger()
    assert w.library.paper(keep).links == [url]
    qtbot.waitUntil(lambda: w.detail.paper_id == keep and f'href="{url}"' in w.detail.toHtml())
    w.actionUndo.trigger()
    assert w.library.paper(keep).links == [] and w.library.paper(gone).links == [url]
    qtbot.waitUntil(lambda: w.detail.paper_id in (keep, gone))
    qtbot.waitUntil(lambda: (f'href="{url}"' in w.detail.toHtml()) == (w.detail.paper_id == gone))


def test_the_last_pair_settled_leaves_the_possible_duplicates_view(qtbot, window):
    """Its entry goes with its last pair: the view it showed (empty now) gives way to All papers."""
    w = window
    index = w.sidebar.entries.find(DUPLICATES_KEY)
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        qtbot.mouseClick(w.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=w.sidebar.visualRect(index).center())
    assert w.sidebar.filter.duplicates
    for pair in w.library.possible_duplicates():
        w.table.select_ids([pair.a, pair.b])
        qtbot.waitUntil(lambda pair=pair: sorted(w.target_ids()) == sorted([pair.a, pair.b]))
        w.actionKeepApart.trigger()
    qtbot.waitUntil(lambda: _entry_text(w) is None)
    qtbot.waitUntil(lambda: not w.sidebar.filter.duplicates and w.table.model.rowCount() == 25)


def test_one_paper_selected_offers_no_merge(qtbot, window):
    w = window
    w.table.select_ids(w.library.search("").ids[:1])
    names = [a.objectName() for a in menus.paper_menu(w).actions()]
    assert "actionMerge" not in names


def test_the_entrys_count_is_never_cut_at_any_sidebar_width(window):
    """At one width the entry read "Possible duplicates (3…": it fitted as whole pixels measure it, and the
    view, measuring in fractions of one, cut it again, count and all. At every width its count stays whole
    and what is shown fits the room the view lays it out in."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QTextLayout
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    sidebar = window.sidebar
    index = sidebar.entries.find(DUPLICATES_KEY)
    delegate = sidebar.itemDelegate()
    style = sidebar.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, sidebar) + 1
    for width in range(60, 320):
        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, width, 20)
        option.widget = sidebar
        option.font = sidebar.font()
        option.fontMetrics = sidebar.fontMetrics()
        delegate.initStyleOption(option, index)
        shown = delegate.fitted(option, index)
        room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, sidebar).width() - 2 * margin
        layout = QTextLayout(shown, option.font)
        layout.beginLayout()
        line = layout.createLine()
        line.setLineWidth(10_000)
        layout.endLayout()
        if room > option.fontMetrics.horizontalAdvance("P… (3)") + 2:
            assert shown.endswith("(3)"), (width, shown)
            assert line.naturalTextWidth() <= room, (width, shown, line.naturalTextWidth(), room)


def test_the_detail_pane_says_which_paper_a_possible_duplicate_pairs_with_and_why_with_a_link_to_it(qtbot, window):
    """It did not say: the reader had to find the other paper of the pair themselves. The line goes once the
    pair is kept apart, and comes back with an undo."""
    from PySide6.QtCore import QUrl

    w = window
    pair = w.library.possible_duplicates()[0]
    assert w.library.duplicates_of(pair.a) == [pair] == w.library.duplicates_of(pair.b)
    other = w.library.paper(pair.b)
    assert w.table.go_to(pair.a)
    qtbot.waitUntil(lambda: w.detail.paper_id == pair.a)
    text = w.detail.document().toPlainText()
    assert f"Possibly the same paper as {other.title} (ICML Workshop 2020): {pair.why}." in text
    assert f'href="paper:{other.uid}"' in w.detail.toHtml()
    w.detail.open_link(QUrl(f"paper:{other.uid}"))  # the link followed: the other paper shown
    qtbot.waitUntil(lambda: w.table.current_id == pair.b and w.detail.paper_id == pair.b)
    assert w.library.paper(pair.a).title in w.detail.document().toPlainText()
    w.table.select_ids([pair.a, pair.b])
    w.actionKeepApart.trigger()
    qtbot.waitUntil(lambda: "Possibly the same paper" not in w.detail.document().toPlainText())
    w.actionUndo.trigger()
    qtbot.waitUntil(lambda: "Possibly the same paper" in w.detail.document().toPlainText())
