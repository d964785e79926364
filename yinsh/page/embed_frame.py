"""The embeddable diagram's frame, browser-free: what it shows and how a reader changes it.

:class:`EmbedFrame` is the model of ``embed.html``, as :class:`~yinsh.page.session.Session`
is the game page's: the URL's :class:`~yinsh.page.embed.EmbedSpec`, the move shown, and in
a puzzle the reader's turn and verdict. :func:`frame_status` says what the frame shows, as
plain values; :mod:`yinsh.web.embed` draws it and turns clicks and keys into the frame's
methods.

>>> frame = EmbedFrame("?record=1.e3+2.a5+3.b5&steps=1")
>>> frame.step("prev"), frame_status(frame).step_label
(True, 'Move 2 of 3')
>>> from yinsh.board import parse_point
>>> puzzle = EmbedFrame("?record=1.e3+2.a5&play=1&expect=f5")
>>> frame_status(puzzle).puzzle, puzzle.click_point(parse_point("f5")), frame_status(puzzle).puzzle
('solving', None, 'correct')
"""

from __future__ import annotations

from typing import Final

from ..game import Game
from ..move import Move
from ..render import board_svg, picture
from ..turn import Turn
from .embed import EmbedError, EmbedSpec, parse_embed, step_label
from .words import prompt

__all__ = ["EmbedFrame", "FrameStatus", "frame_status", "STEPS", "VERDICTS"]

STEPS: Final = ("first", "prev", "next", "last")
"""Where a step goes: the start, one move back, one forward, the end."""
VERDICTS: Final = {True: ("Correct!", "Play again"), False: ("Not quite — try again.", "Try again")}
"""A puzzle's verdict and the label of the button that starts it again."""


class EmbedFrame:
    """What the frame's URL asks for, the move shown, and a puzzle's turn and verdict."""

    def __init__(self, search: str = "", hash_: str = "") -> None:
        self.spec: EmbedSpec | None = None
        self.ply = 0
        self.error = ""
        """Why the URL could not be read (shown instead of a board), or ``""``."""
        self.hint = ""
        """Why the reader's last click did nothing (a puzzle), or ``""``."""
        self.correct = False
        self.answer: Game | None = None
        """The game after the reader's move, once made."""
        self.turn: Turn | None = None
        """The reader's turn while a puzzle is solved."""
        self.open(search, hash_)

    def open(self, search: str, hash_: str = "") -> None:
        """Read the URL (at start, and when the hash changes); a bad one keeps its message."""
        self.spec, self.ply, self.error = None, 0, ""
        try:
            self.spec = parse_embed(search, hash_)
            self.ply = self.spec.ply
        except EmbedError as exc:
            self.error = str(exc)
        self.reset_puzzle()

    def reset_puzzle(self) -> None:
        """The puzzle's position again, nothing decided (outside a puzzle: nothing to do)."""
        self.hint = ""
        self.correct = False
        self.answer = None
        self.turn = Turn(self.spec.game_at(self.ply)) if self.spec and self.spec.puzzle else None
        self._judge()

    def solving(self) -> bool:
        """Whether a puzzle waits for the reader's move."""
        return self.turn is not None and self.answer is None

    def _judge(self) -> None:
        """Once the reader's decisions make a whole move, play it and keep the verdict."""
        if self.spec is None or self.turn is None or self.turn.move is None:
            return
        move: Move = self.turn.move
        self.answer = self.turn.game.copy()
        self.answer.push(move)
        self.correct = self.spec.accepts(move)

    def step(self, where: str) -> bool:
        """Show another move (one of :data:`STEPS`); whether the move shown changed."""
        spec = self.spec
        if spec is None or not spec.steps:
            return False
        target = {"first": 0, "prev": self.ply - 1, "next": self.ply + 1, "last": spec.moves}[where]
        target = max(0, min(target, spec.moves))
        if target == self.ply:
            return False
        self.ply = target
        return True

    def click_point(self, point: int) -> str | None:
        """A click (or Enter) on ``point`` of the puzzle's board; the turn's hint, if any."""
        if self.turn is None or self.answer is not None:
            return None
        self.hint = self.turn.click_point(point) or ""
        self._judge()
        return self.hint or None

    def click_row(self, window: int) -> str | None:
        """A click (or Enter) on the candidate row ``window``; the turn's hint, if any."""
        if self.turn is None or self.answer is not None or not self.turn.candidate_rows:
            return None
        self.hint = self.turn.click_row(window) or ""
        self._judge()
        return self.hint or None

    def cancel(self) -> bool:
        """Escape, or a click between the points: undo the last decision of the puzzle's turn."""
        if self.turn is None or self.answer is not None or not self.turn.cancel():
            return False
        self.hint = ""
        return True


class FrameStatus:
    """What the frame shows, as plain values (:func:`frame_status`); with an ``error``, nothing
    else (``svg`` is empty)."""

    error: str
    svg: str
    """The board."""
    record: str
    position: str
    ply: int
    moves: int
    highlight: str
    rows: str
    phase: str
    puzzle: str
    """``solving``, ``correct``, ``wrong``, or empty outside a puzzle."""
    status: str
    """The prompt while solving (text), the verdict after (markup)."""
    again: str
    """The label of the button that starts the puzzle again."""
    choosing_row: bool
    caption: str
    steps: bool
    step_label: str
    first: bool
    last: bool
    """Whether the first (the last) move is shown: the step buttons back (forward) are off."""
    reset_disabled: bool

    def __init__(self, error: str = "", **values: object) -> None:
        self.error = error
        self.svg = ""
        for name, value in values.items():
            setattr(self, name, value)


def frame_status(frame: EmbedFrame) -> FrameStatus:
    """What ``frame`` shows now: the error, or the board (its SVG), the testing hooks' values,
    the prompt or verdict (``status``: text while solving, markup for a verdict) and the step
    buttons' state."""
    spec, turn = frame.spec, frame.turn
    if spec is None:
        return FrameStatus(error=frame.error)
    status, again = "", ""
    if turn is not None and frame.answer is None:  # a puzzle being solved
        # the opponent's last move, until this turn changes the board
        last_move = turn.ring_move or (turn.game.moves[-1] if turn.game.moves and not turn.removals else None)
        shown: Game = turn.game
        svg = board_svg(picture(turn.state, last_move=last_move, destinations=turn.destinations,
                                rows=turn.candidate_rows or spec.rows, selected_row=turn.selected_row,
                                selected_ring=turn.selected_ring, removable=turn.removable_rings,
                                movable=turn.movable_rings, marked=spec.marked, clickable=turn.clickable_points))
        phase, puzzle = str(turn.phase), "solving"
        status, again = frame.hint or prompt(turn), "Reset"
    else:
        shown = frame.answer or spec.game_at(frame.ply)
        svg = board_svg(shown, rows=spec.rows, marked=spec.marked)
        phase, puzzle = "view", "" if turn is None else "correct" if frame.correct else "wrong"
        if puzzle:
            verdict, again = VERDICTS[frame.correct]
            status = f'{verdict} <span class="played">{shown.moves[-1]}</span>'  # notation: no markup
    return FrameStatus(
        svg=svg, record=shown.record(), position=shown.position(), ply=frame.ply, moves=spec.moves,
        highlight=",".join(spec.marked), rows=",".join(spec.rows), phase=phase, puzzle=puzzle, status=status,
        again=again, choosing_row=puzzle == "solving" and turn is not None and bool(turn.candidate_rows),
        caption=spec.caption, steps=spec.steps, step_label=step_label(frame.ply, spec.moves) if spec.steps else "",
        first=frame.ply == 0, last=frame.ply == spec.moves,
        reset_disabled=puzzle == "solving" and not (turn is not None and turn.decisions))
