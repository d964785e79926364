"""The rules in short steps, each with a small diagram drawn by the project's renderer.

The page's rules panel shows them; ``lessons()`` returns plain data so that anything
else (a tutorial, a printed sheet) can show them too.

>>> [lesson.title for lesson in lessons()][:3]
['The goal', 'Placing the rings', 'Moving a ring']
>>> all(lesson.svg.startswith("<svg") for lesson in lessons() if lesson.svg)
True
"""

from __future__ import annotations

from typing import NamedTuple

from .board import parse_point
from .game import Game
from .move import Move
from .render import board_svg
from .state import BLACK, make_state

__all__ = ["Lesson", "lessons", "MISTAKES"]


class Lesson(NamedTuple):
    """One step of the rules: a title, a sentence or two, and an SVG diagram (or ``''``)."""

    title: str
    text: str
    svg: str


MISTAKES = (
    "A ring never jumps over another ring, and never lands on a marker or a ring.",
    "After jumping markers the ring must stop on the very first empty point behind them.",
    "The marker stays where the ring started: it is the move that leaves your colour behind.",
    "Markers you jump over change colour — yours too. Look at what a move flips before you make it.",
    "A row is exactly five of your colour in a straight line; a longer run gives you the choice of five.",
)
"""Common mistakes of new players, one sentence each."""


def _diagram(game: Game | None = None, title: str = "", **highlights: object) -> str:
    return board_svg(game.state if game else make_state(), labels=False, title=title,
                     last_move=game.moves[-1] if game and game.moves else None, **highlights)  # type: ignore[arg-type]


def lessons() -> list[Lesson]:
    """The rules of YINSH, step by step, with diagrams."""
    moving = Game.from_state(make_state(["e5", "c3", "h8"], ["g4", "d8"], ["e6", "f6"], ["e7", "g6"]))
    flipped = Game.from_state(moving.state)
    flipped.play("e5-e8")
    row = Game.from_state(make_state(["e6", "k7", "j11", "h3", "b7"], ["a5", "k10", "d1"], ["a2", "b3", "c4", "d5"]))
    row.play("e6-e7;xa2-e6xe7")
    overline = Game.from_state(make_state(["e4", "k7"], ["a5"], ["e1", "e2", "e3", "e5", "e6"]))
    overline_moves = [m for m in overline.legal_moves() if str(Move(m.kind, m.source, m.target)) == "e4-f4"]
    overline.push(Move("move", overline_moves[0].source, overline_moves[0].target))
    both = Game.from_state(make_state(["e5", "k7", "j11", "a2"], ["a5", "b7", "h3"],
                                      ["e1", "e2", "e3", "e4", "f6"], ["f4", "f5", "f7", "f8"]))
    both.play("e5-g7;xe1-e5xk7")
    placement = Game.from_state(make_state(["e3", "b5", "h7", "g3", "d6"], ["a5", "c6", "e4", "g2", "g8"],
                                           in_placement=True, turn=BLACK))
    destinations = [m.target for m in moving.legal_moves() if m.kind == "move" and m.source == parse_point("e5")]
    return [
        Lesson("The goal",
               "Make rows of five markers of your colour. Each row you make lets you take one of your rings "
               "off the board; the first player to remove three rings wins.", ""),
        Lesson("Placing the rings",
               "Players take turns placing their five rings on empty points, White first. Spread them out: "
               "rings that can reach many points are strong.", _diagram(placement, "Ten rings placed")),
        Lesson("Moving a ring",
               "Put a marker of your colour inside one of your rings, then move the ring in a straight line. "
               "It may slide over empty points and jump a run of markers, but must stop on the first empty "
               "point after them. It never jumps a ring.",
               _diagram(moving, "Where the ring on e5 may go", destinations=destinations, selected_ring="e5")),
        Lesson("Flipping markers",
               "Every marker the ring jumps over is turned over: white becomes black and black becomes white.",
               _diagram(flipped, "e5-e8 flipped e6 and e7")),
        Lesson("A row of five",
               "Five markers of your colour in a line: take them back to the pool and remove one of your "
               "rings. Rows can run along any of the three directions of the grid lines.",
               _diagram(row, "The row a2-e6 and a ring removed")),
        Lesson("Six or more in a line",
               "A run longer than five is still one row: you choose which five markers to take back.",
               _diagram(overline, "Two ways to take five", rows=["e1-e5", "e2-e6"])),
        Lesson("Rows for both players",
               "A move can complete rows for both players. The mover removes theirs first; the opponent "
               "removes theirs at the start of their own turn, before moving.",
               _diagram(both, "White removed e1-e5; black's row f4-f8 waits", rows=["f4-f8"])),
        Lesson("The marker pool",
               "There are 51 markers. If the pool runs out, the game ends: whoever removed more rings wins, "
               "and equal rings is a draw. Watch the pool when it gets low.", ""),
        Lesson("Common mistakes", " ".join(MISTAKES), ""),
    ]
