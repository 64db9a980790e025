"""A failure at start says what and where (one line on stderr without a display), never a silent exit."""

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
