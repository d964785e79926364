"""The app's PNG icons, drawn in pure Python (``python -m yinsh.site --icons``)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from .common import ROOT

ICON_BOARD = (0xEC, 0xDC, 0xB9)
ICON_WHITE = ((0x2D, 0x29, 0x24), (0xFD, 0xFB, 0xF6))  # outline, body
ICON_BLACK = ((0x0D, 0x0D, 0x10), (0x2A, 0x2B, 0x31))
#: name → (size in pixels, full-bleed background): "any" icons are a disc on transparency,
#: maskable ones and Apple's fill the square (the platform cuts its own shape).
ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-192.png": (192, True),
    "maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def icon_pixels(size: int, full_bleed: bool) -> bytes:
    """RGBA rows (PNG filter byte 0 first) of the app icon: two interlocked rings on the board.

    The favicon's drawing (a 32-unit square), with analytic anti-aliasing. A full-bleed icon
    keeps its rings inside the central 80 % circle a mask may cut to.
    """
    unit = 32.0 / size
    scale = 0.78 if full_bleed else 1.0  # the rings of a maskable icon sit in the safe zone
    rings = ((12.0, 13.0, ICON_WHITE), (21.0, 20.0, ICON_BLACK))
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        v = (y + 0.5) * unit
        for x in range(size):
            u = (x + 0.5) * unit
            if full_bleed:
                r, g, b, a = ICON_BOARD[0] / 255, ICON_BOARD[1] / 255, ICON_BOARD[2] / 255, 1.0
            else:
                d = ((u - 16) ** 2 + (v - 16) ** 2) ** 0.5
                a = min(1.0, max(0.0, (15 - d) / unit + 0.5))
                r, g, b = (ICON_BOARD[i] / 255 * a for i in range(3))
            cu, cv = 16 + (u - 16) / scale, 16 + (v - 16) / scale
            for x0, y0, (outline, body) in rings:
                d = ((cu - x0) ** 2 + (cv - y0) ** 2) ** 0.5
                for colour, width in ((outline, 4.4), (body, 2.6)):
                    cover = min(1.0, max(0.0, (width / 2 - abs(d - 7)) / (unit / scale) + 0.5))
                    if cover:
                        r = colour[0] / 255 * cover + r * (1 - cover)
                        g = colour[1] / 255 * cover + g * (1 - cover)
                        b = colour[2] / 255 * cover + b * (1 - cover)
                        a = cover + a * (1 - cover)
            if a > 0:
                rows += bytes((round(r / a * 255), round(g / a * 255), round(b / a * 255), round(a * 255)))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def png(size: int, rows: bytes) -> bytes:
    """A PNG file (8-bit RGBA, no interlace) of ``size``×``size`` pixels from unfiltered rows.

    ``rows`` are :func:`icon_pixels`' (a 0 byte, then RGBA, per row): unfiltered rows compress
    best for these flat drawings (better than Sub, Up, Average, Paeth or a per-row choice).
    """

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, unfiltered rows as :func:`icon_pixels` gives them) of an 8-bit RGBA PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 6):
                raise ValueError("only 8-bit RGBA PNG files are read")
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 4
    out = bytearray()
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 255
        out.append(0)
        out += line
        prev = line
    return width, height, bytes(out)


def write_icons(directory: str | Path | None = None, names: list[str] | None = None) -> list[Path]:
    """(Re)draw the PNG icons into ``directory`` (default ``static/icons/`` of the checkout)."""
    directory = Path(directory or ROOT / "static" / "icons")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or list(ICONS):
        size, full_bleed = ICONS[name]
        path = directory / name
        path.write_bytes(png(size, icon_pixels(size, full_bleed)))
        written.append(path)
    return written
