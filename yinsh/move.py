"""Moves as small immutable values, and their official long-form notation.

A move is one player's whole turn (docs/FORMATS.md describes the notation):
``[removals ';'] action [';' removals]``. The removals before the action resolve
rows that the opponent made for the mover; the removals after it resolve the
mover's own rows. A turn that wins by a removal made before acting has no action.

>>> m = Move.from_text("xb1-b5xa5;d3-b3")
>>> m
Move.from_text('xb1-b5xa5;d3-b3')
>>> m.kind, point_name(m.source), point_name(m.target)
('move', 'd3', 'b3')
>>> str(Move.from_text("  H9-H10 ; xh5-h9xe10 "))
'h9-h10;xh5-h9xe10'
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from .board import WINDOW_INDEX, WINDOWS, is_point, line_step, parse_point, point_name
from .errors import NotationError
from .limits import MAX_MOVE_CHARS
from .scan import lower, visible, words

__all__ = ["Removal", "Move", "MoveKind", "row_name", "parse_row", "parse_row_name", "parse_move_text", "MoveText"]

MoveKind = Literal["place", "move", "pass", "remove"]
"""``place`` a ring, ``move`` a ring, ``pass``, or ``remove`` only (a winning removal)."""


def row_name(window: int) -> str:
    """The notation of a five-window, ``'first-last'`` in notation order."""
    points = WINDOWS[window]
    return f"{point_name(points[0])}-{point_name(points[-1])}"


def parse_row(first: str, last: str) -> int:
    """The window running from ``first`` to ``last`` (either order).

    Raises ``NotationError`` if the points do not span five points of one line.
    """
    a, b = parse_point(first), parse_point(last)
    a, b = min(a, b), max(a, b)
    step = line_step(a, b)
    window = WINDOW_INDEX.get(a << 8 | step) if step is not None else None
    if window is None or WINDOWS[window][-1] != b:
        raise NotationError(f"'{first}-{last}' is not a row: its ends must be five points apart on one line")
    return window



def parse_row_name(text: str) -> int:
    """The window a row's notation names: ``'e3-e7'`` (what :func:`row_name` writes; either
    order), as a page's ``data-row`` or a link gives it.

    >>> row_name(parse_row_name("e7-e3"))
    'e3-e7'

    Raises ``NotationError`` if it does not name five points of one line.
    """
    first, _, last = text.partition("-")
    return parse_row(first, last)


class Removal(NamedTuple("Removal", [("row", int), ("ring", int)])):
    """A row of five returned to the pool and the ring removed with it: ``row`` is the index
    of the five-window in ``yinsh.board.WINDOWS``, ``ring`` the point of the removed ring."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"x{row_name(self.row)}x{point_name(self.ring)}"


class Move(NamedTuple("Move", [("kind", "MoveKind"), ("source", "int | None"), ("target", "int | None"),
                               ("before", "tuple[Removal, ...]"), ("after", "tuple[Removal, ...]")])):
    """One player's whole turn. ``str(move)`` is the official long form.

    ``source`` is the point a ring leaves (``None`` unless ``kind == 'move'``);
    ``target`` is where a ring is placed or lands (``None`` for a pass or a
    removal-only turn); ``before`` and ``after`` are the removals made before and
    after the action.
    """

    __slots__ = ()

    def __new__(cls, kind: MoveKind, source: int | None = None, target: int | None = None,
                before: tuple[Removal, ...] = (), after: tuple[Removal, ...] = ()) -> Move:
        return super().__new__(cls, kind, source, target, before, after)

    def __str__(self) -> str:
        parts = []
        if self.before:
            parts.append("".join(map(str, self.before)))
        if self.kind == "place":
            parts.append(point_name(self.target))  # type: ignore[arg-type]
        elif self.kind == "move":
            parts.append(f"{point_name(self.source)}-{point_name(self.target)}")  # type: ignore[arg-type]
        elif self.kind == "pass":
            parts.append("pass")
        if self.after:
            parts.append("".join(map(str, self.after)))
        return ";".join(parts)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse a move written in full long form; it needs no game to be read.

        Short forms (removals naming only the ring) need a game: use
        ``Game.parse_move``. Raises ``NotationError``.
        """
        parsed = parse_move_text(text)
        removals = []
        for segment in (parsed.before, parsed.after):
            if any(row is None for row, _ in segment):
                raise NotationError(f"'{text}' names a ring without its row: the long form is x<first>-<last>x<ring>")
            removals.append(tuple(Removal(row, ring) for row, ring in segment))  # type: ignore[arg-type]
        return cls(parsed.kind, parsed.source, parsed.target, removals[0], removals[1])


class MoveText(NamedTuple("MoveText", [("kind", "MoveKind"), ("source", "int | None"), ("target", "int | None"),
                                       ("before", "tuple[tuple[int | None, int], ...]"),
                                       ("after", "tuple[tuple[int | None, int], ...]")])):
    """A move as written, before it is checked against a position: the fields of :class:`Move`,
    each removal a (row, ring) pair whose ``row`` is ``None`` when it was omitted (the short form).
    """

    __slots__ = ()


# The notation is read by hand, one character at a time: a point is a column a-k and a row 1-11.
_COLUMN_LETTERS: Final = frozenset("abcdefghijk")
_ROW_DIGITS: Final = frozenset("123456789")
_DIGITS: Final = frozenset("0123456789")


def parse_move_text(text: str) -> MoveText:
    """Read a move's text in long or short form, without checking it against a position.

    Upper case and spaces are accepted. Raises ``NotationError`` naming the input
    and what is wrong with it.
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move: expected text")
    if len(text) > MAX_MOVE_CHARS:
        raise _not_a_move(text[:20] + "…", f"it is {len(text):,} characters long, and a move is at most "
                                            f"{MAX_MOVE_CHARS}")
    clean = lower("".join(words(text)))
    if not clean:
        raise _not_a_move("", "it is empty")
    segments = clean.split(";")
    kinds = [_segment_kind(s, text) for s in segments]
    if kinds.count("action") > 1:
        raise _not_a_move(text, "it has more than one action")
    if "action" not in kinds:
        if len(segments) != 1:
            raise _not_a_move(text, "removals must be separated by ';' only from an action")
        return MoveText("remove", None, None, _removals(segments[0], text), ())
    at = kinds.index("action")
    if at > 1 or len(segments) - at > 2:
        raise _not_a_move(text, "expected [removals;]action[;removals]")
    before = _removals(segments[0], text) if at == 1 else ()
    after = _removals(segments[at + 1], text) if at + 1 < len(segments) else ()
    action = _action(segments[at])
    assert action is not None
    kind, source, target = action
    if kind == "pass":
        return MoveText("pass", None, None, before, after)
    if target is None:
        return MoveText("place", None, _point(source, text), before, after)
    return MoveText("move", _point(source, text), _point(target, text), before, after)


def _not_a_move(text: str, reason: str) -> NotationError:
    """The error for ``text`` that is no move, with its ``reason`` kept apart (see ``YinshError``)."""
    error = NotationError(f"'{visible(text)}' is not a move: {reason}")
    error.reason = reason
    return error


def _point_end(segment: str, start: int) -> int:
    """Where the point name that begins at ``start`` ends (a column a-k, a row 1-11), or -1."""
    if segment[start:start + 1] not in _COLUMN_LETTERS:
        return -1
    if segment[start + 1:start + 3] in ("10", "11"):
        return start + 3
    if segment[start + 1:start + 2] in _ROW_DIGITS:
        return start + 2
    return -1


def _action(segment: str) -> tuple[str, str, str | None] | None:
    """(``'pass'``, …) or (``'point'``, source, target or ``None``) if ``segment`` is an action."""
    if segment == "pass":
        return "pass", "", None
    end = _point_end(segment, 0)
    if end == len(segment):
        return "point", segment, None
    if end < 0 or segment[end] != "-" or _point_end(segment, end + 1) != len(segment):
        return None
    return "point", segment[:end], segment[end + 1:]


def _removal_names(segment: str) -> list[tuple[str | None, str | None, str]] | None:
    """The (first, last, ring) names of every ``x<first>-<last>x<ring>`` or ``x<ring>`` that
    ``segment`` is made of, or ``None`` if it is not made of them."""
    out: list[tuple[str | None, str | None, str]] = []
    i = 0
    while i < len(segment):
        first = _point_end(segment, i + 1) if segment[i] == "x" else -1
        if first < 0:
            return None
        if segment[first:first + 1] != "-":
            out.append((None, None, segment[i + 1:first]))
            i = first
            continue
        last = _point_end(segment, first + 1)
        ring = _point_end(segment, last + 1) if last > 0 and segment[last:last + 1] == "x" else -1
        if ring < 0:
            return None
        out.append((segment[i + 1:first], segment[first + 1:last], segment[last + 1:ring]))
        i = ring
    return out or None


def _segment_kind(segment: str, text: str) -> str:
    if _action(segment) is not None:
        return "action"
    if _removal_names(segment) is not None:
        return "removals"
    if not segment:
        raise _not_a_move(text, "it has an empty part between ';'")
    for token in _letter_numbers(segment):
        if not is_point(token):
            raise _not_a_move(text, f"'{token}' is not a point of the board")
    raise _not_a_move(text, f"cannot read '{segment}'")


def _letter_numbers(segment: str) -> list[str]:
    """Every letter a-z followed by digits in ``segment``, left to right: what looks like a point."""
    out = []
    i = 0
    while i < len(segment):
        end = i + 1
        while end < len(segment) and segment[end] in _DIGITS:
            end += 1
        if "a" <= segment[i] <= "z" and end > i + 1:
            out.append(segment[i:end])
            i = end
        else:
            i += 1
    return out


def _point(name: str, text: str) -> int:
    try:
        return parse_point(name)
    except KeyError:
        raise _not_a_move(text, f"'{name}' is not a point of the board") from None


def _removals(segment: str, text: str) -> tuple[tuple[int | None, int], ...]:
    out: list[tuple[int | None, int]] = []
    for first, last, ring_name in _removal_names(segment) or ():
        ring = _point(ring_name, text)
        if first is None or last is None:
            out.append((None, ring))
            continue
        _point(first, text), _point(last, text)
        try:
            row = parse_row(first, last)
        except NotationError as exc:
            raise _not_a_move(text, str(exc)) from None
        out.append((row, ring))
    return tuple(out)
