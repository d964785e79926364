"""What a board shows, as one value: a :class:`Picture`, drawn by :func:`yinsh.render.board_svg`.

A picture holds the position and everything drawn on it — the last move, the choices offered
now, the marked points, the move under the pointer (:class:`Preview`) and how the last move
comes in (:class:`Animation`) — as plain values compared by value, so a page redraws its board
only when the picture changes. :func:`picture` builds one from names (``"e4"``, ``"e3-e7"``),
as diagrams, lessons and tests write them.

>>> from yinsh.game import Game
>>> shown = picture(Game.from_record("1.e3 2.a5"), marked=["f6"])
>>> shown.marked, shown.last_move, shown.preview
((66,), Move.from_text('a5'), None)
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .board import parse_point
from .move import Move, parse_row_name
from .state import State

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = ["Animation", "Preview", "Picture", "picture"]


def _points(values: Iterable[int | str] | None) -> set[int]:
    return {parse_point(v) if isinstance(v, str) else v for v in values or ()}


def _window(value: int | str) -> int:
    if isinstance(value, str):
        return parse_row_name(value)
    return value


_AUTO: Any = object()


class Animation(StrEnum):
    """How the board brings in the last move, once (CSS animations; compare with ``is``)."""

    NONE = "none"
    """Drawn at rest."""
    SLIDE = "slide"
    """The ring slides from where it stood (a placed ring drops in) and the markers it crossed
    flip."""
    FLIPS = "flips"
    """The crossed markers flip; the ring does not slide (it was dragged there)."""



class Preview(NamedTuple("Preview", [("color", str), ("ring", "int | None"), ("flips", "tuple[int, ...]"),
                                     ("rows", "tuple[int, ...]"), ("row", "int | None")])):
    """What a move or a choice would do, drawn over the pieces (it takes no click):

    - ``color``: the mover's colour, ``"white"`` or ``"black"``;
    - ``ring``: where the picked ring would land, drawn there see-through (``None`` for a row);
    - ``flips``: the markers the jump would turn over (sorted), each ringed with a dot of the
      colour it would turn to;
    - ``rows``: the five-windows the move would fill, for either player, each outlined dashed;
    - ``row``: the candidate row a click would choose, outlined, its five markers ringed.

    A page builds it from the turn (:func:`yinsh.page.preview.preview`).
    """

    __slots__ = ()

    def __new__(cls, color: str, ring: int | None = None, flips: tuple[int, ...] = (), rows: tuple[int, ...] = (),
                row: int | None = None) -> Preview:
        return super().__new__(cls, color, ring, flips, rows, row)

class Picture(NamedTuple("Picture", [
        ("position", State), ("last_move", "Move | tuple[int, int] | None"), ("destinations", "tuple[int, ...]"),
        ("rows", "tuple[int, ...]"), ("selected_row", "int | None"), ("selected_ring", "int | None"),
        ("removable", "tuple[int, ...]"), ("movable", "tuple[int, ...]"), ("marked", "tuple[int, ...]"),
        ("clickable", "tuple[int, ...]"), ("point_labels", "Mapping[int, str] | None"),
        ("animation", "Animation"), ("preview", "Preview | None")])):
    """What the board shows: one value, drawn by :func:`yinsh.render.board_svg`.

    - ``position``: the :class:`~yinsh.state.State` drawn; ``last_move``: a ``Move`` or an
      (origin, destination) pair, marked with a trail and a halo (a move's removed rows and
      rings show as ghosts), or ``None``;
    - ``destinations``: dots where the picked ring may go; ``selected_ring``: the picked ring,
      drawn with a marker of its colour inside; ``movable``: rings that may be picked;
    - ``rows``: candidate five-windows (window indices, in the order given), each a clickable
      bar with ``data-row="e3-e7"``; ``selected_row`` is drawn stronger; ``removable``: rings
      that may be removed now;
    - ``marked``: points to point out (a hint, a diagram's highlights); ``clickable``: points
      whose ``data-point`` element gets the class ``can``;
    - ``point_labels``: for a board played on a page, each point's accessible name
      (:func:`yinsh.page.access.point_labels`); ``None`` for a picture;
    - ``animation``: how the last move comes in (:class:`Animation`);
    - ``preview``: what the move or row under the pointer would do (:class:`Preview`), or ``None``.

    Points are indices (sorted), as :func:`picture` makes them from names.
    """

    __slots__ = ()

    def __new__(cls, position: State, last_move: Move | tuple[int, int] | None = None,
                destinations: tuple[int, ...] = (), rows: tuple[int, ...] = (), selected_row: int | None = None,
                selected_ring: int | None = None, removable: tuple[int, ...] = (), movable: tuple[int, ...] = (),
                marked: tuple[int, ...] = (), clickable: tuple[int, ...] = (),
                point_labels: Mapping[int, str] | None = None, animation: Animation = Animation.NONE,
                preview: Preview | None = None) -> Picture:
        return super().__new__(cls, position, last_move, destinations, rows, selected_row, selected_ring, removable,
                               movable, marked, clickable, point_labels, animation, preview)


_ANIMATIONS: Final = {False: Animation.NONE, True: Animation.SLIDE, "flips": Animation.FLIPS}


def picture(
    position: Any,
    *,
    last_move: Move | tuple[int, int] | None = _AUTO,
    destinations: Iterable[int | str] = (),
    rows: Iterable[int | str] = (),
    selected_row: int | str | None = None,
    selected_ring: int | str | None = None,
    removable: Iterable[int | str] = (),
    movable: Iterable[int | str] = (),
    marked: Iterable[int | str] = (),
    clickable: Iterable[int | str] = (),
    point_labels: Mapping[int, str] | None = None,
    animate: Animation | bool | str = Animation.NONE,
    preview: Preview | None = None,
) -> Picture:
    """The :class:`Picture` of ``position``, a :class:`~yinsh.state.State` or a
    :class:`~yinsh.game.Game` (whose last move is then marked unless ``last_move`` is given),
    with points given as indices or names (``"e4"``) and rows as window indices or
    ``"e3-e7"``: what diagrams, lessons and tests write. ``animate``: an :class:`Animation`,
    or ``True`` for a slide and ``"flips"`` for the flips only.

    >>> from yinsh.game import Game
    >>> picture(Game.from_record("1.e3"), marked=["f6", "e4"]).marked
    (52, 66)
    """
    state: State = position.state if hasattr(position, "state") else position
    if last_move is _AUTO:
        moves = getattr(position, "moves", ())
        last_move = moves[-1] if moves else None
    return Picture(
        state, last_move, _sorted_points(destinations), tuple(_window(w) for w in rows),
        _window(selected_row) if selected_row is not None else None,
        parse_point(selected_ring) if isinstance(selected_ring, str) else selected_ring,
        _sorted_points(removable), _sorted_points(movable), _sorted_points(marked), _sorted_points(clickable),
        point_labels, _ANIMATIONS.get(animate, animate), preview)  # type: ignore[call-overload,arg-type]


def _sorted_points(values: Iterable[int | str]) -> tuple[int, ...]:
    return tuple(sorted(_points(values)))
