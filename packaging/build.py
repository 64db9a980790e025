"""Build the PyInstaller bundle: `python packaging/build.py [--tarball]`.

Output: dist/readinglist/ (one folder; its `readinglist` executable starts the app with the bundled corpus).
--tarball also writes dist/readinglist-<version>-linux-<arch>.tar.gz with an install script.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"

INSTALL_SH = """#!/bin/sh
# Install readinglist for this user: the bundle under ~/.local/opt, a command in ~/.local/bin,
# and the menu entry and icons (readinglist install-desktop).
set -e
here=$(cd "$(dirname "$0")" && pwd)
dest="${XDG_DATA_HOME:-$HOME/.local/share}/../opt/readinglist"
mkdir -p "$dest" "$HOME/.local/bin"
dest=$(cd "$dest" && pwd)
cp -R "$here/readinglist/." "$dest/"
ln -sf "$dest/readinglist" "$HOME/.local/bin/readinglist"
"$dest/readinglist" install-desktop
echo "Installed readinglist in $dest; start it from the menu or with: readinglist"
"""


def version() -> str:
    sys.path.insert(0, str(ROOT))
    from readinglist import __version__

    return __version__


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def build() -> Path:
    subprocess.check_call(
        [
            sys.executable,
            "-m",
            "PyInstaller",
            "--noconfirm",
            "--clean",
            "--log-level",
            "WARN",
            "--distpath",
            str(DIST),
            "--workpath",
            str(ROOT / "build" / "pyinstaller"),
            str(ROOT / "packaging" / "readinglist.spec"),
        ]
    )
    out = DIST / "readinglist"
    print(f"built {out} ({folder_size(out) / 1e6:.1f} MB unpacked)")
    return out


def tarball(bundle: Path) -> Path:
    arch = platform.machine().lower().replace("amd64", "x86_64")
    name = f"readinglist-{version()}-linux-{arch}"
    target = DIST / f"{name}.tar.gz"
    script = DIST / "install.sh"
    script.write_text(INSTALL_SH)
    script.chmod(0o755)
    with tarfile.open(target, "w:gz") as tar:
        tar.add(bundle, arcname=f"{name}/readinglist")
        tar.add(script, arcname=f"{name}/install.sh")
    script.unlink()
    print(f"wrote {target} ({target.stat().st_size / 1e6:.1f} MB)")
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tarball", action="store_true", help="also make the Linux tarball with install.sh")
    args = parser.parse_args()
    if shutil.which("pyinstaller") is None and subprocess.call([sys.executable, "-m", "PyInstaller", "--version"],
                                                                 stdout=subprocess.DEVNULL) != 0:  # fmt: skip
        print("PyInstaller is not installed: pip install -e '.[bundle]'", file=sys.stderr)
        return 1
    bundle = build()
    if args.tarball:
        tarball(bundle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
