"""The rules in short steps, each with a small diagram drawn by the project's renderer.

The page's rules panel shows them; ``lessons()`` returns plain data so that anything
else (a tutorial, a printed sheet) can show them too.

>>> [lesson.title for lesson in lessons()][:3]
['The goal', 'Placing the rings', 'Moving a ring']
>>> all(lesson.svg.startswith("<svg") for lesson in lessons() if lesson.svg)
True

Each diagram has a short ``caption`` to show under it and a longer ``alt``, its text
alternative (the SVG's accessible name), which names every piece on the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from .board import parse_point, point_name, points_of
from .compat import capitalize
from .game import Game
from .move import Move, row_name
from .render import board_svg
from .state import BLACK, State, make_state, rows

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Lesson", "lessons", "describe", "MISTAKES", "POOL_GAME"]


class Lesson(NamedTuple("Lesson", [("title", str), ("text", str), ("svg", str), ("caption", str), ("alt", str)])):
    """One step of the rules: a title, a sentence or two, and an SVG diagram (or ``''``)
    with its caption and its text alternative."""

    __slots__ = ()

    def __new__(cls, title: str, text: str, svg: str, caption: str = "", alt: str = "") -> Lesson:
        return super().__new__(cls, title, text, svg, caption, alt)


MISTAKES = (
    "A ring never jumps over another ring, and never lands on a marker or a ring.",
    "After jumping markers the ring must stop on the very first empty point behind them.",
    "The marker stays where the ring started: it is the move that leaves your colour behind.",
    "Markers you jump over change colour — yours too. Look at what a move flips before you make it.",
    "A row is exactly five of your colour in a straight line; a longer run gives you the choice of five.",
)
"""Common mistakes of new players, one sentence each."""


POOL_GAME: Final = "Y1B9jLTTUo5Kt1jOQEOd8LChEU48cbugbW77g9Al"
"""The position before the last move of a game that ran out of markers (the scenario
"out of markers" in tests/data/scenarios.ygn): Black's g8-g9 uses the 51st marker."""


def describe(state: State, **highlights: Iterable[str]) -> str:
    """The pieces of a position in words, for a diagram's text alternative; each keyword
    adds a sentence, the key (underscores as spaces) naming the points or rows listed, in the
    keys' alphabetical order (MicroPython keeps keywords in no order).

    >>> describe(make_state(["e5"], [], ["e6", "f6"]), lit_points=["e7"])
    'White rings: e5. White markers: e6, f6. Lit points: e7.'
    """
    parts = []
    for name, bits in (("White rings", state.white_rings), ("Black rings", state.black_rings),
                       ("White markers", state.white_markers), ("Black markers", state.black_markers)):
        if bits:
            parts.append(f"{name}: {', '.join(point_name(p) for p in points_of(bits))}.")
    for key, names in sorted(highlights.items()):
        parts.append(f"{capitalize(key.replace('_', ' '))}: {', '.join(names)}.")
    return " ".join(parts)


def _step(title: str, text: str, game: Game, caption: str, alt_extra: dict[str, list[str]] | None = None,
          **highlights: object) -> Lesson:
    """A step whose diagram shows ``game`` (its last move marked) with ``highlights``."""
    alt = f"{caption}. {describe(game.state, **(alt_extra or {}))}"
    svg = board_svg(game.state, labels=False, title=alt,
                    last_move=game.moves[-1] if game.moves else None, **highlights)  # type: ignore[arg-type]
    return Lesson(title, text, svg, caption, alt)


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
    destinations = sorted(m.target for m in moving.legal_moves()
                          if m.kind == "move" and m.source == parse_point("e5") and m.target is not None)
    pool_end = Game.from_position(POOL_GAME)
    pool_end.play("g8-g9")
    return [
        Lesson("The goal",
               "Make rows of five markers of your colour. Each row you make lets you take one of your rings "
               "off the board; the first player to remove three rings wins.", ""),
        _step("Placing the rings",
              "Players take turns placing their five rings on empty points, White first. Spread them out: "
              "rings that can reach many points are strong.", placement, "Ten rings placed"),
        _step("Moving a ring",
              "Put a marker of your colour inside one of your rings, then move the ring in a straight line. "
              "It may slide over empty points and jump a run of markers, but must stop on the first empty "
              "point after them. It never jumps a ring.",
              moving, "Where the ring on e5 may go: the lit points",
              {"lit_points": [point_name(p) for p in destinations]},
              destinations=destinations, selected_ring="e5"),
        _step("Flipping markers",
              "Every marker the ring jumps over is turned over: white becomes black and black becomes white.",
              flipped, "e5-e8 left a marker on e5 and flipped e6 and e7"),
        _step("A row of five",
              "Five markers of your colour in a line: take them back to the pool and remove one of your "
              "rings. Rows can run along any of the three directions of the grid lines.",
              row, "e6-e7 made the row a2-e6; White took it and the ring on e7 off the board"),
        _step("Six or more in a line",
              "A run longer than five is still one row: you choose which five markers to take back.",
              overline, "Six white markers from e1 to e6: two ways to take five",
              {"rows_offered": ["e1-e5", "e2-e6"]}, rows=["e1-e5", "e2-e6"]),
        _step("Rows for both players",
              "A move can complete rows for both players. The mover removes theirs first; the opponent "
              "removes theirs at the start of their own turn, before moving.",
              both, "White removed e1-e5; Black's row f4-f8 waits for Black's turn",
              {"row_waiting": [row_name(w) for w in rows(both.state.black_markers)]}, rows=["f4-f8"]),
        _step("The marker pool",
              "There are 51 markers. If the pool runs out, the game ends: whoever removed more rings wins, "
              "and equal rings is a draw. Watch the pool when it gets low.",
              pool_end, "g8-g9 used the last of the 51 markers: the game ends and Black wins, 1 ring to 0"),
        Lesson("Common mistakes", " ".join(MISTAKES), ""),
    ]
