"""The few things the shared modules do differently on MicroPython, in one place.

The rules, the notation, the turn, the renderer and the browser-free page modules run
unchanged on CPython 3.11+, Pyodide and MicroPython 1.27 (the page's main thread); see
docs/PORTABILITY.md for the subset of Python they keep to. What MicroPython lacks and the
modules need is here, written so that CPython takes its own fast built-ins:

>>> bit_count(0b1011), bit_length(0b1011), bit_length(0)
(3, 4, 0)
>>> capitalize("white"), capitalize("")
('White', '')
>>> list(unique([3, 1, 3, 2, 1]))
[3, 1, 2]
>>> decode_utf8(b"caf\\xc3\\xa9 \\xff!")
'café \\ufffd!'
"""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["MICROPYTHON", "bit_count", "bit_length", "capitalize", "ordered_dict", "unique", "decode_utf8", "now_ms"]

MICROPYTHON = sys.implementation.name == "micropython"
"""Whether this is MicroPython (the page's main thread), not CPython or Pyodide."""


def _bin_count(n: int) -> int:
    return bin(n).count("1")


def _bin_length(n: int) -> int:
    return len(bin(n)) - 2 if n else 0


# MicroPython's ints have neither method; bin() runs in C there, which beats any loop in Python.
bit_count: Callable[[int], int] = _bin_count if MICROPYTHON else int.bit_count
"""The number of 1 bits of ``n`` (≥ 0): the size of a bitboard (``int.bit_count``)."""
bit_length: Callable[[int], int] = _bin_length if MICROPYTHON else int.bit_length
"""The number of bits ``n`` (≥ 0) needs, one more than its highest 1 bit's index (``int.bit_length``)."""


def ordered_dict() -> dict[Any, Any]:
    """An empty dict that keeps insertion order: CPython's dicts do, MicroPython's do not."""
    return OrderedDict() if MICROPYTHON else {}


def now_ms() -> int:
    """Milliseconds since 1970 by this machine's clock. A page reads the time here, never as
    JavaScript's ``Date.now()``: MicroPython's FFI hands a JavaScript integer over in 32 bits, which
    wraps a date's milliseconds (to a number that goes negative every 50 days)."""
    return time.time_ns() // 1_000_000


def capitalize(text: str) -> str:
    """``text`` with its first letter in upper case and the rest in lower case (``str.capitalize``)."""
    return text[:1].upper() + text[1:].lower()


def unique(items: Iterable) -> list:
    """The items in their first order, each once (``dict.fromkeys``'s order is CPython's only)."""
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


# For each first byte of a UTF-8 sequence: how many bytes follow, and the range of the second.
_LEAD: Final[dict[int, tuple[int, int, int]]] = {}
for _first in range(0xC2, 0xF5):
    _LEAD[_first] = (1 if _first < 0xE0 else 2 if _first < 0xF0 else 3,
                     {0xE0: 0xA0, 0xF0: 0x90}.get(_first, 0x80), {0xED: 0x9F, 0xF4: 0x8F}.get(_first, 0xBF))


def decode_utf8(data: bytes) -> str:
    """``data`` decoded as UTF-8, each ill-formed part replaced by U+FFFD as CPython's
    ``data.decode("utf-8", "replace")`` does (MicroPython's ``decode`` only raises)."""
    try:
        return data.decode("utf-8")
    except UnicodeError:
        pass
    out = []
    i = 0
    while i < len(data):
        if data[i] < 0x80:
            out.append(chr(data[i]))
            i += 1
            continue
        follow, low, high = _LEAD.get(data[i], (0, 0, 0))
        end = i + 1
        while end <= i + follow and end < len(data) and low <= data[end] <= high:
            end += 1
            low, high = 0x80, 0xBF
        # A whole sequence decodes; a broken one (its longest valid start) is one U+FFFD.
        out.append(data[i:end].decode("utf-8") if follow and end == i + follow + 1 else "\ufffd")
        i = end
    return "".join(out)
