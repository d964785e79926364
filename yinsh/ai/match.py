"""Engine matches: colour-swapped pairs of games from seeded random ring placements.

``yinsh match --white ai-4 --black ai-3 --games 40`` plays 20 openings twice: the
ten placements of each opening are random (from the seed), then the first-named
player plays White in one game and Black in the other, so neither gains from a
lucky opening. Players: ``ai-1`` … ``ai-5``, ``baseline-D`` (the plain depth-D
negamax of :mod:`yinsh.ai.baseline`) and ``random``.
"""

from __future__ import annotations

import math
import os
import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from time import perf_counter
from typing import NamedTuple

from ..move import Move
from ..playout import random_move
from ..state import State, apply_move, initial_state, result, termination

__all__ = ["Player", "player", "opening", "GameResult", "play_game", "games_of", "workers", "run_match", "wilson",
           "summary"]

Player = Callable[[State, int], Move]
"""A player: (state, seed) -> move."""


def player(name: str, seconds: float | None = None) -> Player:
    """The player called ``name``: ``ai-1``…``ai-5``, ``baseline-D`` or ``random``.

    ``seconds`` overrides the AI levels' time budget per move.
    """
    from . import best_move
    from .baseline import baseline_move

    m = re.fullmatch(r"ai-([1-5])", name)
    if m:
        level = int(m[1])
        return lambda s, seed: best_move(s, level, seconds=seconds, seed=seed)
    m = re.fullmatch(r"baseline-([1-9])", name)
    if m:
        depth = int(m[1])
        return lambda s, seed: baseline_move(s, depth)
    if name == "random":
        return lambda s, seed: random_move(s, random.Random(seed))
    raise ValueError(f"unknown player {name!r}: expected ai-1 … ai-5, baseline-D (D = 1…9) or random")


def opening(seed: int, pair: int, variant_rings: int = 3) -> State:
    """The position after ten random ring placements for the ``pair``-th opening."""
    rng = random.Random(f"yinsh-match-{seed}-{pair}")
    s = initial_state(variant_rings)
    while s.in_placement:
        s = apply_move(s, random_move(s, rng))
    return s


class GameResult(NamedTuple):
    """One finished game of a match."""

    number: int
    white: str
    black: str
    result: str
    score: tuple[int, int]
    moves: int
    seconds: tuple[float, float]
    """Time used by White and by Black."""
    turns: tuple[int, int]
    """Moves made by White and by Black."""
    termination: str


def play_game(number: int, white: str, black: str, start: State, seed: int,
              seconds: float | None = None, max_moves: int = 1000) -> GameResult:
    """Play one game from ``start`` to its end."""
    players = (player(white, seconds), player(black, seconds))
    used = [0.0, 0.0]
    turns = [0, 0]
    s = start
    moves = 0
    while termination(s) is None and moves < max_moves:
        side = s.turn
        t0 = perf_counter()
        move = players[side](s, seed * 7919 + moves)
        used[side] += perf_counter() - t0
        turns[side] += 1
        s = apply_move(s, move)
        moves += 1
    return GameResult(number, white, black, result(s) or "*", (s.white_score, s.black_score), moves,
                      (used[0], used[1]), (turns[0], turns[1]), termination(s) or "unfinished")


def _play(args: tuple) -> GameResult:
    return play_game(*args)


def games_of(first: str, second: str, games: int, seed: int, seconds: float | None) -> Iterator[tuple]:
    """The argument tuples of ``play_game`` for a match of ``games`` (rounded up to even), made
    as they are needed: a match of any length starts at once."""
    for pair in range((games + 1) // 2):
        start = opening(seed, pair)
        yield (2 * pair + 1, first, second, start, seed + pair, seconds)
        yield (2 * pair + 2, second, first, start, seed + pair, seconds)


def workers(jobs: int, games: int) -> int:
    """The processes a match starts: no more than asked, than games to play, or than CPUs."""
    return max(1, min(jobs, games + games % 2, os.cpu_count() or 1))


def run_match(first: str, second: str, games: int = 40, seed: int = 1, seconds: float | None = None,
              jobs: int = 1, report: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play the match (in up to ``jobs`` processes: see :func:`workers`) and return its games in order."""
    player(first), player(second)  # fail early on a bad name
    specs = games_of(first, second, games, seed, seconds)
    results: list[GameResult] = []

    def done(game: GameResult) -> None:
        results.append(game)
        if report:
            report(game)

    processes = workers(jobs, games)
    if processes > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(processes) as pool:
            waiting: deque = deque()
            for spec in specs:  # two games a process queued at most: openings are drawn as games end
                waiting.append(pool.apply_async(_play, (spec,)))
                if len(waiting) >= 2 * processes:
                    done(waiting.popleft().get())
            while waiting:
                done(waiting.popleft().get())
    else:
        for spec in specs:
            done(_play(spec))
    return results


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score`` out of ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def game_line(game: GameResult) -> str:
    """One game's result line."""
    return (f"game {game.number:3d}: {game.white} (white) vs {game.black} (black): {game.result:7s} "
            f"rings {game.score[0]}-{game.score[1]}, {game.moves} moves, {game.termination}")


def summary(first: str, results: Iterable[GameResult]) -> str:
    """Wins, draws, losses and score of ``first``, with a 95 % Wilson interval and think times."""
    wins = draws = losses = 0
    times: dict[str, list[float]] = {}
    for g in results:
        me_white = g.white == first
        if g.result == "1/2-1/2" or g.result == "*":
            draws += 1
        elif (g.result == "1-0") == me_white:
            wins += 1
        else:
            losses += 1
        for name, used, turns in ((g.white, g.seconds[0], g.turns[0]), (g.black, g.seconds[1], g.turns[1])):
            t = times.setdefault(name, [0.0, 0])
            t[0] += used
            t[1] += turns
    n = wins + draws + losses
    score = (wins + draws / 2) / n if n else 0.0
    low, high = wilson(score, n)
    lines = [f"{first}: {wins} wins, {draws} draws, {losses} losses in {n} games: "
             f"score {100 * score:.1f} % (95 % interval {100 * low:.1f}–{100 * high:.1f} %)"]
    for name, (total, count) in times.items():
        lines.append(f"  {name}: {1000 * total / max(count, 1):.0f} ms per move on average")
    return "\n".join(lines)
