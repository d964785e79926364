"""YINSH, the abstract board game by Kris Burm, in pure Python.

>>> import yinsh
>>> game = yinsh.Game()
>>> _ = game.play("e3")
>>> game.to_move, game.pool, game.result
('black', 51, None)

The rules core (``board``, ``state``, ``move``, ``game``, ``record``, ``position``)
imports only the standard library and runs unchanged in the browser.
"""

from .errors import IllegalMoveError, NotationError, YinshError
from .game import COLORS, Game
from .move import Move, Removal

__all__ = ["Game", "Move", "Removal", "NotationError", "IllegalMoveError", "YinshError", "COLORS", "ai"]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # ``yinsh.ai`` is imported on first use, so the rules alone stay light to load.
    if name == "ai":
        import importlib

        return importlib.import_module(".ai", __name__)
    raise AttributeError(f"module 'yinsh' has no attribute {name!r}")
