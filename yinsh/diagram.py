"""Standalone SVG diagrams of a position, for documents (``yinsh diagram``).

>>> from yinsh import Game
>>> svg = diagram_svg(Game.from_record("1.e3 2.a5"), highlight=["e4", "e3-e7"], size=300)
>>> svg.startswith("<svg") and 'width="300"' in svg and 'data-row="e3-e7"' in svg
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import is_point
from .errors import NotationError
from .game import Game
from .move import parse_row_name
from .render import board_svg
from .scan import lower, quoted, strip

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["diagram_svg", "parse_highlight"]


def parse_highlight(items: Iterable[str]) -> tuple[list[str], list[str]]:
    """Split highlights into points (``e4``) and rows (``e3-e7``); ``NotationError`` for others."""
    points, rows = [], []
    for item in (lower(strip(i)) for i in items):
        if not item:
            continue
        if is_point(item):
            points.append(item)
        elif "-" in item and all(is_point(p) for p in item.split("-", 1)):
            parse_row_name(item)
            rows.append(item)
        else:
            raise NotationError(f"cannot highlight {quoted(item)}: expected a point like e4 or a row like e3-e7")
    return points, rows


def diagram_svg(game: Game, highlight: Iterable[str] = (), size: int | None = None, title: str | None = None) -> str:
    """The position of ``game`` (its last move marked) as a self-contained SVG document."""
    points, rows = parse_highlight(highlight)
    return board_svg(game, marked=points, rows=rows, standalone=True, size=size, title=title)
