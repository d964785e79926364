"""The static evaluation: how good a position is for the player to move.

What wins YINSH, in the order it weighs:

1. **Rings removed.** Three win; each is worth far more than anything on the board.
2. **Rows about to happen.** A five-window holding four of a colour's markers whose
   fifth point that colour can fill this very turn — its own ring stands there and
   leaves a marker when it moves, or an opponent marker there can be flipped by one
   of its ring moves. The player to move simply makes that row, so a threat of the
   player to move is worth most of a ring; the other player's threats must be met
   one by one, so one of them costs a fraction of a ring and two cost more.
3. **Markers** on the board, **flips**: opponent markers your rings can turn over
   (and so your markers theirs can), **open fours** (four markers and an empty
   fifth point), and **ring mobility** (the number of ring moves).

The weights of the third group come from games: ``scripts/tune_weights.py`` fits a
logistic model of who won self-play games on these terms (Texel-style tuning, the
value of a ring held fixed), and a weight moved only where matches at a fixed depth
confirmed the fit. A marker weighs 600 and a marker the player's rings can flip 500,
ten and forty times what they weighed before the fit (the row that wins a ring also
takes five markers off the board, so it gains about 7,000, not 10,000). With flips
weighing that much, skipping the ring-move terms where they could not lift the value
into the search's window (a lazy evaluation, kept until these weights) would need a
margin of 2,500 to be right nineteen times in twenty, and then saved no time.

Positions are the search's raw tuples (see :mod:`yinsh.ai.negamax`, whose ``evaluate``
takes a :class:`yinsh.state.State`).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..board import ALL_POINTS
from ..state import State
from .features import completion_points, reach_both

__all__ = ["Weights", "DEFAULT_WEIGHTS", "RING", "WIN", "evaluate_node", "node_of"]

RING: Final = 10_000
"""The value of one ring removed: the unit of the evaluation."""
WIN: Final = 1_000_000
"""The value of a won game (less the plies it takes, so sooner wins score higher)."""


class Weights(NamedTuple):
    """The weights of the evaluation's terms (each own minus opponent's)."""

    marker: int = 600
    mobility: int = 4
    flip: int = 500
    open_four: int = 150
    threat_to_move: int = 7_000
    threat_waiting: int = 2_500
    threats_waiting: int = 6_000


DEFAULT_WEIGHTS: Final = Weights()


def node_of(s: State) -> tuple[int, int, int, int, int, int, int, int]:
    """The search's tuple for a state after placement."""
    return (s.white_markers, s.black_markers, s.white_rings, s.black_rings, s.turn,
            s.white_score, s.black_score, s.passes)


def evaluate_node(node: tuple, rings_to_win: int, w: Weights = DEFAULT_WEIGHTS) -> int:
    """The value of ``node`` for its player to move, who must have no row pending."""
    wm, bm, wr, br, turn, ws, bs, _ = node
    if turn:
        pm, om, pr, orr, ps, os = bm, wm, br, wr, bs, ws
    else:
        pm, om, pr, orr, ps, os = wm, bm, wr, br, ws, bs
    markers = wm | bm
    empty = ALL_POINTS & ~(markers | wr | br)
    x_p = completion_points(pm)
    x_o = completion_points(om)
    moves_p, flip_p, moves_o, flip_o = reach_both(pr, orr, markers, empty)
    value = (RING * (ps - os)
             + w.marker * (pm.bit_count() - om.bit_count())
             + w.open_four * ((x_p & empty).bit_count() - (x_o & empty).bit_count())
             + w.mobility * (moves_p - moves_o)
             + w.flip * ((flip_p & om).bit_count() - (flip_o & pm).bit_count()))
    if x_p & (pr | (flip_p & om)):
        # The player to move makes a row now: that ring is as good as taken.
        value += w.threat_to_move if ps + 1 < rings_to_win else WIN // 2
    threats = x_o & (orr | (flip_o & pm))
    if threats:
        value -= (w.threats_waiting if threats & (threats - 1) else w.threat_waiting) * (
            3 if os + 1 >= rings_to_win else 1)
    return value
