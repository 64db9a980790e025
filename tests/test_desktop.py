import shutil
import subprocess

import pytest

from readinglist import APP_ID, paths
from readinglist.cli import main
from readinglist.desktop import launch_command


def test_install_and_uninstall_desktop_entry(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert main(["install-desktop"]) == 0
    desktop = tmp_path / "share" / "applications" / f"{APP_ID}.desktop"
    text = desktop.read_text()
    assert f"Exec={launch_command()[0]}" in text and "%F" in text
    assert (tmp_path / "share" / "icons" / "hicolor" / "256x256" / "apps" / f"{APP_ID}.png").exists()
    assert (tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").exists()
    if shutil.which("desktop-file-validate"):
        r = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
    assert main(["install-desktop", "--uninstall"]) == 0
    assert not desktop.exists()


@pytest.mark.skipif(not shutil.which("desktop-file-validate"), reason="desktop-file-validate is not installed")
def test_shipped_desktop_file_validates():
    r = subprocess.run(["desktop-file-validate", str(paths.resources_dir() / f"{APP_ID}.desktop")], capture_output=True)
    assert r.returncode == 0


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstreamcli is not installed")
def test_metainfo_validates_and_references_screenshots():
    path = paths.resources_dir() / f"{APP_ID}.metainfo.xml"
    r = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--pedantic", str(path)], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout
    assert "docs/screenshot.png" in path.read_text()


def test_icons_are_generated_from_the_svg():
    icons = paths.resources_dir() / "icons"
    for size in (16, 32, 48, 128, 256, 512):
        assert (icons / f"readinglist-{size}.png").exists()
    assert (icons / "readinglist.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (icons / "readinglist.icns").read_bytes()[:4] == b"icns"
