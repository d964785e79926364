"""Moves as small immutable values, and their official long-form notation.

A move is one player's whole turn (see DESIGN.md):
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

import re
from typing import Final, Literal, NamedTuple

from .board import WINDOW_INDEX, WINDOWS, is_point, line_step, parse_point, point_name
from .errors import NotationError
from .limits import MAX_MOVE_CHARS

__all__ = ["Removal", "Move", "MoveKind", "row_name", "parse_row", "parse_move_text", "MoveText"]

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
    window = WINDOW_INDEX.get((a, step)) if step is not None else None
    if window is None or WINDOWS[window][-1] != b:
        raise NotationError(f"'{first}-{last}' is not a row: its ends must be five points apart on one line")
    return window


class Removal(NamedTuple):
    """A row of five returned to the pool and the ring removed with it."""

    row: int
    """The index of the five-window in ``yinsh.board.WINDOWS``."""
    ring: int
    """The point of the removed ring."""

    def __str__(self) -> str:
        return f"x{row_name(self.row)}x{point_name(self.ring)}"


class Move(NamedTuple):
    """One player's whole turn. ``str(move)`` is the official long form.

    ``source`` is the point a ring leaves (``None`` unless ``kind == 'move'``);
    ``target`` is where a ring is placed or lands (``None`` for a pass or a
    removal-only turn).
    """

    kind: MoveKind
    source: int | None = None
    target: int | None = None
    before: tuple[Removal, ...] = ()
    after: tuple[Removal, ...] = ()

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


class MoveText(NamedTuple):
    """A move as written, before it is checked against a position.

    A removal whose row was omitted (the short form) has ``row`` ``None``.
    """

    kind: MoveKind
    source: int | None
    target: int | None
    before: tuple[tuple[int | None, int], ...]
    after: tuple[tuple[int | None, int], ...]


_POINT: Final = r"[a-k](?:1[01]|[1-9])"
_ACTION_RE: Final = re.compile(rf"(?:(?P<pass>pass)|(?P<source>{_POINT})(?:-(?P<target>{_POINT}))?)")
_REMOVAL_RE: Final = re.compile(rf"x(?:(?P<first>{_POINT})-(?P<last>{_POINT})x)?(?P<ring>{_POINT})")
_REMOVALS_RE: Final = re.compile(rf"(?:x(?:{_POINT}-{_POINT}x)?{_POINT})+")


def parse_move_text(text: str) -> MoveText:
    """Read a move's text in long or short form, without checking it against a position.

    Upper case and spaces are accepted. Raises ``NotationError`` naming the input
    and what is wrong with it.
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not a move: expected text")
    if len(text) > MAX_MOVE_CHARS:
        raise NotationError(f"'{text[:20]}…' is not a move: it is {len(text):,} characters long, "
                            f"and a move is at most {MAX_MOVE_CHARS}")
    clean = "".join(text.split()).lower()
    if not clean:
        raise NotationError("'' is not a move: it is empty")
    segments = clean.split(";")
    kinds = [_segment_kind(s, text) for s in segments]
    if kinds.count("action") > 1:
        raise NotationError(f"'{text}' is not a move: it has more than one action")
    if "action" not in kinds:
        if len(segments) != 1:
            raise NotationError(f"'{text}' is not a move: removals must be separated by ';' only from an action")
        return MoveText("remove", None, None, _removals(segments[0], text), ())
    at = kinds.index("action")
    if at > 1 or len(segments) - at > 2:
        raise NotationError(f"'{text}' is not a move: expected [removals;]action[;removals]")
    before = _removals(segments[0], text) if at == 1 else ()
    after = _removals(segments[at + 1], text) if at + 1 < len(segments) else ()
    m = _ACTION_RE.fullmatch(segments[at])
    assert m is not None
    if m["pass"]:
        return MoveText("pass", None, None, before, after)
    source = _point(m["source"], text)
    if m["target"] is None:
        return MoveText("place", None, source, before, after)
    return MoveText("move", source, _point(m["target"], text), before, after)


def _segment_kind(segment: str, text: str) -> str:
    if _ACTION_RE.fullmatch(segment):
        return "action"
    if _REMOVALS_RE.fullmatch(segment):
        return "removals"
    if not segment:
        raise NotationError(f"'{text}' is not a move: it has an empty part between ';'")
    for token in re.findall(r"[a-z]\d+", segment):
        if not is_point(token):
            raise NotationError(f"'{text}' is not a move: '{token}' is not a point of the board")
    raise NotationError(f"'{text}' is not a move: cannot read '{segment}'")


def _point(name: str, text: str) -> int:
    try:
        return parse_point(name)
    except KeyError:
        raise NotationError(f"'{text}' is not a move: '{name}' is not a point of the board") from None


def _removals(segment: str, text: str) -> tuple[tuple[int | None, int], ...]:
    out: list[tuple[int | None, int]] = []
    for m in _REMOVAL_RE.finditer(segment):
        ring = _point(m["ring"], text)
        if m["first"] is None:
            out.append((None, ring))
            continue
        _point(m["first"], text), _point(m["last"], text)
        try:
            row = parse_row(m["first"], m["last"])
        except NotationError as exc:
            raise NotationError(f"'{text}' is not a move: {exc}") from None
        out.append((row, ring))
    return tuple(out)
