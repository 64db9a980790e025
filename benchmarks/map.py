"""The map tab (issue 16, point 2) in the window: how long the window's thread is held up while the map opens,
pans, zooms, is hovered, selects an area and marks it, and the window's memory with the map loaded.

    .venv/bin/python -m benchmarks.map                     # NeurIPS 8,263 and all venues 94,374
    .venv/bin/python -m benchmarks.map --quick             # NeurIPS only, one run
    .venv/bin/python -m benchmarks.map --data NAME=DIR …   # libraries imported before (topics computed if due)

Each run is a fresh process driving the window offscreen, as a reader would, with a 5 ms timer on the window's
thread; a stall is the timer's longest gap. The same process first sits idle for two seconds with the timer
running: that gap is what the (shared) machine alone costs, the reference for the others. Pointer events are
sent as the window system would deliver them, paced as a hand moves (a drag step every 16 ms, a wheel click
every 60 ms); nothing is measured while the event loop is spun by hand. Memory is the window process's
resident set (VmRSS) before the map is first shown and after it is loaded, and its peak (VmHWM).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from benchmarks.report import ROOT, write_section

SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared"))
CORPORA = {
    "neurips": SHARED / "corpora" / "neurips_1987_2018.jsonl.gz",
    "all_venues": SHARED / "corpora" / "paperlists_all_venues.jsonl.xz",
}
RESULTS = ROOT / "benchmarks" / "results"
PHASES = ["idle", "search_list", "open", "pan", "zoom", "zoomed_pan", "hover", "search", "colour", "select_small",
          "mark_small", "select_large", "mark_large"]  # fmt: skip
SEARCHES = ["learning", "reinforcement learning", "graph neural", ""]


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(data_dir: str) -> dict:
    """One session with the window over the library in `data_dir` (run in a fresh process)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QEventLoop, QPoint, QPointF, Qt, QTimer
    from PySide6.QtGui import QMouseEvent, QWheelEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from benchmarks.heartbeat import Heartbeat
    from readinglist.app import create_main_window

    app = QApplication.instance() or QApplication([])  # noqa: F841 - the window needs it
    renders: list[float] = []

    def time_renders() -> None:
        """Time each render from now on (numpy and the map's modules are loaded by the map itself, while
        its opening is measured)."""
        import readinglist.ui.map_render as map_render

        rasterise = map_render.rasterise

        def timed_rasterise(*args, **kwargs):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            try:
                return rasterise(*args, **kwargs)
            finally:
                renders.append((time.perf_counter() - started) * 1000)

        map_render.rasterise = timed_rasterise

    from PySide6.QtCore import QSettings

    settings = QSettings(str(Path(data_dir) / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("centerTab", "papers")  # the map is opened (and loaded) while measured
    settings.setValue("lastQuery", "")
    settings.sync()
    window = create_main_window(Path(data_dir))
    window.resize(1400, 900)
    window.show()
    heartbeat = Heartbeat()

    def pause(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def wait_until(cond, timeout_ms: int = 120000) -> None:  # type: ignore[no-untyped-def]
        deadline = time.perf_counter() + timeout_ms / 1000
        while not cond() and time.perf_counter() < deadline:
            pause(2)

    stalls: dict[str, float] = {}

    current = [""]

    def phase(name: str) -> None:
        heartbeat.reset()
        current[0] = name

    peaks: dict[str, float] = {}

    def end() -> None:
        stalls[current[0]] = heartbeat.worst()
        peaks[current[0]] = round(_status_mb("VmHWM"), 1)  # the peak so far, after each phase

    view = window.map_pane.view

    def settled() -> bool:
        return view.data is not None and view.up_to_date

    wait_until(lambda: window.table.model.rowCount() > 0 and window.search_bar.idle)
    pause(1500)  # the index warm-up and the topics check are over
    numpy_loaded = {"numpy"} if "numpy" in sys.modules else set()  # loaded before the map was opened?
    heartbeat.start()
    phase("idle")
    pause(2000)
    end()
    rss_before = _status_mb("VmRSS")

    def searches() -> None:
        for text in SEARCHES:
            window.search_bar.set_text(text)
            wait_until(lambda: window.search_bar.idle)
            wait_until(lambda: view.data is None or view.up_to_date)
            pause(200)

    phase("search_list")  # the reference: the same searches with the papers' list shown, no map loaded
    searches()
    end()

    phase("open")
    load_started = time.perf_counter()
    window.show_tab(1)
    wait_until(settled)
    load_s = time.perf_counter() - load_started
    end()
    pause(300)
    rss_loaded = _status_mb("VmRSS")
    numpy_before = "numpy" in numpy_loaded
    time_renders()
    papers = len(view.data.ids) if view.data is not None else 0

    def send(kind, pos, button, buttons) -> None:  # type: ignore[no-untyped-def]
        event = QMouseEvent(kind, pos, view.mapToGlobal(pos), button, buttons, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(view, event)

    centre = QPointF(view.width() / 2, view.height() / 2)

    def drag_pan(steps: int, dx: float, dy: float) -> None:
        pos = QPointF(centre)
        right = Qt.MouseButton.RightButton
        send(QEvent.Type.MouseButtonPress, pos, right, right)
        for i in range(steps):
            sign = 1 if (i // (steps // 4 or 1)) % 2 == 0 else -1  # back and forth
            pos = pos + QPointF(dx * sign, dy * sign)
            send(QEvent.Type.MouseMove, pos, Qt.MouseButton.NoButton, right)
            pause(16)
        send(QEvent.Type.MouseButtonRelease, pos, right, Qt.MouseButton.NoButton)
        wait_until(settled)

    def wheel(clicks: int, at: QPointF) -> None:
        for _ in range(abs(clicks)):
            delta = QPoint(0, 120 if clicks > 0 else -120)
            event = QWheelEvent(at, view.mapToGlobal(at), QPoint(), delta, Qt.MouseButton.NoButton,
                                Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)  # fmt: skip
            QApplication.sendEvent(view, event)
            pause(60)
        wait_until(settled)

    renders.clear()
    phase("pan")
    drag_pan(120, 8, 5)
    end()
    pan_renders = list(renders)

    renders.clear()
    phase("zoom")
    wheel(12, centre + QPointF(60, -40))
    wheel(-12, centre + QPointF(60, -40))
    end()
    zoom_renders = list(renders)

    phase("zoomed_pan")
    wheel(10, centre)
    drag_pan(120, 10, 4)
    end()
    view.fit()
    wait_until(settled)

    phase("hover")
    hovered = set()
    for i in range(300):
        t = i / 300
        pos = QPointF(view.width() * (0.1 + 0.8 * t), view.height() * (0.2 + 0.6 * ((i * 37) % 100) / 100))
        send(QEvent.Type.MouseMove, pos, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)
        if view.hovered is not None:
            hovered.add(view.hovered)
        pause(10)
    end()

    phase("search")  # the same searches with the map shown: its results lit
    searches()
    end()

    phase("colour")
    window.map_pane.set_colour_by("state")
    wait_until(settled)
    window.map_pane.set_colour_by("topic")
    wait_until(settled)
    pause(200)
    end()
    left = Qt.MouseButton.LeftButton
    selected: dict[str, int] = {}
    read: dict[str, int] = {}
    # an area of one topic's size (a twentieth of the map's width and height), then a large one
    for size, (x0, y0, x1, y1) in (("small", (0.45, 0.45, 0.5, 0.5)), ("large", (0.1, 0.1, 0.55, 0.6))):
        phase(f"select_{size}")
        start, stop = QPointF(view.width() * x0, view.height() * y0), QPointF(view.width() * x1, view.height() * y1)
        send(QEvent.Type.MouseButtonPress, start, left, left)
        for i in range(1, 21):
            send(QEvent.Type.MouseMove, start + (stop - start) * (i / 20), Qt.MouseButton.NoButton, left)
            pause(16)
        send(QEvent.Type.MouseButtonRelease, stop, left, Qt.MouseButton.NoButton)
        wait_until(settled)
        pause(300)
        end()
        selected[size] = len(view.area_ids)
        phase(f"mark_{size}")
        view.setFocus()
        QTest.keyClick(view, Qt.Key.Key_R)
        wait_until(lambda: window.library.flush_index(0.001))
        wait_until(settled)
        pause(300)
        end()
        read[size] = window.library.counts()["read"]
        QTest.keyClick(view, Qt.Key.Key_Escape)
        window.actionUndo.trigger()
        wait_until(lambda: window.library.flush_index(0.001))
        wait_until(lambda: window.search_bar.idle and settled())

    heartbeat.stop()
    result = {
        "papers": papers,
        "stalls_ms": {k: round(v, 1) for k, v in stalls.items()},
        "open_s": round(load_s, 2),
        "numpy_loaded_before_map": numpy_before,
        "renders_pan_ms": _summary(pan_renders),
        "renders_zoom_ms": _summary(zoom_renders),
        "hovered_papers": len(hovered),
        "area_selected": selected,
        "marked_read": read,
        "rss_before_map_mb": round(rss_before, 1),
        "rss_map_loaded_mb": round(rss_loaded, 1),
        "rss_peak_mb": round(_status_mb("VmHWM"), 1),
        "peak_after_mb": peaks,
    }
    window.close()
    window.shutdown()
    return result


def _summary(values: list[float]) -> dict:
    if not values:
        return {}
    values = sorted(values)
    return {"count": len(values), "median": round(statistics.median(values), 1), "max": round(values[-1], 1)}


def run_probe(data: Path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-m", "benchmarks.map", "--probe", str(data)], capture_output=True,
                         text=True, env=env, cwd=ROOT, check=False, timeout=1800)  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"map probe failed: {out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def prepare(name: str, data: Path | None, work: Path) -> Path:
    """A library of the corpus with its topics computed: the one given, or imported now."""
    from readinglist.library import Library

    if data is None:
        data = work / name
        log(f"importing {CORPORA[name].name}…")
        lib = Library.open(data, seed=False)
        lib.import_files([CORPORA[name]])
        lib.close()
    lib = Library.open(data, seed=False)
    try:
        if lib.topics_status().outdated:
            log("  computing topics…")
            lib.compute_topics()
    finally:
        lib.close()
    return data


def report(results: dict) -> list[str]:
    lines = [
        "## The map (issue 16)",
        "",
        f"`python -m benchmarks.map` on {results['date']} (2 cores, shared with other work: read each stall beside "
        "the idle gap of the same session, and the map's searches beside the same searches with only the list "
        "shown). The longest gap of a 5 ms timer on the window's thread, in ms, per session; pointer events paced "
        "as a hand moves (see the script's docstring). *Area*: a drag over a twentieth of the map's width and "
        "height (about one topic), or over nearly half of it; *r*: marking that area read.",
        "",
        "| library | session | idle | searches, list | open the map | pan | zoom | pan zoomed in | hover | "
        "searches, map | colour toggle | small area | r on it | large area | r on it |",
        "|---|---|" + "---|" * (len(PHASES)),
    ]
    for name, runs in results["libraries"].items():
        for i, run in enumerate(runs, start=1):
            s = run["stalls_ms"]
            cells = " | ".join(f"{s[p]:.0f}" if p in s else "" for p in PHASES)
            lines.append(f"| {name} ({run['papers']:,}) | {i} | {cells} |")
        if len(runs) > 2:
            medians = [statistics.median(r["stalls_ms"].get(p, 0) for r in runs) for p in PHASES]
            lines.append(f"| {name} | median | " + " | ".join(f"**{m:.0f}**" for m in medians) + " |")
    lines += [
        "",
        "| library | open (s) | a render while panning / zooming: median, max ms | areas selected (and marked) | "
        "window RSS before the map / with it / peak |",
        "|---|---|---|---|---|",
    ]
    for name, runs in results["libraries"].items():
        run = runs[-1]
        pan, zoom = run["renders_pan_ms"], run["renders_zoom_ms"]
        area = run["area_selected"]
        areas = " and ".join(f"{v:,}" for v in area.values()) if isinstance(area, dict) else f"{area:,}"
        lines.append(
            f"| {name} | {run['open_s']} | {pan.get('median', 0)}, {pan.get('max', 0)} / {zoom.get('median', 0)}, "
            f"{zoom.get('max', 0)} | {areas} papers | {run['rss_before_map_mb']:.0f} / {run['rss_map_loaded_mb']:.0f}"
            f" / {run['rss_peak_mb']:.0f} MB |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="NeurIPS only, one run")
    parser.add_argument("--runs", type=int, default=None, help="sessions per library (default 2; 1 with --quick)")
    parser.add_argument("--data", action="append", default=[], metavar="NAME=DIR", help="a library to reuse")
    parser.add_argument("--no-report", action="store_true", help="print the JSON; write no files")
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(args.probe)))
        sys.stdout.flush()
        os._exit(0)  # as benchmarks.probes: PySide6 may abort while collecting Qt objects at exit
    given = dict(item.split("=", 1) for item in args.data)
    names = ["neurips"] if args.quick else ["neurips", "all_venues"]
    runs = args.runs or (1 if args.quick else 2)
    results: dict = {"date": date.today().isoformat(), "libraries": {}}
    with tempfile.TemporaryDirectory(prefix="readinglist-map-bench-") as tmp:
        for name in names:
            if name not in given and not CORPORA[name].exists():
                log(f"missing corpus {CORPORA[name]}")
                return 1
            data = prepare(name, Path(given[name]) if name in given else None, Path(tmp))
            results["libraries"][name] = []
            for i in range(runs):
                log(f"{name}: session {i + 1}…")
                results["libraries"][name].append(run_probe(data))
                log(f"  {results['libraries'][name][-1]}")
    if args.no_report:
        print(json.dumps(results, indent=2))
        return 0
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"map-{results['date']}{'-quick' if args.quick else ''}.json").write_text(
        json.dumps(results, indent=2) + "\n"
    )
    lines = report(results)
    write_section("map", lines)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
