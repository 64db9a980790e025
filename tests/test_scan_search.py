"""A search typed while the index is being opened or rebuilt reads the store instead of waiting (scan_search)."""

import json
import threading
from contextlib import contextmanager

import pytest
from conftest import library_of, open_window
from PySide6.QtWidgets import QLabel

from readinglist.scan_search import LooseQuery, Row, Term, read_query, scan
from readinglist.ui.detail import RELATED_DELAY_MS

ROWS = [
    {"id": "a", "title": "Graph neural networks for molecules", "abstract": "We study message passing on molecules."},
    {"id": "b", "title": "Attention for vision", "abstract": "Graph structure helps; neural models of images."},
    {"id": "c", "title": "Bandits", "abstract": "Regret bounds for linear bandits with graph feedback."},
    {"id": "d", "title": "Protein folding", "abstract": "Neural nets fold proteins.", "authors": ["Ada Lovelace"]},
]
# the same papers with a year, tags, a state and a priority, for the scan's filters
MARKED = [
    {**ROWS[0], "year": 2020},
    {**ROWS[1], "year": 2019, "tags": ["rl"]},
    {**ROWS[2], "year": 2021, "tags": ["RL", "bandit theory"], "state": "read"},
    {**ROWS[3], "priority": 1},
]


def T(text, field=None, negated=False):  # a term, short in the tables below
    return Term(field, text, negated)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("graph neural", [[T("graph"), T("neural")]]),
        ('"message passing" -video', [[T("message passing"), T("video", None, True)]]),
        ("diffusion NOT video OR image AND x", [[T("diffusion"), T("video", None, True)], [T("image"), T("x")]]),
        ("title:graph author:lovelace", [[T("graph", "title"), T("lovelace", "authors")]]),
        ("tag:reading state:Queued year:2019..2021 priority:P1",
         [[T("reading", "tag"), T("queued", "state"), T("2019..2021", "year"), T("1", "priority")]]),
        ('tag:"to read" -tag:done', [[T("to read", "tag"), T("done", "tag", True)]]),
        ("transform* BERT: pre-training?", [[T("transform"), T("bert"), T("pre training")]]),
        ("Learning to Play the Game of Chess", [[T("learning"), T("play"), T("game"), T("chess")]]),
        ("(graph OR bandits) neural", [[T("graph")], [T("bandits"), T("neural")]]),
    ],
)  # fmt: skip
def test_a_query_read_loosely(text, expected):
    assert read_query(text) == LooseQuery(expected)


def _rows():
    return [
        Row(i, r["title"], json.dumps(r.get("authors", [])), r.get("venue", ""), r.get("year"),
            r.get("state", "unread"), r.get("priority"), "", r.get("tags", []), r["abstract"])
        for i, r in enumerate(MARKED, 1)
    ]  # fmt: skip


def _scan(text, among=None):
    return scan(_rows(), read_query(text), among)[0]


def test_every_word_titles_first_then_in_order():
    # all three have both words; the paper with both in its title first
    assert _scan("graph neural") == [(1, 2), (2, 2)]
    assert _scan("graph") == [(1, 1), (2, 1), (3, 1)]


def test_word_starts_phrases_exclusions_and_among():
    assert _scan("molecule") == [(1, 1)]  # a word's start: "molecules"
    assert _scan("olecules") == []  # not inside a word
    assert _scan('"message passing"') == [(1, 1)]
    assert _scan('"passing message"') == []
    assert _scan("graph -bandits") == [(1, 1), (2, 1)]
    assert _scan("graph", among={2, 3}) == [(2, 1), (3, 1)]
    assert _scan("LOVELACE") == [(4, 1)]  # authors, any case


def test_closest_matches_when_no_paper_has_every_word():
    # two words each: "Bandits" has one in its title, so it comes before the paper with none there
    assert scan(_rows(), read_query("graph neural bandits")) == ([(1, 2), (3, 2), (2, 2)], False)


def test_fields_filters_and_or_as_the_index_reads_them():
    """A trial during a rebuild: year:1992 listed a 1991 paper, author:hinton a paper whose abstract names him,
    tag:RL alone nothing, "a OR b" said no paper had every word."""
    assert _scan("author:lovelace") == [(4, 1)]
    assert _scan("author:neural") == []  # in the abstracts, not the authors
    assert _scan("title:graph") == [(1, 1)]
    assert _scan("tag:RL") == [(2, 0), (3, 0)]  # "rl" and "RL": one tag
    assert _scan("tag:rl -tag:bandit-theory") == [(2, 0)]
    assert _scan("year:2020") == [(1, 0)] and _scan("year:2019..2020") == [(1, 0), (2, 0)]
    assert _scan("year:>=2020") == [(1, 0), (3, 0)] and _scan("year:<2020") == [(2, 0)]
    assert _scan("state:read") == [(3, 0)] and _scan("priority:1") == [(4, 0)] and _scan("-state:unread") == [(3, 0)]
    assert scan(_rows(), read_query("molecules OR bandits")) == ([(1, 1), (3, 1)], True)  # each in its title
    assert _scan("neural tag:RL") == [(2, 1)]


def _stale_index(folder):
    """Make the library's index look as if another version made it: opening it rebuilds it."""
    state = folder / "index" / "readinglist-index.json"
    data = json.loads(state.read_text())
    state.write_text(json.dumps({**data, "schema": "another version"}))


@pytest.fixture
def held_rebuild(tmp_path, monkeypatch):
    """The library of ROWS in tmp_path/lib, its index to be rebuilt, the rebuild held until `release` is set
    (`inside`: it has begun)."""
    from readinglist.index.engine import Index

    library_of(tmp_path, ROWS).close()
    _stale_index(tmp_path / "lib")
    inside, release = threading.Event(), threading.Event()
    rebuild = Index.rebuild

    def held(self, *args, **kwargs):
        inside.set()
        release.wait(30)
        return rebuild(self, *args, **kwargs)

    monkeypatch.setattr(Index, "rebuild", held)
    yield inside, release
    release.set()


@contextmanager
def opened_elsewhere(lib, held):
    """Another thread opens the library's index (the window's warm-up), held in its rebuild meanwhile."""
    inside, release = held
    opener = threading.Thread(target=lib.sync_index)
    opener.start()
    try:
        assert inside.wait(30)
        yield
    finally:
        release.set()
        opener.join(30)


def test_a_search_does_not_wait_for_an_index_to_be_rebuilt(tmp_path):
    from readinglist.library import Library

    library_of(tmp_path, ROWS).close()
    _stale_index(tmp_path / "lib")
    lib = Library.open(tmp_path / "lib", seed=False, defer_index=True)  # as the window opens it
    try:
        typed_on = lib.search("gr", wait=False)  # a word's first letters, typed on: not every paper read
        assert typed_on.ids == [] and "3 letters or more" in typed_on.notes[0]
        found = lib.search("graph neural", wait=False)
        assert found.provisional and found.notes and "being built" in found.notes[0]
        assert [lib.paper(i).title for i in found.ids] == [ROWS[0]["title"], ROWS[1]["title"]]
        ranked = lib.search("graph neural")  # waits: rebuilt, ranked
        assert not ranked.provisional
        assert set(ranked.ids) == set(found.ids)
        assert not lib.search("graph neural", wait=False).provisional  # open now: the index answers
    finally:
        lib.close()


def test_a_search_does_not_wait_for_another_thread_opening_the_index(tmp_path, held_rebuild):
    from readinglist.library import Library

    lib = Library.open(tmp_path / "lib", seed=False, defer_index=True)  # as the window opens it
    try:
        with opened_elsewhere(lib, held_rebuild):
            found = lib.search("bandits", wait=False, state="unread")
            assert found.provisional and [lib.paper(i).title for i in found.ids] == ["Bandits"]
            assert lib.search("bandits", wait=False, state="read").ids == []  # the sidebar's filter holds
        assert not lib.search("bandits", wait=False).provisional
    finally:
        lib.close()


def test_the_window_searches_again_once_the_index_is_built(qtbot, tmp_path, held_rebuild):
    _, release = held_rebuild
    w = open_window(qtbot, tmp_path / "lib", len(ROWS))
    try:
        # resting on the paper shown asks for its related papers, which need the index: that must not hold a
        # worker the search needs (two threads: the warm-up's rebuild holds the other)
        qtbot.wait(RELATED_DELAY_MS + 500)
        w.search_bar.field.setText("gr")  # a word's first letters: nothing read, and the table says why
        qtbot.waitUntil(lambda: w.search_bar.last_result is not None and w.search_bar.last_result.query == "gr")
        label = w.findChild(QLabel, "emptyLabel")
        assert w.table.model.rowCount() == 0 and "being built" in label.text() and "No papers match" not in label.text()
        w.search_bar.field.setText("graph neural")
        qtbot.waitUntil(
            lambda: w.search_bar.last_result is not None and w.search_bar.last_result.query == "graph neural"
        )
        assert w.search_bar.last_result.provisional
        assert w.table.model.rowCount() == 2
        assert w.order_note.label.text() == "Titles first, not ranked yet"
        release.set()
        qtbot.waitUntil(lambda: w.warmed_up and w.search_bar.idle and not w.search_bar.last_result.provisional)
        assert w.search_bar.last_result.query == "graph neural"
        assert w.table.model.rowCount() == 2
        assert w.order_note.label.text() == "Ranked by relevance"
    finally:
        release.set()
        w.runner.wait()
        w.library.close()


def test_related_papers_do_not_wait_for_the_index_either(tmp_path, held_rebuild):
    from readinglist.library import Library

    lib = Library.open(tmp_path / "lib", seed=False, defer_index=True)
    try:
        with opened_elsewhere(lib, held_rebuild):
            assert lib.related_explained(1, wait=False) is None  # being built: asked again later
        assert 2 in lib.related(1, wait=False)  # "graph", "neural", "molecules"… the other graph paper
    finally:
        lib.close()


def test_a_query_of_filters_alone_finds_their_papers_while_the_index_is_rebuilt(tmp_path):
    # "tag:theory" (or a list whose query is) has no word to look for: it is every paper the filter keeps, as
    # the index answers it, not nothing until the index is built
    from readinglist.library import Library

    lib = library_of(tmp_path, ROWS)
    lib.add_tags([3], ["theory"])
    lib.set_state([2], "read")
    indexed = (lib.search("tag:theory").ids, lib.search("state:read").ids)
    lib.close()
    _stale_index(tmp_path / "lib")
    lib = Library.open(tmp_path / "lib", seed=False, defer_index=True)
    try:
        assert indexed == ([3], [2])
        found = lib.search("tag:theory", wait=False)
        assert found.provisional and found.ids == [3]
        assert lib.search("state:read", wait=False).ids == [2]
        assert lib.search("", within="tag:theory", wait=False).ids == [3]  # a list of that query, chosen
        assert lib.search("gr", wait=False).ids == []  # (still: a word's first letters typed on)
    finally:
        lib.close()


def test_a_search_read_through_while_the_index_became_ready_is_run_again(qtbot, tmp_path, monkeypatch, held_rebuild):
    # the store's text was still being read (seconds at 100,000 papers) when the warm-up ended: what it found
    # lands after the warm-up looked for provisional results, and must not stay unranked
    from readinglist.store import Store

    _, release = held_rebuild
    reading, read_on = threading.Event(), threading.Event()
    search_rows = Store.search_rows

    def slow_texts(self, *args, **kwargs):
        reading.set()
        read_on.wait(30)
        yield from search_rows(self, *args, **kwargs)

    monkeypatch.setattr(Store, "search_rows", slow_texts)
    w = open_window(qtbot, tmp_path / "lib", len(ROWS))
    try:
        w.search_bar.field.setText("graph neural")
        qtbot.waitUntil(reading.is_set)
        release.set()
        qtbot.waitUntil(lambda: w.warmed_up)
        read_on.set()
        qtbot.waitUntil(lambda: w.search_bar.idle and w.search_bar.last_result is not None)
        assert w.search_bar.last_result.query == "graph neural"
        assert not w.search_bar.last_result.provisional
    finally:
        release.set()
        read_on.set()
        w.runner.wait()
        w.library.close()
