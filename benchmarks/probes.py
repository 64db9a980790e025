"""Measurements, each run in a fresh process (`python -m benchmarks.probes NAME ARGS…`) so that start-up
time and peak memory are the probe's own. Each prints one JSON object on its last line of stdout."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

QUERIES = [
    "learning",
    "neural network",
    "reinforcement learning policy",
    '"neural network"',
    '"gradient descent"',
    "trans*",
    "optim*",
    "optimzation~",
    "bayesian OR variational",
    "learning NOT neural",
    "title:graph",
    "author:smith",
    "year:2015..2018 AND kernel",
    "tag:vision",
    "state:read",
    "diffusion model",
]


STALL_GOAL_MS = 50  # the event loop's worst stall allowed (issue 18): a longer one is recorded with its stacks
PASTED_PAPERS = 8  # papers whose five search_quality queries (titles, sentences, typos) are timed too


def pasted_queries(lib, papers: int = PASTED_PAPERS, seed: int = 11) -> list[tuple[str, str]]:
    """(kind, text): what a researcher pastes or types for a paper they have in mind — its exact title, the
    title in lower case, its first four words, a sentence of its abstract, the title with a letter dropped
    (search_quality's queries for a fixed sample of papers)."""
    from benchmarks.search_quality import make_queries, sample_papers

    return [(kind, text) for item in make_queries(sample_papers(lib, papers, seed), seed)
            for kind, text in item["queries"].items() if text]  # fmt: skip


def last_key(q: str) -> str:
    """The query as typed up to the last key that changes what it means: the closing quote of a phrase
    does not (an unfinished phrase is already searched as if closed), so a phrase is timed at its last
    letter."""
    return q[:-1] if q.endswith('"') and q.count('"') % 2 == 0 else q


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def out(obj: dict) -> None:
    obj["peak_mb"] = round(peak_mb(), 1)
    print(json.dumps(obj))


# ---- import, and the naive baseline -------------------------------------------------------------------


def probe_import(corpus: str, data_dir: str, sampled: str = "1") -> None:
    """`readinglist import` into the library, with the duplicate rules on as always: every chunk's records
    are looked up among the other sources' papers (see the harness: the library already holds a sample of
    the corpus from another file, so some merge). Peak memory counts Whoosh's writer processes too; with
    `sampled` "0" it is not measured, and the import is timed as the naive build is, with no sampler beside
    it (its reads of /proc take ~6 % of a core the import's processes would use)."""
    from benchmarks import disk
    from benchmarks.memory import TreePeak
    from readinglist.library import Library

    tree = TreePeak().start() if sampled == "1" else None
    t = time.perf_counter()
    lib = Library.open(data_dir, seed=False)
    (summary,) = lib.import_files([Path(corpus)])
    seconds = time.perf_counter() - t
    papers = lib.store.count()
    lib.close()
    peaks = {"tree_peak_mb": tree.stop(), "tree_pss_peak_mb": round(tree.peak_pss_mb, 1)} if tree else {}
    out({"seconds": seconds, "added": summary.added, "merged": summary.merged, "possible": summary.possible,
         "papers": papers, **peaks, **disk.library(Path(data_dir))})  # fmt: skip


def probe_topics(data_dir: str) -> None:
    """Topics and the map computed and stored as the window does it (a child process), timed; peak memory
    of this process and its child."""
    from benchmarks.memory import TreePeak
    from readinglist.library import Library

    tree = TreePeak().start()
    lib = Library.open(data_dir, seed=False)
    t = time.perf_counter()
    lib.compute_topics(use_process=True)
    seconds = time.perf_counter() - t
    topics = len(lib.topics())
    lib.close()
    out({"seconds": seconds, "topics": topics, "tree_peak_mb": tree.stop()})


def probe_naive(corpus: str) -> None:
    """The baseline: read the same file, one Whoosh writer, the stock StemmingAnalyzer, default settings."""
    from whoosh import index
    from whoosh.analysis import StemmingAnalyzer
    from whoosh.fields import ID, TEXT, Schema

    from readinglist.importers import parse_file

    t = time.perf_counter()
    records = parse_file(Path(corpus)).records
    folder = tempfile.mkdtemp(prefix="naive-")
    schema = Schema(
        id=ID(stored=True, unique=True),
        title=TEXT(analyzer=StemmingAnalyzer()),
        abstract=TEXT(analyzer=StemmingAnalyzer()),
        authors=TEXT(),
    )
    ix = index.create_in(folder, schema)
    writer = ix.writer()
    for i, r in enumerate(records):
        writer.add_document(id=str(i), title=r.title, abstract=r.abstract, authors="; ".join(r.authors))
    writer.commit()
    seconds = time.perf_counter() - t
    shutil.rmtree(folder, ignore_errors=True)
    out({"seconds": seconds, "docs": len(records)})


# ---- search through the core, raw Whoosh, SQLite FTS5 -------------------------------------------------


def _prepare_annotations(lib) -> None:
    """Give tag: and state: queries something to find (a reader's morning: some tagged, some read)."""
    ids = lib.search("").ids
    if lib.counts()["read"] == 0 and ids:
        step = max(1, len(ids) // 200)
        lib.set_state(ids[::step], "read")
        lib.add_tags(ids[1::step], ["vision"])


def probe_search(data_dir: str, reps: str, only: str = "") -> None:
    """Core search latency (`only="core"`: without the raw Whoosh, FTS5 and export references)."""
    from whoosh import index as windex

    from readinglist.export import ExportOptions, render
    from readinglist.library import Library

    n = int(reps)
    lib = Library.open(data_dir, seed=False)
    _prepare_annotations(lib)
    from readinglist.papers import QueryError

    new, typed = [], []
    per_query = {}
    for q in QUERIES:
        nq, tq = [], []
        for _ in range(n):
            lib.index.drop_caches()  # a query none of whose words were searched before
            t = time.perf_counter()
            r = lib.search(q, typing=True)
            nq.append(time.perf_counter() - t)
            lib.index.drop_caches()  # as typed: the query one key shorter was searched just before
            text = last_key(q)
            with contextlib.suppress(QueryError):
                lib.search(text[:-1], typing=True)
            t = time.perf_counter()
            lib.search(text, typing=True)
            tq.append(time.perf_counter() - t)
        new += nq
        typed += tq
        per_query[q] = {"new_ms": round(min(nq) * 1000, 1), "typed_ms": round(min(tq) * 1000, 1), "hits": len(r.ids)}

    # pasted titles and sentences, typed titles with a slip: one search each, nothing cached (a paste), and
    # as typed (the text one key shorter searched just before)
    pasted_new: list[float] = []
    pasted_typed: list[float] = []
    pasted_kinds: dict[str, list[float]] = {}
    for kind, q in pasted_queries(lib):
        for _ in range(n):
            lib.index.drop_caches()
            t = time.perf_counter()
            with contextlib.suppress(QueryError):
                lib.search(q, typing=True)
            pasted_new.append(time.perf_counter() - t)
            pasted_kinds.setdefault(kind, []).append(pasted_new[-1])
            lib.index.drop_caches()
            with contextlib.suppress(QueryError):
                lib.search(q[:-1], typing=True)
            t = time.perf_counter()
            with contextlib.suppress(QueryError):
                lib.search(q, typing=True)
            pasted_typed.append(time.perf_counter() - t)

    ms = 1000
    core = {
        "core_new_p50_ms": pct(new, 50) * ms, "core_new_p95_ms": pct(new, 95) * ms,
        "core_typed_p50_ms": pct(typed, 50) * ms, "core_typed_p95_ms": pct(typed, 95) * ms,
        "per_query": per_query,
        "pasted_new_p50_ms": pct(pasted_new, 50) * ms, "pasted_new_p95_ms": pct(pasted_new, 95) * ms,
        "pasted_typed_p50_ms": pct(pasted_typed, 50) * ms, "pasted_typed_p95_ms": pct(pasted_typed, 95) * ms,
        "pasted_new_p95_ms_by_kind": {k: pct(v, 95) * ms for k, v in pasted_kinds.items()},
        "all_new_p95_ms": pct(new + pasted_new, 95) * ms, "all_typed_p95_ms": pct(typed + pasted_typed, 95) * ms,
    }  # fmt: skip
    if only == "core":
        lib.close()
        out(core)
        return

    # raw Whoosh on the same index: a stock parser and searcher, all hits with their paper ids (from the pid
    # column, as the index keeps them: nothing is stored)
    ix = windex.open_dir(str(Path(data_dir) / "index"))
    raw = []
    with ix.searcher() as s:
        pids = s.reader().column_reader("pid")
        for q in QUERIES:
            parsed = lib.index.parser.parse(q.replace("..", " TO ").replace("year:2015 TO 2018", "year:[2015 TO 2018]"))
            for _ in range(n):
                t = time.perf_counter()
                [pids[h.docnum] for h in s.search(parsed, limit=None)]
                raw.append(time.perf_counter() - t)

    # SQLite FTS5 over the same text, as a reference (built outside the timing)
    fts = sqlite3.connect(":memory:")
    fts.execute("CREATE VIRTUAL TABLE f USING fts5(title, abstract, authors, tokenize='porter')")
    ids = lib.search("").ids
    for start in range(0, len(ids), 5000):
        for p in lib.papers(ids[start : start + 5000]):
            fts.execute("INSERT INTO f(rowid, title, abstract, authors) VALUES (?, ?, ?, ?)",
                        (p.id, p.title, p.plain_abstract, " ; ".join(p.authors)))  # fmt: skip
    fts_times = []
    for q in QUERIES:
        fq = _fts_query(q)
        if fq is None:
            continue
        for _ in range(n):
            t = time.perf_counter()
            try:
                fts.execute("SELECT rowid FROM f WHERE f MATCH ? ORDER BY rank", (fq,)).fetchall()
            except sqlite3.OperationalError:
                break
            fts_times.append(time.perf_counter() - t)

    papers = lib.papers(ids[:10000])
    t = time.perf_counter()
    render(papers, ExportOptions(abstracts=True))
    export_s = time.perf_counter() - t
    lib.close()
    out({
        **core,
        "raw_whoosh_p50_ms": pct(raw, 50) * ms, "raw_whoosh_p95_ms": pct(raw, 95) * ms,
        "fts5_p50_ms": pct(fts_times, 50) * ms, "fts5_p95_ms": pct(fts_times, 95) * ms,
        "export_markdown_10k_s": export_s, "export_papers": len(papers),
    })  # fmt: skip


def _fts_query(q: str) -> str | None:
    """The query in FTS5 syntax where FTS5 has an equivalent (no fuzzy, years, tags or states)."""
    if any(x in q for x in ("~", "year:", "tag:", "state:")):
        return None
    q = q.replace("author:", "authors:")
    return q


# ---- the window: keystroke → table, stalls, memory ----------------------------------------------------


def probe_window(data_dir: str, reps: str, import_file: str = "") -> None:
    """The window as a reader has it: suggestions ranked and the topics and their map loaded (when the library
    has topics), then typing, triage keys, scrolling, suggestions and topics recomputed, and an import, each
    with its worst event-loop stall; the window's memory with all of it loaded, and its peak."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from benchmarks.heartbeat import Heartbeat
    from benchmarks.memory import TreePeak, high_water_mb, rss_mb
    from readinglist.app import create_main_window

    tree = TreePeak().start()
    app = QApplication.instance() or QApplication([])
    window = create_main_window(Path(data_dir))
    window.show()
    _prepare_annotations(window.library)
    # measure the steady state: the annotations above (1 paper in 200) go through the background index
    # writer, and every search first waits for it (so that it sees them)
    window.library.settle_index()  # and any merge of small segments the writer process started
    heartbeat = Heartbeat(watch_ms=STALL_GOAL_MS)  # a stall past the goal: every thread's stack, in the JSON
    stall_stacks: dict[str, list[dict]] = {}

    def phase_over(name: str) -> float:
        """A phase's worst stall, its stacks kept if one passed the goal."""
        stall_stacks[name] = heartbeat.stacks()
        return heartbeat.worst()

    def wait_until(cond, timeout_ms: int = 60000) -> None:
        """Wait in Qt's own event loop, as the app does (the GIL is free while it sleeps); spinning
        processEvents() here would take the GIL from the search thread and slow what is measured."""
        deadline = time.perf_counter() + timeout_ms / 1000
        loop = QEventLoop()
        tick = QTimer()
        tick.setInterval(1)
        tick.timeout.connect(lambda: (cond() or time.perf_counter() > deadline) and loop.quit())
        while not cond() and time.perf_counter() < deadline:
            tick.start()
            loop.exec()
            tick.stop()

    suggester, topics_bar, map_view = window.suggester, window.topics_bar, window.map_pane.view

    def ranked() -> bool:
        return suggester.idle and (suggester.ranking is not None or suggester.reason is not None)

    # loading: the first ranking of the suggestions (the marks above), the topics, the map shown once
    heartbeat.start()
    t_load = time.perf_counter()
    has_topics = bool(window.library.topics())
    wait_until(lambda: window.table.model.rowCount() > 0 and window.search_bar.idle)
    # the window's warm-up ends by asking for a first ranking of its own: waited for, so that it and the
    # correction words it reads count as loading, not as the typing after it (older code has no flag)
    wait_until(lambda: getattr(window, "warmed_up", True), timeout_ms=300000)
    suggester.schedule(force=True)  # the marks were made after the window ranked (nothing to learn from then)
    wait_until(lambda: ranked() and not topics_bar.running, timeout_ms=1800000)
    if has_topics:
        window.show_tab(1)
        wait_until(lambda: map_view.data is not None and map_view.up_to_date, timeout_ms=300000)
        window.show_tab(0)
    wait_until(lambda: window.search_bar.idle)
    load_s = time.perf_counter() - t_load
    load_stall = phase_over("load")
    loaded = {"suggestions": suggester.ranking is not None, "topics": len(window.topics_section.topics),
              "map": map_view.data is not None}  # fmt: skip
    loaded_mb = rss_mb(os.getpid())
    peaks = {"loading": high_water_mb(os.getpid())}  # the window's peak so far, after each phase

    field, table = window.search_bar.field, window.table.view

    def settle() -> None:
        wait_until(lambda: window.search_bar.idle)

    wait_until(lambda: window.table.model.rowCount() > 0)
    settle()

    class PaintWatch(QObject):
        """The end of the table's first repaint after a search: a zero-timer queued from its paint event
        fires once that paint is done."""

        def __init__(self) -> None:
            super().__init__()
            self.armed = False
            self.painted: list[float] = []

        def eventFilter(self, obj, event):
            if self.armed and event.type() == QEvent.Type.Paint:
                self.armed = False
                QTimer.singleShot(0, lambda: self.painted.append(time.perf_counter()))
            return False

    watch = PaintWatch()
    window.table.view.viewport().installEventFilter(watch)
    latencies = []
    painted_latencies = []
    per_query: dict[str, list[float]] = {}
    pasted = [text for _, text in pasted_queries(window.library)]  # titles and sentences, as the goal says
    pasted_latencies: list[float] = []
    heartbeat.reset()
    for _ in range(int(reps)):
        for q in [*QUERIES, *pasted]:
            typed = last_key(q)
            field.setFocus()
            field.setText(typed[:-1])
            settle()
            done = []
            conn = window.searchFinished.connect(
                lambda done=done: (done.append(time.perf_counter()), setattr(watch, "armed", True))
            )
            watch.painted.clear()
            # each repetition pays for its search (no cached result); the words of the query one key
            # shorter, searched just before, stay cached, as they do while a reader types
            window.library.index.drop_caches(terms=False)
            t0 = time.perf_counter()
            QTest.keyClick(field, typed[-1])
            wait_until(lambda t=typed: (r := window.search_bar.last_result) is not None and r.query == t)
            wait_until(lambda done=done: bool(done) or window.search_bar.error.isVisible())
            window.searchFinished.disconnect(conn)
            if done and (r := window.search_bar.last_result) is not None and r.query == typed:
                latencies.append(done[-1] - t0)  # every match, ranked, in the table
                if q in QUERIES:
                    per_query.setdefault(q, []).append(latencies[-1] * 1000)
                else:
                    pasted_latencies.append(latencies[-1])
                wait_until(lambda: bool(watch.painted), timeout_ms=2000)
                if watch.painted:
                    painted_latencies.append(watch.painted[0] - t0)  # and those rows on the screen
            watch.armed = False
    # clearing the field is typing too: the whole library comes back, is painted and its first paper shown
    # (at 94k papers this work spilled into the triage keys pressed right after it: 39–57 ms there, 13–25 ms
    # with the pause below; it is measured here instead)
    field.setText("")
    settle()
    table.setFocus()
    window.table.select_row(0)
    wait_until(lambda: False, timeout_ms=500)  # a reader looks at the list before the first key
    typing_stall = phase_over("typing")
    peaks["typing"] = high_water_mb(os.getpid())

    # triage keys: mark and advance, as a reader does
    heartbeat.reset()
    for key in "rsurrsjjkk" * 3:
        QTest.keyClick(table, key)
        app.processEvents()
    wait_until(lambda: window.library.flush_index(0.001))
    triage_stall = phase_over("triage")
    peaks["triage"] = high_water_mb(os.getpid())

    # scrolling the whole table
    heartbeat.reset()
    bar = table.verticalScrollBar()
    steps = 200
    for i in range(steps + 1):
        bar.setValue(bar.maximum() * i // steps)
        table.viewport().repaint()
        app.processEvents()
    scroll_stall = phase_over("scrolling")
    peaks["scrolling"] = high_water_mb(os.getpid())

    # recomputing: the suggestions re-ranked and the topics and map computed again (a child process computes
    # them; the window waits, stores and shows them)
    heartbeat.reset()
    t_recompute = time.perf_counter()
    suggester.schedule(force=True)
    if has_topics:
        topics_bar.recompute()
    wait_until(lambda: ranked() and not topics_bar.running, timeout_ms=1800000)
    wait_until(lambda: window.search_bar.idle)
    recompute_s = time.perf_counter() - t_recompute
    recompute_stall = phase_over("recompute")
    peaks["recompute"] = high_water_mb(os.getpid())

    import_stall = None
    if import_file:
        heartbeat.reset()
        finished = []
        window.importFinished.connect(lambda r: finished.append(r))
        window.start_import([Path(import_file)])
        wait_until(lambda: bool(finished), timeout_ms=900000)
        import_stall = phase_over("import")
        peaks["import"] = high_water_mb(os.getpid())
    heartbeat.stop()
    rows = window.table.model.rowCount()
    window.close()
    window.shutdown()
    out({
        "keystroke_p50_ms": pct(latencies, 50) * 1000, "keystroke_p95_ms": pct(latencies, 95) * 1000,
        "keystroke_pasted_p95_ms": pct(pasted_latencies, 95) * 1000, "typed_queries": len(QUERIES) + len(pasted),
        "keystroke_painted_p50_ms": pct(painted_latencies, 50) * 1000,
        "keystroke_painted_p95_ms": pct(painted_latencies, 95) * 1000,
        "stall_typing_ms": typing_stall, "stall_triage_ms": triage_stall, "stall_scroll_ms": scroll_stall,
        "stall_import_ms": import_stall, "rows": rows,
        "stall_stacks": {phase: stacks for phase, stacks in stall_stacks.items() if stacks},
        "stall_load_ms": load_stall, "load_s": load_s, "stall_recompute_ms": recompute_stall,
        "recompute_s": recompute_s, "loaded": loaded, "loaded_mb": round(loaded_mb, 1),
        "tree_peak_mb": tree.stop(), "peak_after_mb": {k: round(v, 1) for k, v in peaks.items()},
        "keystroke_per_query_ms": {q: round(min(v), 1) for q, v in per_query.items()},
    })  # fmt: skip


def probe_bare_window() -> None:
    """The reference for start-up: an empty QMainWindow, shown and painted once."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableView

    app = QApplication([])
    window = QMainWindow()
    table = QTableView()
    window.setCentralWidget(table)

    painted: list[float] = []

    class Watch(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                QTimer.singleShot(0, lambda: (painted.append(time.time()), app.quit()))  # as the smoke test
            return False

    watch = Watch()
    table.viewport().installEventFilter(watch)
    window.show()
    app.exec()
    print(f"painted at {painted[0]:.3f}", file=sys.stderr)
    out({})


if __name__ == "__main__":
    name, *args = sys.argv[1:]
    {"import": probe_import, "naive": probe_naive, "search": probe_search, "window": probe_window,
     "bare-window": probe_bare_window, "topics": probe_topics}[name](*args)  # fmt: skip
    sys.stdout.flush()
    # Skip interpreter finalisation: PySide6 6.12 can abort while garbage-collecting Qt objects at exit
    # (bool_dealloc) after a QTest-driven session; the measurement is already printed.
    os._exit(0)
