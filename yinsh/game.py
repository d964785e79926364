"""The game: a history of states and moves, behind checked entry points.

``Game.play`` parses and checks a move and leaves the game unchanged when it
raises; ``Game.push`` applies a move it trusts (the search's path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from . import state as st
from .board import BIT, POINT_NAMES, RAYS, WINDOWS, line_step, point_name
from .errors import IllegalMoveError, NotationError
from .move import Move, MoveText, Removal, parse_move_text, row_name
from .outcome import Outcome
from .pgn import is_sgf, move_texts, read_tags, record_text, write_record
from .position import decode_position, encode_position
from .scan import lower, quoted, strip
from .sgf import play_sgf
from .state import State

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Game", "Variant", "COLORS", "read_game", "why_illegal"]

Variant = Literal["standard", "blitz"]
COLORS: Final = ("white", "black")
_RINGS_TO_WIN: Final = {"standard": 3, "blitz": 1}


class Game:
    """A game of YINSH from its first move, or from a given position.

    >>> game = Game()
    >>> for point in "e3 a5 b5 c6 d6 e4 h7 g2 g3 g8".split():
    ...     _ = game.play(point)
    >>> len(game.legal_moves()), game.to_move
    (86, 'white')
    >>> str(game.play("H7-G7")), game.pool
    ('h7-g7', 50)
    >>> game.undo()
    Move.from_text('h7-g7')
    """

    def __init__(self, variant: Variant = "standard") -> None:
        if variant not in _RINGS_TO_WIN:
            raise ValueError(f"unknown variant {variant!r}: expected 'standard' or 'blitz'")
        self._states: list[State] = [st.initial_state(_RINGS_TO_WIN[variant])]
        self._moves: list[Move] = []
        self._first_ply = 0
        self._legal: list[Move] | None = None

    # Construction from text --------------------------------------------------

    @classmethod
    def from_state(cls, state: State, ply: int = 0) -> Game:
        """A game starting at ``state``, with ``ply`` moves said to be played before it."""
        game = cls()
        game._states = [state]
        game._first_ply = ply
        return game

    @classmethod
    def from_record(cls, text: str) -> Game:
        """The game a record describes: official notation (long or short, tags allowed), or a
        boardspace SGF file.

        Raises ``NotationError`` or ``IllegalMoveError`` naming the move number.
        """
        return read_game(text)[1]

    @classmethod
    def from_position(cls, code: str) -> Game:
        """The game at a position code from ``position()`` (no history before it)."""
        state, ply = decode_position(code)
        return cls.from_state(state, ply)

    # The position --------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current position as an immutable ``State``."""
        return self._states[-1]

    @property
    def variant(self) -> Variant:
        """``'standard'`` or ``'blitz'``."""
        return "blitz" if self.state.rings_to_win == 1 else "standard"

    @property
    def to_move(self) -> str:
        """``'white'`` or ``'black'``: the player whose turn it is."""
        return COLORS[self.state.turn]

    @property
    def score(self) -> tuple[int, int]:
        """Rings removed by White and by Black."""
        return self.state.white_score, self.state.black_score

    @property
    def pool(self) -> int:
        """Markers left in the common pool."""
        return st.pool(self.state)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (how, who won, the score), or ``None`` while it goes on;
        ``outcome.text()`` words it."""
        return st.outcome(self.state)

    @property
    def result(self) -> str | None:
        """``None`` while the game goes on, else ``'1-0'``, ``'0-1'`` or ``'1/2-1/2'``."""
        return st.result(self.state)

    @property
    def termination(self) -> str | None:
        """How the game ended: ``'rings'``, ``'markers'`` or ``'passes'``; ``None`` if it goes on."""
        return st.termination(self.state)

    @property
    def in_placement(self) -> bool:
        """Whether rings are still being placed."""
        return self.state.in_placement

    @property
    def ply(self) -> int:
        """Moves played so far (including any before the starting position)."""
        return self._first_ply + len(self._moves)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played since the starting position."""
        return tuple(self._moves)

    @property
    def start_state(self) -> State:
        """The position the game started from."""
        return self._states[0]

    @property
    def start_ply(self) -> int:
        """The number of moves said to be played before the starting position."""
        return self._first_ply

    def state_at(self, count: int) -> State:
        """The position after the first ``count`` moves of the game (0: where it started); the
        game keeps every one. Raises ``IndexError`` outside 0 to ``len(moves)``.

        >>> game = Game.from_record("1.e3 2.a5")
        >>> game.state_at(1) == Game.from_record("1.e3").state, game.state_at(2) == game.state
        (True, True)
        """
        if not 0 <= count <= len(self._moves):
            raise IndexError(f"move {count} is outside the game (0 to {len(self._moves)})")
        return self._states[count]

    def mover(self, index: int) -> str:
        """The colour that played ``moves[index]`` (every move, a pass too, is one turn).

        >>> Game.from_record("1.e3 2.a5").mover(1)
        'black'
        """
        return COLORS[(self.start_state.turn + index) % 2]

    def pending_rows(self) -> list[str]:
        """Rows of five the player to move must resolve before acting (made by the opponent)."""
        s = self.state
        return [row_name(w) for w in st.rows(s.black_markers if s.turn else s.white_markers)]

    # Moves -----------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: every distinct decision sequence."""
        if self._legal is None:
            self._legal = st.legal_moves(self.state)
        return list(self._legal)

    def parse_move(self, text: str) -> Move:
        """Read and check a move in long or short notation without playing it.

        Raises ``NotationError`` or ``IllegalMoveError`` naming the move number,
        the input and the reason.
        """
        number = self.ply + 1
        try:
            written = parse_move_text(text)
        except NotationError as exc:
            raise NotationError(f"move {number}: {exc}").at_move(
                number, self.to_move, text, exc.reason or str(exc)) from None
        try:
            return _check(self.state, written)
        except _Illegal as exc:
            raise IllegalMoveError(f"move {number}: '{text}' is illegal: {exc}").at_move(
                number, self.to_move, text, str(exc)) from None
        except _Unreadable as exc:
            raise NotationError(f"move {number}: '{text}' is ambiguous: {exc}").at_move(
                number, self.to_move, text, str(exc)) from None

    def play(self, move: str | Move) -> Move:
        """Check and play a move given as text (long or short form) or as a ``Move``.

        Returns the move in full. The game is unchanged if it raises.
        """
        if isinstance(move, Move):
            # checked as its text would be (the rules' checks, not a search of every legal move:
            # replaying a long game code stays quick on MicroPython)
            written = MoveText(move.kind, move.source, move.target, tuple((r.row, r.ring) for r in move.before),
                               tuple((r.row, r.ring) for r in move.after))
            number = self.ply + 1
            try:
                if not _well_formed(move):
                    raise _Illegal("it is not among the legal moves")
                checked = _check(self.state, written)
            except _Illegal as exc:
                text = str(move) if _well_formed(move) else repr(tuple(move))  # a malformed one has no notation
                raise IllegalMoveError(f"move {number}: '{text}' is illegal: {exc}").at_move(
                    number, self.to_move, text, str(exc)) from None
            if checked != move:  # a kind that does not fit the move it names
                reason = "it is not among the legal moves"
                raise IllegalMoveError(f"move {number}: '{move}' is illegal: {reason}").at_move(
                    number, self.to_move, str(move), reason)
        else:
            move = self.parse_move(move)
        self.push(move)
        return move

    def push(self, move: Move) -> None:
        """Play a move without checking it (for search and replays of trusted moves)."""
        self._states.append(st.apply_move(self.state, move))
        self._moves.append(move)
        self._legal = None

    def undo(self) -> Move:
        """Take back the last move and return it; ``IndexError`` if there is none."""
        if not self._moves:
            raise IndexError("no move to undo")
        self._states.pop()
        self._legal = None
        return self._moves.pop()

    def copy(self) -> Game:
        """An independent game with the same history (states are immutable and shared)."""
        game = Game.from_state(self._states[0], self._first_ply)
        game._states = list(self._states)
        game._moves = list(self._moves)
        return game

    # Text --------------------------------------------------------------------------

    def record(self, tags: dict[str, str] | None = None) -> str:
        """The game so far in official long notation, after any PGN-style tag pairs.

        >>> g = Game(); _ = g.play("e3"); _ = g.play("a5"); g.record()
        '1.e3 2.a5'
        """
        return write_record(self, tags)

    def position(self) -> str:
        """A compact, URL-safe code of the current position (see ``from_position``)."""
        return encode_position(self.state, self.ply)

    def __repr__(self) -> str:
        return f"<Game {self.variant} ply={self.ply} to_move={self.to_move} score={self.score} pool={self.pool}>"


def read_game(text: str) -> tuple[dict[str, str], Game]:
    """The tag pairs (in order) and the game of one record, official notation or a boardspace
    SGF file, every move checked (:mod:`yinsh.record` reads files of several).

    Raises ``NotationError`` or ``IllegalMoveError`` naming the move number.
    """
    text = record_text(text)
    if is_sgf(text):
        game = Game()
        return play_sgf(text, game), game
    tags, body = read_tags(text)
    game = _start(tags)
    for number, move_text in move_texts(body, game.ply):
        expected = game.ply + 1
        if number is not None and number != expected:
            raise NotationError(f"move {expected}: found the number {number}. where {expected}. was expected")
        if not move_text:
            raise NotationError(f"move {expected}: the move is missing after '{expected}.'")
        game.play(move_text)
    return tags, game


def _start(tags: dict[str, str]) -> Game:
    """The game a record's ``Variant`` and ``Position`` tags start it from."""
    variant = lower(strip(tags.get("Variant", "standard"))) or "standard"
    if variant not in _RINGS_TO_WIN:
        raise NotationError(f"unknown variant {quoted(tags['Variant'])}: expected 'standard' or 'blitz'")
    if "Position" in tags:
        game = Game.from_position(tags["Position"])
        if game.variant != variant and "Variant" in tags:
            raise NotationError(f"the Position tag is a {game.variant} game but the Variant tag says {variant}")
        return game
    return Game(variant)  # type: ignore[arg-type]


class _Illegal(Exception):
    """The reason a move is illegal (becomes ``IllegalMoveError``)."""


class _Unreadable(Exception):
    """The reason a short move cannot be read here (becomes ``NotationError``)."""


def _check(s: State, written: MoveText) -> Move:
    """The legal move that ``written`` describes in state ``s``; raises ``_Illegal``."""
    if st.termination(s) is not None:
        raise _Illegal(f"the game is over ({st.result(s)})")
    color = s.turn
    if s.in_placement:
        if written.kind != "place" or written.before or written.after:
            raise _Illegal(f"rings are still being placed: {COLORS[color]} must name an empty point")
        occupied = s.white_rings | s.black_rings
        if occupied & BIT[written.target]:  # type: ignore[index]
            raise _Illegal(f"{point_name(written.target)} already holds a ring")  # type: ignore[arg-type]
        return Move("place", None, written.target)
    before, s = _check_removals(s, color, written.before, "first remove the rows the opponent made")
    if _won(s, color):
        if written.kind != "remove":
            raise _Illegal("that removal wins the game: nothing may follow it")
        return Move("remove", None, None, before)
    actions = st.ring_moves(s)
    if written.kind == "remove":
        raise _Illegal("a turn needs a ring move after its removals")
    if written.kind == "place":
        raise _Illegal("all rings are placed: move a ring, e.g. e4-e7")
    if written.kind == "pass":
        if actions:
            count = f"{COLORS[color]} has {len(actions)} ring moves"
            raise _Illegal(f"a player may pass only when no ring can move ({count})")
        if written.after:
            raise _Illegal("a pass makes no row to remove")
        return Move("pass", None, None, before)
    src, dst = written.source, written.target
    assert src is not None and dst is not None
    if (src, dst) not in actions:
        raise _Illegal(why_illegal(s, src, dst) if actions else f"no {COLORS[color]} ring can move: write 'pass'")
    after, s = _check_removals(st.after_ring_move(s, src, dst), color, written.after, "then remove the rows made")
    return Move("move", src, dst, before, after)


def _well_formed(move: Move) -> bool:
    """Whether a ``Move`` value is one the notation could write: the fields its kind needs,
    points of the board, rows that are five-windows."""
    places = move.kind in ("place", "move")
    if move.kind not in ("place", "move", "pass", "remove") or (move.target is not None) != places \
            or (move.source is not None) != (move.kind == "move"):
        return False
    points = [p for p in (move.source, move.target) if p is not None] + [r.ring for r in move.before + move.after]
    return all(type(p) is int and p in POINT_NAMES for p in points) and all(
        type(r.row) is int and 0 <= r.row < len(WINDOWS) for r in move.before + move.after)


def _won(s: State, color: int) -> bool:
    return (s.black_score if color else s.white_score) >= s.rings_to_win


def _check_removals(
    s: State, color: int, written: Iterable[tuple[int | None, int]], missing: str
) -> tuple[tuple[Removal, ...], State]:
    name = COLORS[color]
    removals = []
    for row, ring in written:
        if _won(s, color):
            raise _Illegal("the game is won by the removal before: nothing may follow it")
        found = st.rows(s.black_markers if color else s.white_markers)
        if row is None:
            if not found:
                raise _Illegal(f"there is no row of five {name} markers to remove")
            if len(found) > 1:
                example = f"x{row_name(found[0])}x{point_name(ring)}"
                listed = ", ".join(map(row_name, found))
                raise _Unreadable(f"{name} has the rows {listed}: name the row, e.g. {example}")
            row = found[0]
        elif row not in found:
            raise _Illegal(f"{row_name(row)} is not a row of five {name} markers")
        if not (s.black_rings if color else s.white_rings) & BIT[ring]:
            raise _Illegal(f"there is no {name} ring on {point_name(ring)} to remove")
        removals.append(Removal(row, ring))
        s = st.after_removal(s, color, row, ring)
    if not _won(s, color):
        left = st.rows(s.black_markers if color else s.white_markers)
        if left:
            raise _Illegal(f"{name} must {missing}: {', '.join(map(row_name, left))}")
    return tuple(removals), s


def why_illegal(s: State, src: int, dst: int) -> str:
    """Why the ring move ``src``-``dst`` of the player to move is illegal in ``s`` (it must be),
    in the words every message uses: the game's errors and the page's hints.

    >>> from yinsh.board import parse_point as p
    >>> why_illegal(Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8").state, p("e3"), p("e10"))
    'the ring cannot pass over the ring on e4'
    """
    color = s.turn
    mine, theirs = (s.black_rings, s.white_rings) if color else (s.white_rings, s.black_rings)
    markers = s.white_markers | s.black_markers
    a, b = point_name(src), point_name(dst)
    if not mine & BIT[src]:
        if theirs & BIT[src]:
            return f"the ring on {a} is {COLORS[color ^ 1]}'s"
        if markers & BIT[src]:
            return f"{a} holds a marker, not a ring"
        return f"there is no ring on {a}"
    if src == dst:
        return "a ring must move"
    step = line_step(src, dst)
    if step is None:
        return f"{a} and {b} are not on one line"
    if (mine | theirs) & BIT[dst]:
        return f"a ring cannot land on the ring on {b}"
    if markers & BIT[dst]:
        return f"a ring cannot land on the marker on {b}"
    ray = next(r for r in RAYS[src] if r[0] == src + step)
    crossed = False
    for q in ray[:ray.index(dst)]:
        if (mine | theirs) & BIT[q]:
            return f"the ring cannot pass over the ring on {point_name(q)}"
        if markers & BIT[q]:
            crossed = True
        elif crossed:
            return f"the ring at {a} cannot stop on {b} after crossing markers (first empty point is {point_name(q)})"
    raise AssertionError("a legal move was reported illegal")
