"""Where things live: the user's data dir, and the corpus and resources shipped with the app.

One frozen-aware lookup serves a source checkout, an installed wheel and a PyInstaller bundle alike.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from readinglist import APP_NAME

ENV_DATA_DIR = "READINGLIST_DATA_DIR"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder holding the database and index: --data-dir, then $READINGLIST_DATA_DIR, then platformdirs."""
    if override:
        return Path(override).expanduser().resolve()
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env).expanduser().resolve()
    import platformdirs  # only for the default folder: --data-dir and the environment need none of it

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _candidates(name: str) -> list[Path]:
    here = Path(__file__).resolve().parent
    found = []
    meipass = getattr(sys, "_MEIPASS", None)
    if meipass:
        found.append(Path(meipass) / "readinglist" / "_data" / name)
        found.append(Path(meipass) / name)
    found.append(here / "_data" / name)  # installed wheel
    found.append(here.parent / name)  # source checkout / editable install
    return found


def shipped_dir(name: str) -> Path:
    """The shipped folder `corpus` or `resources`, wherever this build keeps it."""
    for candidate in _candidates(name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the app's {name} folder is missing (looked in {_candidates(name)[0].parent})")


def corpus_dir() -> Path:
    return shipped_dir("corpus")


def resources_dir() -> Path:
    return shipped_dir("resources")


def bundled_corpus() -> Path:
    return corpus_dir() / "icml2026.txt"


def _umask_at_start() -> int:
    """Read while the process has one thread: setting the umask to read it is not safe beside threads."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _umask_at_start()


def umask() -> int:
    """The process's umask: what a new file's mode leaves out (mkstemp makes files 0600 whatever it is)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:  # Linux: read without changing it
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return _UMASK
