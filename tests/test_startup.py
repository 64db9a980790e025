"""A failure at start says what and where (one line on stderr without a display), never a silent exit."""

import json
import os
import subprocess
import sys


def start(data_dir, platform="offscreen"):
    env = dict(os.environ, QT_QPA_PLATFORM=platform)
    return subprocess.run(
        [sys.executable, "-m", "readinglist", "--data-dir", str(data_dir), "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_unwritable_data_dir(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    r = start(blocker / "data")
    assert r.returncode == 1
    assert str(blocker / "data") in r.stderr and "cannot be written" in r.stderr
    assert "Traceback" not in r.stderr


def test_corrupt_database(tmp_path):
    (tmp_path / "library.db").write_bytes(os.urandom(8192))
    r = start(tmp_path)
    assert r.returncode == 1
    assert str(tmp_path / "library.db") in r.stderr and "unreadable" in r.stderr
    assert "Traceback" not in r.stderr


def test_missing_qt_platform_plugin(tmp_path):
    r = start(tmp_path, platform="no-such-platform")
    assert r.returncode == 1
    assert "cannot start the window" in r.stderr and "no-such-platform" in r.stderr
    assert "Aborted" not in r.stderr and "core dumped" not in r.stderr


# what `ldd` said on a fresh Debian 12 for PySide6's libqxcb.so and libQt6XcbQpa.so.6 (abridged)
LDD_PLUGIN = """\
\tlinux-vdso.so.1 (0x00007ffc6f5f2000)
\tlibQt6XcbQpa.so.6 => /venv/lib/python3.11/site-packages/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6
\tlibQt6Gui.so.6 => /venv/lib/python3.11/site-packages/PySide6/Qt/lib/libQt6Gui.so.6 (0x00007f2b4c000000)
\tlibxcb-cursor.so.0 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f2b4bfd0000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2b4bdef000)
"""
LDD_QPA = """\
\tlibxcb-icccm.so.4 => not found
\tlibxcb-cursor.so.0 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxkbcommon-x11.so.0 => /lib/x86_64-linux-gnu/libxkbcommon-x11.so.0 (0x00007f1c2e3a5000)
\tlibfrobnicate.so.3 => not found
"""


def test_missing_system_libraries_are_each_named_with_the_command_that_installs_them(tmp_path):
    from readinglist import system_libs
    from readinglist.app import startup_failure_text

    assert system_libs.parse_ldd(LDD_PLUGIN) == ["libxcb-cursor.so.0"]
    plugin, qpa = tmp_path / "libqxcb.so", tmp_path / "libQt6XcbQpa.so.6"

    class Done:
        def __init__(self, stdout):
            self.stdout = stdout

    def fake_ldd(cmd, **_kw):
        return Done(LDD_PLUGIN if cmd[1].endswith("libqxcb.so") else LDD_QPA)

    missing = system_libs.missing_libraries([plugin, qpa], run=fake_ldd)
    assert missing == ["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libfrobnicate.so.3"]
    lines = system_libs.install_commands(missing)
    assert lines[0] == "Debian/Ubuntu: sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1"
    assert lines[1].split() == ["Fedora:", "sudo", "dnf", "install", "xcb-util-cursor", "xcb-util-wm",
                                "xcb-util-keysyms"]  # fmt: skip
    assert "libfrobnicate.so.3" in lines[2]

    warnings = [
        "From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin.",
        'Could not load the Qt platform plugin "xcb" in "" even though it was found.',
    ]
    fatal = "This application failed to start because no Qt platform plugin could be initialized."
    text = startup_failure_text(
        warnings, fatal, explain=lambda platform: system_libs.explain_missing(platform, fake_ldd)
    )
    assert "libxcb-icccm.so.4" in text and "sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in text
    assert "QT_QPA_PLATFORM=wayland" in text and "QT_QPA_PLATFORM=xcb" not in text  # not the plugin that failed


def test_a_display_that_cannot_be_reached_is_said_so(monkeypatch):
    """With DISPLAY=:99 and no X server there, the message said xcb-cursor was needed (it was installed)."""
    from readinglist.app import startup_failure_text

    monkeypatch.setenv("DISPLAY", ":99")
    warnings = [
        "could not connect to display :99",
        "From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin.",
        'Could not load the Qt platform plugin "xcb" in "" even though it was found.',
    ]
    fatal = "This application failed to start because no Qt platform plugin could be initialized."
    text = startup_failure_text(warnings, fatal, explain=lambda platform: [])
    first = text.splitlines()[0]
    assert "could not connect to display :99" in first and "DISPLAY=:99" in first and "xcb-cursor" not in first


def test_the_readme_lists_what_a_bare_system_needs():
    from pathlib import Path

    from readinglist import system_libs

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    debian = sorted({system_libs.PACKAGES[s][0] for s in system_libs.BARE_SYSTEM})
    fedora = sorted({system_libs.PACKAGES[s][1] for s in system_libs.BARE_SYSTEM})
    assert f"sudo apt install {' '.join(debian)}" in readme
    assert f"sudo dnf install {' '.join(fedora)}" in readme


# ---- what start-up costs: modules it need not load, files it need not read ----------------------------

_STARTED_MODULES = """
import json, os, sys
import readinglist.app as app
from readinglist.cli import main
at_paint = []
build = app.create_main_window

def create(*args, **kwargs):  # the modules loaded when the table is first painted with papers, as the smoke test
    from PySide6.QtCore import QEvent, QObject

    window = build(*args, **kwargs)

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and window.table.model.rowCount() and not at_paint:
                classes = [f"PySide6.QtWidgets.{name}" for name in vars(sys.modules["PySide6.QtWidgets"])]
                at_paint.append(sorted(sys.modules) + classes)  # and the widget classes PySide has made
            return False

    window.first_paint_watch = FirstPaint()
    window.table.view.viewport().installEventFilter(window.first_paint_watch)
    return window

app.create_main_window = create
main(["--data-dir", sys.argv[1], "--smoke-test"])
print(json.dumps(at_paint[0]))
os._exit(0)
"""

# what the first paint does without: each loads when first used, or right after the first paint
NOT_BEFORE_THE_FIRST_PAINT = {
    "readinglist.importing", "readinglist.export", "readinglist.importers.titles",  # the importers, exporters
    "readinglist.ui.help",  # the Help pages
    "hashlib",  # OpenSSL: the abstracts' dictionary check, the second start's knock
    "platformdirs",  # the default data folder: --data-dir names one
    "readinglist.ui.map_view",  # the Map tab's pane, built when the tab is first shown
    "readinglist.ui.exporting", "readinglist.ui.dialogs", "readinglist.ui.backups",  # export, back up, restore
    "readinglist.ui.interests",  # My Interests…
    "readinglist.backup", "gzip",  # backups: at close, or when asked for
    "readinglist.ui.paper_actions", "readinglist.citation",  # the papers' menu, citations, links
    "readinglist.markup", "html",  # abstracts and notes rendered: the first paper shown comes after the paint
}  # fmt: skip
# PySide makes a class when a module first names it, and every widget class (with all their enums) when it
# first hands Python a widget of a type it has not seen (paper_table._own_viewport); none of these before the
# first paint
WIDGET_CLASSES_NOT_BEFORE_THE_FIRST_PAINT = {
    f"PySide6.QtWidgets.{name}"
    for name in ("QMessageBox", "QFileDialog", "QInputDialog", "QDialog", "QDialogButtonBox", "QComboBox",
                 "QGraphicsView", "QWizard", "QCalendarWidget")
}  # fmt: skip


def started_modules(data_dir) -> set[str]:
    """The modules loaded when the window's table is first painted with papers (a smoke test)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", _STARTED_MODULES, str(data_dir)], capture_output=True, text=True,
                       timeout=120, env=env)  # fmt: skip
    assert "window painted with" in r.stderr, r.stderr
    return set(json.loads(r.stdout.strip().splitlines()[-1]))


def test_the_window_opens_an_existing_library_without_the_importers_or_the_exporters(tmp_path):
    """An existing library shows its papers from the store: the importers (titles, matching, every format)
    and the exporters load when an import or an export first runs, the Help pages when one is first opened,
    OpenSSL when an abstract is first read, the dialogs' Qt classes when one is first opened — none of it
    before the first paint."""
    from readinglist.library import Library

    lib = Library.open(tmp_path)  # the bundled corpus imported here, once
    lib.close()
    loaded = started_modules(tmp_path)
    assert "readinglist.ui.main_window" in loaded and "readinglist.library" in loaded
    assert not loaded & NOT_BEFORE_THE_FIRST_PAINT
    assert not loaded & WIDGET_CLASSES_NOT_BEFORE_THE_FIRST_PAINT


_LINECACHE = """
import linecache, sys
import shiboken6
from shibokensupport import feature
upstream = feature._mod_uses_pyside
if sys.argv[1] == "quick":
    from readinglist.ui.compat import quick_feature_scan
    assert quick_feature_scan()
import readinglist.store, readinglist.library  # imported before Qt, as the command line does
import PySide6.QtCore, PySide6.QtWidgets
import readinglist.ui.main_window
kept = len(linecache.cache)
names = ["readinglist.ui.main_window", "readinglist.store", "PySide6.QtCore", "json", "sys"]
same = [feature._mod_uses_pyside(sys.modules[n]) == upstream(sys.modules[n]) for n in names]
print(kept, all(same), upstream(sys.modules["readinglist.ui.main_window"]), upstream(sys.modules["readinglist.store"]))
"""


def test_pyside_learns_which_modules_use_it_without_keeping_their_sources():
    """shiboken reads every imported module's source through inspect (kept in linecache for the life of
    the process); quick_feature_scan gives the same answers from the files' bytes."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")

    def run(mode: str) -> list[str]:
        r = subprocess.run([sys.executable, "-c", _LINECACHE, mode], capture_output=True, text=True, timeout=120,
                           env=env)  # fmt: skip
        assert r.returncode == 0, r.stderr
        return r.stdout.split()

    upstream, quick = run("upstream"), run("quick")
    assert quick[1:] == ["True", "True", "False"]  # the same answers: main_window uses PySide6, store does not
    assert int(quick[0]) * 5 < int(upstream[0])  # measured: 85 source files kept → 9


_COLLECTIONS = """
import gc, json, runpy, sys
from readinglist.ui import runtime
built, before = [], [0]
freeze = runtime.freeze_long_lived
def frozen():
    if not built:
        built.append(gc.isenabled())
    freeze()
runtime.freeze_long_lived = frozen
gc.callbacks.append(lambda phase, info: phase == "start" and not built and before.__setitem__(0, before[0] + 1))
sys.argv = ["readinglist", "--data-dir", sys.argv[1], "--smoke-test"]
try:
    runpy.run_module("readinglist", run_name="__main__")
except SystemExit:
    pass
print(json.dumps({"collections": before[0], "enabled_when_built": built, "enabled_at_exit": gc.isenabled()}))
"""


def test_start_up_collects_no_garbage_until_the_window_is_built_then_collects_as_usual(tmp_path):
    """What start-up loads lives as long as the process: `python -m readinglist` pauses the cyclic collector
    (walking those objects again and again was start-up time spent for nothing) until the window is built
    and freezes them; collection is on again from then on."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([sys.executable, "-c", _COLLECTIONS, str(tmp_path)], capture_output=True, text=True,
                       timeout=120, env=env)  # fmt: skip
    assert "window painted with" in r.stderr, r.stderr
    got = json.loads(r.stdout.strip().splitlines()[-1])
    assert got == {"collections": 0, "enabled_when_built": [False], "enabled_at_exit": True}


def test_a_command_collects_garbage_as_usual(tmp_path):
    """An entry point pauses collection for the window; a command (an import of 300k papers) turns it on."""
    import gc

    from readinglist.cli import main

    gc.disable()
    try:
        assert main(["--data-dir", str(tmp_path), "list"]) == 0
        assert gc.isenabled()
    finally:
        gc.enable()


def test_the_papers_viewport_is_made_as_qt_makes_its_own(qtbot):
    """The table's viewport is made in Python (paper_table._own_viewport), so that handing it to Python costs
    no start-up; it is the viewport Qt would have made: its name, its colours, its attributes, its focus."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTableView

    from readinglist.ui.paper_table import _own_viewport

    qts, ours = QTableView(), QTableView()
    ours.setViewport(_own_viewport(ours))
    for view in (qts, ours):
        qtbot.addWidget(view)
        view.show()
        qtbot.waitExposed(view)
    a, b = ours.viewport(), qts.viewport()
    assert a.objectName() == b.objectName() == "qt_scrollarea_viewport"
    assert (a.backgroundRole(), a.foregroundRole(), a.autoFillBackground()) == (
        b.backgroundRole(), b.foregroundRole(), b.autoFillBackground())  # fmt: skip
    assert a.focusProxy() is ours and a.parent() is ours and a.geometry() == b.geometry()
    attributes = list(Qt.WidgetAttribute)
    assert [a.testAttribute(x) for x in attributes] == [b.testAttribute(x) for x in attributes]
