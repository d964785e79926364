"""The weight tuner (scripts/tune_weights.py): its terms are the evaluation's, its fit finds
known coefficients, its self-play labels each position by the result for its player to move."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from yinsh.ai.evaluation import DEFAULT_WEIGHTS, Weights, evaluate_node, node_of
from yinsh.playout import random_positions
from yinsh.state import has_row

_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "tune_weights.py"
_spec = importlib.util.spec_from_file_location("tune_weights", _SCRIPT)
tune_weights = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tune_weights)


def _positions(count: int, seed: int) -> list[tuple]:
    nodes = [node_of(s) for s in random_positions(count, seed, 12, 70)]
    return [n for n in nodes if not has_row(n[1] if n[4] else n[0])]


@pytest.mark.parametrize("weights", [
    DEFAULT_WEIGHTS,
    Weights(marker=37, mobility=-9, flip=211, open_four=5, threat_to_move=1234, threat_waiting=77,
            threats_waiting=4321),
])
def test_the_evaluation_is_its_fixed_part_plus_the_weighted_terms(weights: Weights) -> None:
    # The tuner fits a linear model of the terms: a term that is not linear in its weight
    # would make its fit meaningless, and this fails.
    for node in _positions(60, 5):
        base, parts = tune_weights.terms(node)
        expected = evaluate_node(node, 3, weights)
        assert base + sum(getattr(weights, n) * t for n, t in zip(tune_weights.TUNED, parts)) == expected


def test_the_fit_finds_the_coefficients_that_made_the_results() -> None:
    rng = random.Random(3)
    truth = (1.5, -0.4)
    rows, results = [], []
    for _ in range(4000):
        row = [rng.uniform(-2, 2), rng.uniform(-5, 5)]
        p = 1 / (1 + math.exp(-sum(c * x for c, x in zip(truth, row))))
        rows.append(row)
        results.append(1.0 if rng.random() < p else 0.0)
    coef, loss = tune_weights.fit_logistic(rows, results)
    assert coef == pytest.approx(truth, abs=0.15)
    assert loss < tune_weights.log_loss(rows, results, [0.0, 0.0])  # better than a coin
    assert loss <= tune_weights.log_loss(rows, results, list(truth)) + 1e-9  # the best fit of these data


def test_self_play_labels_each_position_for_its_player_to_move() -> None:
    samples = tune_weights.self_play(0, depth=1, seed=4)
    assert len(samples) > 20
    assert {result for _, result in samples} <= {0.0, 0.5, 1.0}
    # The two players' results are complementary: a position and the next one differ in who moves.
    by_turn = {node[4]: result for node, result in samples}
    assert by_turn[0] + by_turn[1] == 1.0
    out = tune_weights.tune(samples)
    assert set(out["fitted"]) == set(tune_weights.TUNED)
