from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("READINGLIST_SHARED", ROOT.parent / "shared"))
CORPORA = SHARED / "corpora"


def corpus(relative: str) -> Path:
    """A file from ../shared/corpora (never copied into the project: several have no licence)."""
    path = CORPORA / relative
    if not path.exists():
        pytest.skip(f"test corpus {relative} is not available at {CORPORA}")
    return path


def library_of(folder: Path, rows: list[dict], name: str = "lib"):
    """A library in folder/name holding `rows`, imported from a JSON Lines file as a reader would (no
    bundled corpus): the small hand-made libraries the search tests rank."""
    import json

    from readinglist.library import Library

    folder.mkdir(parents=True, exist_ok=True)
    source = folder / f"{name}.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    library = Library.open(folder / name, seed=False)
    library.import_files([source])
    return library


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path, monkeypatch):
    """No test ever touches the real user data dir or settings."""
    monkeypatch.setenv("READINGLIST_DATA_DIR", str(tmp_path / "default-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    yield
    gc.unfreeze()  # the window freezes what it loaded (readinglist.ui.runtime); no test inherits it


@pytest.fixture(scope="session", autouse=True)
def _clipboard_emptied_at_exit():
    """Empty the clipboard once the tests are done. The offscreen platform keeps a copied citation's QMimeData in
    a static that is freed after Python has finalised; that crashed the run on exit (SIGSEGV, so `dev.py test`
    returned 245 with every test passed). A real platform (xcb) hands the data to the system and exits cleanly."""
    yield
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is not None:
        QApplication.clipboard().clear()


@pytest.fixture
def data_dir(tmp_path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def lib(data_dir):
    from readinglist.library import Library

    library = Library.open(data_dir)
    yield library
    library.close()


def open_window(qtbot, data_dir, rows=None):
    """The window on the library in data_dir, shown, its rows listed (`rows`, else every paper) and idle."""
    from readinglist.app import create_main_window

    w = create_main_window(data_dir)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.table.model.rowCount() == (rows or w.library.counts()["all"]) and w.search_bar.idle)
    return w


@pytest.fixture
def window(qtbot, data_dir):
    """The window on a new library (the bundled 19 papers); a module's own `window` fixture overrides it."""
    w = open_window(qtbot, data_dir, 19)
    yield w
    w.runner.wait()
    w.library.close()


@pytest.fixture
def empty_lib(data_dir):
    from readinglist.library import Library

    library = Library.open(data_dir, seed=False)
    yield library
    library.close()


@pytest.fixture
def busy_lib(lib, monkeypatch):
    """The bundled corpus and, when available, 517 PMLR papers, with annotations written after the import:
    several segments (merging is off), some with deleted documents (every edit replaces a document)."""
    monkeypatch.setattr("readinglist.index.engine.MERGE_LIMITS", ())
    pmlr = CORPORA / "pmlr_colt2025_uai2025_l4dc2026.jsonl"
    if pmlr.exists():
        lib.import_files([pmlr])
    ids = lib.search("").ids
    lib.set_state(ids[::7], "read")
    lib.add_tags(ids[1::5], ["reading"])
    for pid in ids[2:40:9]:
        lib.set_note(pid, "revisit the proof of the learning bound")
    lib.flush_index()
    return lib
