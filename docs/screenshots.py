"""Make the README's screenshots: the app on Xvfb with the bundled corpus, at 1600×1000 and 1024×700, light and
dark (docs/screenshot[-small][-dark].png); and with --topics, docs/screenshot-topics.png and
docs/screenshot-map.png: the Topics section and the map on the NeurIPS 1987–2018 library.

    python docs/screenshots.py                  (starts its own Xvfb when there is no DISPLAY; needs `xvfb`)
    python docs/screenshots.py --topics [DIR]   (DIR: a NeurIPS library to reuse; else one is imported)

Each screenshot runs in a fresh temporary library with a few papers tagged, triaged and annotated, the way a
reader's library looks after a morning with it (the NeurIPS one: a copy of DIR, or imported from
../shared/corpora, which is never copied into the project).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUERY = "learning"


SHOTS = [  # scheme, width, height, file
    ("light", 1600, 1000, "screenshot.png"),
    ("dark", 1600, 1000, "screenshot-dark.png"),
    ("light", 1024, 700, "screenshot-small.png"),
    ("dark", 1024, 700, "screenshot-small-dark.png"),
]


def shoot(scheme: str, out: Path, width: int, height: int) -> None:
    os.environ["READINGLIST_COLOR_SCHEME"] = scheme
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from readinglist.app import app_icon, apply_color_scheme, create_main_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    apply_color_scheme(app)
    app.setWindowIcon(app_icon())
    data = Path(tempfile.mkdtemp(prefix="rl-shot-"))
    window = create_main_window(data)
    lib = window.library
    ids = lib.search("").ids
    lib.set_state(ids[:5], "read")
    lib.set_state(ids[5:8], "skimmed")
    lib.add_tags([ids[0], ids[6], ids[10]], ["reinforcement learning"])
    lib.add_tags([ids[1], ids[17]], ["multimodal", "to discuss"])
    lib.add_tags([ids[2]], ["efficiency"])
    bexa = lib.search("BEXA").ids[0]
    ddsvm = lib.search("DDSVM").ids[0]
    lib.add_tags([ddsvm], ["to discuss"])
    lib.set_note(ddsvm, "Margin as a **training signal** — compare with max-margin softmax.")
    lib.set_note(
        bexa, "Compare the exit budget with **adaptive computation time**.\n\n- check Table 2\n- code released"
    )
    window.update_counts()
    window.resize(width, height)
    window.show()

    def wait(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    window.search_bar.set_text(QUERY)
    wait(600)
    shown = window.table.model.ids
    window.table.select_ids(shown[3:6])
    window.mark("skimmed")  # the status bar says what it did, with Undo
    if not window.table.go_to(ddsvm):
        window.show_in_library(ddsvm)
    wait(1800)  # related papers come once the selection has rested (700 ms)
    window.grab().save(str(out))
    print(f"wrote {out}")
    window.close()
    window.shutdown()
    shutil.rmtree(data, ignore_errors=True)


NEURIPS = HERE.parent.parent / "shared" / "corpora" / "neurips_1987_2018.jsonl.gz"


def neurips_library(given: str | None) -> Path:
    """A NeurIPS library with its topics: a copy of the one given, or imported now."""
    from readinglist.library import Library

    data = Path(tempfile.mkdtemp(prefix="rl-shot-topics-")) / "data"
    if given:
        shutil.copytree(given, data, ignore=shutil.ignore_patterns("*.lock", "settings.ini", "backups"))
    lib = Library.open(data)
    try:
        if lib.counts()["all"] < 1000:
            lib.import_files([NEURIPS])
        if lib.topics_status().outdated:
            lib.compute_topics()
    finally:
        lib.close()
    return data


def shoot_topics(data: Path) -> None:
    """The Topics section with a topic picked (its papers triaged part-way), then the map with a search's
    results lit and a paper hovered."""
    os.environ["READINGLIST_COLOR_SCHEME"] = "light"
    from PySide6.QtCore import QEvent, QEventLoop, Qt, QTimer
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from readinglist.app import app_icon, apply_color_scheme, create_main_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    apply_color_scheme(app)
    app.setWindowIcon(app_icon())
    window = create_main_window(data)
    lib = window.library
    topics = lib.topics()
    for k, topic in enumerate(topics[:12]):  # a reader part-way through the larger topics
        members = lib.search("", topic=topic.id).ids
        lib.set_state(members[: len(members) * (12 - k) // 16], "read")
        lib.set_state(members[len(members) * (12 - k) // 16 :][:10], "skimmed")
    window.update_counts()
    window.resize(1400, 900)
    window.show()

    def wait(ms: int) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    picked = next(t for t in topics if "reinforcement" in t.label)
    window.topics_section.set_topic(picked.id)
    window.search_bar.set_text("policy")
    wait(1500)
    window.table.select_row(2)
    wait(2500)  # related papers come once the selection has rested
    window.grab().save(str(HERE / "screenshot-topics.png"))
    print(f"wrote {HERE / 'screenshot-topics.png'}")
    window.topics_section.set_topic(None)
    window.search_bar.set_text("reinforcement learning")
    window.show_tab(1)
    view = window.map_pane.view
    while not (view.data is not None and view.up_to_date and window.search_bar.idle):
        wait(50)
    window.table.select_row(1)  # the paper beside the map, rendered with this query's words marked
    wait(1500)
    placed = [(p.y(), i) for i in window.table.model.ids if (p := view.screen_pos(i)) is not None]
    target = sorted(placed)[-1][1]  # the result lowest on the map: its card covers no busy part
    at = view.screen_pos(target)
    assert at is not None
    event = QMouseEvent(QEvent.Type.MouseMove, at, view.mapToGlobal(at), Qt.MouseButton.NoButton,
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)  # fmt: skip
    QApplication.sendEvent(view, event)
    wait(800)
    window.grab().save(str(HERE / "screenshot-map.png"))
    print(f"wrote {HERE / 'screenshot-map.png'}")
    window.close()
    window.shutdown()


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--inside":
        shoot(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--inside-topics":
        shoot_topics(Path(sys.argv[2]))
        return 0
    display = os.environ.get("DISPLAY")
    xvfb = None
    if not display:
        if not shutil.which("Xvfb"):
            print("Xvfb is not installed (apt-get install xvfb)", file=sys.stderr)
            return 1
        display = ":99"
        xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
        time.sleep(1.0)
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb")
    try:
        if len(sys.argv) > 1 and sys.argv[1] == "--topics":
            data = neurips_library(sys.argv[2] if len(sys.argv) > 2 else None)
            subprocess.run([sys.executable, __file__, "--inside-topics", str(data)], env=env, check=True)
            shutil.rmtree(data.parent, ignore_errors=True)
            return 0
        for scheme, width, height, name in SHOTS:
            args = [sys.executable, __file__, "--inside", scheme, str(HERE / name), str(width), str(height)]
            subprocess.run(args, env=env, check=True)
    finally:
        if xvfb is not None:
            xvfb.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
