"""The exceptions of the package. Both are ``ValueError``; the game is left unchanged."""

__all__ = ["YinshError", "NotationError", "IllegalMoveError"]


class YinshError(ValueError):
    """Base class of the errors the package raises on bad input."""


class NotationError(YinshError):
    """Text that cannot be read: garbage, unknown points, a malformed record or position code."""


class IllegalMoveError(YinshError):
    """A well-formed move that the rules do not allow in the current position."""
