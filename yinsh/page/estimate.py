"""A quick estimate of who leads, for the evaluation graph before the computer's answer.

The computer player's evaluation (:func:`yinsh.web.worker.evaluate`: the engine's static
evaluation with a turn of look-ahead) runs in its worker, which takes seconds to start cold.
The page's own Python draws a first graph at once from what a glance at each position
tells, in the same unit (rings, from White's side; a finished game ±100):

- the rings removed, one each;
- rows threatened: a five-window holding four markers of a colour and nothing of the other
  colour's markers on its fifth point, :data:`THREAT` each, at most :data:`THREATS_MAX`;
- the markers on the board, :data:`MARKER` each.

It is labelled a quick estimate on the page, and replaced by the engine's values when they
come. Integer operations only (a few per window), so that MicroPython runs it in a few ms a
position (``make bench-micropython`` prints the figure).

>>> from yinsh.game import Game
>>> quick_values(Game.from_record("1.e3 2.a5"))
[0.0, 0.0]
"""

from __future__ import annotations

from typing import Final

from ..board import WINDOW_MASKS
from ..compat import bit_count
from ..game import Game
from ..state import State

__all__ = ["quick_value", "quick_values", "THREAT", "THREATS_MAX", "MARKER", "WON"]

THREAT: Final = 0.25
"""A row threatened (four markers in a window, the fifth point not the other colour's marker)."""
THREATS_MAX: Final = 0.75
"""The most rows threatened count for, each side: a ring removed always weighs more."""
MARKER: Final = 0.02
"""A marker on the board."""
WON: Final = 100.0
"""A finished game's value, as the engine gives it."""


def _threats(mine: int, theirs: int) -> int:
    """The five-windows holding four of ``mine`` and not one of ``theirs``."""
    count = 0
    for mask in WINDOW_MASKS:
        rest = mask & ~mine
        if rest and not rest & (rest - 1) and not rest & theirs:  # one point left, not theirs
            count += 1
    return count


def quick_value(state: State) -> float:
    """White's lead in ``state``, in rings, at a glance (see the module's description)."""
    need = state.rings_to_win
    if state.white_score >= need or state.black_score >= need:
        return WON if state.white_score >= need else -WON
    white, black = state.white_markers, state.black_markers
    rows = (min(THREATS_MAX, THREAT * _threats(white, black)) - min(THREATS_MAX, THREAT * _threats(black, white)))
    value = state.white_score - state.black_score + rows + MARKER * (bit_count(white) - bit_count(black))
    return round(value, 3)


def quick_values(game: Game) -> list[float]:
    """:func:`quick_value` after each move of ``game`` (one per move, as the engine's graph)."""
    return [quick_value(game.state_at(ply)) for ply in range(1, len(game.moves) + 1)]
