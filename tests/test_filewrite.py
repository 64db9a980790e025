"""Export writes to the file a name means (issue 13.5): through symlinks, keeping modes and hard links,
atomically beside the target, and never over a device, pipe or folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from readinglist.filewrite import write_text
from readinglist.papers import ExportError


def test_writes_through_a_symlink_to_its_target(tmp_path):
    real = tmp_path / "real" / "list.md"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    assert write_text(link, "new") == real
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"
    assert sorted(p.name for p in real.parent.iterdir()) == ["list.md"]  # the temporary file went too


def test_a_dangling_symlink_creates_the_file_it_names(tmp_path):
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "target.md")
    write_text(link, "text")
    assert link.is_symlink() and (tmp_path / "target.md").read_text() == "text"


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_an_existing_file_keeps_its_mode(tmp_path, mode):
    target = tmp_path / "list.csv"
    target.write_text("old")
    target.chmod(mode)
    write_text(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_text() == "new"


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_users_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_text(tmp_path / "new.md", "text")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o666 & ~umask


def test_a_hard_link_is_kept_and_both_names_see_the_new_text(tmp_path):
    first = tmp_path / "a.md"
    first.write_text("old")
    second = tmp_path / "b.md"
    os.link(first, second)
    write_text(second, "new text")
    assert first.read_text() == "new text" and second.read_text() == "new text"
    assert first.stat().st_ino == second.stat().st_ino and first.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.md"]


def test_a_device_is_refused_and_left_alone():
    before = os.stat("/dev/null")
    with pytest.raises(ExportError, match="is a device, not a file"):
        write_text(Path("/dev/null"), "text")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


def test_a_symlink_to_a_device_is_refused(tmp_path):
    link = tmp_path / "full"
    link.symlink_to("/dev/null")
    with pytest.raises(ExportError, match="device"):
        write_text(link, "text")
    assert link.is_symlink()


def test_a_pipe_and_a_folder_are_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ExportError, match="is a pipe"):
        write_text(fifo, "text")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    with pytest.raises(ExportError, match="is a folder"):
        write_text(tmp_path, "text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_an_export_error_is_an_oserror_with_a_readable_message(tmp_path):
    with pytest.raises(OSError) as info:
        write_text(tmp_path, "text")
    assert info.value.strerror == str(info.value) and str(tmp_path) in str(info.value)


def test_cli_export_to_a_device_or_folder_says_why(tmp_path, capsys):
    from readinglist.cli import main

    data = str(tmp_path / "data")
    assert main(["--data-dir", data, "export", "-o", "/dev/null"]) == 1
    assert "/dev/null is a device, not a file" in capsys.readouterr().err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert main(["--data-dir", data, "export", "-o", str(tmp_path)]) == 1
    assert "is a folder" in capsys.readouterr().err


def test_a_read_only_file_is_refused(tmp_path, monkeypatch):
    target = tmp_path / "list.md"
    target.write_text("old")
    target.chmod(0o444)
    if os.geteuid() == 0:  # root may write any file: ask as a user would be answered
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == target else real_access(p, mode))
    with pytest.raises(ExportError, match="is read-only"):
        write_text(target, "new")
    assert target.read_text() == "old"
