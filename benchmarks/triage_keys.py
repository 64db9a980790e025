"""What a triage key costs in the window, measured side by side against another checkout (issue 15).

    .venv/bin/python benchmarks/triage_keys.py compare OLD_TREE OLD_DATA NEW_DATA [--rounds 3] [--keys 60]

runs the window of the checkout OLD_TREE (e.g. `git archive` of the commit before) on OLD_DATA and this
checkout's window on NEW_DATA, alternately, each in a fresh process, and prints each key's cost and the
ratios. OLD_DATA and NEW_DATA should hold the same library (NEW_DATA migrated by this checkout). A key's
cost is the time QTest.keyClick takes — the mark, its undo command, the row refreshed, the counts, the
status bar and "triaged N of M" — plus the turn of the event loop that shows the next paper; the worst gap
of a 5 ms timer while the keys are pressed says whether anything else (lists counted in the background,
the index writer) got in the way. The run is made in three views: every paper, the unread papers, and a
query's matches. `probe DATA KEYS ROUNDS` is one such process (run by `compare`); `parts DATA` presses
the keys at a reader's pace (the event loop run between them) and times each step of a key.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
VIEWS = ("all", "unread", "query")
QUERY = "learning"


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] if values else 0.0


def _heartbeat():  # type: ignore[no-untyped-def]
    """benchmarks/heartbeat.py's Heartbeat, loaded from this checkout by its path: the probe runs with
    another checkout first on PYTHONPATH (its readinglist is the one measured), which may have none."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_rl_heartbeat", HERE.parent / "heartbeat.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.Heartbeat()


def probe(data_dir: str, keys: str, rounds: str, lists: str = "0") -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from readinglist.app import create_main_window

    _app = QApplication.instance() or QApplication([])  # kept alive for the window
    window = create_main_window(Path(data_dir))
    window.show()
    lib = window.library
    if int(lists) and hasattr(lib, "add_smart_list"):  # this checkout: lists counted live meanwhile
        for name, query, state in (("b-unread", "", "unread"), ("b-diffusion", "diffusion", None),
                                   ("b-queued", "priority:1", "queued")):  # fmt: skip
            if name not in [sl.name for sl in lib.smart_lists()]:
                lib.add_smart_list(name, query, state)
        window.update_lists()

    def wait_until(cond, timeout_ms: int = 120000) -> None:
        deadline = time.perf_counter() + timeout_ms / 1000
        loop = QEventLoop()
        tick = QTimer()
        tick.setInterval(1)
        tick.timeout.connect(lambda: (cond() or time.perf_counter() > deadline) and loop.quit())
        while not cond() and time.perf_counter() < deadline:
            tick.start()
            loop.exec()
            tick.stop()

    def settle(ms: int = 300) -> None:
        """No search and no work on the pool (the warm-up, lists being counted), then `ms` more."""
        wait_until(lambda: window.search_bar.idle and window.runner.pool.activeThreadCount() == 0)
        end = time.perf_counter() + ms / 1000
        wait_until(lambda: time.perf_counter() > end)

    wait_until(lambda: window.table.model.rowCount() > 0)
    settle(1500)  # the warm-up: the index loaded, the writer process started
    heartbeat = _heartbeat()
    table = window.table.view
    out: dict[str, dict[str, float]] = {}
    for view in VIEWS:
        window.search_bar.set_text(QUERY if view == "query" else "")
        window.sidebar.set_filter(_view_filter(window.sidebar.filter, "unread" if view == "unread" else None))
        window.search_bar.run()
        settle()
        costs: list[float] = []
        shown_next: list[float] = []
        key_gaps: list[float] = []
        pause_gaps: list[float] = []
        heartbeat.start()
        for _ in range(int(rounds)):
            table.setFocus()
            window.table.select_row(0)
            settle(1000)  # the paper selected is shown, its related papers found
            heartbeat.reset()
            for key in keys:
                t0 = time.perf_counter()
                QTest.keyClick(table, key)
                t1 = time.perf_counter()
                done: list[float] = []
                QTimer.singleShot(0, lambda done=done: done.append(time.perf_counter()))
                wait_until(lambda done=done: bool(done))
                costs.append((t1 - t0) * 1000)
                shown_next.append((done[0] - t0) * 1000)
            key_gaps += heartbeat.gaps
            heartbeat.reset()
            settle(LIST_PAUSE_MS)  # the lists are recounted once the keys pause
            pause_gaps += heartbeat.gaps
        heartbeat.stop()
        out[view] = {
            "rows": window.table.model.rowCount(),
            "key_p50_ms": statistics.median(costs),
            "key_p95_ms": _pct(costs, 95),
            "key_to_idle_p50_ms": statistics.median(shown_next),
            "stall_ms": max(key_gaps, default=0.0),  # while the keys are pressed, one after another
            "stall_pause_ms": max(pause_gaps, default=0.0),  # in the pause after (lists recounted, related papers)
        }
    while window.undo_stack.canUndo():  # leave the library as it was, for the next process
        window.undo_stack.undo()
    lib.flush_index(60)
    window.close()
    window.shutdown()
    print(json.dumps(out))


LIST_PAUSE_MS = 1200


def parts(data_dir: str, keys: str = "rsu" * 40) -> None:
    """The keys one at a time with the event loop run between them (a reader's pace), in the all-papers
    view once the warm-up is over, and what each step of a key took: one process's figures, to run
    alternately with the other checkout's (`parts DATA` under each PYTHONPATH)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from collections import defaultdict

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from readinglist.app import create_main_window

    app = QApplication.instance() or QApplication([])
    window = create_main_window(Path(data_dir))
    window.show()

    def wait(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    while window.table.model.rowCount() == 0:
        wait(50)
    wait(2000)
    while window.runner.pool.activeThreadCount():
        wait(100)
    times: dict[str, list[float]] = defaultdict(list)

    def wrap(obj: object, name: str, label: str) -> None:
        real = getattr(obj, name, None)
        if real is None:  # the other checkout may not have it
            return

        def timed(*args: object, **kwargs: object) -> object:
            t = time.perf_counter()
            result = real(*args, **kwargs)
            times[label].append((time.perf_counter() - t) * 1000)
            return result

        setattr(obj, name, timed)

    lib = window.library
    steps = [(lib, "set_state"), (window.table, "refresh"), (lib, "states"), (lib, "counts"),
             (window.sidebar, "update_counts"), (window, "_update_status"), (window.table, "move")]  # fmt: skip
    for obj, name in steps:
        wrap(obj, name, f"{type(obj).__name__}.{name}")
    window.table.view.setFocus()
    window.table.select_row(0)
    wait(500)
    costs = []
    for key in keys:
        t = time.perf_counter()
        QTest.keyClick(window.table.view, key)
        costs.append((time.perf_counter() - t) * 1000)
        app.processEvents()
    report = {"key": {"p50": statistics.median(costs), "p95": _pct(costs, 95), "max": max(costs)}}
    for label, values in times.items():
        report[label] = {"p50": statistics.median(values), "p95": _pct(values, 95), "sum": sum(values)}
    while window.undo_stack.canUndo():
        window.undo_stack.undo()
    lib.flush_index(60)
    window.close()
    window.shutdown()
    print(json.dumps(report))


def _view_filter(current: object, state: str | None) -> object:
    """The sidebar's filter for a state (None: all papers), in this checkout's type or the old tuple."""
    if isinstance(current, tuple):  # before issue 15: ("all", None) or ("state", name)
        return ("state", state) if state else ("all", None)
    return type(current)(state=state)


def prepare(tree: str, data: str) -> None:
    """A reader's morning, the same in both libraries: 1 paper in 50 read, 1 in 77 skimmed."""
    env = dict(os.environ, PYTHONPATH=tree)
    code = ("import sys; from readinglist.library import Library; lib = Library.open(sys.argv[1]);"
            " ids = lib.store.all_ids(); lib.set_state(ids[::50], 'read'); lib.set_state(ids[::77], 'skimmed');"
            " print(lib.counts()); lib.close()")  # fmt: skip
    subprocess.run([sys.executable, "-c", code, data], check=True, env=env, cwd=tree, timeout=3600)


def run_probe(tree: Path, data: str, keys: str, rounds: int, lists: bool) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(tree))
    cmd = [sys.executable, str(HERE), "probe", data, keys, str(rounds), "1" if lists else "0"]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree, timeout=3600)
    if r.returncode != 0:
        raise RuntimeError(f"probe failed ({tree}):\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def compare(old_tree: str, old_data: str, new_data: str, rounds: int = 3, keys: int = 30) -> None:
    """Old and new alternately, `rounds` processes each; medians of each figure, and new/old ratios."""
    sequence = ("rsu" * keys)[:keys]
    results: dict[str, list[dict]] = {"old": [], "new": [], "new+lists": []}
    here = HERE.parent.parent
    for i in range(rounds):
        print(f"round {i + 1}/{rounds}", file=sys.stderr, flush=True)
        results["old"].append(run_probe(Path(old_tree), old_data, sequence, 2, False))
        results["new"].append(run_probe(here, new_data, sequence, 2, False))
        results["new+lists"].append(run_probe(here, new_data, ("xq1rsu" * keys)[:keys], 2, True))
    table = {}
    for name, runs in results.items():
        table[name] = {view: {k: statistics.median(r[view][k] for r in runs) for k in runs[0][view]} for view in VIEWS}
    print(json.dumps(table, indent=2))
    for view in VIEWS:
        old, new, more = table["old"][view], table["new"][view], table["new+lists"][view]
        print(f"{view:7} rows {new['rows']:>6,}: key p50 {old['key_p50_ms']:.1f} → {new['key_p50_ms']:.1f} ms"
              f" ({new['key_p50_ms'] / old['key_p50_ms']:.2f}×), p95 {old['key_p95_ms']:.1f} →"
              f" {new['key_p95_ms']:.1f} ms; to idle {old['key_to_idle_p50_ms']:.1f} →"
              f" {new['key_to_idle_p50_ms']:.1f} ms; worst gap {old['stall_ms']:.0f} → {new['stall_ms']:.0f} ms"
              f" (x/q/1 too, 3 lists counted live: key p50 {more['key_p50_ms']:.1f} ms,"
              f" worst gap {more['stall_ms']:.0f} ms, in the pause after {more['stall_pause_ms']:.0f} ms;"
              f" before: {old['stall_pause_ms']:.0f} ms)")  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["probe"]:
        probe(*sys.argv[2:])
    elif sys.argv[1:2] == ["parts"]:
        parts(*sys.argv[2:4])
    elif sys.argv[1:2] == ["prepare"]:
        prepare(*sys.argv[2:4])
    elif sys.argv[1:2] == ["compare"]:
        args = sys.argv[2:]
        opts = {"--rounds": 3, "--keys": 30}
        for flag in list(opts):
            if flag in args:
                at = args.index(flag)
                opts[flag] = int(args[at + 1])
                del args[at : at + 2]
        compare(*args[:3], rounds=opts["--rounds"], keys=opts["--keys"])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
