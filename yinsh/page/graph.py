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

WIDTH = 340
HEIGHT = 128
_LEFT = 46
"""Room on the left for the sides' names, a little clear of the plot (the widest, a bold
"White", takes 40)."""
_RIGHT = 6
_TOP = 6
_BOTTOM = 24
"""Room under the plot for the move numbers."""
_PAD = 5
"""The plot's inner margin, so that a point on its edge shows whole."""


def squash(value: float) -> float:
    """A value in rings mapped into (-1, 1), monotonic, 0 kept at 0.

    >>> squash(0.0), round(squash(1.0), 2), squash(100.0) > 0.99, squash(-3) == -squash(3)
    (0.0, 0.46, True, True)
    """
    return math.tanh(value / 2)


def _x(index: int, count: int) -> float:
    left, right = _LEFT + _PAD, WIDTH - _RIGHT - _PAD
    if count <= 1:
        return (left + right) / 2
    return left + index * (right - left) / (count - 1)


_ZERO = _TOP + (HEIGHT - _TOP - _BOTTOM) / 2
"""The height of the even line: White above it, Black below."""


def _y(value: float) -> float:
    return _ZERO - squash(value) * (_ZERO - _TOP - _PAD)


def _ticks(count: int) -> list[int]:
    """The moves numbered under the graph (indices from 0): the first, the last, and a few
    evenly spaced between, at most seven in all.

    >>> _ticks(1), _ticks(5), _ticks(60)
    ([0], [0, 1, 2, 3, 4], [0, 10, 20, 30, 40, 50, 59])
    """
    if count <= 7:
        return list(range(count))
    step = 10 if count <= 70 else 20 if count <= 140 else 50
    return [i for i in range(0, count - step // 2, step)] + [count - 1]


def _describe(value: float) -> str:
    if abs(value) >= 50:
        return "White wins" if value > 0 else "Black wins"
    if abs(value) < 0.05:
        return "even"
    return f"{'White' if value > 0 else 'Black'} +{abs(value):.1f}"


def eval_graph_svg(values: Sequence[float], current: int | None = None, first_number: int = 1) -> str:
    """The graph of ``values`` (one per move, White's point of view, in rings): White's side
    above the even line and Black's below, each named at the left, the record's move numbers
    under it.

    ``current`` is the move shown now (1 for the first value), marked by a vertical line
    and a larger point; ``first_number`` is the record's number of the first move (a game
    opened from a position starts later), used in the points' titles and under the graph.
    Points carry ``data-ply`` from 1, whatever ``first_number``.
    """
    count = len(values)
    left, right, bottom = _LEFT, WIDTH - _RIGHT, HEIGHT - _BOTTOM
    parts = [f'<svg class="eval-graph" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="Evaluation over {count} move{"s" * (count != 1)}, '
             'White above the line, Black below">',
             f'<rect class="eg-white" x="{left}" y="{_TOP}" width="{right - left}" height="{_ZERO - _TOP:g}"/>',
             f'<rect class="eg-black" x="{left}" y="{_ZERO:g}" width="{right - left}" height="{bottom - _ZERO:g}"/>',
             f'<rect class="eg-frame" x="{left}" y="{_TOP}" width="{right - left}" height="{bottom - _TOP}"/>',
             f'<line class="eg-zero" x1="{left}" y1="{_ZERO:g}" x2="{right}" y2="{_ZERO:g}"/>',
             f'<text class="eg-label" x="{left - 4}" y="{_TOP + 12}" text-anchor="end">White</text>',
             f'<text class="eg-label" x="{left - 4}" y="{bottom - 4}" text-anchor="end">Black</text>',
             f'<text class="eg-even" x="{left - 4}" y="{_ZERO + 3.5:g}" text-anchor="end">even</text>']
    points = [(round(_x(i, count), 2), round(_y(v), 2)) for i, v in enumerate(values)]
    for i in _ticks(count):
        x = points[i][0]
        parts.append(f'<line class="eg-tick-line" x1="{x:g}" y1="{bottom}" x2="{x:g}" y2="{bottom + 4}"/>'
                     f'<text class="eg-tick" x="{x:g}" y="{bottom + 15}">{first_number + i}</text>')
    if points:
        line = " ".join(f"{x:g},{y:g}" for x, y in points)
        first_x, last_x = points[0][0], points[-1][0]
        parts.append(f'<polygon class="eg-area" points="{first_x:g},{_ZERO:g} {line} {last_x:g},{_ZERO:g}"/>')
        parts.append(f'<polyline class="eg-line" points="{line}"/>')
    if current is not None and 1 <= current <= count:
        x = points[current - 1][0]
        parts.append(f'<line class="eg-current" x1="{x:g}" y1="{_TOP}" x2="{x:g}" y2="{bottom}"/>')
    # wide invisible columns make every move easy to hit, however many there are
    column = (right - left - 2 * _PAD) / max(count - 1, 1)
    for i, ((x, y), value) in enumerate(zip(points, values)):
        ply = i + 1
        title = f"{first_number + i}. {_describe(value)}"
        parts.append(f'<g data-ply="{ply}"><title>{title}</title>'
                     f'<rect class="eg-hit" x="{x - column / 2:.2f}" y="{_TOP}" width="{column:.2f}" '
                     f'height="{bottom - _TOP}"/>'
                     f'<circle class="eg-point{" current" if ply == current else ""}" cx="{x:g}" cy="{y:g}" '
                     f'r="{"3.4" if ply == current else "2"}"/></g>')
    parts.append("</svg>")
    return "".join(parts)
