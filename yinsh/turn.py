"""Building one turn from a person's clicks, one decision at a time.

A :class:`~yinsh.move.Move` is a whole turn, but a person makes it in steps: remove the
rows the opponent made (a row, then a ring, rescanning after each), place or move a ring
(the ring, then where it goes), then remove the rows of their own colour. :class:`Turn`
keeps the decisions made so far and answers every question a page asks between two
clicks — which points and rows react now, why a click does nothing, what the board looks
like half-way through the turn. It says what the turn needs as values (its phase, its
rings, rows and points); a page words them itself (the game page: :mod:`yinsh.page.words`).
When the decisions determine a legal move, :attr:`Turn.move` holds it.

The decisions that may come next are found by following the decisions made through the
rules' own transitions (:func:`yinsh.state.rows`, :func:`~yinsh.state.slides`,
:func:`~yinsh.state.after_removal`, …), one step at a time, never by listing
``game.legal_moves()``: that list is the product of every row and ring choice, which a
position with many rows makes huge (hundreds of thousands of moves), while the choices of
one step are at most a few dozen. A property test holds the two to the same answers.

The phases of a turn, named after the rulebook::

    REMOVE_ROW ─► REMOVE_RING ─┐   rows the opponent made for me, one at a time
        ▲                      │   (a winning removal ends the turn: DONE)
        └──────────────────────┤
                               ▼
    PLACE_RING ───────────────────────────────────────────────► DONE
    PICK_RING ─► MOVE_RING ─► (REMOVE_ROW ─► REMOVE_RING)* ─────► DONE
    (no ring can move: the pass is made automatically) ──────────► DONE

>>> from yinsh.game import Game
>>> game = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
>>> turn = Turn(game)
>>> turn.name, turn.phase
('White', <Phase.PICK_RING: 'pick-ring'>)
>>> turn.click_point(parse_point("h7")) is None, turn.phase
(True, <Phase.MOVE_RING: 'move-ring'>)
>>> turn.click_point(parse_point("g7")), turn.move
(None, Move.from_text('h7-g7'))
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from . import state as st
from .board import BIT, WINDOWS, parse_point, point_name, points_of  # noqa: F401 (parse_point: doctests)
from .compat import capitalize
from .game import COLORS, Game, why_illegal
from .move import Move, Removal, row_name
from .state import State

__all__ = ["Phase", "Decision", "Turn", "decisions_of", "result_text"]


class Phase(StrEnum):
    """What the player to move is asked for now.

    Compare a phase with ``is`` and take its text with ``str(phase)``: on MicroPython (the
    page) the members are the plain strings below (docs/PORTABILITY.md).
    """

    PLACE_RING = "place-ring"
    """Placement: click an empty point."""
    PICK_RING = "pick-ring"
    """Choose one of your rings to move."""
    MOVE_RING = "move-ring"
    """A ring is picked: choose where it goes."""
    REMOVE_ROW = "remove-row"
    """Choose which five-window of your markers to return to the pool."""
    REMOVE_RING = "remove-ring"
    """A row is chosen: choose one of your rings to remove with it."""
    DONE = "done"
    """The decisions determine a complete legal move (:attr:`Turn.move`)."""
    GAME_OVER = "game-over"
    """The game is over: nothing may be played."""


class Decision(NamedTuple("Decision", [("kind", str), ("value", int)])):
    """One step of a turn: ``kind`` is one of :data:`KINDS`, ``value`` a point or a window."""

    __slots__ = ()

    def __new__(cls, kind: str, value: int = -1) -> Decision:
        return super().__new__(cls, kind, value)


KINDS: Final = ("row", "ring", "place", "source", "target", "pass")
"""Decision kinds: a row (window index) to remove, the ring removed with it, a ring
placed, the ring picked to move, where it lands, and a pass (which has no value)."""

_PHASE_OF: Final = {
    "row": Phase.REMOVE_ROW,
    "ring": Phase.REMOVE_RING,
    "place": Phase.PLACE_RING,
    "source": Phase.PICK_RING,
    "target": Phase.MOVE_RING,
}
_PASS: Final = Decision("pass")


def decisions_of(move: Move) -> tuple[Decision, ...]:
    """The decisions a person makes, in order, to play ``move``.

    >>> [(d.kind, _value_name(d)) for d in decisions_of(Move.from_text("xb1-b5xa5;d3-b3"))]
    [('row', 'b1-b5'), ('ring', 'a5'), ('source', 'd3'), ('target', 'b3')]
    """
    out: list[Decision] = []
    for removal in move.before:
        out += (Decision("row", removal.row), Decision("ring", removal.ring))
    if move.kind == "place":
        out.append(Decision("place", move.target))  # type: ignore[arg-type]
    elif move.kind == "move":
        out += (Decision("source", move.source), Decision("target", move.target))  # type: ignore[arg-type]
    elif move.kind == "pass":
        out.append(_PASS)
    for removal in move.after:
        out += (Decision("row", removal.row), Decision("ring", removal.ring))
    return tuple(out)


class Turn:
    """The decisions made so far in the current turn of ``game``, and what may come next.

    ``game`` is read, never changed: once :attr:`move` is set the caller plays it
    (``game.play(turn.move)``) and starts a new ``Turn``. Every method taking a click
    returns ``None`` when the click was understood (it may have changed nothing) or a
    short hint for the player when it was not; none of them raises on a bad click.

    With ``auto_row`` (the default) a row is chosen automatically when it is the only
    candidate, and a pass is always made automatically when it is the only legal move.
    """

    def __init__(self, game: Game, *, auto_row: bool = True) -> None:
        self.game = game
        self.auto_row = auto_row
        self.color: int = game.state.turn
        """The player making this turn: ``WHITE`` (0) or ``BLACK`` (1)."""
        self._made: list[Decision] = []
        self._forced = 0
        """How many of the last decisions were made automatically (cannot be cancelled)."""
        self.version = 0
        """Grows by one at every change, so a caller can tell whether to redraw."""
        self._update()

    # What has been decided ------------------------------------------------------------

    @property
    def decisions(self) -> tuple[Decision, ...]:
        """The decisions made so far, automatic ones included."""
        return tuple(self._made)

    @property
    def name(self) -> str:
        """``'White'`` or ``'Black'``: the player making this turn."""
        return capitalize(COLORS[self.color])

    @property
    def move(self) -> Move | None:
        """The complete move once the decisions determine it, else ``None``."""
        return self._move

    @property
    def passed(self) -> bool:
        """Whether the turn is a pass (always made automatically)."""
        return self._move is not None and self._move.kind == "pass"

    @property
    def phase(self) -> Phase:
        """What the player is asked for now."""
        return self._phase

    @property
    def state(self) -> State:
        """The board as it stands after the decisions made so far (for drawing).

        Removals are applied as soon as their ring is chosen and a ring move as soon as its
        destination is; the turn is not handed over, so ``state.turn`` is still the mover.
        """
        s = self.game.state
        row = None
        source = None
        for d in self._made:
            if d.kind == "row":
                row = d.value
            elif d.kind == "ring":
                s = st.after_removal(s, self.color, row, d.value)  # type: ignore[arg-type]
            elif d.kind == "source":
                source = d.value
            elif d.kind == "target":
                s = st.after_ring_move(s, source, d.value)  # type: ignore[arg-type]
            elif d.kind == "place":
                s = st.after_placement(s, d.value)
        return s

    @property
    def ring_move(self) -> tuple[int, int] | None:
        """The (origin, destination) of the ring moved in this turn, once chosen."""
        kinds = [d.kind for d in self._made]
        if "target" not in kinds:
            return None
        i = kinds.index("target")
        return self._made[i - 1].value, self._made[i].value

    @property
    def removals(self) -> tuple[Removal, ...]:
        """The removals completed so far in this turn."""
        out = []
        for a, b in zip(self._made, self._made[1:]):
            if a.kind == "row" and b.kind == "ring":
                out.append(Removal(a.value, b.value))
        return tuple(out)

    # What may come next -------------------------------------------------------------

    @property
    def options(self) -> frozenset[Decision]:
        """Every decision that may be made now (empty once the move is complete)."""
        return self._options

    def _values(self, kind: str) -> frozenset[int]:
        return frozenset(d.value for d in self._options if d.kind == kind)

    @property
    def selected_ring(self) -> int | None:
        """The ring picked to move (phase ``MOVE_RING``), else ``None``."""
        if self._phase is Phase.MOVE_RING:
            return self._made[-1].value
        return None

    @property
    def selected_row(self) -> int | None:
        """The row chosen for removal while its ring is being chosen, else ``None``."""
        if self._phase is Phase.REMOVE_RING:
            return self._made[-1].value
        return None

    @property
    def destinations(self) -> frozenset[int]:
        """Where the picked ring may land (phase ``MOVE_RING``)."""
        return self._values("target")

    @property
    def movable_rings(self) -> frozenset[int]:
        """The rings that may be picked: those with at least one legal move.

        Also offered while a ring is picked, so that another one may be picked instead.
        """
        if self._phase is Phase.PICK_RING:
            return self._values("source")
        if self._phase is Phase.MOVE_RING:
            return self._sources_here()
        return frozenset()

    def _sources_here(self) -> frozenset[int]:
        return frozenset(d.value for d in self._following(self._made[:-1])[1])

    @property
    def candidate_rows(self) -> tuple[int, ...]:
        """The five-windows (indices into ``WINDOWS``) offered for removal, in notation order.

        While the ring of a chosen row is asked for, the other candidates stay offered.
        """
        if self._phase is Phase.REMOVE_ROW:
            rows = self._values("row")
        elif self._phase is Phase.REMOVE_RING:
            rows = frozenset(d.value for d in self._following(self._made[:-1])[1])
        else:
            return ()
        return tuple(sorted(rows, key=row_name_key))

    @property
    def removable_rings(self) -> frozenset[int]:
        """The rings that may be removed with the chosen row (phase ``REMOVE_RING``)."""
        return self._values("ring")

    @property
    def placeable(self) -> frozenset[int]:
        """The empty points where a ring may be placed (phase ``PLACE_RING``)."""
        return self._values("place")

    @property
    def clickable_points(self) -> frozenset[int]:
        """The points a click acts on now (rows are reached through :attr:`candidate_rows`)."""
        phase = self._phase
        if phase is Phase.PLACE_RING:
            return self.placeable
        if phase is Phase.PICK_RING:
            return self.movable_rings
        if phase is Phase.MOVE_RING:
            return self.destinations | self.movable_rings
        if phase is Phase.REMOVE_RING:
            return self.removable_rings
        return frozenset()

    @property
    def rows_pending_for(self) -> str:
        """Whose rows are being removed: ``'opponent'`` (before acting) or ``'own'``."""
        return "own" if any(d.kind in ("place", "source", "pass") for d in self._made) else "opponent"

    # Making decisions -----------------------------------------------------------------

    def choose(self, decision: Decision) -> None:
        """Make one decision; ``ValueError`` if it is not among :attr:`options`."""
        if decision not in self._options:
            raise ValueError(f"{decision} is not possible now ({self._phase})")
        self._made.append(decision)
        self._forced = 0
        self._update()

    def click_point(self, point: int) -> str | None:
        """Act on a click at ``point``; ``None`` if understood, else a hint."""
        phase = self._phase
        mine = st.BLACK if self.color else st.WHITE
        s = self.state
        my_rings = s.black_rings if mine else s.white_rings
        their_rings = s.white_rings if mine else s.black_rings
        bit = BIT[point]
        where = point_name(point)
        if phase is Phase.PLACE_RING:
            if point in self.placeable:
                self.choose(Decision("place", point))
                return None
            return f"{where} already holds a ring: place yours on an empty point"
        if phase is Phase.PICK_RING:
            if point in self.movable_rings:
                self.choose(Decision("source", point))
                return None
            if my_rings & bit:
                return f"The ring on {where} cannot move: choose another"
            if their_rings & bit:
                return f"That ring is {capitalize(COLORS[self.color ^ 1])}'s: choose one of yours"
            return f"Choose one of your rings ({COLORS[self.color]}) to move"
        if phase is Phase.MOVE_RING:
            source = self._made[-1].value
            if point in self.destinations:
                self.choose(Decision("target", point))
                return None
            self._pop()
            if point == source:
                return None
            if point in self.movable_rings:
                self.choose(Decision("source", point))
                return None
            return f"{point_name(source)}-{where} is not a legal move ({why_illegal(self.state, source, point)}): " \
                   "ring put back"
        if phase is Phase.REMOVE_ROW:
            rows = [w for w in self.candidate_rows if point in WINDOWS[w]]
            if len(rows) == 1:
                self.choose(Decision("row", rows[0]))
                return None
            if rows:
                return f"Several rows run through {where}: click the row itself"
            return "Choose one of the highlighted rows of five"
        if phase is Phase.REMOVE_RING:
            if point in self.removable_rings:
                self.choose(Decision("ring", point))
                return None
            rows = [w for w in self.candidate_rows if point in WINDOWS[w]]
            if len(rows) == 1 and rows[0] != self.selected_row:
                return self.click_row(rows[0])
            if rows:
                return None
            return f"Choose one of your rings ({COLORS[self.color]}) to remove with the row"
        if phase is Phase.GAME_OVER:
            return "The game is over: start a new game to play again"
        return None

    def click_row(self, window: int) -> str | None:
        """Act on a click on the candidate row ``window``; ``None`` if understood, else a hint."""
        phase = self._phase
        if phase is Phase.REMOVE_ROW:
            if Decision("row", window) in self._options:
                self.choose(Decision("row", window))
                return None
        elif phase is Phase.REMOVE_RING:
            if window == self.selected_row:
                return None
            if window in self.candidate_rows:
                self._pop()
                self.choose(Decision("row", window))
                return None
        return "That is not a row you can remove now"

    def cancel(self) -> bool:
        """Take back the last decision if it may be taken back (a picked ring, a row chosen
        among several); returns whether anything changed. Removals made stay made."""
        if self._phase in (Phase.MOVE_RING, Phase.REMOVE_RING) and self._forced == 0:
            self._pop()
            return True
        return False

    def reset(self) -> bool:
        """Take back every decision of this turn; returns whether anything changed."""
        if not self._made or (self._forced == len(self._made)):
            return False
        self._made.clear()
        self._forced = 0
        self._update()
        return True

    def _pop(self) -> None:
        self._made.pop()
        self._forced = 0
        self._update()

    # Bookkeeping ------------------------------------------------------------------------

    def _update(self) -> None:
        """Recompute the options, making forced decisions (a lone pass, a lone row)."""
        self.version += 1
        while True:
            self._move, options = self._following(self._made)
            if self._move is not None or not options:
                self._options: frozenset[Decision] = frozenset()
                self._phase = Phase.DONE if self._move is not None else Phase.GAME_OVER
                return
            kinds = {d.kind for d in options}
            if kinds == {"pass"} or (kinds == {"row"} and len(options) == 1 and self.auto_row):
                self._made.append(next(iter(options)))
                self._forced += 1
                continue
            self._options = frozenset(options)
            (kind,) = kinds  # the rules never mix two kinds of decision at one step
            self._phase = _PHASE_OF[kind]
            return

    def _following(self, made: list[Decision]) -> tuple[Move | None, frozenset[Decision]]:
        """The move the decisions ``made`` complete (else ``None``) and the decisions that may
        follow them: the rules' steps, taken in the order of :func:`decisions_of`.

        ``made`` holds only decisions that were offered, so it is followed without checks. The
        work is that of one step (rows, rings, slides), whatever the number of legal moves.
        """
        s = self.game.state
        color = self.color
        if st.termination(s) is not None:
            return None, frozenset()
        if s.in_placement:
            if made:
                return Move("place", None, made[0].value), frozenset()
            return None, frozenset(Decision("place", p) for p in st.empty_points(s))
        s, before, i, asked = _follow_removals(s, color, made, 0)  # the rows the opponent made
        if asked is not None:
            return None, asked
        if _won(s, color):
            return Move("remove", None, None, before), frozenset()
        actions = st.slides(s.white_rings | s.black_rings, s.white_markers | s.black_markers,
                            s.black_rings if color else s.white_rings)
        if not actions:
            return (None, frozenset((_PASS,))) if i == len(made) else (Move("pass", None, None, before), frozenset())
        if i == len(made):
            return None, frozenset(Decision("source", a >> 8) for a in actions)
        source = made[i].value
        if i + 1 == len(made):
            return None, frozenset(Decision("target", a & 255) for a in actions if a >> 8 == source)
        target = made[i + 1].value
        s, after, i, asked = _follow_removals(st.after_ring_move(s, source, target), color, made, i + 2)
        if asked is not None:
            return None, asked
        return Move("move", source, target, before, after), frozenset()

    def __repr__(self) -> str:
        made = " ".join(f"{d.kind}:{_value_name(d)}" for d in self._made)
        return f"<Turn {self.name} {self._phase} [{made}]>"


def _won(s: State, color: int) -> bool:
    return (s.black_score if color else s.white_score) >= s.rings_to_win


def _follow_removals(s: State, color: int, made: list[Decision], i: int
                     ) -> tuple[State, tuple[Removal, ...], int, frozenset[Decision] | None]:
    """Follow the row and ring decisions of ``color`` from ``made[i]`` while rows of theirs
    stand (one at a time, rescanning, until a removal wins): the state after them, the
    removals, the index of the next decision, and the decisions asked for next when ``made``
    ends among them (else ``None``)."""
    removals: list[Removal] = []
    while not _won(s, color):
        found = st.rows(s.black_markers if color else s.white_markers)
        if not found:
            break
        if i == len(made):
            return s, (), i, frozenset(Decision("row", w) for w in found)
        if i + 1 == len(made):
            rings = s.black_rings if color else s.white_rings
            return s, (), i, frozenset(Decision("ring", p) for p in points_of(rings))
        removals.append(Removal(made[i].value, made[i + 1].value))
        s = st.after_removal(s, color, made[i].value, made[i + 1].value)
        i += 2
    return s, tuple(removals), i, None


def _value_name(d: Decision) -> str:
    if d.kind == "row":
        return row_name(d.value)
    if d.kind == "pass":
        return "-"
    return point_name(d.value)


def row_name_key(window: int) -> tuple[int, ...]:
    """Sort key putting windows in notation order (first point, then last)."""
    w = WINDOWS[window]
    return w[0], w[-1]


def result_text(game: Game) -> str | None:
    """The end of the game in words (its outcome's long form), or ``None`` while it goes on.

    >>> g = Game.from_record("1.e3")
    >>> result_text(g) is None
    True
    """
    done = game.outcome
    return None if done is None else done.text()
