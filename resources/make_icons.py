"""Render resources/icons/readinglist.svg into the PNG sizes, .ico and .icns the platforms want.

    python resources/make_icons.py

Qt renders the SVG (QtSvg ships with PySide6-Essentials); .ico and .icns are written here from PNG data,
since both formats are a small header around PNG images and Qt's own writers for them are add-ons.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parent / "icons"
SIZES = [16, 24, 32, 48, 64, 128, 256, 512]


def render_png(svg: Path, size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    return bytes(data.data())


def write_ico(pngs: dict[int, bytes], path: Path) -> None:
    sizes = [s for s in (16, 24, 32, 48, 64, 128, 256) if s in pngs]
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for s in sizes:
        blob = pngs[s]
        entries += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(blob), offset + len(blobs))
        blobs += blob
    path.write_bytes(header + entries + blobs)


def write_icns(pngs: dict[int, bytes], path: Path) -> None:
    types = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}
    body = b"".join(t + struct.pack(">I", 8 + len(pngs[s])) + pngs[s] for s, t in types.items() if s in pngs)
    path.write_bytes(b"icns" + struct.pack(">I", 8 + len(body)) + body)


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 - QImage needs it for fonts
    svg = ICONS / "readinglist.svg"
    pngs = {size: render_png(svg, size) for size in SIZES}
    for size, data in pngs.items():
        (ICONS / f"readinglist-{size}.png").write_bytes(data)
    write_ico(pngs, ICONS / "readinglist.ico")
    write_icns(pngs, ICONS / "readinglist.icns")
    print(f"wrote {len(pngs)} PNGs, readinglist.ico and readinglist.icns to {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
