"""Clicks a person makes on the board, shared by the end-to-end tests."""

from __future__ import annotations

from typing import Any

from yinsh.board import WINDOWS, point_name


def click_point(page: Any, name: str) -> None:
    """Click the point ``name`` (e.g. ``'e4'``)."""
    page.click(f'#board [data-point="{name}"]')


def row_spot(page: Any, row: str) -> tuple[float, float] | None:
    """Where to click the candidate row ``row``: a point of its window no other row covers."""
    first, last = row.split("-")
    window = next(w for w in WINDOWS if point_name(w[0]) == first and point_name(w[-1]) == last)
    return page.evaluate(
        """([row, names]) => {
            for (const name of names) {
                const r = document.querySelector(`#board [data-point="${name}"]`).getBoundingClientRect();
                const x = r.x + r.width / 2, y = r.y + r.height / 2;
                const hit = document.elementFromPoint(x, y);
                if (hit && hit.closest('[data-row]') && hit.closest('[data-row]').dataset.row === row) return [x, y];
            }
            return null;
        }""",
        [row, [point_name(p) for p in window]],
    )
