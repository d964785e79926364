"""Why a hint's move is good, in a few words the rules can justify: what it does on the board.

The hint (:meth:`~yinsh.page.computer.ComputerPlayer.receive_hint`) shows the move the
computer would play; :func:`hint_reason` says what that move does, read from the rules core
(the rows it makes and removes, the markers it flips, the opponent's fours it breaks, a win)
and, for a ring placement, from the placement rule's own terms (the points a ring there can
reach, the opponent's rings on its lines). Nothing is guessed: every word is a fact of the
position after the move.

>>> from yinsh.game import Game
>>> from yinsh.state import make_state
>>> s = make_state(["e7", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], ["e3", "e4", "e5", "e6"])
>>> hint_reason(s, Move.from_text("e7-e8;xe3-e7xk8"))
'it makes the row e3-e7 (removed with the ring on k8)'
"""

from __future__ import annotations

from ..board import BIT, POINTS, WINDOW_MASKS, point_name
from ..compat import bit_count
from ..move import Move, row_name
from ..state import State, after_removal, after_ring_move, apply_move, flipped, result, rows
from .words import plural

__all__ = ["hint_reason", "fours"]

NAMES = ("White", "Black")


def fours(markers: int, others: int) -> list[int]:
    """The opponent's near rows: for each five-window holding four of ``markers`` and no
    marker of ``others``, those four markers (a bitboard), each set once."""
    out = []
    for mask in WINDOW_MASKS:
        four = mask & markers
        if not mask & others and bit_count(four) == 4 and four not in out:
            out.append(four)
    return out


def _span(four: int) -> str:
    """``f3-f6``: the first and last point of four markers in a line (notation order)."""
    points = [p for p in POINTS if four & BIT[p]]
    return f"{point_name(points[0])}-{point_name(points[-1])}"


def _sentence(parts: list[str]) -> str:
    if len(parts) == 1:
        return "it " + parts[0]
    return "it " + ", ".join(parts[:-1]) + " and " + parts[-1]


def hint_reason(s: State, move: Move) -> str:
    """What ``move``, played in ``s``, does, as a clause (``it makes the row e3-e7 and flips
    2 markers``); ``''`` when it does none of what this names (a quiet ring move)."""
    if move.kind == "place" and move.target is not None:
        from ..ai.placement import reach  # the placement rule's terms (imported only for a placement)

        points, contacts = reach(s, move.target)
        text = f"a ring there can move to {plural(points, 'point')}"
        if contacts:
            text += f", on a line with {plural(contacts, 'ring')} of {NAMES[s.turn ^ 1]}'s"
        return text
    me = s.turn
    parts: list[str] = []
    after = apply_move(s, move)
    if result(after) == ("1-0" if me == 0 else "0-1"):
        parts.append("wins the game")
    for removal in move.before:
        parts.append(f"removes the row {row_name(removal.row)} with the ring on {point_name(removal.ring)}")
        s = after_removal(s, me, removal.row, removal.ring)
    if move.kind != "move" or move.source is None or move.target is None:
        return _sentence(parts) if parts else ""
    mine = s.black_markers if me else s.white_markers
    theirs = s.white_markers if me else s.black_markers
    moved = after_ring_move(s, move.source, move.target)
    made = [w for w in rows(moved.black_markers if me else moved.white_markers) if w not in rows(mine)]
    for window in made:
        rings = [point_name(r.ring) for r in move.after if r.row == window]
        parts.append(f"makes the row {row_name(window)}" + (f" (removed with the ring on {rings[0]})"
                                                             if rings else ""))
    for removal in move.after:
        if removal.row not in made:
            parts.append(f"removes the row {row_name(removal.row)} with the ring on {point_name(removal.ring)}")
    theirs_after = after.white_markers if me else after.black_markers
    mine_after = after.black_markers if me else after.white_markers
    broken = [f for f in fours(theirs, mine) if f not in fours(theirs_after, mine_after)]
    if broken:
        spans = ", ".join(_span(f) for f in broken[:2])
        parts.append(f"breaks {NAMES[me ^ 1]}'s {'four' if len(broken) == 1 else 'fours'} on {spans}")
    count = bit_count(flipped(s, move.source, move.target))
    if count:
        parts.append(f"flips {plural(count, 'marker')}")
    return _sentence(parts) if parts else ""
