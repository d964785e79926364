"""The computer opponent: ``best_move(game, level)`` for levels 1 (beginner) to 5.

>>> import yinsh, yinsh.ai
>>> game = yinsh.Game.from_record("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8")
>>> move = yinsh.ai.best_move(game, level=2, depth=1)
>>> move in game.legal_moves()
True

Every level is the same search (:mod:`yinsh.ai.negamax`): negamax with alpha-beta
over whole turns under a time budget, with the evaluation of
:mod:`yinsh.ai.evaluation`. Lower levels get less time, a shallower depth cap and
noise in the evaluation. ``search`` is the iterative-deepening generator
(sunfish style) and ``evaluate`` the static value, both for the player to move.

=====  ==================  =========  =====  ===========================================
level  budget (browser s)  max depth  noise  measured (at budgets in CPU seconds)
=====  ==================  =========  =====  ===========================================
1      0.04                1          ±600   beats ``random`` 20–0
2      0.12                2          ±150   85 % against level 1 (20 games)
3      0.42                3                 95 % against level 2 (20 games)
4      1.7                 4                 81 % against level 3 (40 games)
5      4.3                 (time)            90 % against level 4 (20 games); 75 % against
                                             the MCTS engine yngine at 100,000
                                             simulations a move (20 games)
=====  ==================  =========  =====  ===========================================

The placement phase uses a cheap positional rule (:mod:`yinsh.ai.placement`).
"""

from __future__ import annotations

import gc
import sys
from time import perf_counter
from typing import Final, NamedTuple

from ..game import Game
from ..move import Move
from ..state import State, legal_moves
from .evaluation import RING, WIN
from .negamax import Searcher, evaluate, search
from .placement import placement_move

__all__ = ["best_move", "think", "search", "evaluate", "Level", "LEVELS", "BROWSER", "SPEEDUP", "RING", "WIN"]

BROWSER: Final = sys.platform == "emscripten"
"""Whether this is Pyodide (the browser's web worker)."""
SPEEDUP: Final = 1.0 if BROWSER else 2.5
"""How much faster this Python searches than the browser (measured: CPython 3.11 on x86-64 runs the
search 2.55× faster than Pyodide 314.0.5 (CPython 3.14) in V8); budgets are divided by it so that a level does the
same work, and so plays equally well, everywhere."""


class Level(NamedTuple):
    """How one level plays."""

    seconds: float
    """Time budget in the browser; elsewhere ``seconds / SPEEDUP``."""
    max_depth: int
    """The deepest iteration, in whole turns."""
    noise: int = 0
    """Evaluation noise in ± evaluation units (a ring is ``RING``)."""


LEVELS: Final[dict[int, Level]] = {
    1: Level(0.04, 1, noise=600),
    2: Level(0.12, 2, noise=150),
    3: Level(0.42, 3),
    4: Level(1.7, 4),
    5: Level(4.3, 64),
}


def best_move(game: Game | State, level: int = 3, seconds: float | None = None, seed: int | None = None,
              depth: int | None = None) -> Move:
    """A legal move for the player to move: a complete turn, removals included.

    ``seconds`` overrides the level's time budget; ``depth`` caps the search depth
    (with ``depth`` and no ``seconds`` the search has no deadline and the move
    depends only on the position, level and seed). The game must not be over.
    """
    return think(game, level, seconds, seed, depth)[0]


def think(game: Game | State, level: int = 3, seconds: float | None = None, seed: int | None = None,
          depth: int | None = None) -> tuple[Move, dict]:
    """``best_move`` and what the search found: ``{'depth', 'value', 'nodes', 'seconds'}``."""
    start = perf_counter()
    state = game.state if isinstance(game, Game) else game
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: expected 1 to 5")
    settings = LEVELS[level]
    seed = 0 if seed is None else seed
    info = {"depth": 0, "value": 0.0, "nodes": 0, "seconds": 0.0}
    if state.in_placement:
        move = placement_move(state, seed, level)
        info["seconds"] = perf_counter() - start
        return move, info
    moves = legal_moves(state)
    if not moves:
        raise ValueError("the game is over: there is no move to make")
    if len(moves) == 1:
        info["seconds"] = perf_counter() - start
        return moves[0], info
    budget = settings.seconds / SPEEDUP if seconds is None else seconds
    deadline = float("inf") if depth is not None and seconds is None else start + budget
    max_depth = settings.max_depth if depth is None else depth
    searcher = Searcher(state.rings_to_win, deadline=deadline, noise=settings.noise, seed=seed)
    move = moves[0]
    # The search makes no reference cycles, but its many tuples trigger full collections that would
    # stall it for tens of milliseconds past its deadline.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for done, value, found in search(state, max_depth=max_depth, searcher=searcher, moves=moves):
            move = found
            info["depth"], info["value"] = done, value / RING
    finally:
        if collecting:
            gc.enable()
    info["nodes"] = searcher.nodes
    info["seconds"] = perf_counter() - start
    return move, info
