"""Perft: the number of move sequences of a given depth, the golden test of move generation.

>>> from yinsh import Game
>>> game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
>>> perft(game.state, 2)
6258
"""

from __future__ import annotations

from .move import Move
from .state import State, apply_move, count_legal_moves, legal_moves

__all__ = ["perft", "divide"]


def perft(s: State, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``s``."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count_legal_moves(s)
    return sum(perft(apply_move(s, m), depth - 1) for m in legal_moves(s))


def divide(s: State, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the count below it."""
    return [(m, perft(apply_move(s, m), depth - 1)) for m in legal_moves(s)]
