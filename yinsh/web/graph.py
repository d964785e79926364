"""The evaluation graph of the review area: an SVG line over a game's moves (browser-free).

One value per move played (the position after it, from White's point of view, in rings: a
ring removed is 1.0, a finished game ±100), as the AI worker computes them
(:func:`yinsh.web.worker.evaluate`). Values are squashed into (-1, 1) by ``tanh(v / 2)``:
a one-ring lead stands out, a won game sits at the edge, and nothing leaves the frame.
Each point carries ``data-ply`` (the move number within the game, from 1), so a click on
it can show that move.

>>> svg = eval_graph_svg([0.0, 0.5, -1.0], current=2)
>>> svg.count('class="eg-point'), 'data-ply="2"' in svg, 'eg-point current' in svg
(3, True, True)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["squash", "eval_graph_svg", "WIDTH", "HEIGHT"]

WIDTH = 320
HEIGHT = 72
_PAD = 6


def squash(value: float) -> float:
    """A value in rings mapped into (-1, 1), monotonic, 0 kept at 0.

    >>> squash(0.0), round(squash(1.0), 2), squash(100.0) > 0.99, squash(-3) == -squash(3)
    (0.0, 0.46, True, True)
    """
    return math.tanh(value / 2)


def _x(index: int, count: int) -> float:
    if count <= 1:
        return WIDTH / 2
    return _PAD + index * (WIDTH - 2 * _PAD) / (count - 1)


def _y(value: float) -> float:
    return HEIGHT / 2 - squash(value) * (HEIGHT / 2 - _PAD)


def _describe(value: float) -> str:
    if abs(value) >= 50:
        return "White wins" if value > 0 else "Black wins"
    if abs(value) < 0.05:
        return "even"
    return f"{'White' if value > 0 else 'Black'} +{abs(value):.1f}"


def eval_graph_svg(values: Sequence[float], current: int | None = None, first_number: int = 1) -> str:
    """The graph of ``values`` (one per move, White's point of view, in rings).

    ``current`` is the move shown now (1 for the first value), marked by a vertical line
    and a larger point; ``first_number`` is the record's number of the first move (a game
    opened from a position starts later), used in the points' titles. Points carry
    ``data-ply`` from 1, whatever ``first_number``.
    """
    count = len(values)
    zero = HEIGHT / 2
    parts = [f'<svg class="eval-graph" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="Evaluation over {count} move{"s" * (count != 1)}, '
             'White above the line, Black below">',
             f'<rect class="eg-white" x="0" y="0" width="{WIDTH}" height="{zero:g}"/>',
             f'<rect class="eg-black" x="0" y="{zero:g}" width="{WIDTH}" height="{zero:g}"/>',
             f'<line class="eg-zero" x1="0" y1="{zero:g}" x2="{WIDTH}" y2="{zero:g}"/>']
    points = [(round(_x(i, count), 2), round(_y(v), 2)) for i, v in enumerate(values)]
    if points:
        line = " ".join(f"{x:g},{y:g}" for x, y in points)
        first_x, last_x = points[0][0], points[-1][0]
        parts.append(f'<polygon class="eg-area" points="{first_x:g},{zero:g} {line} {last_x:g},{zero:g}"/>')
        parts.append(f'<polyline class="eg-line" points="{line}"/>')
    if current is not None and 1 <= current <= count:
        x = points[current - 1][0]
        parts.append(f'<line class="eg-current" x1="{x:g}" y1="0" x2="{x:g}" y2="{HEIGHT}"/>')
    # wide invisible columns make every move easy to hit, however many there are
    column = (WIDTH - 2 * _PAD) / max(count - 1, 1)
    for i, ((x, y), value) in enumerate(zip(points, values)):
        ply = i + 1
        title = f"{first_number + i}. {_describe(value)}"
        parts.append(f'<g data-ply="{ply}"><title>{title}</title>'
                     f'<rect class="eg-hit" x="{x - column / 2:.2f}" y="0" width="{column:.2f}" height="{HEIGHT}"/>'
                     f'<circle class="eg-point{" current" if ply == current else ""}" cx="{x:g}" cy="{y:g}" '
                     f'r="{"3.2" if ply == current else "1.8"}"/></g>')
    parts.append("</svg>")
    return "".join(parts)
