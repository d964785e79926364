"""The exceptions of the package. Both are ``ValueError``; the game is left unchanged."""

from __future__ import annotations

__all__ = ["YinshError", "NotationError", "IllegalMoveError"]


class YinshError(ValueError):
    """Base class of the errors the package raises on bad input.

    The message says everything. An error about one move of a game also says which, for
    messages worded elsewhere (the page's import dialog): ``move_number`` (1 for the first
    move), ``mover`` (``'white'`` or ``'black'``, from the position, whatever the number),
    ``move_text`` (the move as given) and ``reason`` (why, on its own); ``game`` is ``(N, M)``
    for the N-th game of a text holding M. Each is ``None`` when it does not apply.
    """

    move_number: int | None = None
    mover: str | None = None
    move_text: str | None = None
    reason: str | None = None
    game: tuple[int, int] | None = None

    def at_move(self, number: int, mover: str, text: str, reason: str) -> YinshError:
        """This error, said to be about move ``number``, played by ``mover``, written ``text``."""
        self.move_number, self.mover, self.move_text, self.reason = number, mover, text, reason
        return self

    def in_game(self, number: int, count: int) -> YinshError:
        """The same error about the ``number``-th of ``count`` games, its message saying so first."""
        error = type(self)(f"game {number} of {count}: {self}")
        error.move_number, error.mover, error.move_text, error.reason = (
            self.move_number, self.mover, self.move_text, self.reason)
        error.game = (number, count)
        return error


class NotationError(YinshError):
    """Text that cannot be read: garbage, unknown points, a malformed record or position code."""


class IllegalMoveError(YinshError):
    """A well-formed move that the rules do not allow in the current position."""
