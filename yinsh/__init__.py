"""YINSH, the abstract board game by Kris Burm, in pure Python.

>>> import yinsh
>>> game = yinsh.Game()
>>> _ = game.play("e3")
>>> game.to_move, game.pool, game.result
('black', 51, None)

The rules core (``board``, ``state``, ``move``, ``game``, ``pgn``, ``record``, ``position``)
imports only the standard library and runs unchanged on CPython, Pyodide and MicroPython
(docs/PORTABILITY.md).
"""

from .errors import IllegalMoveError, NotationError, YinshError
from .game import COLORS, Game
from .move import Move, Removal

__all__ = ["Game", "Move", "Removal", "NotationError", "IllegalMoveError", "YinshError", "COLORS", "ai"]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # ``yinsh.ai`` is imported on first use, so the rules alone stay light to load (and the page's
    # main thread, which never uses it, does not ship it). Not ``from . import ai``: that would ask
    # this very function for the name first.
    if name == "ai":
        return __import__(f"{__name__}.ai").ai
    raise AttributeError(f"module 'yinsh' has no attribute {name!r}")
