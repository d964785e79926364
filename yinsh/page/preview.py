"""What the board shows before a decision is made, browser-free: the move under the pointer.

While a lit destination is hovered, focused by the keyboard or under a dragged ring, the page
shows the ring there see-through, marks every marker the jump would flip and outlines any row
of five the move would make, for either player (:func:`move_preview`). While a row is to be
chosen, the candidate row through the marker under the pointer is shown, five markers and all
(:func:`row_at`): where several candidate rows share that marker, the one whose middle is
nearest the pointer — the same row a click there takes (:mod:`yinsh.web.controls` asks
:func:`row_at` too), never simply the shape drawn on top.

Nothing here re-derives a rule: what a move flips is :func:`yinsh.state.flips` of that move,
the rows it makes those of the position :func:`yinsh.state.after_ring_move` gives, the
destinations and candidate rows the :class:`~yinsh.turn.Turn`'s (its legal moves).

>>> from yinsh.board import parse_point, point_name
>>> from yinsh.game import Game
>>> from yinsh.turn import Turn
>>> turn = Turn(Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7"))
>>> _ = turn.click_point(parse_point("e4"))
>>> shown = preview(turn, parse_point("i8"))
>>> point_name(shown.ring), shown.color, [point_name(p) for p in shown.flips], preview_note(turn, shown)
('i8', 'black', ['h7'], '')

The preview is a :class:`~yinsh.picture.Preview`, a field of the board's
:class:`~yinsh.picture.Picture` (:func:`yinsh.page.status.board_picture` puts it there), drawn
by the renderer's :func:`~yinsh.render.preview_layer` like every other layer; what the prompt
says beside it is :func:`preview_note`, in the page's words (:func:`yinsh.page.words.rows_note`).
"""

from __future__ import annotations

from typing import Final

from .. import state as st
from ..board import WINDOWS, points_of
from ..game import COLORS
from ..move import row_name  # noqa: F401 (the doctests)
from ..picture import Preview
from ..render import point_xy
from ..turn import Phase, Turn, row_name_key
from .access import row_for_key, rows_through
from .words import rows_note

__all__ = ["Preview", "preview", "preview_note", "move_preview", "row_at", "rows_made"]

ROW_PHASES: Final = (Phase.REMOVE_ROW, Phase.REMOVE_RING)


def preview(turn: Turn, point: int | None, x: float | None = None, y: float | None = None,
            by_key: bool = False) -> Preview | None:
    """What the board previews with the pointer at ``(x, y)`` (SVG units) over ``point``, or the
    keyboard's focus on it (``by_key``; no position); ``None`` when nothing is to be shown.

    A lit destination previews the move there; in a row choice a marker of a candidate row
    previews the row a click (or, ``by_key``, Enter) would choose.
    """
    if point is None:
        return None
    phase = turn.phase
    if phase is Phase.MOVE_RING and point in turn.destinations:
        return move_preview(turn, turn.selected_ring, point)  # type: ignore[arg-type]
    if phase in ROW_PHASES:
        row = row_for_key(turn, point) if by_key else None
        if row is None:
            row = row_at(turn, point, x, y)
        if row is not None:
            return Preview(COLORS[turn.color], row=row)
    return None


def move_preview(turn: Turn, source: int, target: int) -> Preview:
    """The ring move ``source``-``target`` of ``turn`` (a legal one) before it is made.

    >>> from yinsh.board import parse_point as P, point_name
    >>> from yinsh.game import Game
    >>> s = st.make_state(["e2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"],
    ...                   ["e3", "e4", "e5"], ["e6"])
    >>> shown = move_preview(Turn(Game.from_state(s, 40)), P("e2"), P("e7"))
    >>> [point_name(p) for p in shown.flips], [row_name(w) for w in shown.rows]
    (['e3', 'e4', 'e5', 'e6'], [])
    >>> s = st.make_state(["e2", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], [],
    ...                   ["e3", "e4", "e5", "e6"])
    >>> turn = Turn(Game.from_state(s, 40))
    >>> turn.click_point(P("e2"))
    >>> shown = move_preview(turn, P("e2"), P("e7"))
    >>> [row_name(w) for w in shown.rows], preview_note(turn, shown)
    (['e2-e6'], 'Makes a row for White (e2-e6)')
    """
    before = turn.state
    flipped = st.flipped(before, source, target)
    made = rows_made(before, st.after_ring_move(before, source, target))
    return Preview(COLORS[turn.color], ring=target, flips=tuple(points_of(flipped)), rows=tuple(w for _, w in made))


def preview_note(turn: Turn, shown: Preview | None) -> str:
    """What the prompt says beside the preview ``shown`` of ``turn`` (whose ring is picked): the
    rows the move would make, for whom (``""``: none, or not a move)."""
    if shown is None or shown.ring is None or turn.selected_ring is None:
        return ""
    before = turn.state
    return rows_note(rows_made(before, st.after_ring_move(before, turn.selected_ring, shown.ring)))


def rows_made(before: st.State, after: st.State) -> list[tuple[str, int]]:
    """The rows of five in ``after`` that ``before`` did not hold, as (colour, window), White's
    first, each colour's in notation order."""
    out = []
    for color, old, new in (("white", before.white_markers, after.white_markers),
                            ("black", before.black_markers, after.black_markers)):
        if not st.has_row(new):
            continue
        had = set(st.rows(old))
        out += [(color, w) for w in sorted(st.rows(new), key=row_name_key) if w not in had]
    return out


def row_at(turn: Turn, point: int | None, x: float | None = None, y: float | None = None) -> int | None:
    """The candidate row a click at ``(x, y)`` over ``point`` chooses (``None``: none runs
    through ``point``, or it is a ring to remove). Of the candidate rows through ``point``,
    the one whose middle (its third point) is nearest ``(x, y)`` (default: the point itself);
    where two middles are as near, the row whose line passes nearest, then notation order.

    >>> from yinsh.board import parse_point as P
    >>> from yinsh.game import Game
    >>> s = st.make_state(["a2", "k8", "h9", "b7", "c8"], ["a5", "k7", "j11", "i11", "h11"],
    ...                   ["f10", "g10", "h10", "i10", "j10", "k10"], turn=0)
    >>> turn = Turn(Game.from_state(s, 40))
    >>> [row_name(w) for w in turn.candidate_rows]
    ['f10-j10', 'g10-k10']
    >>> row_name(row_at(turn, P("h10"))), row_name(row_at(turn, P("i10")))
    ('f10-j10', 'g10-k10')
    >>> row_name(row_at(turn, P("g10"))), row_at(turn, P("e5"))
    ('f10-j10', None)
    """
    if point is None:
        return None
    windows = rows_through(turn, point)
    if len(windows) < 2:
        return windows[0] if windows else None
    if x is None or y is None:
        x, y = point_xy(point)

    def nearness(i: int) -> tuple[float, float, int]:
        window = WINDOWS[windows[i]]
        mx, my = point_xy(window[2])
        ax, ay = point_xy(window[0])
        bx, by = point_xy(window[-1])
        # distance to the row's line: the cross product over the row's length (both squared)
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        across = cross * cross / ((bx - ax) ** 2 + (by - ay) ** 2)
        return ((x - mx) ** 2 + (y - my) ** 2, across, i)

    return windows[min(range(len(windows)), key=nearness)]
