"""The computer player as the page sees it, browser-free: questions, answers, moves in steps.

The page asks the computer three things (:class:`Request`): its move, a hint, and the values
of the evaluation graph; the worker (:mod:`yinsh.web.worker`) answers with JSON text, read by
:func:`answer_of`. A computer's move that removes rows is drawn in steps
(:func:`frames_of`), so that a person sees which row and ring went.
"""

from __future__ import annotations

import json

from ..game import Game
from ..move import Move
from ..turn import Decision, Turn

__all__ = ["Request", "answer_of", "frames_of", "HINT_LEVEL", "ROW_MS", "MOVE_MS", "PLACE_MS"]

HINT_LEVEL = 3
"""The level whose move the Hint button shows."""
ROW_MS = 650
"""How long a row and its ring stay highlighted before a computer player removes them."""
MOVE_MS = 700
"""How long a computer's ring move shows (slide and flips) before its own rows are removed."""
PLACE_MS = 250
GRAPHS_KEPT = 8
"""How many records' evaluation graphs are remembered."""
NAMES = {"white": "White", "black": "Black"}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


class Request:
    """A question for the computer: ``kind`` is ``move`` (the computer player's move),
    ``hint`` (the move level :data:`HINT_LEVEL` would play) or ``evaluate`` (the values of
    the evaluation graph); ``text`` is the position code (or, to evaluate, the record)."""

    __slots__ = ("kind", "generation", "text", "level", "seed", "pause_ms")

    def __init__(self, kind: str, generation: int, text: str, level: int = 0, seed: int = 0,
                 pause_ms: int = 0) -> None:
        self.kind = kind
        self.generation = generation
        self.text = text
        self.level = level
        self.seed = seed
        self.pause_ms = pause_ms
        """How long after the last computer move this answer may be shown, at the earliest."""

    @property
    def key(self) -> tuple:
        """The same question asked twice has the same key (the client asks it once)."""
        return (self.kind, self.generation, self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Request) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Request({self.kind!r}, generation={self.generation}, level={self.level})"


def answer_of(text: str) -> dict:
    """The worker's JSON answer; ``ValueError`` saying why when it is no answer.

    >>> answer_of('{"ok": true, "move": "e3"}')["move"]
    'e3'
    >>> answer_of('{"ok": false, "error": "the game is over"}')
    Traceback (most recent call last):
    ValueError: the game is over
    """
    answer = json.loads(text)
    if not isinstance(answer, dict) or not answer.get("ok"):
        error = answer.get("error", "no answer") if isinstance(answer, dict) else "no answer"
        raise ValueError(str(error))
    return answer


def frames_of(game: Game, move: Move) -> list[tuple[dict, int]]:
    """The steps in which a computer's ``move`` with removals is drawn: ``board_svg``
    arguments and how long each shows (the last step, the position after the move, is the
    ordinary drawing). A move without removals has none.

    >>> from yinsh.state import make_state
    >>> s = make_state(["e7", "k8", "h10", "b7", "c8"], ["a5", "k10", "j11", "i11", "h11"], ["e3", "e4", "e5", "e6"])
    >>> frames = frames_of(Game.from_state(s, 40), Move.from_text("e7-e8;xe3-e7xk8"))
    >>> [ms for _, ms in frames]
    [700, 650]
    """
    if not move.before and not move.after:
        return []
    turn = Turn(game, auto_row=False)
    frames: list[tuple[dict, int]] = []

    def removal_frame(removal, last) -> None:
        frames.append(({"position": turn.state, "rows": [removal.row], "selected_row": removal.row,
                        "marked": [removal.ring], "last_move": last}, ROW_MS))
        turn.choose(Decision("row", removal.row))
        turn.choose(Decision("ring", removal.ring))

    for removal in move.before:
        removal_frame(removal, None)
    last = None
    if move.kind == "move" and move.source is not None and move.target is not None:
        turn.choose(Decision("source", move.source))
        turn.choose(Decision("target", move.target))
        last = (move.source, move.target)
        frames.append(({"position": turn.state, "last_move": last, "animate": True}, MOVE_MS))
    for removal in move.after:
        removal_frame(removal, last)
    return frames

