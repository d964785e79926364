"""Scanning text in time linear in its length, on every interpreter.

MicroPython (the page's main thread) keeps a ``str`` as UTF-8 and finds its n-th character by
counting from the start: indexing a ``str`` in a loop, or searching it from an offset again and
again, takes time quadratic in its length there (20,000 indexed characters: 0.34 s). Its
``bytes`` are indexed at once, and in UTF-8 no ASCII byte occurs inside another character, so
the readers look for their ASCII delimiters in the text's bytes and decode what lies between.

>>> data = utf8("a  é[x]")
>>> skip(data, 1, b" "), position(data, 5)
(3, 5)
"""

from __future__ import annotations

from .errors import NotationError

__all__ = ["utf8", "skip", "position"]

_CHUNK = 256


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 bytes. Raises ``NotationError`` for text that is not Unicode (a lone
    surrogate, which only CPython's ``str`` can hold)."""
    try:
        return text.encode()
    except UnicodeError:
        raise NotationError("the text holds a character that is not Unicode (a lone surrogate)") from None


def skip(data: bytes, i: int, chars: bytes) -> int:
    """The first index from ``i`` whose byte is not one of ``chars`` (``len(data)`` if none):
    a chunk at a time, so that a long run costs little even on MicroPython."""
    while i < len(data):
        chunk = data[i:i + _CHUNK]
        rest = chunk.lstrip(chars)
        i += len(chunk) - len(rest)
        if rest:
            break
    return i


def position(data: bytes, i: int) -> int:
    """The position (from 1) in the text of the character at byte ``i`` of its UTF-8 bytes (for
    a message: it decodes everything before ``i``)."""
    return len(data[:i].decode()) + 1
