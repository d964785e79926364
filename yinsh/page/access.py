"""Playing without a mouse, or without seeing the board: what that needs, browser-free.

- Keyboard focus moves from point to point **along the board's lines** (:func:`neighbour`):
  ←/→ along the line where the number stays (e4 → f4), ↑/↓ along the column (e4 → e5),
  Shift+←/→ along the third line, where both change (e4 → f5). At the edge the focus stays.
- Every point has an accessible name saying what is there and what it can do now
  (:func:`point_labels`): ``"c3, empty, place a ring here"``, ``"g7, black marker, in row e5-i9"``.
- Enter on a point that several candidate rows run through chooses one of them, and Enter
  again the next (:func:`row_for_key`).
- After every move a screen reader hears what happened (:class:`Announcer`):
  ``"Black moved e9 to e5 and flipped 3 markers"``, ``"White removed row e3-e7 and the ring
  at b2"``, ``"White wins 3 to 1"``.

>>> from yinsh.game import Game
>>> point_name(neighbour(parse_point("e4"), "ArrowRight"))
'f4'
>>> point_name(neighbour(parse_point("e4"), "ArrowRight", shift=True))
'f5'
>>> game, announcer = Game(), Announcer()
>>> announcer.update(game, "White: place a ring on an empty point")
'White: place a ring on an empty point'
>>> _ = game.play("e3"); announcer.update(game, "Black: place a ring on an empty point")
'White placed a ring on e3. Black: place a ring on an empty point'
"""

from __future__ import annotations

from typing import Final

from .. import state as st
from ..board import BIT, COLUMNS, POINT_NAMES, POINTS, WIDTH, WINDOWS, parse_point, point_name
from ..compat import bit_count, capitalize
from ..game import COLORS, Game
from ..move import Move, row_name
from ..state import State
from ..turn import Phase, Turn
from .words import plural

__all__ = ["KEY_DIRECTIONS", "SHORTCUTS", "START_POINT", "neighbour", "point_labels", "row_for_key",
           "rows_through", "spoken_prompt", "move_announcement", "result_announcement", "Announcer"]

KEY_DIRECTIONS: Final[dict[tuple[str, bool], tuple[int, int]]] = {
    ("ArrowRight", False): (1, 0),
    ("ArrowLeft", False): (-1, 0),
    ("ArrowUp", False): (0, 1),
    ("ArrowDown", False): (0, -1),
    ("ArrowRight", True): (1, 1),
    ("ArrowLeft", True): (-1, -1),
    ("ArrowUp", True): (0, 1),
    ("ArrowDown", True): (0, -1),
}
"""(key, Shift held) → the (column, row) step the focus takes: the board's three lines."""

START_POINT: Final = parse_point("f6")
"""Where the keyboard focus starts: the centre of the board."""

SHORTCUTS: Final[tuple[tuple[str, str], ...]] = (
    ("← →", "Move along the line where the number stays (e4 → f4)"),
    ("↑ ↓", "Move along the column (e4 → e5)"),
    ("Shift + ← →", "Move along the third line (e4 → f5)"),
    ("Enter or Space", "Act on the point: place, pick, move, choose a row (again: the next row), remove"),
    ("Escape", "Cancel: put a picked ring back, unchoose a row"),
    ("Tab", "From the board to the buttons, the move list and back"),
    ("Ctrl + Z / Ctrl + Y", "Undo / redo"),
    ("← → in the move list", "Step through the game's moves"),
)
"""The keyboard shortcuts the page's help lists, as (keys, what they do)."""

_COLUMN_COUNT: Final = len(COLUMNS)
_ROW_LIMIT: Final = WIDTH  # rows run 1 … 11: past 0 or 12 a line has left the board for good


def neighbour(point: int, key: str, shift: bool = False) -> int:
    """The point the focus moves to from ``point`` on ``key`` (``"ArrowLeft"``, …): the
    next point along that key's line, skipping gaps; ``point`` itself at the edge (or for
    any other key).

    >>> [point_name(neighbour(parse_point(p), k)) for p, k in (("a5", "ArrowUp"), ("e1", "ArrowLeft"))]
    ['a5', 'd1']
    """
    step = KEY_DIRECTIONS.get((key, shift))
    if step is None:
        return point
    dc, dr = step
    column, row = divmod(point, 12)
    while True:
        column, row = column + dc, row + dr
        if not (0 <= column < _COLUMN_COUNT and 0 <= row <= _ROW_LIMIT):
            return point
        if column * 12 + row in POINT_NAMES:
            return column * 12 + row


# ---------------------------------------------------------------------------- accessible names


def _contents(s: State, bit: int) -> str:
    for color, rings, markers in (("white", s.white_rings, s.white_markers), ("black", s.black_rings, s.black_markers)):
        if rings & bit:
            return f"{color} ring"
        if markers & bit:
            return f"{color} marker"
    return "empty"


def _rows_text(windows: list[int]) -> str:
    names = [row_name(w) for w in windows]
    if len(names) == 1:
        return f"row {names[0]}"
    return "rows " + ", ".join(names[:-1]) + " and " + names[-1]


def point_labels(turn: Turn | None, state: State | None = None) -> dict[int, str]:
    """The accessible name of every point: where it is, what is on it and, when ``turn`` is
    given (a person is to move), what acting on it does now.

    ``state`` is the board shown (default: ``turn.state``); without a turn it must be given.

    >>> from yinsh.game import Game
    >>> labels = point_labels(Turn(Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")))
    >>> labels[parse_point("h7")], labels[parse_point("a5")], labels[parse_point("f6")]
    ('h7, white ring, can move', 'a5, black ring', 'f6, empty')
    """
    s = state if state is not None else turn.state  # type: ignore[union-attr]
    actions: dict[int, str] = {}
    if turn is not None:
        phase = turn.phase
        if phase is Phase.PLACE_RING:
            actions = dict.fromkeys(turn.placeable, "place a ring here")
        elif phase in (Phase.PICK_RING, Phase.MOVE_RING):
            actions = dict.fromkeys(turn.movable_rings, "can move")
            actions.update(dict.fromkeys(turn.destinations, "legal destination"))
            if turn.selected_ring is not None:
                actions[turn.selected_ring] = "picked: choose where it goes"
        elif phase in (Phase.REMOVE_ROW, Phase.REMOVE_RING):
            through: dict[int, list[int]] = {}
            for window in turn.candidate_rows:
                for p in WINDOWS[window]:
                    through.setdefault(p, []).append(window)
            for p, windows in through.items():
                chosen = " (chosen)" if turn.selected_row in windows else ""
                actions[p] = f"in {_rows_text(windows)}{chosen}"
            actions.update(dict.fromkeys(turn.removable_rings, "remove this ring with the row"))
    out = {}
    for p in POINTS:
        label = f"{POINT_NAMES[p]}, {_contents(s, BIT[p])}"
        out[p] = f"{label}, {actions[p]}" if p in actions else label
    return out


def row_for_key(turn: Turn, point: int) -> int | None:
    """The candidate row Enter on ``point`` chooses, when several run through it: the first,
    or the one after the row chosen already (so Enter again cycles); ``None`` when Enter
    acts on the point as a click would.

    >>> from yinsh.game import Game
    >>> g = Game.from_record("1.e7 2.e9 3.e6 4.f9 5.e5 6.g9 7.e4 8.h9 9.e2 10.j9 11.e7-f7 12.e9-e10 "
    ...                      "13.e6-f6 14.f9-f10 15.e5-f5 16.g9-g10 17.e4-f4 18.h9-h10 19.e2-e3 20.j9-i9")
    >>> turn = Turn(g); _ = turn.click_point(parse_point("e3")); _ = turn.click_point(parse_point("f3"))
    >>> row_name(row_for_key(turn, parse_point("e4")))
    'e2-e6'
    >>> _ = turn.click_row(row_for_key(turn, parse_point("e4"))); row_name(row_for_key(turn, parse_point("e4")))
    'e3-e7'
    """
    windows = rows_through(turn, point)
    if len(windows) < 2:
        return None
    if turn.selected_row in windows:
        return windows[(windows.index(turn.selected_row) + 1) % len(windows)]
    return windows[0]


def rows_through(turn: Turn, point: int) -> list[int]:
    """The candidate rows of ``turn`` a press on ``point`` may choose, in notation order: those
    ``point`` is in, while a row is to be chosen and ``point`` holds no ring to remove (where
    there are several, Enter cycles through them and the pointer's place picks one)."""
    if turn.phase not in (Phase.REMOVE_ROW, Phase.REMOVE_RING) or point in turn.removable_rings:
        return []
    return [w for w in turn.candidate_rows if point in WINDOWS[w]]


# ---------------------------------------------------------------------------- announcements


def spoken_prompt(prompt: str, turn: Turn | None) -> str:
    """The panel's prompt as said aloud: with the row chosen, while its ring is asked for
    (``turn`` is ``None`` when no person is to move).

    >>> from yinsh.game import Game
    >>> s = st.make_state(white_rings=["a2", "k8", "h10", "b7", "c8"], black_rings=["a5", "k10", "j11", "i11", "h11"],
    ...                   white_markers=["e3", "e4", "e5", "e6", "e7"])
    >>> turn = Turn(Game.from_state(s, 40))
    >>> from yinsh.page.words import prompt
    >>> spoken_prompt(prompt(turn), turn)
    'White: choose one of your rings to remove with row e3-e7'
    """
    if turn is not None and turn.selected_row is not None:
        return f"{prompt} with row {row_name(turn.selected_row)}"
    return prompt



def move_announcement(before: State, move: Move) -> str:
    """One move in words, for a screen reader; ``before`` is the position it was played in.

    >>> from yinsh.game import Game
    >>> g = Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7")
    >>> move_announcement(g.state, Move.from_text("e4-i8"))
    'Black moved e4 to i8 and flipped 1 marker'
    >>> move_announcement(g.state, Move.from_text("pass"))
    'Black passed: no ring could move'
    """
    name = capitalize(COLORS[before.turn])
    s = before
    sentences = []

    def removals(done) -> None:
        nonlocal s
        for removal in done:
            sentences.append(f"{name} removed row {row_name(removal.row)} and the ring at {point_name(removal.ring)}")
            s = st.after_removal(s, before.turn, removal.row, removal.ring)

    removals(move.before)
    if move.kind == "place" and move.target is not None:
        sentences.append(f"{name} placed a ring on {point_name(move.target)}")
    elif move.kind == "move" and move.source is not None and move.target is not None:
        flipped = bit_count(st.flipped(s, move.source, move.target))
        text = f"{name} moved {point_name(move.source)} to {point_name(move.target)}"
        sentences.append(text + (f" and flipped {plural(flipped, 'marker')}" if flipped else ""))
    elif move.kind == "pass":
        sentences.append(f"{name} passed: no ring could move")
    removals(move.after)
    return ". ".join(sentences)


def result_announcement(game: Game) -> str | None:
    """The end of the game, short (its outcome's short form): ``'White wins 3 to 1'`` and why;
    ``None`` while it goes on.

    >>> result_announcement(Game()) is None
    True
    """
    done = game.outcome
    return None if done is None else done.text(short=True)


class Announcer:
    """What the page's live region says next: the moves played since the last call (by
    anyone: a person, the computer, an automatic pass), then the result or what the player
    to move is asked for; or, when only that request changed, the request alone."""

    def __init__(self) -> None:
        self._start: tuple[State, int] | None = None
        self._moves: tuple[Move, ...] = ()
        self._state: State | None = None
        self._prompt = ""

    def update(self, game: Game, prompt: str) -> str:
        """The text to announce now (empty when nothing changed). A game that is not the
        last one continued (a new game, an undo, a link opened) announces no move."""
        start = (game.start_state, game.start_ply)
        moves = game.moves
        told = []
        if start == self._start and self._state is not None and moves[: len(self._moves)] == self._moves:
            s = self._state
            for move in moves[len(self._moves):]:
                told.append(move_announcement(s, move))
                s = st.apply_move(s, move)
        self._start, self._moves, self._state = start, moves, game.state
        if told or prompt != self._prompt:
            told.append(result_announcement(game) or prompt)
        self._prompt = prompt
        return ". ".join(t for t in told if t)
