"""Fit the evaluation's weights to game results (Texel-style tuning), and say how well each set predicts.

    .venv/bin/python scripts/tune_weights.py [--games 300] [--depth 2] [--seed 99] [--jobs 2]

Plays ``--games`` self-play games from seeded random ring placements (the engine at a fixed
depth, a little evaluation noise and one move in twenty at random, so that the games differ),
keeps every position after placement with the game's result for its player to move, and
fits a logistic model of the result on the evaluation's terms, the value of a removed ring
held at ``RING``. It prints the fitted weights in evaluation units beside the current ones,
and the log loss of both (each with its best scale): the lower, the better the weights
predict who wins. A fit is a proposal: a change of weights is kept only when a match at a
fixed depth confirms it (``yinsh.ai.match``).

The terms are read from the evaluation itself (its value with one weight set to 1 and the
others to 0, less its value with all at 0), so there is no second copy of it here.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from yinsh.ai.evaluation import DEFAULT_WEIGHTS, RING, WIN, Weights, evaluate_node, node_of  # noqa: E402
from yinsh.ai.match import opening  # noqa: E402
from yinsh.ai.negamax import Searcher, search  # noqa: E402
from yinsh.state import apply_move, has_row, legal_moves, termination  # noqa: E402

TUNED = Weights._fields
"""The weights fitted: every one."""
_ZERO = Weights(**{name: 0 for name in TUNED})
_UNITS = tuple(_ZERO._replace(**{name: 1}) for name in TUNED)


def self_play(game: int, depth: int, seed: int) -> list[tuple[tuple, float]]:
    """One self-play game's positions (the search's tuples, no row pending) and the result
    for each one's player to move: 1 won, 0 lost, 0.5 drawn."""
    rng = random.Random(f"tune-{seed}-{game}")
    s = opening(seed, game)
    positions = []
    ply = 0
    while termination(s) is None and ply < 300:
        if not has_row(s.black_markers if s.turn else s.white_markers):
            positions.append(node_of(s))
        moves = legal_moves(s)
        move = moves[0]
        if len(moves) > 1:
            searcher = Searcher(s.rings_to_win, noise=30, seed=game * 1000 + ply)
            for _, _, found in search(s, max_depth=depth, searcher=searcher, moves=moves):
                move = found
            if rng.random() < 0.05:
                move = rng.choice(moves)
        s = apply_move(s, move)
        ply += 1
    white, black = s.white_score, s.black_score
    return [(node, 0.5 if white == black else float((white > black) != bool(node[4]))) for node in positions]


def terms(node: tuple, rings_to_win: int = 3) -> tuple[float, list[float]]:
    """The evaluation of ``node`` split into its fixed part (rings removed, a winning row to
    make) and one term per weight of ``TUNED``, each as if its weight were 1."""
    base = evaluate_node(node, rings_to_win, _ZERO)
    return base, [evaluate_node(node, rings_to_win, unit) - base for unit in _UNITS]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit_logistic(rows: list[list[float]], results: list[float], l2: float = 1e-6,
                 iterations: int = 25) -> tuple[list[float], float]:
    """Coefficients of ``P(win) = 1 / (1 + exp(-row · c))`` by Newton's method (no intercept:
    the evaluation is symmetric), and the mean log loss they give."""
    k = len(rows[0])
    coef = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for row, y in zip(rows, results):
            z = sum(c * x for c, x in zip(coef, row))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            w = p * (1.0 - p)
            for i in range(k):
                grad[i] += (p - y) * row[i]
                wi = w * row[i]
                hess_i = hess[i]
                for j in range(i + 1):
                    hess_i[j] += wi * row[j]
        n = len(rows)
        for i in range(k):
            grad[i] = grad[i] / n + l2 * coef[i]
            for j in range(i + 1):
                hess[i][j] = hess[j][i] = hess[i][j] / n + (l2 if i == j else 0.0)
        step = _solve(hess, grad)
        coef = [c - s for c, s in zip(coef, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return coef, log_loss(rows, results, coef)


def log_loss(rows: list[list[float]], results: list[float], coef: list[float]) -> float:
    """The mean log loss of ``coef`` over ``rows``."""
    total = 0.0
    for row, y in zip(rows, results):
        z = max(-30.0, min(30.0, sum(c * x for c, x in zip(coef, row))))
        p = 1.0 / (1.0 + math.exp(-z))
        total -= y * math.log(p) + (1.0 - y) * math.log(1.0 - p)
    return total / len(rows)


def tune(samples: list[tuple[tuple, float]], weights: Weights = DEFAULT_WEIGHTS) -> dict:
    """The fitted weights (evaluation units, a ring = ``RING``) and the log loss of the fit and
    of ``weights``, over positions not yet decided (no winning row to make)."""
    rows, current, results = [], [], []
    for node, result in samples:
        base, parts = terms(node)
        if abs(base) >= WIN // 4:
            continue
        rows.append([base / RING] + parts)
        current.append([(base + sum(getattr(weights, n) * t for n, t in zip(TUNED, parts))) / RING])
        results.append(result)
    coef, loss = fit_logistic(rows, results)
    _, current_loss = fit_logistic(current, results)
    fitted = {name: round(c / coef[0] * RING) for name, c in zip(TUNED, coef[1:])}
    return {"positions": len(rows), "fitted": fitted, "log loss fitted": loss, "log loss current": current_loss}


def _play(args: tuple[int, int, int]) -> list[tuple[tuple, float]]:
    return self_play(*args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    samples: list[tuple[tuple, float]] = []
    with Pool(max(1, args.jobs)) as pool:
        for positions in pool.imap(_play, [(g, args.depth, args.seed) for g in range(args.games)]):
            samples += positions
    out = tune(samples)
    print(f"{args.games} self-play games at depth {args.depth}, {out['positions']} positions")
    print(f"log loss: current weights {out['log loss current']:.4f}, fitted {out['log loss fitted']:.4f}")
    for name in TUNED:
        print(f"  {name:16} current {getattr(DEFAULT_WEIGHTS, name):7}   fitted {out['fitted'][name]:7}")


if __name__ == "__main__":
    main()
