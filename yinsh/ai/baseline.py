"""``baseline-D``: a classical depth-D negamax to measure the real AI against.

Written from a one-paragraph description of a simple heuristic (in the spirit of
sharkdp's ``SimpleHeuristic``), deliberately plain: alpha-beta over every complete
legal move (all removal windows and rings) with no ordering, no table, no
deepening, and the evaluation, for the player to move, own minus opponent's of

    rings removed × 10000 + markers on the board × 100
    + own markers your rings can flip × 5 + opponent markers your rings can flip × 10
    + empty points your rings can reach × 1.

Finished games score ±10⁹ (0 for a draw). Ties keep the first move in
``legal_moves`` order, so the baseline is deterministic.
"""

from __future__ import annotations

from ..board import ALL_POINTS
from ..move import Move
from ..state import State, apply_move, legal_moves, result, slide_targets, termination
from .features import reach_both

__all__ = ["baseline_move", "baseline_value", "heuristic", "reached"]

_WIN = 10**9


def heuristic(s: State) -> int:
    """The baseline's static value of ``s`` for the player to move."""
    wm, bm, wr, br, turn, _, ws, bs = s[:8]
    pm, om, pr, orr, ps, os = (bm, wm, br, wr, bs, ws) if turn else (wm, bm, wr, br, ws, bs)
    markers = pm | om
    empty = ALL_POINTS & ~(markers | pr | orr)
    _, flip_p, _, flip_o = reach_both(pr, orr, markers, empty)
    return (10000 * (ps - os) + 100 * (pm.bit_count() - om.bit_count())
            + 5 * ((flip_p & pm).bit_count() - (flip_o & om).bit_count())
            + 10 * ((flip_p & om).bit_count() - (flip_o & pm).bit_count())
            + (reached(pr, empty, markers).bit_count() - reached(orr, empty, markers).bit_count()))


def reached(rings: int, empty: int, markers: int) -> int:
    """The points some ring of ``rings`` can move to."""
    out = 0
    for targets in slide_targets(rings, empty, markers):
        out |= targets
    return out


def _final(s: State) -> int:
    outcome = result(s)
    if outcome == "1/2-1/2":
        return 0
    white_won = outcome == "1-0"
    return _WIN if white_won == (s.turn == 0) else -_WIN


def baseline_value(s: State, depth: int, alpha: int = -2 * _WIN, beta: int = 2 * _WIN) -> int:
    """Negamax with alpha-beta: the value of ``s`` for the player to move."""
    if termination(s) is not None:
        return _final(s)
    if depth <= 0:
        return heuristic(s)
    best = -2 * _WIN
    for move in legal_moves(s):
        value = -baseline_value(apply_move(s, move), depth - 1, -beta, -alpha)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def baseline_move(s: State, depth: int = 2) -> Move:
    """The baseline's move: the first best move of a depth-``depth`` negamax."""
    moves = legal_moves(s)
    if s.in_placement:
        depth = 1  # placements are not what the baseline measures
    best_move, best = moves[0], -3 * _WIN
    alpha = -2 * _WIN
    for move in moves:
        value = -baseline_value(apply_move(s, move), depth - 1, -2 * _WIN, -alpha)
        if value > best:
            best_move, best = move, value
            alpha = max(alpha, value)
    return best_move
