"""Scanning text in time linear in its length, on every interpreter.

MicroPython (the page's main thread) keeps a ``str`` as UTF-8 and finds its n-th character by
counting from the start: indexing a ``str`` in a loop, or searching it from an offset again and
again, takes time quadratic in its length there (20,000 indexed characters: 0.34 s). Its
``bytes`` are indexed at once, and in UTF-8 no ASCII byte occurs inside another character, so
the readers look for their ASCII delimiters in the text's bytes and decode what lies between.

>>> data = utf8("a  é[x]")
>>> skip(data, 1, b" "), position(data, 5)
(3, 5)

The two interpreters also disagree on what is a space and on a letter's case beyond ASCII:
CPython's ``str.split()`` and ``strip()`` take U+00A0, U+2028, U+0085, U+001C–U+001F and
others for spaces, and its ``lower()`` turns the Kelvin sign into ``k``; MicroPython's do
neither. The readers use :func:`strip`, :func:`words` and :func:`lower` instead, which answer
the same everywhere: every character CPython calls a space is a space (:data:`SPACES`: a record
copied from a web page keeps its no-break spaces), and only ASCII letters have a case (the
Kelvin sign is no ``k``):

>>> words(" e3\\ta5\\u00a0b5\\u2028"), strip("\\u3000e3 "), lower("E\\u212a")
(['e3', 'a5', 'b5'], 'e3', 'e\\u212a')
"""

from __future__ import annotations

from .compat import MICROPYTHON
from .errors import NotationError

__all__ = ["SPACES", "ODD_SPACES", "utf8", "skip", "position", "strip", "plain", "words", "lower", "visible",
           "visible_stepwise", "quoted"]

_CHUNK = 256
SPACES = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
          "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
"""The spaces of every reader, on every interpreter: those of CPython's ``str.isspace()``."""
_ASCII_SPACES = " \t\n\r\x0b\x0c"  # MicroPython's str.isspace()
ODD_SPACES = "".join(c for c in SPACES if c not in _ASCII_SPACES)
"""The :data:`SPACES` that MicroPython's ``str.strip()`` and ``split()`` leave alone."""
_SPACE_BYTES = frozenset(c.encode() for c in SPACES)


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 bytes. Raises ``NotationError`` for text that is not Unicode (a lone
    surrogate, which only CPython's ``str`` can hold)."""
    try:
        return text.encode()
    except UnicodeError:
        raise NotationError("the text holds a character that is not Unicode (a lone surrogate)") from None


def skip(data: bytes | bytearray, i: int, chars: bytes) -> int:
    """The first index from ``i`` whose byte is not one of ``chars`` (``len(data)`` if none):
    a chunk at a time, so that a long run costs little even on MicroPython. The first byte is
    looked at alone: most calls find no run at all, and a chunk is an object of more than one
    block of MicroPython's heap, dear to place (docs/PORTABILITY.md)."""
    if i >= len(data) or chars.find(data[i:i + 1]) < 0:
        return i
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


def strip(text: str) -> str:
    """``text`` without the :data:`SPACES` at its ends: CPython's ``str.strip()``, whose spaces
    they are; on MicroPython its ``strip()`` (the ASCII spaces), then the others, in bytes
    (its ``str.strip(chars)`` strips the bytes of ``chars`` one by one, which can cut a
    character in two)."""
    text = text.strip()
    if not MICROPYTHON or not text or (text[0] not in ODD_SPACES and text[-1] not in ODD_SPACES):
        return text
    data = text.encode()
    start, end = 0, len(data)
    while start < end:
        size = 1 if data[start] < 0xC0 else 2 if data[start] < 0xE0 else 3 if data[start] < 0xF0 else 4
        if data[start:start + size] not in _SPACE_BYTES:
            break
        start += size
    while end > start:
        lead = end - 1
        while lead > start and 0x80 <= data[lead] < 0xC0:
            lead -= 1
        if data[lead:end] not in _SPACE_BYTES:
            break
        end = lead
    return data[start:end].decode()


def plain(text: str) -> bool:
    """Whether the built-in ``strip()`` and ``split()`` of this interpreter find every space of
    ``text``: always on CPython; on MicroPython when ``text`` holds none of :data:`ODD_SPACES`
    (checked in C: ASCII, and no U+001C–U+001F). A reader of many lines asks once, then takes
    the built-ins (a call of :func:`strip` per line costs microseconds there)."""
    if not MICROPYTHON:
        return True
    return len(text.encode()) == len(text) and not any(c in text for c in "\x1c\x1d\x1e\x1f")


def words(text: str) -> list[str]:
    """The words of ``text`` separated by :data:`SPACES`: CPython's ``str.split()``; on
    MicroPython the other spaces made plain first."""
    if not plain(text):
        for space in ODD_SPACES:
            if space in text:
                text = text.replace(space, " ")
    return text.split()


def lower(text: str) -> str:
    """``text`` with its ASCII letters in lower case, every other character as it is
    (CPython's ``str.lower()`` also lowers other letters, MicroPython's does not)."""
    if len(text.encode()) == len(text):  # ASCII: the built-in agrees everywhere
        return text.lower()
    return "".join(c.lower() if c < "\x80" else c for c in text)


_HIDDEN = frozenset(
    [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
    + ["\u061c", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u2060", "\ufeff"]
    + [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)]
)
"""Characters that hide text or change the order it is shown in: controls (a newline, an
escape), line separators, zero-width characters and the bidirectional controls."""


def visible(text: str) -> str:
    """``text`` as it may be shown: each character of :data:`_HIDDEN` written as its code
    (``\\u202e``), so that a tag cannot break a line, colour a terminal, or turn the text after
    it around ("2 moves" shown as "164 moves, 1-0"); so is a lone surrogate (CPython only).
    A fixed list, as MicroPython (the page) has no ``str.isprintable`` and no ``unicodedata``;
    the command line, on CPython only, escapes every character Unicode calls unprintable
    (``yinsh.__main__._shown``).

    >>> visible("Ann\\u202e0-1"), visible("a\\nb\\x1b[31m"), visible("Zoë")
    ('Ann\\\\u202e0-1', 'a\\\\u000ab\\\\u001b[31m', 'Zoë')

    Searches in C, a few for each kind of hidden character that the text's bytes may hold: a
    step of Python per character costs microseconds on the page's MicroPython, and the Open
    dialog shows names of a thousand characters (:func:`visible_stepwise` is the reference).
    """
    try:
        data = text.encode()
    except UnicodeError:  # a lone surrogate: CPython only, where a step per character is cheap
        return visible_stepwise(text)
    if not data:
        return text
    low, ascii_only = min(data), len(data) == len(text)  # one step a byte, and a count (no max(): a step a byte)
    if ascii_only and low >= 0x20 and b"\x7f" not in data:
        return text  # printable ASCII: the usual case
    if not ascii_only and b"\xed" in data:  # U+D000 to U+DFFF: a lone surrogate on MicroPython (as such bytes)
        return visible_stepwise(text)
    candidates = [c for c in _HIDDEN_ASCII if c in text] if low < 0x20 or b"\x7f" in data else []
    for lead, hidden in _HIDDEN_BY_LEAD if not ascii_only else ():
        if lead in data:
            candidates += [c for c in hidden if c in text]
    for c in candidates:
        text = text.replace(c, f"\\u{ord(c):04x}")
    return text


def visible_stepwise(text: str) -> str:
    """:func:`visible`, a step of Python per character."""
    if " " <= min(text or " ") and max(text or " ") < "\x7f":
        return text
    return "".join(f"\\u{ord(c):04x}" if c in _HIDDEN or 0xD800 <= ord(c) < 0xE000 else c for c in text)


_HIDDEN_ASCII = sorted(c for c in _HIDDEN if c < "\x80")


def _lead(c: str) -> bytes:
    data = c.encode()
    return data[:len(data) - 1] if len(data) < 4 else data[:2]


_HIDDEN_BY_LEAD = [(lead, sorted(c for c in _HIDDEN if c >= "\x80" and _lead(c) == lead))
                   for lead in sorted({_lead(c) for c in _HIDDEN if c >= "\x80"})]
"""The hidden characters beyond ASCII by the bytes their UTF-8 starts with (``\\xe2\\x80``:
U+2000 to U+203F), so that a text holding none of those bytes needs no search for them."""


def quoted(text: str, limit: int = 40) -> str:
    """``text`` in quotes for a message, :func:`visible`, cut short past ``limit`` characters:
    the same on every interpreter (MicroPython's ``repr`` escapes what is not ASCII).

    >>> quoted("blit\\u212a"), quoted("x" * 50, 10)
    ("'blit\\u212a'", "'xxxxxxxxx…'")
    """
    return "'" + visible(text if len(text) <= limit else text[: limit - 1] + "…") + "'"
