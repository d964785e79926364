"""The page's words: what to do now, by phase and by input mode, and how the page says a
count or shortens a message (browser-free).

The rules layer says what a turn needs (:class:`~yinsh.turn.Turn`: its phase, its rings,
rows and points); the page words it here: the prompt (:func:`prompt`, the same for every
input) and how to act (:func:`detail`), once per input mode — :data:`MOUSE` (a mouse or a pen:
the words name the click, and the keys too), :data:`TOUCH` (a touch screen with no mouse:
"tap", no key) or :data:`KEYBOARD` (the keyboard was used last: the arrow keys, Enter,
Escape; the keys of :mod:`yinsh.web.controls`). No sentence is rewritten from another: each
mode has its own. The session keeps the mode (:meth:`~yinsh.page.session.Session.set_input_mode`).

>>> from yinsh.game import Game
>>> from yinsh.turn import Turn
>>> turn = Turn(Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"))
>>> prompt(turn)
'White: choose a ring to move'
>>> detail(turn, MOUSE)
'Select one of your rings (click, tap or Enter), or drag it to where it goes.'
>>> detail(turn, TOUCH)
'Tap one of your rings, or drag it to where it goes.'
>>> detail(turn, KEYBOARD)
'Move to one of your rings with the arrow keys and press Enter (Tab leaves the board).'
>>> plural(1, "marker"), plural(3, "marker"), shorten("x" * 300, 10)
('1 marker', '3 markers', 'xxxxxxxxx…')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..board import point_name
from ..compat import bit_count, capitalize
from ..game import COLORS
from ..move import row_name
from ..state import RINGS_PER_PLAYER, WHITE
from ..turn import Phase, result_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..turn import Turn

__all__ = ["MOUSE", "TOUCH", "KEYBOARD", "INPUT_MODES", "prompt", "detail", "several_rows", "rows_note", "plural",
           "shorten"]

MOUSE: Final = "mouse"
"""A mouse or a pen, and the keyboard: the words name the click and the keys."""
TOUCH: Final = "touch"
"""A touch screen with no mouse: the words say "tap" and name no key."""
KEYBOARD: Final = "keyboard"
"""The keyboard, used last: the words name the keys only (arrows and Tab to move, Enter to
choose, Escape to cancel)."""
INPUT_MODES: Final = (MOUSE, TOUCH, KEYBOARD)

_ACT: Final = {  # (phase, mode) → what to do, in the words of that input
    (Phase.PICK_RING, MOUSE): "Select one of your rings (click, tap or Enter), or drag it to where it goes.",
    (Phase.PICK_RING, TOUCH): "Tap one of your rings, or drag it to where it goes.",
    (Phase.MOVE_RING, MOUSE): "Select a lit point, or drag the ring there. Select the ring again or press Escape "
                              "to cancel.",
    (Phase.MOVE_RING, TOUCH): "Tap a lit point, or drag the ring there. Tap the ring again to cancel.",
    (Phase.PICK_RING, KEYBOARD): "Move to one of your rings with the arrow keys and press Enter (Tab leaves the "
                                 "board).",
    (Phase.MOVE_RING, KEYBOARD): "Move to a lit point with the arrow keys and press Enter. Press Escape to cancel.",
}
_CHOOSE_ROW: Final = {MOUSE: "select", TOUCH: "tap", KEYBOARD: "press Enter on"}
_PICK_ROW: Final = {  # a point several candidate rows run through: how to reach one of them
    MOUSE: "click the row itself",
    TOUCH: "tap the row itself",
    KEYBOARD: "press Enter on it again for the next row, or Tab to the row buttons",
}


def prompt(turn: Turn) -> str:
    """What the player must do now, in a line: ``'White: choose a ring to move'`` (the same in
    every input mode; :func:`detail` says how). Once the game is over, its result."""
    name, phase = turn.name, turn.phase
    if phase is Phase.PLACE_RING:
        return f"{name}: place a ring on an empty point"
    if phase is Phase.PICK_RING:
        return f"{name}: choose a ring to move"
    if phase is Phase.MOVE_RING:
        return f"{name}: choose where the ring on {point_name(turn.selected_ring)} goes"  # type: ignore[arg-type]
    if phase is Phase.REMOVE_ROW:
        return f"{name}: choose a row to remove"
    if phase is Phase.REMOVE_RING:
        return f"{name}: choose one of your rings to remove"
    if phase is Phase.DONE:
        return f"{name}: {'passes' if turn.passed else 'move complete'}"
    return result_text(turn.game) or "The game is over"


def detail(turn: Turn, mode: str = MOUSE) -> str:
    """The line under the prompt: how to make the decision the turn's phase asks for, in the
    words of the input ``mode`` (may be empty)."""
    phase = turn.phase
    if phase is Phase.PLACE_RING:
        state = turn.game.state
        placed = bit_count(state.white_rings if turn.color == WHITE else state.black_rings)
        return f"Ring {placed + 1} of {RINGS_PER_PLAYER}. Once all ten rings are placed, White moves first."
    if phase is Phase.PICK_RING or phase is Phase.MOVE_RING:
        return _ACT[(phase, mode)]
    if phase is Phase.REMOVE_ROW or phase is Phase.REMOVE_RING:
        whose = "made for you by your opponent's move" if turn.rows_pending_for == "opponent" else "you made"
        if phase is Phase.REMOVE_ROW:
            return (f"{len(turn.candidate_rows)} rows of five {whose}: {_CHOOSE_ROW[mode]} one to return its "
                    "markers to the pool.")
        chosen = row_name(turn.selected_row)  # type: ignore[arg-type]
        return f"Row {chosen} ({whose}) goes back to the pool with the ring you choose."
    return ""


def several_rows(where: str, mode: str = MOUSE) -> str:
    """Why a click on a point several candidate rows run through chose none of them."""
    return f"Several rows run through {where}: {_PICK_ROW[mode]}"


def rows_note(made: Sequence[tuple[str, int]]) -> str:
    """What the prompt says beside a previewed move that makes rows, given as (colour, window):
    ``'Makes a row for White (e3-e7)'``, ``'Makes rows for White (…) and Black (…)'``; ``""``
    for none.

    >>> from yinsh.move import parse_row
    >>> rows_note([("white", parse_row("e3", "e7")), ("black", parse_row("c5", "g5"))])
    'Makes rows for White (e3-e7) and Black (c5-g5)'
    """
    if not made:
        return ""
    parts = []
    for color in COLORS:
        names = [row_name(w) for c, w in made if c == color]
        if names:
            parts.append(f"{capitalize(color)} ({', '.join(names)})")
    return ("Makes a row for " if len(made) == 1 else "Makes rows for ") + " and ".join(parts)


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless ``count`` is 1."""
    return f"{count} {word}{'s' * (count != 1)}"


def shorten(text: str, limit: int = 160) -> str:
    """``text``, cut to at most ``limit`` characters with an ellipsis (a message that quotes
    hostile input stays short)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
