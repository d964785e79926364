"""Ring placement: a cheap positional choice instead of a search.

Before any marker is on the board a search has nothing to count, and the ten
placements matter less than the ring moves that follow. A ring is worth the
moves it will have, so each empty point is scored by the ring moves a ring there
would have now (rings block lines, so this also keeps a player's rings apart),
plus a little for lines shared with opponent rings (contact, so they can be
contested) and a seeded jitter that varies games without weakening them much.
"""

from __future__ import annotations

import random

from ..board import BIT, POINTS, RAYS
from ..move import Move
from ..state import State

__all__ = ["placement_move"]


def placement_move(s: State, rng: random.Random, jitter: float = 1.0) -> Move:
    """A ring placement for the player to move (``s`` must be in placement)."""
    rings = s.white_rings | s.black_rings
    theirs = s.white_rings if s.turn else s.black_rings
    best_score = float("-inf")
    best = POINTS[0]
    for p in POINTS:
        if rings & BIT[p]:
            continue
        score = 0.0
        for ray in RAYS[p]:
            for q in ray:
                if rings & BIT[q]:
                    if theirs & BIT[q]:
                        score += 1.5
                    break
                score += 1
        score += rng.random() * jitter * 4
        if score > best_score:
            best_score, best = score, p
    return Move("place", None, best)
