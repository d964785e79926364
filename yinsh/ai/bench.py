"""Think time per level over fixed mid-game positions (``yinsh bench --ai``).

Every level searches until its deadline, so the figures show the budget plus the
overshoot (the work between two deadline checks, the root's move list) — the
number the browser's targets are about — and the depth each level reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from time import perf_counter

from ..playout import midgame_positions
from ..state import State

__all__ = ["think_times", "percentile", "run"]


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0…1) of ``values`` by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 1))
    return ordered[int(rank) - 1]


def think_times(level: int, positions: Iterable[State], seconds: float | None = None) -> dict[str, float]:
    """p50 and p95 think time (seconds) and mean depth of ``level`` over ``positions``."""
    from . import think

    times = []
    depths = []
    for s in positions:
        start = perf_counter()
        _, info = think(s, level, seconds=seconds)
        times.append(perf_counter() - start)
        depths.append(info["depth"])
    return {"p50": percentile(times, 0.5), "p95": percentile(times, 0.95), "max": max(times),
            "depth": sum(depths) / len(depths)}


def run(levels: Iterable[int] = (1, 2, 3, 4, 5), positions: list[State] | None = None,
        print_: Callable[[str], None] = print) -> dict[int, dict[str, float]]:
    """Measure and print the think time of each level; returns the figures."""
    positions = midgame_positions() if positions is None else positions
    out = {}
    for level in levels:
        figures = think_times(level, positions)
        out[level] = figures
        print_(f"AI level {level} think time:  p50 {1000 * figures['p50']:7.1f} ms"
               f"   p95 {1000 * figures['p95']:7.1f} ms   max {1000 * figures['max']:7.1f} ms"
               f"   mean depth {figures['depth']:.1f}"
               f"   ({len(positions)} mid-game positions)")
    return out
