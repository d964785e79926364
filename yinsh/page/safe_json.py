"""The hardened JSON reader of what the page keeps in ``localStorage`` (browser-free).

``localStorage`` is shared with every page of the same site, so what the page reads back may
be anything: :func:`load_json` reads it only when it is short enough and shallow enough for a
parser that recurses once per level, and raises ``ValueError`` and nothing else.
"""

from __future__ import annotations

import json

from ..limits import MAX_JSON_DEPTH, MAX_SAVED_CHARS, too_long

__all__ = ["load_json"]


def load_json(text: str) -> object:
    """The value of JSON text kept in ``localStorage``, read only when it is at most
    ``MAX_SAVED_CHARS`` long and nests at most ``MAX_JSON_DEPTH`` deep (a parser recursing
    once per level must not meet ``[[[[…`` from another page of the same site).

    Raises ``ValueError`` saying what is wrong, and nothing else.

    >>> load_json('{"a": [1, 2]}'), load_json("[" * 20000)
    Traceback (most recent call last):
    ...
    ValueError: it nests more than 16 deep
    """
    if not isinstance(text, str):
        raise ValueError("it is not text")
    if len(text) > MAX_SAVED_CHARS:
        raise ValueError(too_long("it", text, MAX_SAVED_CHARS))
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _nests_deeper(text, MAX_JSON_DEPTH):
        raise ValueError(f"it nests more than {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text)
    except (ValueError, TypeError, RuntimeError):  # RecursionError is a RuntimeError (MicroPython has no other)
        raise ValueError("it is not JSON") from None


def _nests_deeper(text: str, limit: int) -> bool:
    """Whether the arrays and objects of JSON text nest more than ``limit`` deep (brackets in
    strings do not count); it stops at the first bracket past the limit. It scans the text's
    bytes (see :func:`yinsh.scan`).

    >>> _nests_deeper('[{"a": "[[[\\\\"}, []]', 2), _nests_deeper('[[[]]]', 2)
    (False, True)
    """
    try:
        data = text.encode()
    except UnicodeError:  # a lone surrogate (CPython only): its bytes do not matter here
        data = text.encode("utf-8", "surrogatepass")
    depth = 0
    i, end = 0, len(data)
    while i < end:
        c = data[i]
        if c == _JSON_QUOTE:  # jump to the closing quote: one not escaped by an odd run of backslashes
            close = data.find(b'"', i + 1)
            while close > 0:
                run = close
                while data[run - 1] == _JSON_BACKSLASH:
                    run -= 1
                if (close - run) % 2 == 0:
                    break
                close = data.find(b'"', close + 1)
            if close < 0:
                return False  # an unclosed string: json.loads refuses it
            i = close
        elif c in _JSON_OPENING:
            depth += 1
            if depth > limit:
                return True
        elif c in _JSON_CLOSING:
            depth -= 1
        i += 1
    return False


_JSON_QUOTE, _JSON_BACKSLASH = b'"'[0], b"\\"[0]
_JSON_OPENING, _JSON_CLOSING = frozenset(b"[{"), frozenset(b"]}")
