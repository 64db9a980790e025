#!/usr/bin/env python3
"""Run or test readinglist from a checkout, with nothing but Python installed.

`python3 dev.py run` starts the app, `python3 dev.py test` runs the tests. Both create `.venv`
on first use and reinstall only when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"


def ensure_venv() -> None:
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want and PY.exists():
        return
    if not PY.exists():
        print("Creating .venv …", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    subprocess.check_call([str(PY), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    subprocess.check_call([str(PY), "-m", "pip", "install", "-q", "-e", f"{ROOT}[dev]"])
    STAMP.write_text(want)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "lint"}:
        print("usage: python3 dev.py run [ARGS…] | test [PYTEST ARGS…] | lint", file=sys.stderr)
        return 2
    ensure_venv()
    cmd, rest = argv[0], argv[1:]
    if cmd == "run":
        return subprocess.call([str(PY), "-m", "readinglist", *rest])
    if cmd == "lint":
        rc = subprocess.call([str(PY), "-m", "ruff", "check", str(ROOT)])
        rc = rc or subprocess.call([str(PY), "-m", "ruff", "format", "--check", str(ROOT)])
        return rc or subprocess.call([str(PY), "-m", "mypy", str(ROOT / "readinglist")], cwd=ROOT)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.call([str(PY), "-m", "pytest", *rest], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
