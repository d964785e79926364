"""The first-game guide: one line saying what to do now, and why (browser-free).

:func:`guide_line` reads the turn being built (:class:`~yinsh.turn.Turn`) and picks the
most useful advice for its phase: how to place rings, what a ring move does, that a row is
in reach or threatened, that a row is made and what it is worth, which row or ring to
choose, and that the pool is running low. The page shows it under the prompt to a person
whose turn it is, until they hide the guide.

>>> from yinsh.game import Game
>>> guide_line(Turn(Game()))
'Place your rings spread out: rings in the middle reach more points.'
"""

from __future__ import annotations

from typing import Final

from ..board import WINDOWS
from ..compat import capitalize
from ..game import COLORS
from ..move import row_name
from ..state import WHITE, State, has_row, markers_after, rows, slides
from ..turn import Phase, Turn, row_name_key

__all__ = ["guide_line", "rows_in_reach", "LOW_POOL"]

LOW_POOL: Final = 15
"""From this many markers left in the pool the guide warns that the game may end on markers."""

PLACE: Final = "Place your rings spread out: rings in the middle reach more points."
FIRST_PICK: Final = ("Pick a ring, then a point along a line: it leaves a marker and flips the markers "
                     "it jumps.")
FIRST_TARGET: Final = ("Now pick a lit point: your marker stays where the ring stood, and every marker "
                       "the ring jumps changes colour.")
PICK: Final = ("Line up five markers of your colour: look at what each move leaves behind and what its "
               "jump flips.")
TARGET: Final = "Before you choose a lit point, check which markers the jump flips: yours can turn too."
OVERLINE: Final = "Six or more in a line: choose which five markers go back to the pool; the others stay."
SEVERAL_ROWS: Final = ("More than one row: choose which to take first; a row that crosses it may be broken "
                       "by the removal.")


def rows_in_reach(s: State, color: int) -> list[int]:
    """The five-windows ``color`` could fill with one ring move from ``s`` (as if it were
    ``color``'s turn), in notation order; flips count, rows already on the board do not."""
    mine = s.white_markers if color == WHITE else s.black_markers
    markers = s.white_markers | s.black_markers
    found: set[int] = set()
    for move in slides(s.white_rings | s.black_rings, markers, s.white_rings if color == WHITE else s.black_rings):
        after = markers_after(move, mine, markers)
        if has_row(after):  # cheap; listing the rows is not
            found.update(rows(after))
    return sorted(found - set(rows(mine)), key=row_name_key)


def _one_run(windows: tuple[int, ...]) -> bool:
    """Whether the candidate rows are windows of one run of markers (six or more in a line)."""
    step = WINDOWS[windows[0]][1] - WINDOWS[windows[0]][0]
    points = sorted({p for w in windows for p in WINDOWS[w]})
    return all(b - a == step for a, b in zip(points, points[1:]))


def guide_line(turn: Turn) -> str:
    """What the player making ``turn`` should do now and why, in one line ('' once the turn
    is complete or the game is over)."""
    game, phase = turn.game, turn.phase
    if phase in (Phase.DONE, Phase.GAME_OVER):
        return ""
    if phase is Phase.PLACE_RING:
        return PLACE
    s = game.state
    opponent = capitalize(COLORS[turn.color ^ 1])
    if phase in (Phase.REMOVE_ROW, Phase.REMOVE_RING):
        need = s.rings_to_win
        score = (s.white_score, s.black_score)[turn.color] + len(turn.removals)
        goal = f"{need} ring{'s' * (need != 1)} removed wins"
        if turn.rows_pending_for == "opponent":
            return (f"{opponent}'s move made a row of your colour: take it and one of your rings off "
                    f"before you move ({goal}).")
        rows_offered = turn.candidate_rows
        if phase is Phase.REMOVE_ROW:
            return OVERLINE if _one_run(rows_offered) else SEVERAL_ROWS
        if len(rows_offered) == 1:
            return (f"You made a row: you remove the row and one of your rings — that is how you win "
                    f"(ring {score + 1} of {need}).")
        return (f"Pick the ring to take off with the row (ring {score + 1} of {need}): keep the rings "
                f"that reach the most points.")
    if game.ply < 12:  # plies 10 and 11: each player's first ring move
        return FIRST_PICK if phase is Phase.PICK_RING else FIRST_TARGET
    mine = rows_in_reach(s, turn.color)
    if mine:
        return f"A row is in reach: one ring move can make five on {row_name(mine[0])}. Find it!"
    theirs = rows_in_reach(s, turn.color ^ 1)
    if theirs:
        return (f"{opponent} can make a row on {row_name(theirs[0])} next turn: block that line or flip "
                f"one of its markers.")
    if game.pool <= LOW_POOL:
        left = game.pool
        return f"Watch the pool: {left} marker{'s' * (left != 1)} left; when it runs out the game ends."
    return PICK if phase is Phase.PICK_RING else TARGET

