"""Random playouts: whole games of uniformly random actions and removals.

Used by ``yinsh bench`` to measure the engine, by property tests to reach many
positions, and available to a Monte Carlo search. The playout works on the raw
bitboards: :func:`yinsh.state.slide_targets` gives, direction by direction, the
points the mover's rings reach, which counts the ring moves without listing them;
only the chosen one is traced back to its ring.
"""

from __future__ import annotations

import random

from .board import ALL_POINTS, BIT, DIRECTIONS, POINTS, WINDOW_MASKS, points_of
from .move import Move, Removal
from .state import (
    MARKERS,
    State,
    after_placement,
    after_removal,
    after_ring_move,
    apply_move,
    end_turn,
    flips,
    has_row,
    initial_state,
    rows,
    slide_targets,
    termination,
)

__all__ = ["random_move", "random_playout", "random_positions", "midgame_positions"]


def _random_ring_move(s: State, rng: random.Random) -> tuple[int, int] | None:
    rings = s.white_rings | s.black_rings
    markers = s.white_markers | s.black_markers
    by_direction = slide_targets(s.black_rings if s.turn else s.white_rings, ALL_POINTS & ~(rings | markers), markers)
    total = sum(d.bit_count() for d in by_direction)
    if not total:
        return None
    k = rng.randrange(total)
    for step, dests in zip(DIRECTIONS, by_direction):
        n = dests.bit_count()
        if k < n:
            for _ in range(k):  # drop the k lowest destinations
                dests &= dests - 1
            dst = (dests & -dests).bit_length() - 1
            src = dst - step
            while not rings & BIT[src]:  # back to the first ring: the one that moved
                src -= step
            return src, dst
        k -= n
    raise AssertionError("unreachable")


def _random_removals(s: State, color: int, rng: random.Random) -> tuple[tuple[Removal, ...], State]:
    removals: list[Removal] = []
    found = rows(s.black_markers if color else s.white_markers)
    while found:
        removal = Removal(rng.choice(found), rng.choice(points_of(s.black_rings if color else s.white_rings)))
        removals.append(removal)
        s = after_removal(s, color, *removal)
        if (s.black_score if color else s.white_score) >= s.rings_to_win:
            break
        found = rows(s.black_markers if color else s.white_markers)
    return tuple(removals), s


def random_move(s: State, rng: random.Random) -> Move:
    """A random legal move: a uniformly random action, then uniformly random rows and rings.

    The game must not be over.
    """
    return _random_turn(s, rng)[0]


def random_positions(count: int, seed: int, min_plies: int = 0, max_plies: int = 80) -> list[State]:
    """``count`` reproducible positions that are not over: random games from the start,
    each stopped after a random number of plies in ``range(min_plies, max_plies)``."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        s = initial_state()
        for _ in range(rng.randrange(min_plies, max_plies)):
            if termination(s) is not None:
                break
            s = apply_move(s, random_move(s, rng))
        if termination(s) is None:
            out.append(s)
    return out


def midgame_positions(count: int = 30, seed: int = 2026) -> list[State]:
    """Fixed, reproducible mid-game positions: random games stopped after 20 to 50 moves
    (``yinsh bench``'s and the AI's benchmark's)."""
    return random_positions(count, seed, 20, 51)


def _random_turn(s: State, rng: random.Random) -> tuple[Move, State]:
    if s.in_placement:
        occupied = s.white_rings | s.black_rings
        point = rng.choice(POINTS)
        while occupied & BIT[point]:  # rejection sampling stays uniform over the empty points
            point = rng.choice(POINTS)
        return Move("place", None, point), after_placement(s, point)
    color = s.turn
    before, s = _random_removals(s, color, rng)
    if (s.black_score if color else s.white_score) >= s.rings_to_win:
        return Move("remove", None, None, before), end_turn(s, False)
    action = _random_ring_move(s, rng)
    if action is None:
        return Move("pass", None, None, before), end_turn(s, True)
    after, s = _random_removals(after_ring_move(s, *action), color, rng)
    return Move("move", *action, before, after), end_turn(s, False)


def random_playout(s: State, rng: random.Random) -> tuple[State, int]:
    """Play random moves until the game ends; returns the final state and the moves played.

    The same game as repeated ``random_move`` with the same generator, computed on
    plain integers without building moves or intermediate states (the benchmark's
    and a Monte Carlo search's hot loop).
    """
    wm, bm, wr, br, turn, placed, ws, bs, passes, target = s
    choice = rng.choice
    plies = 0
    while ws < target and bs < target and passes < 2:
        plies += 1
        if placed < 10:
            occupied = wr | br
            point = choice(POINTS)
            while occupied & BIT[point]:
                point = choice(POINTS)
            if turn:
                br |= BIT[point]
            else:
                wr |= BIT[point]
            placed += 1
            turn ^= 1
            continue
        if turn:
            if (wm | bm).bit_count() == MARKERS and not has_row(bm):
                plies -= 1
                break
            bm, br, bs = _remove_rows(bm, br, bs, target, rng)
            if bs >= target:
                turn ^= 1
                break
        else:
            if (wm | bm).bit_count() == MARKERS and not has_row(wm):
                plies -= 1
                break
            wm, wr, ws = _remove_rows(wm, wr, ws, target, rng)
            if ws >= target:
                turn ^= 1
                break
        rings = wr | br
        by_direction = slide_targets(br if turn else wr, ALL_POINTS & ~(rings | wm | bm), wm | bm)
        counts = list(map(int.bit_count, by_direction))
        total = sum(counts)
        if not total:
            passes += 1
            turn ^= 1
            continue
        passes = 0
        k = rng.randrange(total)
        for step, dests, n in zip(DIRECTIONS, by_direction, counts):  # noqa: B007 (used after the loop)
            if k < n:
                break
            k -= n
        for _ in range(k):
            dests &= dests - 1
        dst = (dests & -dests).bit_length() - 1
        src = dst - step
        while not rings & BIT[src]:
            src -= step
        flipped = flips(src << 8 | dst, wm | bm)
        wm ^= flipped
        bm ^= flipped
        if turn:
            bm |= BIT[src]
            br ^= BIT[src] | BIT[dst]
            bm, br, bs = _remove_rows(bm, br, bs, target, rng)
        else:
            wm |= BIT[src]
            wr ^= BIT[src] | BIT[dst]
            wm, wr, ws = _remove_rows(wm, wr, ws, target, rng)
        turn ^= 1
    return State(wm, bm, wr, br, turn, placed, ws, bs, passes, target), plies


def _remove_rows(markers: int, rings: int, score: int, target: int, rng: random.Random) -> tuple[int, int, int]:
    """Random rows and rings removed one at a time, as ``_random_removals`` does."""
    if not has_row(markers):
        return markers, rings, score
    found = rows(markers)
    while found:
        markers &= ~WINDOW_MASKS[rng.choice(found)]
        rings ^= BIT[rng.choice(points_of(rings))]
        score += 1
        if score >= target:
            break
        found = rows(markers)
    return markers, rings, score
