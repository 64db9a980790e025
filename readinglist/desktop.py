"""`readinglist install-desktop`: the app in the Linux application menu, pointing at this installation."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from readinglist import APP_ID, paths

ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512]


def xdg_data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launch_command() -> list[str]:
    """How to start this very installation: the bundle's executable, the venv's script, or python -m."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = Path(sys.executable).with_name("readinglist")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "readinglist"]


def _quote(arg: str) -> str:
    """Quote an Exec argument as the Desktop Entry spec asks."""
    if not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$") + '"'


def targets(base: Path) -> dict[str, Path]:
    out = {
        "desktop": base / "applications" / f"{APP_ID}.desktop",
        "metainfo": base / "metainfo" / f"{APP_ID}.metainfo.xml",
    }
    out["svg"] = base / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"
    for size in ICON_SIZES:
        out[f"png{size}"] = base / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    return out


def install_desktop(uninstall: bool = False) -> str:
    base = xdg_data_home()
    files = targets(base)
    if uninstall:
        removed = [p for p in files.values() if p.exists()]
        for p in removed:
            p.unlink()
        _refresh(base)
        return f"Removed {len(removed)} files from {base}."
    resources = paths.resources_dir()
    template = (resources / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    command = " ".join(_quote(a) for a in launch_command())
    lines = []
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={command} %F"
            lines.append(f"TryExec={launch_command()[0]}")
        lines.append(line)
    files["desktop"].parent.mkdir(parents=True, exist_ok=True)
    files["desktop"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    files["metainfo"].parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(resources / f"{APP_ID}.metainfo.xml", files["metainfo"])
    icons = resources / "icons"
    files["svg"].parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(icons / "readinglist.svg", files["svg"])
    for size in ICON_SIZES:
        png = icons / f"readinglist-{size}.png"
        if png.exists():
            files[f"png{size}"].parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(png, files[f"png{size}"])
    _refresh(base)
    return f"Installed {files['desktop']} (runs: {command}) and icons under {base / 'icons' / 'hicolor'}."


def _refresh(base: Path) -> None:
    """Ask the desktop to notice (best effort: these tools are not on every system)."""
    for cmd in (["update-desktop-database", str(base / "applications")],
                ["gtk-update-icon-cache", "-q", "-t", str(base / "icons" / "hicolor")]):  # fmt: skip
        if shutil.which(cmd[0]):
            subprocess.run(cmd, capture_output=True, check=False)
