"""The window's parts of topics (issue 16): the Topics section, topics computed in the background, the
detail pane's topic and related papers with their shared phrases. On the synthetic four-theme library of
test_topics, driven as a user would."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt, QTimer, QUrl
from test_topics import THEMES, planted, write_jsonl

from readinglist.app import create_main_window
from readinglist.library import Library
from readinglist.papers import TopicsCancelled
from readinglist.ui.topics_section import ALL_TOPICS, CountsRole, TopicRole, TriagedRole


def open_window(qtbot, data_dir):
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False  # spawning a child per test is slow; test_topics covers the child
    w.exporter.quiet = True
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() > 0)
    return w


def close_window(w):
    w.close()
    w.shutdown()


@pytest.fixture
def planted_dir(data_dir, tmp_path):
    """A library of the 19 bundled papers and 120 of four planted themes, its topics computed."""
    lib = Library.open(data_dir)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(30))])
    lib.compute_topics(count=4, use_process=False)
    lib.close()
    return data_dir


@pytest.fixture
def window(qtbot, planted_dir):
    w = open_window(qtbot, planted_dir)
    qtbot.waitUntil(lambda: len(w.topics_section.topics) == 4)
    yield w
    close_window(w)


def search(qtbot, w, text):
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        w.search_bar.field.setText(text)
    qtbot.waitUntil(lambda: w.search_bar.idle)


def click_topic(qtbot, w, topic_id):
    section = w.topics_section
    with qtbot.waitSignal(w.searchFinished, timeout=10000):
        qtbot.mouseClick(section.list.viewport(), Qt.MouseButton.LeftButton, pos=section.visual_rect(topic_id).center())
    qtbot.waitUntil(lambda: w.search_bar.idle)


def entries(w):
    """(topic id, name, counts) of each entry, as the section lists them."""
    model = w.topics_section.list.model()
    rows = [model.index(r, 0) for r in range(model.rowCount())]
    return [(i.data(TopicRole), i.data(), i.data(CountsRole)) for i in rows]


def triaged_shares(w):
    """Each entry's triaged share (its bar), by topic id."""
    model = w.topics_section.list.model()
    return {model.index(r, 0).data(TopicRole): model.index(r, 0).data(TriagedRole) for r in range(model.rowCount())}


def topic_of_theme(lib, theme):
    pid = lib.search(f'"{THEMES[theme][0]}"').ids[0]
    topic = lib.topic_of(pid)
    assert topic is not None
    return topic


def test_topics_section_lists_topics_with_counts_and_what_is_left_to_triage(qtbot, window):
    lib = window.library
    topics = lib.topics()
    listed = entries(window)
    assert listed[0][0] == ALL_TOPICS and listed[0][1] == "All topics"
    assert listed[0][2] == f"{sum(t.size for t in topics):,} · {sum(t.size for t in topics):,} to triage"
    assert [(tid, name) for tid, name, _ in listed[1:]] == [(t.id, t.label) for t in topics]  # largest first
    assert all(counts == f"{t.size} · {t.size} to triage" for (_, _, counts), t in zip(listed[1:], topics, strict=True))
    assert window.topics_section.title.text() == "Topics (4)"
    graphs = topic_of_theme(lib, "graphs")
    members = lib.search("", topic=graphs.id).ids
    window.library.set_state(members[:3], "read")  # as the window's own r would, then its counts
    window.library.set_state(members[3:4], "skimmed")
    window.update_counts()
    row = next(r for r in entries(window) if r[0] == graphs.id)
    assert row[2] == f"{graphs.size} · {graphs.size - 4} to triage"
    # a priority is triage too (the status bar's "triaged N of M" and Suggested count it): the bar fills
    window.library.set_priority(members[4:5], 1)
    window.update_counts()
    row = next(r for r in entries(window) if r[0] == graphs.id)
    assert row[2] == f"{graphs.size} · {graphs.size - 5} to triage"
    assert triaged_shares(window)[graphs.id] == pytest.approx(5 / graphs.size)


def test_clicking_a_topic_filters_and_combines_with_query_and_state(qtbot, window):
    lib = window.library
    graphs = topic_of_theme(lib, "graphs")
    click_topic(qtbot, window, graphs.id)
    assert window.topics_section.topic == graphs.id
    in_topic = set(lib.search("", topic=graphs.id).ids)
    assert set(window.table.model.ids) == in_topic and len(in_topic) == graphs.size
    query = '"graph convolution" OR "reward shaping"'
    search(qtbot, window, query)  # with a query: the topic's papers that match it
    expected = lib.search(query, topic=graphs.id).ids
    assert window.table.model.ids == expected and 0 < len(expected) < len(in_topic)
    outside = [i for i in lib.search(query).ids if i not in in_topic]
    assert outside  # the query alone finds more
    lib.set_state(expected[:2] + outside[:1], "read")  # and one read paper outside the topic
    window.update_counts()
    with qtbot.waitSignal(window.searchFinished):
        index = window.sidebar.entries.find(("state", "read"))
        qtbot.mouseClick(
            window.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=window.sidebar.visualRect(index).center()
        )
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert sorted(window.table.model.ids) == sorted(expected[:2])  # query · state · topic
    click_topic(qtbot, window, None)  # "All topics": the query and the state still hold
    assert window.topics_section.topic is None
    assert sorted(window.table.model.ids) == sorted(expected[:2] + outside[:1])


def test_detail_pane_names_the_topic_as_a_link_that_filters(qtbot, window):
    lib = window.library
    proteins = topic_of_theme(lib, "proteins")
    pid = lib.search('"protein folding"').ids[0]
    window.go_to_paper(pid)
    qtbot.waitUntil(lambda: window.detail.paper_id == pid)
    assert f"Topic: {proteins.label}" in window.detail.toPlainText()
    assert f'href="topic:{proteins.id}"' in window.detail.toHtml()
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.detail.anchorClicked.emit(QUrl(f"topic:{proteins.id}"))  # what a click on the link emits
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert window.topics_section.topic == proteins.id
    assert set(window.table.model.ids) == set(lib.search("", topic=proteins.id).ids)
    assert window.table.current_id == pid  # the paper stays shown


def test_related_papers_show_the_phrases_they_share(qtbot, window):
    lib = window.library
    pid = lib.search('"protein folding"').ids[0]
    window.go_to_paper(pid)
    qtbot.waitUntil(lambda: "Related papers" in window.detail.toPlainText(), timeout=15000)
    text = window.detail.toPlainText()
    explained = lib.related_explained(pid)
    assert explained and all(phrases for _, phrases in explained)
    for other, phrases in explained:
        paper = lib.paper(other)
        assert paper is not None and paper.title in text
        assert f"shares {', '.join(phrases)}" in text  # next to the paper it explains
    assert any(p in THEMES["proteins"] for _, phrases in explained for p in phrases)


def test_topics_are_computed_in_the_background_after_an_import(qtbot, data_dir, tmp_path, monkeypatch):
    w = open_window(qtbot, data_dir)  # 19 bundled papers: too few to group on their own
    try:
        assert w.topics_section.topics == [] and w.topics_section.placeholder.isVisibleTo(w)
        real = w.library.compute_topics
        threads, progress = [], []

        def recorded(*args, **kwargs):
            threads.append(threading.get_ident())
            return real(*args, **kwargs)

        monkeypatch.setattr(w.library, "compute_topics", recorded)
        w.topics_bar.progress.valueChanged.connect(progress.append)
        shown = []
        w.topics_bar.started.connect(lambda: shown.append(w.topics_bar.isVisible()))
        ticks = []
        heartbeat = QTimer()
        heartbeat.setInterval(5)
        heartbeat.timeout.connect(lambda: ticks.append(w.topics_bar.running))
        heartbeat.start()
        with qtbot.waitSignal(w.topics_bar.computed, timeout=60000):
            w.start_import([write_jsonl(tmp_path / "planted.jsonl", planted(30))])
        heartbeat.stop()
        assert threads and threading.get_ident() not in threads  # computed off the window's thread
        assert shown == [True]  # progress in the status bar while it ran
        assert len(set(progress)) >= 3 and all(0 < v <= 100 for v in progress)  # it moved on as it went
        assert sum(ticks) > 3  # the event loop kept turning while topics were computed
        assert not w.topics_bar.isVisible()
        assert len(w.topics_section.topics) >= 4 and not w.library.topics_status().outdated
        assert not w.topics_section.placeholder.isVisibleTo(w)
    finally:
        close_window(w)


def test_a_library_opened_without_topics_gets_them(qtbot, data_dir, tmp_path):
    lib = Library.open(data_dir)
    lib.import_files([write_jsonl(tmp_path / "planted.jsonl", planted(30))])
    lib.close()
    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.topics_bar.use_process = False
    try:
        with qtbot.waitSignal(w.topics_bar.computed, timeout=60000):
            w.show()
        qtbot.waitUntil(lambda: len(w.topics_section.topics) >= 4)
    finally:
        close_window(w)


def test_a_recompute_keeps_the_topic_picked_and_the_paper_shown(qtbot, window, tmp_path):
    lib = window.library
    control = topic_of_theme(lib, "control")
    click_topic(qtbot, window, control.id)
    pid = window.table.model.ids[3]
    window.go_to_paper(pid)
    qtbot.waitUntil(lambda: window.table.current_id == pid)
    window.topics_bar.count = 4
    with qtbot.waitSignal(window.topics_bar.computed, timeout=60000):  # more of the same themes came
        window.start_import([write_jsonl(tmp_path / "more.jsonl", planted(6, seed=3, start=200))])
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert window.topics_section.topic == control.id
    assert set(window.table.model.ids) == set(lib.search("", topic=control.id).ids)
    assert len(window.table.model.ids) > control.size  # the new papers of the theme are in it
    assert window.table.current_id == pid


def test_stop_ends_the_computation_and_keeps_the_topics_stored(qtbot, window, monkeypatch):
    before = [(t.id, t.label) for t in window.library.topics()]
    cancels: list[threading.Event] = []

    def long_compute(progress=None, cancel=None, count=None, use_process=True):
        assert cancel is not None
        cancels.append(cancel)
        if progress is not None:
            progress(10, 100, "read 10 papers")
        cancel.wait(30)
        raise TopicsCancelled()

    monkeypatch.setattr(window.library, "compute_topics", long_compute)
    with qtbot.waitSignal(window.topics_bar.started, timeout=10000):
        qtbot.mouseClick(window.topics_section.recomputeButton, Qt.MouseButton.LeftButton)
    assert not window.topics_section.recomputeButton.isEnabled()
    qtbot.waitUntil(lambda: window.topics_bar.progress.value() == 10)
    assert "read 10 papers" in window.topics_bar.label.text()
    with qtbot.waitSignal(window.topics_bar.stopped, timeout=10000):
        qtbot.mouseClick(window.topics_bar.stopButton, Qt.MouseButton.LeftButton)
    assert cancels[0].is_set()
    assert not window.topics_bar.isVisible() and window.topics_section.recomputeButton.isEnabled()
    assert "could not" not in window.notice.text()
    assert [(t.id, t.label) for t in window.library.topics()] == before


def test_a_topic_combines_with_a_smart_list_and_the_caption_names_it(qtbot, window):
    lib = window.library
    graphs = topic_of_theme(lib, "graphs")
    query = '"graph convolution" OR "reward shaping"'
    sl = lib.add_smart_list("Graphs or rewards", query)
    window.update_lists()
    in_list = lib.search_list(sl).ids
    in_topic = set(lib.search("", topic=graphs.id).ids)
    expected = [i for i in in_list if i in in_topic]
    assert 0 < len(expected) < len(in_list)
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        index = window.sidebar.entries.find(("list", str(sl.id)))
        qtbot.mouseClick(
            window.sidebar.viewport(), Qt.MouseButton.LeftButton, pos=window.sidebar.visualRect(index).center()
        )
    qtbot.waitUntil(lambda: window.search_bar.idle)
    assert sorted(window.table.model.ids) == sorted(in_list)
    click_topic(qtbot, window, graphs.id)  # the list's papers of the topic
    assert sorted(window.table.model.ids) == sorted(expected)
    caption = window.view_summary.caption.text()
    assert caption == f"List: Graphs or rewards · topic {graphs.label}"
    assert window.statusLabel.text().endswith(f"triaged 0 of {len(expected)}")
    assert window.table.go_to(expected[0])
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_Q)  # queued counts as triaged, in the topic's view too
    assert lib.paper(expected[0]).state == "queued"
    assert window.statusLabel.text().endswith(f"triaged 1 of {len(expected)}")
    click_topic(qtbot, window, None)
    assert sorted(window.table.model.ids) == sorted(in_list)
    assert window.view_summary.caption.text() == "List: Graphs or rewards"


def test_ctrl_0_lets_go_of_a_topic_too(qtbot, window):
    # a trial picked a topic, pressed Ctrl+0 and saw "All" highlighted over the topic's papers only
    lib = window.library
    graphs = topic_of_theme(lib, "graphs")
    click_topic(qtbot, window, graphs.id)
    assert len(window.table.model.ids) == graphs.size
    window.table.view.setFocus()
    qtbot.keyClick(window.table.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.search_bar.idle and len(window.table.model.ids) == len(lib.search("").ids))
    assert window.topics_section.topic is None and window.view_summary.caption.text() == "All papers"
    # a state and a topic both let go: one search, not one for each
    click_topic(qtbot, window, graphs.id)
    with qtbot.waitSignal(window.searchFinished):
        window.sidebar.set_filter(replace(window.sidebar.filter, state="unread"))
    qtbot.waitUntil(lambda: window.search_bar.idle)
    searches = []
    window.search_bar.runningChanged.connect(lambda on: on and searches.append(1))  # each search started
    qtbot.keyClick(window.table.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.search_bar.idle and len(window.table.model.ids) == len(lib.search("").ids))
    assert searches == [1] and window.topics_section.topic is None and window.sidebar.filter.state is None


def test_the_save_list_dialog_says_a_topic_picked_is_not_saved_with_the_list(qtbot, window, monkeypatch):
    """A trial: a topic picked, a query typed, Ctrl+S; the view showed 195 papers, the list saved held 236,
    and the dialog had not said the topic is no part of a list. It says so now, and how many the list holds."""
    from PySide6.QtWidgets import QInputDialog

    from readinglist.ui.wording import quoted

    lib = window.library
    graphs = topic_of_theme(lib, "graphs")
    click_topic(qtbot, window, graphs.id)
    query = '"graph convolution" OR "reward shaping"'
    search(qtbot, window, query)
    shown, holds = len(window.table.model.ids), len(lib.search(query).ids)
    assert shown < holds
    asked = []
    monkeypatch.setattr(QInputDialog, "getText", lambda _w, _t, label, **k: (asked.append(label), ("", False))[1])
    window.actionSaveList.trigger()
    assert f"Not saved with it: the topic {quoted(graphs.label, 60)} picked in the sidebar." in asked[0]
    assert f"The list will hold {holds} papers, where the view shows {shown}" in asked[0]
    assert f"“topic:{graphs.id}” in the query keeps the topic" in asked[0]
    click_topic(qtbot, window, None)
    window.actionSaveList.trigger()  # no topic picked: nothing is left out, and nothing said
    assert "Not saved" not in asked[1] and lib.smart_lists() == []


# ---- topics computed again underneath the window (a user trial) -------------------------------------------


def rewrite_topics(data_dir, new_topic_of):
    """Store the topics again as another process's recompute would (the library in data_dir opened apart), each
    paper's topic given by new_topic_of(paper id, its topic now); names stay with the papers' topics, ids move
    with new_topic_of."""
    lib = Library.open(data_dir)
    try:
        topics = {t.id: t for t in lib.topics()}
        pairs, sizes, names = [], {}, {}
        for pid, tid in lib.store.paper_topic_pairs():
            new = new_topic_of(pid, tid)
            pairs.append((pid, new))
            sizes[new] = sizes.get(new, 0) + 1
            names.setdefault(new, topics[tid].phrases)  # a name goes with its papers
        stored = [(tid, names[tid], n, 0.0, 0.0) for tid, n in sizes.items()]
        blobs = lib.store.topic_map()
        with lib.store.transaction(wait=5.0):
            lib.store.save_topics(stored, pairs, blobs, {"computed_at": "later", "run": f"other-{len(stored)}"})
    finally:
        lib.close()


def recomputed_elsewhere(qtbot, window, data_dir, new_topic_of):
    """rewrite_topics, and the open window noticing it (its watcher's look) and searching again."""
    rewrite_topics(data_dir, new_topic_of)
    with qtbot.waitSignal(window.searchFinished, timeout=10000):
        window.outside.look()
    qtbot.waitUntil(lambda: window.search_bar.idle)


def test_topics_computed_again_elsewhere_keep_the_topic_picked_by_its_papers_under_its_new_id(qtbot, window, data_dir):
    lib = window.library
    control, graphs = topic_of_theme(lib, "control"), topic_of_theme(lib, "graphs")
    click_topic(qtbot, window, control.id)
    pid = window.table.model.ids[2]
    window.go_to_paper(pid)
    qtbot.waitUntil(lambda: window.detail.paper_id == pid)
    swap = {control.id: graphs.id, graphs.id: control.id}
    # the command line's `topics --recompute`: the two topics' ids swapped
    recomputed_elsewhere(qtbot, window, data_dir, lambda _pid, tid: swap.get(tid, tid))
    section = window.topics_section
    assert section.topic == graphs.id and section.picked is not None and section.picked.label == control.label
    assert set(window.table.model.ids) == set(lib.search("", topic=graphs.id).ids)  # the control papers still
    assert control.label in window.view_summary.caption.text()
    assert f"now topic:{graphs.id}" in window.notice.text()
    # the paper shown names its topic as stored now, and its link picks that topic
    assert f"Topic: {control.label}" in window.detail.toPlainText()
    assert f'href="topic:{graphs.id}"' in window.detail.toHtml()
    assert dict((tid, name) for tid, name, _ in entries(window)[1:])[control.id] == graphs.label


def test_topics_computed_again_elsewhere_keep_the_topic_picked_under_a_new_id_its_old_one_gone(qtbot, window, data_dir):
    """The picked topic's papers all under an id no topic had (its own id gone): it stays picked, under that id.
    The section let go of the gone id first, and the window forgot which papers the topic held."""
    lib = window.library
    control = topic_of_theme(lib, "control")
    click_topic(qtbot, window, control.id)
    new_id = max(t.id for t in lib.topics()) + 10
    recomputed_elsewhere(qtbot, window, data_dir, lambda _pid, tid: new_id if tid == control.id else tid)
    section = window.topics_section
    assert section.topic == new_id and section.picked is not None and section.picked.label == control.label
    assert f"now topic:{new_id}" in window.notice.text()
    assert set(window.table.model.ids) == set(lib.search("", topic=new_id).ids)


def test_topics_computed_again_elsewhere_let_go_of_a_topic_whose_papers_went_apart(qtbot, window, data_dir):
    lib = window.library
    control = topic_of_theme(lib, "control")
    others = [t.id for t in lib.topics() if t.id != control.id]
    click_topic(qtbot, window, control.id)
    search(qtbot, window, '"reward shaping"')  # control's words: nothing outside the topic... once it is gone
    # its papers shared out among the other three, its id now another's
    recomputed_elsewhere(qtbot, window, data_dir, lambda pid, tid: others[pid % 3] if tid == control.id else tid)
    assert window.topics_section.topic is None and window.topics_section.title.text() == "Topics (3)"
    assert f"“{control.label}” is not among them" in window.notice.text()
    assert window.table.model.ids == lib.search('"reward shaping"').ids and window.table.model.ids
    assert control.label not in window.view_summary.caption.text()


def test_a_due_computation_asked_for_while_one_runs_follows_it(qtbot, window, data_dir, tmp_path, monkeypatch):
    """An import elsewhere that commits while topics are computed (its second file, say) is grouped too, once
    the running computation ends; meanwhile the section says how many papers are in no topic yet."""
    lib = window.library
    real = lib.compute_topics
    gate, calls = threading.Event(), []

    def held(progress=None, cancel=None, count=None, use_process=True):
        calls.append(1)

        def waiting(done, total, message):  # the library's fingerprint is taken: the papers to come are new
            gate.wait(30)
            if progress is not None:
                progress(done, total, message)

        return real(progress=waiting if len(calls) == 1 else progress, cancel=cancel, count=count,
                    use_process=False)  # fmt: skip

    monkeypatch.setattr(lib, "compute_topics", held)
    with qtbot.waitSignal(window.topics_bar.started, timeout=10000):
        window.topics_bar.recompute()
    other = Library.open(data_dir)  # the command line imports meanwhile
    try:
        other.import_files([write_jsonl(tmp_path / "more.jsonl", planted(6, seed=5, start=300))])
    finally:
        other.close()
    window.outside.look()  # an import elsewhere: counts, results, and topics when due
    section = window.topics_section
    assert section.unplaced_text == "24 new papers: placing them in topics…"
    assert section.unplacedNote.isVisibleTo(window)
    all_entry = section.list.model().index(0, 0)
    total = sum(t.size for t in section.topics)
    assert all_entry.data(Qt.ItemDataRole.ToolTipRole) == (
        f"Papers of every topic: {total:,} of the library's {total + 24:,}\n24 added since the topics were computed"
    )
    gate.set()
    qtbot.waitUntil(lambda: len(calls) == 2 and not window.topics_bar.running, timeout=60000)  # the one asked for
    assert not lib.topics_status().outdated
    assert sum(t.size for t in lib.topics()) == lib.counts()["all"]  # the papers imported meanwhile have topics
    assert section.unplaced_text == "" and not section.unplacedNote.isVisibleTo(window)
    assert section.list.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole) == "Papers of every topic"


def test_a_restart_does_not_pick_another_topic_under_the_id_of_the_one_left_picked(qtbot, planted_dir):
    w = open_window(qtbot, planted_dir)
    qtbot.waitUntil(lambda: len(w.topics_section.topics) == 4)
    lib = w.library
    control, graphs = topic_of_theme(lib, "control"), topic_of_theme(lib, "graphs")
    click_topic(qtbot, w, control.id)
    close_window(w)
    swap = {control.id: graphs.id, graphs.id: control.id}
    # the command line recomputes between sessions: the ids swapped
    rewrite_topics(planted_dir, lambda _pid, tid: swap.get(tid, tid))
    w = open_window(qtbot, planted_dir)
    try:
        qtbot.waitUntil(lambda: len(w.topics_section.topics) == 4)
        assert w.topics_section.topic is None  # not "graphs", which has control's id now
        assert graphs.label not in w.view_summary.caption.text()
    finally:
        close_window(w)


def section_topics(n, named=None):
    from readinglist.papers import Topic

    named = named or {}
    return [Topic(id=i, phrases=[named.get(i, f"theme {i}"), f"word {i}"], size=10 + n - i) for i in range(1, n + 1)]


def test_a_filter_hidden_when_few_topics_remain_no_longer_hides_them(qtbot):
    """The filter typed among many topics is let go of when topics are recomputed into few (the field hides
    then): its text hid all three, and the section read "Topics (3)" over "All topics" alone."""
    from readinglist.ui.topics_section import TopicsSection

    section = TopicsSection()
    qtbot.addWidget(section)
    section.show()
    section.set_topics(section_topics(20, {5: "reinforcement learning"}))
    assert section.filterField.isVisibleTo(section)
    section.filterField.setText("reinforcement")
    assert [r[0] for r in _rows(section)] == [ALL_TOPICS, 5]
    with qtbot.waitSignal(section.topicChanged):
        section.set_topic(5)
    with qtbot.waitSignal(section.topicChanged) as changed:  # the topic picked is gone: all topics again
        section.set_topics(section_topics(3))
    assert changed.args == [None]
    assert not section.filterField.isVisibleTo(section)
    assert section.filterField.text() == ""
    assert [r[0] for r in _rows(section)] == [ALL_TOPICS, 1, 2, 3]
    assert section.no_match_text == "" and section.noMatchNote.isHidden()


def test_a_filter_that_leaves_no_topic_says_so(qtbot):
    from readinglist.ui.topics_section import TopicsSection

    section = TopicsSection()
    qtbot.addWidget(section)
    section.show()
    section.set_topics(section_topics(20))
    section.filterField.setText("molecules")
    assert [r[0] for r in _rows(section)] == [ALL_TOPICS]
    assert "molecules" in section.noMatchNote.text() and "20" in section.noMatchNote.text()
    assert section.noMatchNote.isVisibleTo(section)
    section.filterField.setText("theme 1")
    assert section.noMatchNote.isHidden()


def _rows(section):
    model = section.list.model()
    return [(model.index(r, 0).data(TopicRole), model.index(r, 0).data()) for r in range(model.rowCount())]
