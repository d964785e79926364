"""``yinsh bench``: the engine's speed under the running Python, as figures.

Prints random playouts per second (whole games of uniformly random moves and
removals), perft leaves per second (perft 3 of the official notation example) and
complete legal-move generations per second over fixed mid-game positions.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Callable

from .perft import perft
from .playout import random_playout, random_positions
from .state import State, initial_state, legal_moves

__all__ = ["run", "machine", "midgame_positions", "NOTATION_EXAMPLE"]

NOTATION_EXAMPLE = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"


def machine() -> str:
    """A one-line description of the Python and the machine."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
            f"{platform.machine()}, {os.cpu_count()} cores ({cpu})")


def midgame_positions(count: int = 30, seed: int = 2026) -> list[State]:
    """Fixed, reproducible mid-game positions: random games stopped after 20 to 50 moves."""
    return random_positions(count, seed, 20, 51)


def _rate(work: Callable[[], int], seconds: float) -> tuple[float, int, float]:
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, done, elapsed


def run(seconds: float = 3.0, print_: Callable[[str], None] = print, ai: bool = False) -> dict[str, float]:
    """Run the three measurements and print them; returns the figures.

    With ``ai``, also the computer opponent's think time per level (p50 and p95 over
    the mid-game positions; about a minute and a half).
    """
    from .game import Game

    print_(f"yinsh bench — {machine()}")
    rng = random.Random(1)
    plies = 0

    def playout() -> int:
        nonlocal plies
        plies += random_playout(initial_state(), rng)[1]
        return 1

    rate, games, _ = _rate(playout, seconds)
    print_(f"random playouts:        {rate:10,.0f} games/s   ({games} games, {plies / games:.1f} moves each)")

    example = Game.from_record(NOTATION_EXAMPLE).state
    start = time.perf_counter()
    leaves = perft(example, 3)
    perft_time = time.perf_counter() - start
    print_(f"perft 3 (notation ex.): {leaves / perft_time:10,.0f} leaves/s  ({leaves} leaves in {perft_time:.2f} s)")

    positions = midgame_positions()
    moves = 0

    def generate() -> int:
        nonlocal moves
        for s in positions:
            moves += len(legal_moves(s))
        return len(positions)

    gen_rate, generations, _ = _rate(generate, seconds)
    print_(f"legal-move generation:  {gen_rate:10,.0f} positions/s ({moves / generations:.0f} moves each, "
           f"{len(positions)} mid-game positions)")
    figures = {"playouts_per_s": rate, "perft3_s": perft_time, "perft_leaves_per_s": leaves / perft_time,
               "generations_per_s": gen_rate}
    if ai:
        from .ai.bench import run as think_times

        for level, times in think_times(positions=positions, print_=print_).items():
            figures[f"ai{level}_p50_s"] = times["p50"]
            figures[f"ai{level}_p95_s"] = times["p95"]
    return figures
