"""Render the app icon set from resources/icons/stockbench.svg: `uv run python packaging/icons.py [--check]`.

Writes packaging/icons/: `stockbench-N.png` for the freedesktop hicolor sizes (16 to 512, the .desktop entry and
AppStream), 1024 for macOS, `stockbench.ico` (Windows: PNG-compressed entries, Vista and later) and
`stockbench.icns` (macOS: PNG entries). Qt renders the SVG offscreen; the ICO and ICNS containers are written here
with the standard library, so no image library is needed. `--check` only verifies the files are there and sound.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SOURCE = ROOT / "resources" / "icons" / "stockbench.svg"
OUT = HERE / "icons"
NAME = "stockbench"
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
PNG_SIZES = (*HICOLOR_SIZES, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS element types holding PNG data, by pixel size (the @2x types repeat a larger render).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512),
    (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 512), (b"ic14", 1024),
)  # fmt: skip
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_path(size: int) -> Path:
    return OUT / f"{NAME}-{size}.png"


def render(sizes: tuple[int, ...]) -> dict[int, bytes]:
    """PNG bytes of the SVG rendered square at each size (antialiased, transparent outside the artwork)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SOURCE}")
    rendered: dict[int, bytes] = {}
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        rendered[size] = bytes(data.data())
    return rendered


def ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO file of PNG entries: ICONDIR, one ICONDIRENTRY per size (0 means 256), then the images."""
    header = struct.pack("<HHH", 0, 1, len(ICO_SIZES))
    offset = len(header) + 16 * len(ICO_SIZES)
    entries, images = b"", b""
    for size in ICO_SIZES:
        data = pngs[size]
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset + len(images))
        images += data
    return header + entries + images


def icns(pngs: dict[int, bytes]) -> bytes:
    """An ICNS file: the 'icns' magic and total length, then (type, length, PNG data) elements."""
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def problems() -> list[str]:
    """What is missing or wrong in packaging/icons/ (empty when the set is sound)."""
    found: list[str] = []
    for size in PNG_SIZES:
        path = png_path(size)
        if not path.is_file() or png_size(path.read_bytes()) != (size, size):
            found.append(f"{path.name}: missing or not {size}x{size}")
    for suffix, magic in ((".ico", b"\0\0\1\0"), (".icns", b"icns")):
        path = OUT / f"{NAME}{suffix}"
        if not path.is_file() or not path.read_bytes().startswith(magic):
            found.append(f"{path.name}: missing or not an {suffix[1:].upper()} file")
    return found


def write() -> None:
    pngs = render(PNG_SIZES)
    OUT.mkdir(exist_ok=True)
    for size, data in pngs.items():
        png_path(size).write_bytes(data)
    (OUT / f"{NAME}.ico").write_bytes(ico(pngs))
    (OUT / f"{NAME}.icns").write_bytes(icns(pngs))
    print(f"wrote {len(pngs)} PNGs, {NAME}.ico and {NAME}.icns to {OUT}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only verify packaging/icons/")
    if not parser.parse_args().check:
        write()
    found = problems()
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
