"""Clicks and touches a person makes on the board, shared by the end-to-end tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from yinsh.board import WINDOWS, point_name

FRAME_S = 0.016
"""A display frame, in seconds: how often a finger's moves are sent."""


def click_point(page: Any, name: str) -> None:
    """Click the point ``name`` (e.g. ``'e4'``)."""
    page.click(f'#board [data-point="{name}"]')


def row_spot(page: Any, row: str) -> tuple[float, float] | None:
    """Where a person clicks to choose the candidate row ``row``: its middle marker, a little
    along the row (so that a row crossing it there is farther) — the page takes the row whose
    middle is nearest the pointer. ``None`` when the row is not offered."""
    first, last = row.split("-")
    window = next(w for w in WINDOWS if point_name(w[0]) == first and point_name(w[-1]) == last)
    return page.evaluate(
        """([row, middle, next]) => {
            if (!document.querySelector(`#board [data-row="${row}"]`)) return null;
            const centre = name => {
                const r = document.querySelector(`#board [data-point="${name}"]`).getBoundingClientRect();
                return [r.x + r.width / 2, r.y + r.height / 2];
            };
            const [x, y] = centre(middle), [nx, ny] = centre(next);
            return [x + (nx - x) * 0.3, y + (ny - y) * 0.3];
        }""",
        [row, point_name(window[2]), point_name(window[3])],
    )


def touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float],
               while_held: Callable[[], None] | None = None) -> None:
    """Drag a finger from ``start`` to ``end`` (page pixels), through the DevTools protocol as a
    phone sends its touches: ten moves a frame apart, a rest on ``end`` (where ``while_held`` runs),
    then the lift. The event times are the finger's, not the sender's: sent back to back, the moves
    would be a flick, and Chromium would take the next tap as stopping its fling, with no click."""
    (x0, y0), (x1, y1) = start, end
    t0 = time.time()
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, at: float, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t0 + at})

    try:
        touch("touchStart", 0, x0, y0)
        for i in range(1, 11):
            touch("touchMove", i * FRAME_S, x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
        for i in range(1, 6):  # the finger comes to rest on the drop point
            touch("touchMove", (10 + 2 * i) * FRAME_S, x1, y1)
        if while_held is not None:
            while_held()
        touch("touchEnd", max(22 * FRAME_S, time.time() - t0))
    finally:
        cdp.detach()
