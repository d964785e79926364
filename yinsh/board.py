"""The geometry of the YINSH board: points, lines, rays and five-windows.

Points are small integers so that a set of points is a Python ``int`` used as a
bitboard. A point in column ``c`` (``a`` = 0 … ``k`` = 10) and row ``r`` (1 … 11)
has index ``c * 12 + r``; row 0 and row 12 never hold a point, which pads every
column so that shifting a bitboard by a line's step never wraps onto the next
column. Sorting indices therefore sorts by column letter, then row number, the
order the official notation uses for the ends of a row.

>>> len(POINTS)
85
>>> len(WINDOWS)
123
>>> point_name(parse_point("e5"))
'e5'
>>> sum(len(ray) for p in POINTS for ray in RAYS[p])  # ordered collinear pairs
1848
>>> [sum(len(ray) for ray in RAYS[parse_point(n)]) for n in ("e5", "f6", "a2")]
[26, 24, 18]
"""

from __future__ import annotations

from typing import Final

from .compat import bit_length
from .scan import lower, strip

__all__ = [
    "COLUMNS",
    "WIDTH",
    "POINTS",
    "POINT_NAMES",
    "BIT",
    "ALL_POINTS",
    "STEPS",
    "DIRECTIONS",
    "RAYS",
    "BETWEEN",
    "WINDOWS",
    "WINDOW_MASKS",
    "WINDOW_INDEX",
    "point_name",
    "parse_point",
    "is_point",
    "line_step",
    "points_of",
]

Point = int
"""A point of the board, as its index (see the module docstring)."""

COLUMNS: Final = "abcdefghijk"
_COLUMN_ROWS: Final = {  # column -> (lowest row, highest row)
    "a": (2, 5), "b": (1, 7), "c": (1, 8), "d": (1, 9), "e": (1, 10), "f": (2, 10),
    "g": (2, 11), "h": (3, 11), "i": (4, 11), "j": (5, 11), "k": (7, 10),
}
WIDTH: Final = 12
"""Points per column in the index (``c * WIDTH + r``): rows 0 and 12 hold no point, the padding
that keeps every step along a line one fixed number."""
SIZE: Final = len(COLUMNS) * WIDTH
"""One more than the largest point index: the length of tables indexed by point."""

POINTS: Final[tuple[Point, ...]] = tuple(
    c * WIDTH + r
    for c, col in enumerate(COLUMNS)
    for r in range(_COLUMN_ROWS[col][0], _COLUMN_ROWS[col][1] + 1)
)
"""The 85 points in notation order (a2, a3, …, k10)."""

POINT_NAMES: Final[dict[Point, str]] = {p: f"{COLUMNS[p // WIDTH]}{p % WIDTH}" for p in POINTS}
"""The name of each point (for look-ups: iterate over ``POINTS`` for the notation order)."""
_NAME_TO_POINT: Final = {name: p for p, name in POINT_NAMES.items()}
BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(SIZE))
ALL_POINTS: Final = sum(BIT[p] for p in POINTS)
"""The bitboard of every point."""

STEPS: Final = (1, WIDTH, WIDTH + 1)
"""Index steps of the three line directions (0,1), (1,0) and (1,1); never (1,-1)."""
DIRECTIONS: Final = (1, WIDTH, WIDTH + 1, -1, -WIDTH, -WIDTH - 1)
"""Index steps of the six directions a ring can slide in."""


def point_name(point: Point) -> str:
    """The notation name of ``point``, e.g. ``'e4'``."""
    return POINT_NAMES[point]


def parse_point(text: str) -> Point:
    """The point named ``text`` (case-insensitive); ``KeyError`` if there is none.

    >>> parse_point("A2") == parse_point("a2")
    True
    """
    return _NAME_TO_POINT[lower(strip(text))]


def is_point(text: str) -> bool:
    """Whether ``text`` names a point of the board."""
    return lower(strip(text)) in _NAME_TO_POINT


def _rays(point: Point) -> tuple[tuple[Point, ...], ...]:
    out = []
    for step in DIRECTIONS:
        ray = []
        q = point + step
        while 0 <= q < SIZE and q in POINT_NAMES:
            ray.append(q)
            q += step
        if ray:
            out.append(tuple(ray))
    return tuple(out)


RAYS: Final[dict[Point, tuple[tuple[Point, ...], ...]]] = {p: _rays(p) for p in POINTS}
"""For each point, the non-empty rays of points outward along the six directions."""


def line_step(a: Point, b: Point) -> int | None:
    """The direction step leading from ``a`` to ``b``, or ``None`` if they share no line.

    >>> line_step(parse_point("h4"), parse_point("d8")) is None  # (1,-1) is not a line
    True
    >>> line_step(parse_point("a2"), parse_point("e6"))
    13
    """
    columns, rows = b // WIDTH - a // WIDTH, b % WIDTH - a % WIDTH
    if columns == 0 and rows:
        step = 1
    elif rows == 0 and columns:
        step = WIDTH
    elif columns == rows and columns:
        step = WIDTH + 1
    else:
        return None
    # The board is convex: every point between two of its points on a line is on it.
    return step if b > a else -step


def _between() -> list[int]:
    # Built in a function: its locals are much faster than module globals in MicroPython,
    # where the page imports this module on every visit.
    table = [0] * (SIZE << 8)
    for p in POINTS:
        for ray in RAYS[p]:
            mask = 0
            for q in ray:
                table[p << 8 | q] = mask
                mask |= BIT[q]
    return table


BETWEEN: Final[list[int]] = _between()
"""For two distinct points ``a`` and ``b`` on a line, ``BETWEEN[a << 8 | b]`` is the bitboard
of the points strictly between them (0 for neighbours and for points on no common line).

A list indexed by one small int, not a dict keyed by pairs: MicroPython hashes a tuple as
the sum of its items, so pair keys collide there (docs/PORTABILITY.md).
"""

def _windows() -> tuple[tuple[Point, ...], ...]:
    names = POINT_NAMES
    out = []
    for step in STEPS:
        for start in POINTS:
            end = start + 4 * step
            # Both ends on the board and on one line (not wrapped into the next column): the
            # board is convex, so the whole window is on it.
            if end in names and line_step(start, end) == step:
                out.append(tuple(range(start, end + 1, step)))
    return tuple(out)


WINDOWS: Final[tuple[tuple[Point, ...], ...]] = _windows()
"""Every five-window (five consecutive points on a line), each in notation order."""
WINDOW_MASKS: Final[tuple[int, ...]] = tuple(sum(BIT[p] for p in w) for w in WINDOWS)
WINDOW_INDEX: Final[dict[int, int]] = {w[0] << 8 | (w[1] - w[0]): i for i, w in enumerate(WINDOWS)}
"""Maps ``first << 8 | step`` (the window's first point and its line's step) to its index
in ``WINDOWS``."""


def points_of(bitboard: int) -> list[Point]:
    """The points of a bitboard in ascending (notation) order."""
    out = []
    while bitboard:
        low = bitboard & -bitboard
        out.append(bit_length(low) - 1)
        bitboard ^= low
    return out
