"""The page's URL, read and written without :mod:`urllib` (browser-free).

``urllib.parse`` costs a tenth of a second to import in the browser; these few functions do:
:func:`read_params` reads the page's query and hash, :func:`quote` and :func:`unquote` are
percent-encoding (UTF-8), scanned as bytes (see :mod:`yinsh.scan`) so that a long hostile link
costs linear time under MicroPython too.
"""

from __future__ import annotations

from typing import Final

from ..compat import decode_utf8
from ..errors import NotationError
from ..limits import MAX_LINK_CHARS, too_long
from ..scan import lower, strip

__all__ = ["read_params", "quote", "unquote", "parse_query"]


def read_params(search: str, hash_: str = "") -> dict[str, str]:
    """The page's parameters from ``location.search`` and ``location.hash``.

    Both are ``key=value&…``; the hash wins (it is where the page keeps the game it is
    playing). Keys are lower-cased; the first value of a repeated key counts.

    >>> read_params("?record=1.e3+2.a5&white=AI-2", "#white=human")
    {'record': '1.e3 2.a5', 'white': 'human'}

    Raises ``NotationError`` when the two are longer than ``MAX_LINK_CHARS`` together.
    """
    if len(search) + len(hash_) > MAX_LINK_CHARS:
        raise NotationError(too_long("the link", len(search) + len(hash_), MAX_LINK_CHARS))
    out: dict[str, str] = {}
    for text in (search, hash_):
        seen = set()
        for key, value in parse_query(text.lstrip("?#")):
            key = lower(strip(key))
            if key not in seen:
                out[key] = value
                seen.add(key)
    return out


_SAFE: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~;:/,")
_HEX: Final = frozenset(b"0123456789abcdefABCDEF")
_PERCENT: Final = b"%"[0]


def unquote(text: str) -> str:
    """Decode ``+`` and ``%XX`` escapes (UTF-8; bad sequences become U+FFFD).

    >>> unquote("a+b%20c%C3%A9%zz%e9%")
    'a b cé%zz\ufffd%'
    """
    text = text.replace("+", " ")
    if "%" not in text:
        return text
    try:  # scanned as bytes: see yinsh.scan
        data = text.encode()
    except UnicodeError:  # a lone surrogate (CPython only): left as it is
        return text
    out = []
    done = 0
    start = data.find(b"%")
    while start >= 0:
        end = start
        while end + 2 < len(data) and data[end] == _PERCENT and data[end + 1] in _HEX and data[end + 2] in _HEX:
            end += 3
        if end > start:  # a run of escapes: one UTF-8 sequence may span several
            out += [data[done:start].decode(), decode_utf8(bytes.fromhex(data[start:end].replace(b"%", b"").decode()))]
            done = end
        start = data.find(b"%", max(end, start + 1))
    out.append(data[done:].decode())
    return "".join(out)


def quote(text: str) -> str:
    """Percent-encode ``text``: escape everything but unreserved characters and ``;:/,`` (spaces as ``%20``).

    >>> quote('1.e3 2.a5 [Tag "x"]'), unquote(quote("é ü+"))
    ('1.e3%202.a5%20%5BTag%20%22x%22%5D', 'é ü+')
    """
    return "".join(c if c in _SAFE else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)


def parse_query(text: str) -> list[tuple[str, str]]:
    """``key=value`` pairs of a query string, decoded, blank values kept."""
    pairs = []
    for part in text.split("&"):
        if part:
            key, _, value = part.partition("=")
            pairs.append((unquote(key), unquote(value)))
    return pairs
