"""Ring placement: a cheap positional choice instead of a search.

Before any marker is on the board a search has nothing to count, and the ten
placements matter less than the ring moves that follow. A ring is worth the
moves it will have, so each empty point is scored by the ring moves a ring there
would have now (rings block lines, so this also keeps a player's rings apart),
plus a little for lines shared with opponent rings (contact, so they can be
contested) and a seeded jitter that varies games without weakening them much.

The choice is the same on every Python: the page's main thread (MicroPython) makes
the computer's placements itself, at once, while the worker (Pyodide) starts, and
must choose what the worker would. So the jitter is an integer hash of the seed,
the number of rings placed and the point (not ``random``, whose sequence differs
between interpreters), and the scores are integers. This module keeps to the
subset of Python the page's modules share (docs/PORTABILITY.md): the page maps it
without the rest of :mod:`yinsh.ai`.
"""

from __future__ import annotations

from ..board import BIT, POINTS, RAYS
from ..move import Move
from ..state import State

__all__ = ["placement_move", "jitter_of", "reach"]

_MASK = 0xFFFFFFFF
_STEPS = 1024
"""Jitter steps per score unit (half a ring move): fine enough that ties are rare."""


def jitter_of(level: int) -> int:
    """How far the jitter reaches for ``level``, in ring moves: level 1 places loosely."""
    return 12 if level == 1 else 4


def _mix(x: int) -> int:
    """A 32-bit integer hash (Wellons' "lowbias32"): the same bits on every interpreter."""
    x ^= x >> 16
    x = x * 0x7FEB352D & _MASK
    x ^= x >> 15
    x = x * 0x846CA68B & _MASK
    return x ^ x >> 16


def reach(s: State, point: int) -> tuple[int, int]:
    """What a ring of the player to move placed on ``point`` would have: the points it could
    move to now, and the opponent's rings on its lines (the contacts)."""
    rings = s.white_rings | s.black_rings
    theirs = s.white_rings if s.turn else s.black_rings
    points = contacts = 0
    for ray in RAYS[point]:
        for q in ray:
            if rings & BIT[q]:
                if theirs & BIT[q]:
                    contacts += 1
                break
            points += 1
    return points, contacts


def placement_move(s: State, seed: int = 0, level: int = 3) -> Move:
    """The ring placement ``level`` makes for the player to move (``s`` must be in
    placement), the same for the same ``seed`` on CPython, Pyodide and MicroPython.

    >>> from yinsh.game import Game
    >>> str(placement_move(Game().state, seed=7)) == str(placement_move(Game().state, seed=7))
    True
    """
    rings = s.white_rings | s.black_rings
    spread = jitter_of(level) * 2 * _STEPS
    game_key = _mix(_mix(seed % 4294967296) ^ s.placed * 0x9E3779B9 & _MASK)
    best_score = -1
    best = POINTS[0]
    for p in POINTS:
        if rings & BIT[p]:
            continue
        points, contacts = reach(s, p)
        score = (2 * points + 3 * contacts) * _STEPS  # in half ring moves: a ring move is 2, a contact 3
        score += _mix(game_key ^ p * 0x85EBCA6B & _MASK) % spread
        if score > best_score:
            best_score, best = score, p
    return Move("place", None, best)
