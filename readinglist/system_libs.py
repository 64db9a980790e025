"""When Qt's platform plugin cannot load: which system libraries are missing, and the command that installs
them (Debian/Ubuntu and Fedora).

Qt names only the first library it misses, and its hint suggests the plugin that failed. The dynamic linker
knows them all: `ldd` on the xcb plugin and Qt's XcbQpa library lists every one it cannot find. Qt-free, so
that it runs in the one moment it is needed: Qt is about to abort.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path

# soname → (Debian/Ubuntu package, Fedora package): what Qt 6's xcb plugin and Qt's GUI libraries load from
# the system (PySide6's wheels carry Qt itself). Checked against Debian 12 (dpkg -S); Fedora from its
# packages' file lists.
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libXau.so.6": ("libxau6", "libXau"),
    "libXdmcp.so.6": ("libxdmcp6", "libXdmcp"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libGLdispatch.so.0": ("libglvnd0", "libglvnd"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libpng16.so.16": ("libpng16-16", "libpng"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}

# what a bare system needs for the window (README's Quick start lists the same)
BARE_SYSTEM = [
    "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-image.so.0", "libxcb-keysyms.so.1",
    "libxcb-render-util.so.0", "libxcb-randr.so.0", "libxcb-shape.so.0", "libxcb-xfixes.so.0", "libxcb-xkb.so.1",
    "libxkbcommon-x11.so.0", "libX11-xcb.so.1", "libEGL.so.1", "libGL.so.1", "libfontconfig.so.1",
    "libdbus-1.so.3", "libglib-2.0.so.0",
]  # fmt: skip

_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.M)


def parse_ldd(output: str) -> list[str]:
    """The sonames `ldd` could not find, in the order it lists them."""
    return list(dict.fromkeys(_NOT_FOUND.findall(output)))


def qt_platform_files(platform: str = "xcb") -> list[Path]:
    """The plugin for `platform` and the Qt library it needs (libQt6XcbQpa for xcb), from PySide6's wheel."""
    try:
        import PySide6
    except ImportError:
        return []
    qt = Path(PySide6.__file__).resolve().parent / "Qt"
    files = [qt / "plugins" / "platforms" / f"libq{platform}.so"]
    if platform == "xcb":
        files.append(qt / "lib" / "libQt6XcbQpa.so.6")
    return [f for f in files if f.exists()]


def missing_libraries(files: Iterable[Path], run=subprocess.run) -> list[str]:
    """Every system library these files need and the dynamic linker cannot find ([] if ldd is missing)."""
    if not shutil.which("ldd"):
        return []
    missing: list[str] = []
    for f in files:
        try:
            out = run(["ldd", str(f)], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        missing += [lib for lib in parse_ldd(out) if lib not in missing]
    return missing


def install_commands(sonames: Sequence[str]) -> list[str]:
    """The commands that install these libraries, one per system, and what is not known."""
    known = [PACKAGES[s] for s in sonames if s in PACKAGES]
    debian = list(dict.fromkeys(d for d, _ in known))
    fedora = list(dict.fromkeys(f for _, f in known))
    lines = []
    if debian:
        lines.append(f"Debian/Ubuntu: sudo apt install {' '.join(debian)}")
        lines.append(f"Fedora:        sudo dnf install {' '.join(fedora)}")
    unknown = [s for s in sonames if s not in PACKAGES]
    if unknown:
        lines.append(f"(also missing: {', '.join(unknown)} — install the package that provides it)")
    return lines


def explain_missing(platform: str = "xcb", run=subprocess.run) -> list[str]:
    """Lines for the user: what the platform plugin misses and how to install it; [] if nothing is missing."""
    missing = missing_libraries(qt_platform_files(platform), run)
    if not missing:
        return []
    return [f"Qt's {platform} platform plugin needs system libraries that are missing: {', '.join(missing)}.",
            *install_commands(missing)]  # fmt: skip
