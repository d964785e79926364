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

__all__ = ["Game", "Move", "Removal", "NotationError", "IllegalMoveError", "YinshError", "COLORS"]
__version__ = "0.1.0"
