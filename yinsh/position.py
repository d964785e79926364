"""Compact, URL-safe position codes.

A code is ``Y1`` (the format's version) followed by base64url digits of one
integer that packs, in mixed radix, the 85 points (empty, white ring, black ring,
white marker, black marker), the player to move, the passes in a row, the rings
each player removed, the variant and the number of moves played, then two check
digits so that a truncated or mistyped code is refused rather than misread.

>>> from yinsh.state import initial_state
>>> encode_position(initial_state(), 0)
'Y1A6L'
>>> decode_position('Y1A6L') == (initial_state(), 0)
True
"""

from __future__ import annotations

import binascii
from typing import Final

from .board import BIT, POINTS
from .compat import bit_count
from .errors import NotationError
from .limits import MAX_POSITION_CHARS, too_long
from .scan import quoted, strip
from .state import RINGS_PER_PLAYER, State, why_unreachable

__all__ = ["encode_position", "decode_position", "VERSION", "to_digits", "from_digits", "check_digits"]

VERSION: Final = "Y1"
_DIGITS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_VALUE: Final = {c: i for i, c in enumerate(_DIGITS)}
_CHECK: Final = 64 * 64


def to_digits(n: int) -> str:
    """``n`` in base64url digits, most significant first."""
    out = []
    while n:
        n, d = divmod(n, 64)
        out.append(_DIGITS[d])
    return "".join(reversed(out)) or _DIGITS[0]


def from_digits(text: str) -> int:
    """The integer of base64url digits; ``ValueError`` for other characters.

    The digits are base64's, in its order, so the bytes come from the C decoder: the time
    is linear in the length (a digit at a time would be quadratic).

    >>> from_digits("B"), from_digits("BA"), from_digits(to_digits(10 ** 40)) == 10 ** 40
    (1, 64, True)
    """
    for c in text:
        if c not in _VALUE:
            raise ValueError(f"{c!r} is not a base64url digit")
    padded = "A" * (-len(text) % 4) + text  # leading zeros, to whole groups of four digits
    return int.from_bytes(binascii.a2b_base64(padded.replace("-", "+").replace("_", "/").encode()), "big")


def check_digits(text: str) -> str:
    """Two base64url digits that change when ``text`` is truncated or mistyped."""
    return to_digits(_CHECK + binascii.crc32(text.encode()) % _CHECK)[1:]


def encode_position(s: State, ply: int) -> str:
    """The code of state ``s`` after ``ply`` moves."""
    n = ply
    n = n * 2 + (s.rings_to_win == 1)
    n = n * 4 + s.white_score
    n = n * 4 + s.black_score
    n = n * 3 + min(s.passes, 2)
    n = n * 2 + s.turn
    for p in POINTS:
        b = BIT[p]
        n = n * 5 + (1 if s.white_rings & b else 2 if s.black_rings & b else
                     3 if s.white_markers & b else 4 if s.black_markers & b else 0)
    body = to_digits(n)
    return VERSION + body + check_digits(body)


def decode_position(code: str) -> tuple[State, int]:
    """The state and move count a code describes. Raises ``NotationError``."""
    if not isinstance(code, str):
        raise NotationError(f"{code!r} is not a position code: expected text")
    text = strip(code)
    if len(text) > MAX_POSITION_CHARS:
        raise NotationError(f"'{text[:12]}…' is not a position code: " + too_long("it", text, MAX_POSITION_CHARS))
    if not text.startswith(VERSION):
        raise NotationError(f"{quoted(text)} is not a position code: it must start with {VERSION!r}")
    body, check = text[len(VERSION):-2], text[-2:]
    if not body or any(c not in _VALUE for c in body + check):
        raise NotationError(
            f"{quoted(text)} is not a position code: it is truncated or has characters outside A-Z a-z 0-9 - _"
        )
    if check_digits(body) != check:
        raise NotationError(f"'{text}' is not a position code: its check digits do not match (truncated or mistyped?)")
    n = from_digits(body)
    boards = [0, 0, 0, 0, 0]
    for p in reversed(POINTS):
        n, cell = divmod(n, 5)
        boards[cell] |= BIT[p]
    n, turn = divmod(n, 2)
    n, passes = divmod(n, 3)
    n, black_score = divmod(n, 4)
    n, white_score = divmod(n, 4)
    ply, blitz = divmod(n, 2)
    _, wr, br, wm, bm = boards
    rings_to_win = 1 if blitz else 3
    placed = min(2 * RINGS_PER_PLAYER, bit_count(wr) + bit_count(br) + white_score + black_score)
    s = State(wm, bm, wr, br, turn, placed, white_score, black_score, passes, rings_to_win)
    problem = why_unreachable(s, ply)
    if problem:
        raise NotationError(f"'{text}' is not a reachable position: {problem}")
    return s, ply
