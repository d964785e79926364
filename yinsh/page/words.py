"""The page's words: how it says a count, shortens a message, and (by phase and input mode)
what to do next (browser-free).

>>> plural(1, "marker"), plural(3, "marker"), shorten("x" * 300, 10)
('1 marker', '3 markers', 'xxxxxxxxx…')
"""

from __future__ import annotations

__all__ = ["plural", "shorten"]


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an ``s`` unless ``count`` is 1."""
    return f"{count} {word}{'s' * (count != 1)}"


def shorten(text: str, limit: int = 160) -> str:
    """``text``, cut to at most ``limit`` characters with an ellipsis (a message that quotes
    hostile input stays short)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
