"""Clicks a person makes on the board, shared by the end-to-end tests."""

from __future__ import annotations

from typing import Any

from yinsh.board import WINDOWS, point_name


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
