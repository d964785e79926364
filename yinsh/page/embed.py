"""The embeddable diagram (``embed.html``): what it needs that does not need a browser.

A tutorial puts a board in its text with an ``<iframe src="embed.html?…">``; the URL's
parameters (query or hash, the hash wins) say what the frame shows:

- the game: ``position=Y1…`` (a position code), ``record=…`` (a record in long or short
  notation, URL-encoded) or ``g=G1…`` (a whole-game code of :mod:`yinsh.link`); none of
  them is the empty board;
- ``ply=N``: show the position after the first N moves of the record (default: all);
- ``steps=1``: step controls through the record (first, previous, next, last);
- ``highlight=e4,e5,e3-e7``: points to mark (rows allowed too), ``rows=e3-e7``: rows;
- ``play=1`` with ``expect=<move>``: a puzzle. The reader makes a move in the position
  shown and is told whether it is the expected one. Moves are compared as values, so any
  notation of the same move counts; several moves separated by ``|`` are alternatives. A
  ring move alone (``expect=g4-e2``) where the move makes rows accepts every legal way to
  finish it (the rows and rings removed are the reader's choice); the whole move
  (``g4-e2;xg4-k8xa5``) accepts that finish only, for when the row matters;
- ``caption=…``: a line of text under the board.

:func:`parse_embed` reads them and raises :class:`EmbedError` (and nothing else) with a
message for the frame when they are wrong: the author sees what to fix.

>>> spec = parse_embed("?record=1.e3+2.a5+3.b5&ply=2&steps=1&highlight=e4,e3-e7")
>>> spec.ply, spec.moves, spec.steps, spec.marked, spec.rows
(2, 3, True, ('e4',), ('e3-e7',))
>>> spec.game_at(spec.ply).record()
'1.e3 2.a5'
>>> puzzle = parse_embed("?record=1.e3&play=1&expect=A5")
>>> puzzle.accepts(Move.from_text("a5")), puzzle.accepts(Move.from_text("a4"))
(True, False)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..compat import unique
from ..diagram import parse_highlight
from ..errors import YinshError
from ..game import Game
from ..limits import MAX_CAPTION_CHARS, MAX_PUZZLE_ANSWERS
from ..link import decode_game
from ..move import Move
from ..scan import lower, quoted, strip, words
from ..state import ring_moves as legal_ring_moves
from .urls import read_params
from .words import shorten

__all__ = ["EmbedError", "EmbedSpec", "PARAMETERS", "parse_embed", "step_label"]

PARAMETERS: Final = ("position", "record", "g", "ply", "steps", "highlight", "rows", "play", "expect", "caption")
"""Every parameter ``embed.html`` reads; any other is refused (a typo would pass unseen)."""
_SOURCES: Final = ("position", "record", "g")
_TRUE: Final = frozenset({"1", "true", "yes", "on"})
_FALSE: Final = frozenset({"", "0", "false", "no", "off"})


class EmbedError(YinshError):
    """A parameter of ``embed.html`` that cannot be used; the message names it and says why."""


class EmbedSpec(NamedTuple("EmbedSpec", [("game", Game), ("ply", int), ("steps", bool), ("marked", "tuple[str, ...]"),
                                         ("rows", "tuple[str, ...]"), ("expected", "tuple[Move, ...]"),
                                         ("caption", str), ("ring_moves", "tuple[Move, ...]")])):
    """What an embedded diagram shows, read from its URL by :func:`parse_embed`.

    - ``game``: the whole game given (a record's moves, or a position with no move);
    - ``ply``: how many of the game's moves are played on the board shown first (0 … :attr:`moves`);
    - ``steps``: whether the reader may step through the moves;
    - ``marked``: points to mark, as names (``'e4'``); ``rows``: rows to highlight (``'e3-e7'``);
    - ``expected``: in a puzzle, the whole moves that count as correct;
    - ``caption``: a line of text under the board;
    - ``ring_moves``: in a puzzle, ring moves (no removals) every finish of which counts as
      correct: the author named the ring move only, where it makes rows.
    """

    __slots__ = ()

    def __new__(cls, game: Game, ply: int, steps: bool, marked: tuple[str, ...] = (), rows: tuple[str, ...] = (),
                expected: tuple[Move, ...] = (), caption: str = "", ring_moves: tuple[Move, ...] = ()) -> EmbedSpec:
        return super().__new__(cls, game, ply, steps, marked, rows, expected, caption, ring_moves)

    @property
    def moves(self) -> int:
        """The number of moves that may be stepped through."""
        return len(self.game.moves)

    @property
    def puzzle(self) -> bool:
        """Whether the reader is asked to play a move (``play=1``)."""
        return bool(self.expected or self.ring_moves)

    def game_at(self, ply: int) -> Game:
        """The game after its first ``ply`` moves (clamped to 0 … :attr:`moves`)."""
        return _after(self.game, max(0, min(ply, self.moves)))

    def accepts(self, move: Move) -> bool:
        """Whether ``move`` solves the puzzle: it equals one of the expected moves, or its ring
        move is one of :attr:`ring_moves` (whatever it removes)."""
        if move in self.expected:
            return True
        return move.kind == "move" and Move("move", move.source, move.target) in self.ring_moves


def step_label(ply: int, moves: int) -> str:
    """The step counter's text.

    >>> step_label(0, 12), step_label(12, 12)
    ('Start of 12 moves', 'Move 12 of 12')
    """
    return f"Start of {moves} move{'s' * (moves != 1)}" if ply == 0 else f"Move {ply} of {moves}"


def parse_embed(search: str = "", hash_: str = "") -> EmbedSpec:
    """Read ``embed.html``'s parameters from ``location.search`` and ``location.hash``.

    Raises :class:`EmbedError` naming the parameter and the reason; nothing else.
    """
    try:
        params = read_params(search, hash_)
    except YinshError as exc:
        raise EmbedError(f"The link cannot be read: {exc}.") from None
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise EmbedError(f"Unknown parameter {_show(unknown[0])}: expected {', '.join(PARAMETERS)}.")
    game = _game(params)
    moves = len(game.moves)
    ply = _integer(params, "ply", default=moves)
    if not 0 <= ply <= moves:
        raise EmbedError(f"ply={ply} is out of range: the game has {moves} move{'s' * (moves != 1)}, "
                         f"so ply runs from 0 to {moves}.")
    steps = _flag(params, "steps")
    if steps and moves == 0:
        raise EmbedError("steps=1 needs moves to step through: give a record (record= or g=).")
    marked, rows = _highlights(params)
    play = _flag(params, "play")
    expected: tuple[Move, ...] = ()
    ring_moves: tuple[Move, ...] = ()
    if play:
        if steps:
            raise EmbedError("play=1 and steps=1 do not go together: a puzzle shows one position.")
        expected, ring_moves = _expected(params, game, ply)
    elif strip(params.get("expect", "")):
        raise EmbedError("expect= is the answer of a puzzle: add play=1.")
    caption = " ".join(words(params.get("caption", "")))
    if len(caption) > MAX_CAPTION_CHARS:
        raise EmbedError(f"caption= is {len(caption)} characters long: "
                         f"at most {MAX_CAPTION_CHARS} fit under a diagram.")
    return EmbedSpec(game, ply, steps, marked, rows, expected, caption, ring_moves)


def _game(params: dict[str, str]) -> Game:
    given = [key for key in _SOURCES if strip(params.get(key, ""))]
    if len(given) > 1:
        raise EmbedError(f"Give one game, not {' and '.join(given)}: position=, record= or g=.")
    if not given:
        return Game()
    key = given[0]
    text = strip(params[key])
    try:
        if key == "position":
            return Game.from_position(text)
        if key == "g":
            return decode_game(text)
        return Game.from_record(text)
    except (YinshError, ValueError) as exc:
        raise EmbedError(f"{key}= cannot be read: {shorten(str(exc), 200)}") from None


def _integer(params: dict[str, str], key: str, default: int) -> int:
    text = strip(params.get(key, ""))
    if not text:
        return default
    if len(text) > 6 or any(c not in "0123456789" for c in text):
        raise EmbedError(f"{key}={_show(text)} is not a move number: expected 0, 1, 2, …")
    return int(text)


def _flag(params: dict[str, str], key: str) -> bool:
    text = lower(strip(params.get(key, "")))
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise EmbedError(f"{key}={_show(text)} is not a switch: expected {key}=1 or {key}=0.")


def _highlights(params: dict[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found = {}
    for key in ("highlight", "rows"):
        try:
            found[key] = parse_highlight(params.get(key, "").split(","))
        except YinshError as exc:
            raise EmbedError(f"{key}= {shorten(str(exc), 200)}") from None
    (marked, rows), (points_in_rows, more_rows) = found["highlight"], found["rows"]
    if points_in_rows:
        raise EmbedError(f"rows= lists rows like e3-e7, not points: {', '.join(points_in_rows)} (use highlight=).")
    return tuple(unique(marked)), tuple(unique(rows + more_rows))


def _expected(params: dict[str, str], game: Game, ply: int) -> tuple[tuple[Move, ...], tuple[Move, ...]]:
    """The puzzle's answers: whole moves, and ring moves named alone that make rows (every
    finish counts)."""
    texts = [strip(t) for t in params.get("expect", "").split("|")]
    if not any(texts):
        raise EmbedError("play=1 needs the answer: expect=<move>, e.g. expect=e3-f3;xe3-e7xf7.")
    if len(texts) > MAX_PUZZLE_ANSWERS:
        raise EmbedError(f"expect= gives {len(texts):,} moves: a puzzle accepts at most {MAX_PUZZLE_ANSWERS}.")
    position = _after(game, ply)
    if position.result is not None:
        raise EmbedError("play=1: the game is over in that position, so there is no move to play.")
    moves, ring_moves = [], []
    for text in texts:
        if not text:
            raise EmbedError("expect= has an empty alternative: separate moves with a single |.")
        try:
            moves.append(position.parse_move(text))
        except YinshError as exc:
            ring_move = _ring_move_alone(text, position)
            if ring_move is None:
                raise EmbedError(f"expect= is not a legal move here: {shorten(str(exc), 200)}") from None
            ring_moves.append(ring_move)
    return tuple(unique(moves)), tuple(unique(ring_moves))


def _ring_move_alone(text: str, position: Game) -> Move | None:
    """``text`` as a ring move with no removals that the player to move in ``position`` may
    make (it then makes rows: else it would have been a whole move), or ``None``."""
    try:
        move = Move.from_text(text)
    except YinshError:
        return None
    if move.kind != "move" or move.before or move.after:
        return None
    return move if (move.source, move.target) in legal_ring_moves(position.state) else None


def _after(game: Game, ply: int) -> Game:
    """A new game: ``game``'s start and its first ``ply`` moves (trusted: they were checked)."""
    out = Game.from_state(game.start_state, game.start_ply)
    for move in game.moves[:ply]:
        out.push(move)
    return out


def _show(text: str, limit: int = 40) -> str:
    return quoted(text, limit)
